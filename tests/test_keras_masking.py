"""Keras masks: Embedding(mask_zero) and Masking make them; RNNs skip masked
steps (state carried over), GlobalAveragePooling1D averages unmasked steps;
Sequential, functional and compiled fit carry them along."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.keras.layers.keras_mask import get_keras_mask

layers = tf.keras.layers
rng = np.random.default_rng(0)


def test_embedding_mask_zero_and_masking_make_masks():
    ids = np.array([[1, 2, 0], [0, 3, 0]])
    x = layers.Embedding(5, 2, mask_zero=True)(ids)
    np.testing.assert_array_equal(get_keras_mask(x).numpy(), ids != 0)
    assert get_keras_mask(layers.Embedding(5, 2)(ids)) is None
    e = layers.Embedding(5, 2, mask_zero=True)
    np.testing.assert_array_equal(e.compute_mask(ids).numpy(), ids != 0)
    seq = rng.random((2, 4, 3)).astype("float32")
    seq[0, 2:] = -1.0
    seq[1, 0] = -1.0
    out = layers.Masking(mask_value=-1.0)(seq)
    want = np.array([[1, 1, 0, 0], [0, 1, 1, 1]], bool)
    np.testing.assert_array_equal(get_keras_mask(out).numpy(), want)
    np.testing.assert_allclose(out.numpy(), seq * want[:, :, None])


def test_mask_passes_through_dense_and_dropout_and_stops_at_flatten():
    x = layers.Embedding(5, 2, mask_zero=True)(np.array([[1, 0]]))
    y = layers.Dropout(0.5)(layers.Dense(3)(x))
    np.testing.assert_array_equal(get_keras_mask(y).numpy(), [[True, False]])
    assert get_keras_mask(layers.Flatten()(y)) is None


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("backwards", [False, True])
def test_rnn_skips_masked_steps(cls, backwards):
    x = rng.random((3, 5, 2))
    mask = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 0], [1, 1, 1, 1, 1]], bool)
    rnn = getattr(layers, cls)(4, return_sequences=True, return_state=True, go_backwards=backwards,
                               dtype="float64")
    seq, *state = rnn(x, mask=mask)
    for b in range(3):
        kept = np.nonzero(mask[b])[0]
        ref_seq, *ref_state = rnn(x[b:b + 1, kept])  # the same example without its masked steps
        for s, r in zip(state, ref_state):
            np.testing.assert_allclose(s.numpy()[b], r.numpy()[0], rtol=1e-12)
        # each step's output: the latest unmasked step's output (zeros before the first)
        order = list(range(5))[::-1] if backwards else list(range(5))
        outputs, last, n = seq.numpy()[b], np.zeros(4), 0
        for pos, t in enumerate(order):
            if mask[b, t]:
                last = ref_seq.numpy()[0, n]
                n += 1
            np.testing.assert_allclose(outputs[pos], last, rtol=1e-12)
    np.testing.assert_array_equal(get_keras_mask(seq).numpy(), mask)


def test_embedding_mask_reaches_lstm_in_sequential():
    ids = np.array([[4, 2, 0, 0], [3, 1, 2, 0]])
    emb = layers.Embedding(6, 3, mask_zero=True, dtype="float64")
    lstm = layers.LSTM(2, dtype="float64")
    model = tf.keras.Sequential([emb, lstm])
    out = model(ids).numpy()
    np.testing.assert_allclose(out[0], lstm(emb(ids[:1, :2])).numpy()[0], rtol=1e-12)
    np.testing.assert_allclose(out[1], lstm(emb(ids[1:, :3])).numpy()[0], rtol=1e-12)


def test_global_average_pooling_ignores_masked_steps():
    x = rng.random((2, 4, 3))
    mask = np.array([[1, 1, 0, 0], [1, 1, 1, 0]], bool)
    out = layers.GlobalAveragePooling1D()(x, mask=mask).numpy()
    np.testing.assert_allclose(out[0], x[0, :2].mean(0), rtol=1e-6)
    np.testing.assert_allclose(out[1], x[1, :3].mean(0), rtol=1e-6)
    emb = layers.Embedding(5, 3, mask_zero=True)
    ids = np.array([[1, 2, 0]])
    pooled = layers.GlobalAveragePooling1D()(emb(ids)).numpy()
    np.testing.assert_allclose(pooled[0], emb(ids[:, :2]).numpy()[0].mean(0), rtol=1e-6)


def test_mask_gradients_skip_padded_steps():
    emb = layers.Embedding(6, 3, mask_zero=True, dtype="float64")
    gru = layers.GRU(2, dtype="float64")
    ids = np.array([[1, 2, 0]])
    emb(ids)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(gru(emb(ids)))
    g = tape.gradient(loss, emb.embeddings)
    g = tf.convert_to_tensor(g).numpy()
    assert np.all(g[0] == 0) and np.any(g[1] != 0)


def _model(seed, functional):
    tf.keras.utils.set_random_seed(seed)
    if functional:
        inputs = tf.keras.Input((5,), dtype="int32")
        x = layers.Embedding(12, 4, mask_zero=True)(inputs)
        x = layers.LSTM(6, return_sequences=True)(x)
        x = layers.GlobalAveragePooling1D()(x)
        return tf.keras.Model(inputs, layers.Dense(1)(x))
    return tf.keras.Sequential([layers.Embedding(12, 4, mask_zero=True), layers.SimpleRNN(5),
                                layers.Dense(1)])


@pytest.mark.parametrize("functional", [False, True])
def test_masked_models_fit_compiled_like_eager_and_ignore_padding(functional):
    data = np.random.default_rng(2)
    ids = data.integers(1, 12, size=(24, 5))
    for i in range(24):
        ids[i, data.integers(1, 5):] = 0
    y = (ids.sum(1) / 20.0).astype("float32")[:, None]
    results = []
    for eager in (True, False):
        model = _model(4, functional)
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse", run_eagerly=eager)
        h = model.fit(ids, y, epochs=2, batch_size=8, shuffle=False, verbose=0)
        results.append((h.history["loss"], model.get_weights()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-4)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-5)
    # the embedding of id 0 never matters
    emb = [l for l in model.layers if isinstance(l, layers.Embedding)][0]
    before = model.predict(ids, verbose=0)
    table = emb.embeddings.numpy()
    table[0] = 50.0
    emb.embeddings.assign(table)
    np.testing.assert_allclose(model.predict(ids, verbose=0), before, rtol=1e-5, atol=1e-6)


def test_bidirectional_lstm_skips_padding_both_ways():
    ids = np.array([[4, 2, 5, 0, 0], [3, 1, 2, 1, 0]])
    emb = layers.Embedding(6, 3, mask_zero=True, dtype="float64")
    bi = layers.Bidirectional(layers.LSTM(2, dtype="float64"), dtype="float64")
    out = bi(emb(ids)).numpy()
    for b, n in ((0, 3), (1, 4)):
        np.testing.assert_allclose(out[b], bi(emb(ids[b:b + 1, :n])).numpy()[0], rtol=1e-12)

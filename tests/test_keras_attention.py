"""Attention layers against NumPy references (Keras 3 formulas), gradients
against finite differences, and a Transformer block trained compiled vs eager."""
import numpy as np
import pytest

import tapeflow as tf
from keras_helpers import check_variable_grads

layers = tf.keras.layers
rng = np.random.default_rng(0)


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_mha(layer, q, v, k=None, mask=None):
    """Keras 3 MultiHeadAttention in NumPy from the layer's weights."""
    k = v if k is None else k
    w = [x.numpy().astype(np.float64) for x in layer.weights]
    qk, qb, kk, kb, vk, vb, ok, ob = w
    Q = np.einsum("btd,dhk->bthk", q, qk) + qb
    K = np.einsum("btd,dhk->bthk", k, kk) + kb
    V = np.einsum("btd,dhk->bthk", v, vk) + vb
    s = np.einsum("bshk,bthk->bhts", K, Q / np.sqrt(layer.key_dim))
    if mask is not None:
        keep = mask[:, None].astype(np.float64)
        s = np_softmax(s + (1 - keep) * -1e9) * keep
    else:
        s = np_softmax(s)
    out = np.einsum("bhts,bshk->bthk", s, V)
    return np.einsum("bthk,hkd->btd", out, ok) + ob, s


def test_mha_weight_shapes_follow_keras3():
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=4)
    mha(rng.random((2, 5, 6)).astype("float32"), rng.random((2, 7, 8)).astype("float32"))
    shapes = [tuple(w.shape) for w in mha.weights]
    assert shapes == [(6, 2, 3), (2, 3), (8, 2, 3), (2, 3), (8, 2, 4), (2, 4), (2, 4, 6), (6,)]
    assert mha.count_params() == sum(int(np.prod(s)) for s in shapes)


def test_mha_no_bias_and_output_shape():
    mha = layers.MultiHeadAttention(num_heads=3, key_dim=2, use_bias=False, output_shape=7)
    out = mha(rng.random((2, 4, 5)).astype("float32"), rng.random((2, 3, 5)).astype("float32"))
    assert out.shape == (2, 4, 7)
    assert [tuple(w.shape) for w in mha.weights] == [(5, 3, 2), (5, 3, 2), (5, 3, 2), (3, 2, 7)]


@pytest.mark.parametrize("masked", ["none", "attention_mask", "causal", "padding"])
def test_mha_matches_numpy(masked):
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=3, dtype="float64")
    q = rng.random((2, 4, 5))
    v = rng.random((2, 4, 5)) if masked == "causal" else rng.random((2, 6, 5))
    kwargs, mask = {}, None
    if masked == "attention_mask":
        mask = rng.random((2, 4, 6)) > 0.3
        mask[:, :, 0] = True
        kwargs["attention_mask"] = mask
    elif masked == "causal":
        kwargs["use_causal_mask"] = True
        mask = np.broadcast_to(np.tril(np.ones((4, 4), bool)), (2, 4, 4))
    elif masked == "padding":
        vm = np.array([[1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 0]], bool)
        kwargs["value_mask"] = vm
        mask = np.broadcast_to(vm[:, None, :], (2, 4, 6))
    out, scores = mha(q, v, return_attention_scores=True, **kwargs)
    want_out, want_scores = np_mha(mha, q, v, mask=mask)
    np.testing.assert_allclose(scores.numpy(), want_scores, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.numpy(), want_out, rtol=1e-10, atol=1e-12)


def test_mha_fully_masked_rows_are_zero_and_key_differs_from_value():
    mha = layers.MultiHeadAttention(num_heads=1, key_dim=2, dtype="float64")
    q, v, k = rng.random((1, 2, 3)), rng.random((1, 3, 3)), rng.random((1, 3, 3))
    mask = np.array([[[True, False, True], [False, False, False]]])
    out, scores = mha(q, v, key=k, attention_mask=mask, return_attention_scores=True)
    want_out, want_scores = np_mha(mha, q, v, k, mask=mask)
    assert np.all(scores.numpy()[0, 0, 1] == 0)
    np.testing.assert_allclose(out.numpy(), want_out, rtol=1e-10, atol=1e-12)


def test_mha_picks_up_padding_masks_from_embedding():
    emb = layers.Embedding(10, 4, mask_zero=True, dtype="float64")
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=2, dtype="float64")
    ids = np.array([[3, 4, 0], [5, 0, 0]])
    x = emb(ids)
    out = mha(x, x)
    m = ids != 0
    want, _ = np_mha(mha, x.numpy(), x.numpy(), mask=m[:, :, None] & m[:, None, :])
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10, atol=1e-12)
    from tapeflow.keras.layers.keras_mask import get_keras_mask
    np.testing.assert_array_equal(get_keras_mask(out).numpy(), m)  # the query's mask goes on


def test_mha_attention_axes_over_two_axes():
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=2, attention_axes=(1, 2), dtype="float64")
    q = rng.random((2, 3, 4, 5))
    out, scores = mha(q, q, return_attention_scores=True)
    assert out.shape == (2, 3, 4, 5) and scores.shape == (2, 2, 3, 4, 3, 4)
    s = scores.numpy().reshape(2, 2, 12, 12)
    np.testing.assert_allclose(s.sum(-1), 1.0, rtol=1e-12)
    qk, qb, kk, kb, vk, vb, ok, ob = [w.numpy() for w in mha.weights]
    Q = (np.einsum("bxyd,dhk->bxyhk", q, qk) + qb).reshape(2, 12, 2, 2)
    K = (np.einsum("bxyd,dhk->bxyhk", q, kk) + kb).reshape(2, 12, 2, 2)
    V = (np.einsum("bxyd,dhk->bxyhk", q, vk) + vb).reshape(2, 12, 2, 2)
    p = np_softmax(np.einsum("bshk,bthk->bhts", K, Q / np.sqrt(2)))
    np.testing.assert_allclose(s, p, rtol=1e-10)
    want = np.einsum("bthk,hkd->btd", np.einsum("bhts,bshk->bthk", p, V), ok) + ob
    np.testing.assert_allclose(out.numpy().reshape(2, 12, 5), want, rtol=1e-10)


def test_mha_dropout_only_in_training():
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=2, dropout=0.5)
    q = rng.random((2, 4, 3)).astype("float32")
    a, b = mha(q, q).numpy(), mha(q, q, training=False).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(mha(q, q, training=True).numpy(), a)


def test_mha_gradients_match_finite_differences():
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=2, dtype="float64")
    q = rng.random((2, 3, 4))
    mask = np.tril(np.ones((3, 3), bool))[None].repeat(2, 0)
    layer = lambda x: mha(x, x, attention_mask=mask)  # noqa: E731
    mha(q, q)
    check_variable_grads(_Wrap(layer, mha), q, lambda y: tf.reduce_sum(tf.sin(y)), atol=1e-7)
    x = tf.constant(q)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.sin(layer(x)))
    g = tape.gradient(loss, x).numpy()
    from keras_helpers import numeric_grad
    want = numeric_grad(lambda a: float(tf.reduce_sum(tf.sin(layer(tf.constant(a))))), q)
    np.testing.assert_allclose(g, want, atol=1e-7, rtol=1e-5)


class _Wrap:
    def __init__(self, fn, layer):
        self.fn, self.trainable_variables = fn, layer.trainable_variables

    def __call__(self, x):
        return self.fn(x)


def np_attention(q, v, k, scores, v_mask=None, causal=False, q_mask=None):
    keep = np.ones(scores.shape, bool)
    if v_mask is not None:
        keep &= v_mask[:, None, :]
    if causal:
        keep &= np.tril(np.ones(scores.shape[1:], bool))[None]
    w = np_softmax(scores - 1e9 * (~keep))
    out = w @ v
    if q_mask is not None:
        out = out * q_mask[:, :, None]
    return out, w


@pytest.mark.parametrize("mode", ["dot", "dot_scaled", "concat", "concat_scaled", "additive", "additive_noscale"])
def test_attention_layers_match_numpy(mode):
    q, v, k = rng.random((2, 3, 4)), rng.random((2, 5, 4)), rng.random((2, 5, 4))
    if mode.startswith("additive"):
        layer = layers.AdditiveAttention(use_scale=mode == "additive", dtype="float64")
    else:
        layer = layers.Attention(use_scale=mode.endswith("scaled"), score_mode=mode.split("_")[0], dtype="float64")
    v_mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)
    q_mask = np.array([[1, 1, 0], [1, 1, 1]], bool)
    out, w = layer([q, v, k], mask=[q_mask, v_mask], return_attention_scores=True)
    if layer.weights:  # make the learned scalars/vectors non-trivial
        for var in layer.weights:
            var.assign(rng.random(tuple(var.shape)) + 0.5)
        out, w = layer([q, v, k], mask=[q_mask, v_mask], return_attention_scores=True)
    if mode.startswith("dot"):
        s = q @ k.transpose(0, 2, 1) * (layer.scale.numpy() if layer.use_scale else 1)
    elif mode.startswith("concat"):
        pairs = q[:, :, None] + k[:, None]
        scale = layer.scale.numpy() if layer.use_scale else 1
        s = layer.concat_score_weight.numpy() * np.tanh(scale * pairs).sum(-1)
    else:
        scale = layer.scale.numpy() if layer.use_scale else 1
        s = (scale * np.tanh(q[:, :, None] + k[:, None])).sum(-1)
    want_out, want_w = np_attention(q, v, k, s, v_mask=v_mask, q_mask=q_mask)
    np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.numpy(), want_out, rtol=1e-10, atol=1e-12)


def test_attention_causal_and_two_inputs():
    q, v = rng.random((2, 4, 3)), rng.random((2, 4, 3))
    out, w = layers.Attention(dtype="float64")([q, v], use_causal_mask=True, return_attention_scores=True)
    want_out, want_w = np_attention(q, v, v, q @ v.transpose(0, 2, 1), causal=True)
    np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.numpy(), want_out, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls", ["Attention", "AdditiveAttention"])
def test_attention_gradients_match_finite_differences(cls):
    kwargs = {"use_scale": True, "score_mode": "concat"} if cls == "Attention" else {}
    layer = getattr(layers, cls)(dtype="float64", **kwargs)
    q, v = rng.random((2, 3, 4)), rng.random((2, 5, 4))
    layer([q, v])
    wrapped = _Wrap(lambda x: layer([x, tf.constant(v)], use_causal_mask=False), layer)
    check_variable_grads(wrapped, q, lambda y: tf.reduce_sum(y * y), atol=1e-7)


def test_attention_bad_inputs_name_the_layer():
    with pytest.raises(ValueError, match="Attention"):
        layers.Attention()(np.zeros((1, 2, 3), "float32"))
    with pytest.raises(ValueError, match="score_mode"):
        layers.Attention(score_mode="cosine")


def _encoder(seed):
    tf.keras.utils.set_random_seed(seed)
    inputs = tf.keras.Input((6,), dtype="int32")
    x = layers.Embedding(20, 8, mask_zero=True)(inputs)
    att = layers.MultiHeadAttention(num_heads=2, key_dim=4)(x, x)
    x = layers.LayerNormalization()(layers.Add()([x, att]))
    ff = layers.Dense(8)(layers.Dense(16, activation="relu")(x))
    x = layers.LayerNormalization()(layers.Add()([x, ff]))
    x = layers.GlobalAveragePooling1D()(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    return tf.keras.Model(inputs, outputs)


def test_transformer_block_compiled_fit_matches_eager():
    data = np.random.default_rng(1)
    x = data.integers(1, 20, size=(32, 6))
    x[:, 4:] = 0  # padded tail: the mask reaches attention and pooling
    x[::3, 2:] = 0
    y = (x[:, 0] > 10).astype("int64")
    results = []
    for eager in (True, False):
        model = _encoder(3)
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy",
                      run_eagerly=eager)
        h = model.fit(x, y, epochs=3, batch_size=16, shuffle=False, verbose=0)
        results.append((h.history["loss"], model.get_weights(), model.predict(x, verbose=0)))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-4)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-5)
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-4, atol=1e-6)
    assert results[0][0][-1] < results[0][0][0]
    # the padded steps change nothing: other values at padded ids give the same prediction
    x2 = x.copy()
    model = _encoder(3)
    before = model.predict(x2, verbose=0)
    emb = [l for l in model.layers if isinstance(l, layers.Embedding)][0]
    table = emb.embeddings.numpy()
    table[0] = 123.0
    emb.embeddings.assign(table)
    np.testing.assert_allclose(model.predict(x2, verbose=0), before, rtol=1e-5, atol=1e-6)

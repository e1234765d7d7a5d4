"""Seq2seq encoder-decoder with LSTM (keras.Input(shape=(None,)) variable-length sequences,
return_state, initial_state=[h, c]), trained with teacher forcing (eager and compiled), then
separate encoder / one-step decoder models for a greedy decoding loop."""
import numpy as np
import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers

V, T, H = 6, 5, 32  # tokens 1..5 (0 = start), length, LSTM units


def build():
    enc_in = keras.Input(shape=(None,), dtype="int32", name="enc_in")
    _, h, c = layers.LSTM(H, return_state=True)(layers.Embedding(V, 16)(enc_in))
    dec_in = keras.Input(shape=(None,), dtype="int32", name="dec_in")
    dec_emb = layers.Embedding(V, 16)
    dec_lstm = layers.LSTM(H, return_sequences=True, return_state=True)
    dec_dense = layers.Dense(V, activation="softmax")
    y, _, _ = dec_lstm(dec_emb(dec_in), initial_state=[h, c])
    model = keras.Model([enc_in, dec_in], dec_dense(y))
    encoder = keras.Model(enc_in, [h, c])
    st_h, st_c = keras.Input(shape=(H,)), keras.Input(shape=(H,))
    tok = keras.Input(shape=(1,), dtype="int32")
    y1, h1, c1 = dec_lstm(dec_emb(tok), initial_state=[st_h, st_c])
    decoder = keras.Model([tok, st_h, st_c], [dec_dense(y1), h1, c1])
    return model, encoder, decoder


def test_seq2seq_reverse_task_teacher_forcing_and_greedy_decoding():
    rng = np.random.default_rng(0)
    src = rng.integers(1, V, size=(256, T)).astype("int32")
    tgt = src[:, ::-1].copy()
    dec_in = np.concatenate([np.zeros((256, 1), "int32"), tgt[:, :-1]], axis=1)
    losses = {}
    for eager in (True, False):
        keras.utils.set_random_seed(0)
        model, encoder, decoder = build()
        assert model.output_shape == (None, None, V)
        assert encoder.output_shape == [(None, H), (None, H)]
        model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"], run_eagerly=eager)
        hist = model.fit([src, dec_in], tgt, batch_size=32, epochs=12, verbose=0, shuffle=False)
        losses[eager] = hist.history["loss"]
    np.testing.assert_allclose(losses[True], losses[False], rtol=1e-4)
    assert losses[False][-1] < 0.4 * losses[False][0], losses
    assert hist.history["accuracy"][-1] > 0.85

    def greedy(seq):
        h, c = encoder.predict(seq[None], verbose=0)
        tok, out = np.zeros((1, 1), "int32"), []
        for _ in range(T):
            probs, h, c = decoder.predict([tok, h, c], verbose=0)
            out.append(int(np.argmax(probs[0, -1])))
            tok = np.array([[out[-1]]], "int32")
        return out

    test = rng.integers(1, V, size=(20, T)).astype("int32")
    exact = sum(greedy(s) == list(s[::-1]) for s in test)
    assert exact >= 8, exact


def test_lstm_over_unknown_length_in_tf_function_matches_eager():
    keras.utils.set_random_seed(4)
    lstm = layers.LSTM(8, return_sequences=True, return_state=True, go_backwards=True)
    x = np.random.default_rng(1).normal(size=(3, 7, 4)).astype("float32")
    mask = np.ones((3, 7), bool)
    mask[0, 5:] = False

    def loss_and_grads(inp):
        with tf.GradientTape() as tape:
            seq, h, c = lstm(inp, mask=tf.constant(mask))
            loss = tf.reduce_sum(seq ** 2) + tf.reduce_sum(h) + tf.reduce_sum(c)
        return loss, tape.gradient(loss, lstm.trainable_variables)

    want_loss, want_grads = loss_and_grads(tf.constant(x))

    @tf.function(input_signature=[tf.TensorSpec([None, None, 4], tf.float32),
                                  tf.TensorSpec([None, None], tf.bool)])
    def traced(inp, m):
        with tf.GradientTape() as tape:
            seq, h, c = lstm(inp, mask=m)
            loss = tf.reduce_sum(seq ** 2) + tf.reduce_sum(h) + tf.reduce_sum(c)
        return loss, tape.gradient(loss, lstm.trainable_variables)

    got_loss, got_grads = traced(tf.constant(x), tf.constant(mask))
    np.testing.assert_allclose(got_loss.numpy(), want_loss.numpy(), rtol=1e-5)
    for g, w in zip(got_grads, want_grads):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-4, atol=1e-5)

"""keras.io-style text programs, scaled down: TextVectorization feeding Embedding +
Conv1D + GlobalMaxPooling1D, a transformer block with a positional-embedding layer
subclass, a bidirectional LSTM with mask_zero, a seq2seq encoder-decoder with return_state."""
import numpy as np

from parity import tolerance
from _sweep import history, set_weights

TEXTS = ["the movie was great", "bad film", "great great acting", "the plot was bad and slow",
         "loved it", "slow and boring movie"]
YS = np.array([1, 0, 1, 0, 1, 0], "float32")


@tolerance(rtol=1e-4, atol=1e-5)
def program_text_cnn(tf):
    L = tf.keras.layers
    tv = L.TextVectorization(max_tokens=20, output_sequence_length=6)
    tv.adapt(tf.data.Dataset.from_tensor_slices(TEXTS).batch(2))
    ids = tv(np.array(TEXTS))
    inp = tf.keras.Input((6,), dtype="int64")
    x = L.Embedding(20, 4)(inp)
    x = L.Conv1D(3, 2, activation="relu")(x)
    x = L.GlobalMaxPooling1D()(x)
    m = set_weights(tf.keras.Model(inp, L.Dense(1, activation="sigmoid")(x)))
    m.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    ds = tf.data.Dataset.from_tensor_slices((ids, YS)).batch(3).cache().prefetch(2)
    h = m.fit(ds, epochs=2, verbose=0)
    return {"vocab": tv.get_vocabulary(), "ids": ids, "hist": history(h), "pred": m.predict(ids, verbose=0)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_transformer_block(tf):
    keras = tf.keras
    L = keras.layers

    class TokenAndPosition(L.Layer):
        def __init__(self, maxlen, vocab, dim, **kw):
            super().__init__(**kw)
            self.tok = L.Embedding(vocab, dim)
            self.pos = L.Embedding(maxlen, dim)

        def call(self, x):
            positions = keras.ops.arange(0, keras.ops.shape(x)[-1], 1)
            return self.tok(x) + self.pos(positions)

    class Block(L.Layer):
        def __init__(self, dim, heads, ff, **kw):
            super().__init__(**kw)
            self.att = L.MultiHeadAttention(num_heads=heads, key_dim=dim)
            self.ffn = keras.Sequential([L.Dense(ff, activation="relu"), L.Dense(dim)])
            self.n1 = L.LayerNormalization(epsilon=1e-6)
            self.n2 = L.LayerNormalization(epsilon=1e-6)

        def call(self, x):
            a = self.n1(x + self.att(x, x))
            return self.n2(a + self.ffn(a))

    inp = keras.Input((5,))
    x = Block(4, 2, 6)(TokenAndPosition(5, 10, 4)(inp))
    x = L.GlobalAveragePooling1D()(x)
    m = set_weights(keras.Model(inp, L.Dense(2, activation="softmax")(x)))
    xs = (np.arange(30).reshape(6, 5) % 10).astype("int32")
    m.compile("adam", "sparse_categorical_crossentropy")
    h = m.fit(xs, YS.astype("int32"), batch_size=3, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict(xs[:2], verbose=0),
            "weights": [tuple(w.shape) for w in m.weights]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_bidirectional_lstm_mask_zero(tf):
    L = tf.keras.layers
    inp = tf.keras.Input((None,), dtype="int32")
    emb = L.Embedding(8, 3, mask_zero=True)
    x = emb(inp)
    x = L.Bidirectional(L.LSTM(2, return_sequences=True))(x)
    x = L.Bidirectional(L.LSTM(2))(x)
    m = set_weights(tf.keras.Model(inp, L.Dense(1)(x)))
    xs = np.array([[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 1, 2]], "int32")
    m.compile("rmsprop", "mse")
    h = m.fit(xs, YS[:3], epochs=2, batch_size=3, verbose=0)
    return {"hist": history(h), "pred": m.predict(xs, verbose=0), "mask": emb.compute_mask(xs),
            "names": [w.name for w in m.weights][:6]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_seq2seq_return_state(tf):
    L = tf.keras.layers
    enc_in = tf.keras.Input((None, 3))
    _, h, c = L.LSTM(4, return_state=True)(enc_in)
    dec_in = tf.keras.Input((None, 3))
    dec_lstm = L.LSTM(4, return_sequences=True, return_state=True)
    dec_out, _, _ = dec_lstm(dec_in, initial_state=[h, c])
    out = L.Dense(3, activation="softmax")(dec_out)
    m = set_weights(tf.keras.Model([enc_in, dec_in], out))
    m.compile("rmsprop", "categorical_crossentropy")
    rng = np.random.RandomState(1)
    a = np.eye(3, dtype="float32")[rng.randint(0, 3, (4, 5))]
    b = np.eye(3, dtype="float32")[rng.randint(0, 3, (4, 4))]
    h_ = m.fit([a, b], b, batch_size=2, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h_), "pred": m.predict([a[:1], b[:1]], verbose=0),
            "out_shapes": [tuple(t.shape) for t in m.outputs]}

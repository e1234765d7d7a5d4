"""A small Transformer encoder block with MultiHeadAttention, positional embedding and
LayerNormalization (keras.io 'text classification with Transformer' style)."""
import numpy as np
import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential([layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)])
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = layers.Dropout(rate)
        self.dropout2 = layers.Dropout(rate)

    def call(self, inputs, training=False):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output, training=training)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim):
        super().__init__()
        self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        maxlen = tf.shape(x)[-1]
        positions = tf.range(start=0, limit=maxlen, delta=1)
        positions = self.pos_emb(positions)
        x = self.token_emb(x)
        return x + positions


def make_data(n, seed, maxlen=12, vocab=30):
    # label = whether token 3 appears before token 4 (order matters: needs positions + attention)
    rng = np.random.default_rng(seed)
    x = rng.integers(5, vocab, size=(n, maxlen))
    y = rng.integers(0, 2, size=n)
    for i in range(n):
        a, b = sorted(rng.choice(maxlen, size=2, replace=False))
        x[i, a], x[i, b] = (3, 4) if y[i] else (4, 3)
    return x.astype("int32"), y.astype("int32")


def test_transformer_classifier():
    tf.keras.utils.set_random_seed(0)
    maxlen, vocab, embed_dim = 12, 30, 16
    x, y = make_data(512, 0)
    xv, yv = make_data(128, 1)
    inputs = layers.Input(shape=(maxlen,))
    h = TokenAndPositionEmbedding(maxlen, vocab, embed_dim)(inputs)
    h = TransformerBlock(embed_dim, 2, 32)(h)
    h = layers.GlobalAveragePooling1D()(h)
    h = layers.Dropout(0.1)(h)
    h = layers.Dense(16, activation="relu")(h)
    outputs = layers.Dense(2, activation="softmax")(h)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(optimizer=keras.optimizers.Adam(3e-3), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    hist = model.fit(x, y, batch_size=32, epochs=20, validation_data=(xv, yv), verbose=0)
    assert hist.history["val_accuracy"][-1] > 0.85, hist.history["val_accuracy"]


def test_multi_head_attention_scores_and_causal_mask():
    tf.keras.utils.set_random_seed(2)
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=4)
    q = tf.random.normal((3, 5, 8))
    out, scores = mha(q, q, return_attention_scores=True, use_causal_mask=True)
    assert out.shape == (3, 5, 8) and scores.shape == (3, 2, 5, 5)
    s = scores.numpy()
    np.testing.assert_allclose(s.sum(-1), np.ones((3, 2, 5)), rtol=1e-5)
    assert np.all(s[..., np.triu_indices(5, 1)[0], np.triu_indices(5, 1)[1]] == 0)
    # the first position only sees itself, so later tokens cannot change its output
    q2 = q.numpy().copy()
    q2[:, 1:] += 1.0
    out2 = mha(tf.constant(q2), tf.constant(q2), use_causal_mask=True)
    np.testing.assert_allclose(out.numpy()[:, 0], out2.numpy()[:, 0], rtol=1e-5, atol=1e-6)

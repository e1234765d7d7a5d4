"""keras.ops as a keras.io transformer block writes it: dot_product_attention (masks, causal,
bias, grouped heads), layer_normalization and rms_normalization, in a layer trained with fit."""
import numpy as np

from parity import tolerance
from _sweep import history, outcomes, set_weights

R = np.random.RandomState(31)
Q = R.normal(size=(2, 3, 2, 4)).astype("float32")
K = R.normal(size=(2, 5, 2, 4)).astype("float32")
V = R.normal(size=(2, 5, 2, 4)).astype("float32")


@tolerance(rtol=1e-5, atol=1e-5)
def program_ops_dot_product_attention(tf):
    nn = tf.keras.ops.nn
    mask = np.tril(np.ones((3, 5), bool), 1)[None, None]
    bias = np.linspace(-1, 1, 15, dtype="float32").reshape(1, 1, 3, 5)
    kv1 = K[:, :, :1]
    return {"plain": nn.dot_product_attention(Q, K, V), "scale": nn.dot_product_attention(Q, K, V, scale=0.1),
            "mask": nn.dot_product_attention(Q, K, V, mask=mask), "bias": nn.dot_product_attention(Q, K, V, bias=bias),
            "causal": nn.dot_product_attention(Q, K[:, :3], V[:, :3], is_causal=True),
            "grouped": nn.dot_product_attention(np.concatenate([Q, Q], 2), K, V),
            "errors": outcomes({"one_kv_head": lambda: nn.dot_product_attention(Q, kv1, V[:, :, :1]),
                                "rank": lambda: nn.dot_product_attention(Q[0], K[0], V[0]),
                                "flash": lambda: nn.dot_product_attention(Q, K, V, flash_attention=True)})}


@tolerance(rtol=1e-5, atol=1e-5)
def program_ops_layer_and_rms_normalization(tf):
    ops = tf.keras.ops
    x = np.random.RandomState(32).normal(size=(2, 3, 4)).astype("float32") * 3 + 1
    g = np.linspace(0.5, 1.5, 4).astype("float32")
    b = np.linspace(-1, 1, 4).astype("float32")
    g3 = np.array([1.0, 2.0, 0.5], "float32")
    return {"ln": ops.layer_normalization(x), "ln_gb": ops.layer_normalization(x, g, b, epsilon=1e-3),
            "ln_axis1": ops.nn.layer_normalization(x, g3, None, axis=1),
            "ln_axes": ops.layer_normalization(x, axis=(1, 2)),
            "ln_rms": ops.layer_normalization(x, g, rms_scaling=True),
            "ln_half": ops.layer_normalization(x.astype("float16")),
            "rms": ops.rms_normalization(x), "rms_scale": ops.nn.rms_normalization(x, g, epsilon=1e-2),
            "rms_axis": ops.rms_normalization(x, axis=1)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_ops_transformer_block_fit(tf):
    keras = tf.keras
    ops = keras.ops

    class Block(keras.layers.Layer):
        def __init__(self, heads, dim, **kw):
            super().__init__(**kw)
            self.heads, self.dim = heads, dim

        def build(self, shape):
            d = shape[-1]
            self.qkv = self.add_weight(shape=(d, 3 * self.heads * self.dim), initializer="glorot_uniform")
            self.proj = self.add_weight(shape=(self.heads * self.dim, d), initializer="glorot_uniform")
            self.gamma = self.add_weight(shape=(d,), initializer="ones")
            self.beta = self.add_weight(shape=(d,), initializer="zeros")

        def call(self, x):
            b, t = ops.shape(x)[0], ops.shape(x)[1]
            q, k, v = ops.split(ops.reshape(ops.matmul(x, self.qkv), (b, t, 3 * self.heads, self.dim)), 3, axis=2)
            a = ops.nn.dot_product_attention(q, k, v, is_causal=True)
            y = x + ops.matmul(ops.reshape(a, (b, t, self.heads * self.dim)), self.proj)
            return ops.layer_normalization(y, self.gamma, self.beta, epsilon=1e-6)

    inp = keras.Input((4, 3))
    x = Block(2, 2)(inp)
    m = set_weights(keras.Model(inp, keras.layers.Dense(1)(keras.layers.GlobalAveragePooling1D()(x))))
    xs = np.random.RandomState(72).normal(size=(6, 4, 3)).astype("float32")
    m.compile("adam", "mse")
    h = m.fit(xs, xs.sum((1, 2))[:, None], batch_size=3, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict(xs[:2], verbose=0)}

"""Understanding masking and padding in Keras 3: Masking, Embedding(mask_zero), mask
propagation, compute_mask, masks in losses and metrics, pad_sequences."""
import numpy as np

from _sweep import set_weights


def _seq():
    return np.array([[[1., 2.], [0., 0.], [3., 1.]], [[0., 0.], [0., 0.], [2., 2.]]], "float32")


def program_masking_layer_mask(tf):
    m = tf.keras.layers.Masking(mask_value=0.0)
    x = _seq()
    out = m(x)
    return {"mask": m.compute_mask(x), "out": out, "kmask": getattr(out, "_keras_mask", None)}


def program_embedding_mask_zero(tf):
    e = tf.keras.layers.Embedding(5, 2, mask_zero=True)
    x = np.array([[1, 0, 3], [0, 0, 2]])
    return {"mask": e.compute_mask(x), "out_mask": e(x)._keras_mask}


def program_mask_through_lstm_functional(tf):
    inp = tf.keras.Input((3, 2))
    h = tf.keras.layers.Masking()(inp)
    h = tf.keras.layers.LSTM(3)(h)
    m = set_weights(tf.keras.Model(inp, h))
    return {"out": m(_seq())}


def program_mask_through_return_sequences(tf):
    inp = tf.keras.Input((3,), dtype="int32")
    h = tf.keras.layers.Embedding(5, 2, mask_zero=True)(inp)
    h = tf.keras.layers.SimpleRNN(2, return_sequences=True)(h)
    m = set_weights(tf.keras.Model(inp, h))
    x = np.array([[1, 0, 3], [2, 4, 0]])
    out = m(x)
    return {"out": out, "mask": getattr(out, "_keras_mask", None)}


def program_dense_propagates_mask(tf):
    e = tf.keras.layers.Embedding(5, 2, mask_zero=True)
    d = tf.keras.layers.Dense(3)
    x = np.array([[1, 0, 3]])
    h = d(e(x))
    return {"mask": getattr(h, "_keras_mask", None), "supports": d.supports_masking}


def program_global_average_pooling_with_mask(tf):
    inp = tf.keras.Input((3, 2))
    h = tf.keras.layers.Masking()(inp)
    out = tf.keras.layers.GlobalAveragePooling1D()(h)
    m = tf.keras.Model(inp, out)
    return {"out": m(_seq())}


def program_custom_layer_compute_mask(tf):
    class Drop0(tf.keras.layers.Layer):
        def call(self, x):
            return x

        def compute_mask(self, inputs, mask=None):
            return tf.not_equal(inputs[..., 0], 1.0)

    class Show(tf.keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.supports_masking = True
            self.seen = []

        def call(self, x, mask=None):
            self.seen.append(mask)
            return x
    s = Show()
    out = s(Drop0()(_seq()))
    return {"seen": s.seen[0], "out_mask": getattr(out, "_keras_mask", None)}


def program_layer_receives_mask_arg(tf):
    class Sum(tf.keras.layers.Layer):
        def call(self, x, mask=None):
            if mask is None:
                return tf.reduce_sum(x, 1)
            return tf.reduce_sum(x * tf.cast(mask, x.dtype)[..., None], 1)

        def compute_mask(self, inputs, mask=None):
            return None
    inp = tf.keras.Input((3,), dtype="int32")
    h = tf.keras.layers.Embedding(5, 2, mask_zero=True, embeddings_initializer="ones")(inp)
    out = Sum()(h)
    m = tf.keras.Model(inp, out)
    return {"out": m(np.array([[1, 0, 3], [0, 0, 2]]))}


def program_masked_loss_in_fit(tf):
    inp = tf.keras.Input((3,), dtype="int32")
    h = tf.keras.layers.Embedding(5, 2, mask_zero=True)(inp)
    out = tf.keras.layers.Dense(1)(h)
    m = set_weights(tf.keras.Model(inp, out))
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.array([[1, 0, 3], [2, 4, 0], [1, 1, 0], [0, 3, 3]])
    y = np.ones((4, 3, 1), "float32")
    ev = m.evaluate(x, y, verbose=0, batch_size=4)
    h = m.fit(x, y, epochs=2, batch_size=2, shuffle=False, verbose=0)
    return {"ev": ev, "loss": h.history["loss"]}


def program_pad_sequences_options(tf):
    ps = tf.keras.utils.pad_sequences
    s = [[1, 2, 3], [4], [5, 6]]
    return {"pre": ps(s), "post": ps(s, padding="post"), "trunc": ps(s, maxlen=2, truncating="post"),
            "val": ps(s, maxlen=4, value=-1), "dtype": ps(s).dtype.name}


def program_masking_then_dense_output_zeros_kept(tf):
    inp = tf.keras.Input((3, 2))
    h = tf.keras.layers.Masking()(inp)
    out = tf.keras.layers.Dense(1, use_bias=True, bias_initializer="ones", kernel_initializer="ones")(h)
    m = tf.keras.Model(inp, out)
    return {"out": m(_seq())}


def program_bidirectional_with_mask(tf):
    inp = tf.keras.Input((3, 2))
    h = tf.keras.layers.Masking()(inp)
    h = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2))(h)
    m = set_weights(tf.keras.Model(inp, h))
    return {"out": m(_seq())}

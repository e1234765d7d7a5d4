"""More keras.ops names of Keras 3.15: nanargmax / nanargmin (-1 for an all-NaN slice),
nancumsum / nancumprod, nextafter, geomspace, cdist, extract_sequences, view_as_real /
view_as_complex, polar."""
import numpy as np

from parity import tolerance

NAN = float("nan")


def program_nan_arg_and_cumulative(tf):
    o = tf.keras.ops
    x = tf.constant([[NAN, 2.0, -1.0], [NAN, NAN, NAN], [3.0, NAN, 0.5]])
    return {"argmax": o.nanargmax(x), "argmax_1": o.nanargmax(x, axis=1), "argmin_0": o.nanargmin(x, axis=0),
            "argmin_keep": o.nanargmin(x, axis=1, keepdims=True), "ints": o.nanargmax(tf.constant([1, 5, 2])),
            "cumsum": o.nancumsum(x), "cumsum_1": o.nancumsum(x, axis=1), "cumprod_0": o.nancumprod(x, axis=0),
            "cumsum_int": o.nancumsum(tf.constant([1, 2, 3]))}


def program_nextafter_geomspace(tf):
    o = tf.keras.ops
    return {"nextafter": o.nextafter(tf.constant([1.0, 0.0]), tf.constant([2.0, -1.0])),
            "nextafter_int": o.nextafter(tf.constant([1, 2]), tf.constant([0, 3])),
            "nextafter_f64": o.nextafter(tf.constant([1.0], "float64"), tf.constant([2.0], "float64")),
            "geomspace": o.geomspace(1.0, 1000.0, num=4), "negative": o.geomspace(-2.0, -32.0, num=5),
            "f64": o.geomspace(1.0, 16.0, num=5, dtype="float64")}


@tolerance(rtol=1e-5, atol=1e-6)
def program_cdist_and_sequences(tf):
    o = tf.keras.ops
    r = np.random.RandomState(4)
    a, b = r.uniform(-1, 1, (3, 2)).astype("float32"), r.uniform(-1, 1, (4, 2)).astype("float32")
    return {"cdist": o.cdist(a, b), "batched": o.cdist(np.stack([a, a]), np.stack([b[:2], b[2:]])),
            "frames": o.extract_sequences(tf.range(10.0), 4, 3),
            "frames_2d": o.extract_sequences(tf.reshape(tf.range(12.0), [2, 6]), 3, 2)}


def program_cdist_mismatch(tf):
    return {"y": tf.keras.ops.cdist(np.ones((2, 3), "float32"), np.ones((2, 2), "float32"))}


@tolerance(rtol=1e-6, atol=1e-6)
def program_complex_views(tf):
    o = tf.keras.ops
    z = tf.complex(tf.constant([1.0, -2.0]), tf.constant([0.5, 3.0]))
    return {"as_real": o.view_as_real(z), "as_complex": o.view_as_complex(tf.constant([[1.0, 2.0], [3.0, -4.0]])),
            "as_complex_f64": o.view_as_complex(tf.constant([[1.0, 2.0]], "float64")),
            "polar": o.polar(tf.constant([1.0, 2.0]), tf.constant([0.0, 1.5]))}


def program_view_as_complex_bad_shape(tf):
    return {"y": tf.keras.ops.view_as_complex(tf.ones([2, 3]))}

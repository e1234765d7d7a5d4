"""NaN, infinities and signed zeros through the ops programs reach for, eagerly and compiled:
argmax/argmin skip NaN (and -inf/+inf) as TF's CPU kernel does, maximum/minimum and
reductions propagate NaN, elu/selu keep -0.0, clip/sign/relu of NaN."""
import numpy as np

nan, inf = np.nan, np.inf
_X = [nan, inf, -inf, -0.0, 0.0, 1.5, -2.5, 1e30, -1e30]
_Y = [1.0, nan, 2.0, -1.0, nan, 3.0, -2.5, 5.0, -1e30]


def _ops(tf, x, y):
    return {"max": tf.maximum(x, y), "min": tf.minimum(x, y), "rmax": tf.reduce_max(x), "rmin": tf.reduce_min(y),
            "argmax": tf.argmax(x), "argmin": tf.argmin(y), "sign": tf.sign(x), "abs": tf.abs(x),
            "clip": tf.clip_by_value(x, -1.0, 1.0), "relu": tf.nn.relu(x), "elu": tf.nn.elu(x),
            "selu": tf.nn.selu(x), "isnan": tf.math.is_nan(x), "equal": tf.equal(x, y)}


def program_nan_edges_eager(tf):
    out = _ops(tf, tf.constant(_X), tf.constant(_Y))
    out["signs"] = {k: np.signbit(v.numpy()).tolist() for k, v in out.items() if v.dtype.is_floating}
    return out


def program_nan_edges_compiled(tf):
    out = tf.function(lambda x, y: _ops(tf, x, y))(tf.constant(_X), tf.constant(_Y))
    out["signs"] = {k: np.signbit(v.numpy()).tolist() for k, v in out.items() if v.dtype.is_floating}
    return out


def program_argmax_nan_rows(tf):
    cases = [[nan, nan], [nan, 1.0, nan], [1.0, nan, 2.0], [3.0, nan, 2.0], [nan, -inf], [-inf, -inf], [2.0, 2.0],
             [inf, nan, inf]]
    x = tf.constant([[nan, 1.0, 3.0], [2.0, nan, 1.0]])
    return {"max": [int(tf.argmax(tf.constant(c))) for c in cases], "min": [int(tf.argmin(tf.constant(c))) for c in cases],
            "axis1": tf.argmax(x, axis=1), "axis0": tf.argmax(x, axis=0), "min1": tf.argmin(x, axis=1, output_type=tf.int32),
            "graph": tf.function(lambda v: tf.argmax(v, 1))(x), "f64": tf.argmax(tf.constant([nan, 2.0, 1.0], tf.float64)),
            "ints": tf.argmax(tf.constant([-2147483648, -2147483648, 3])),
            "keras_acc": float(tf.keras.metrics.categorical_accuracy([[0.0, 1.0, 0.0]], [[nan, 0.9, 0.1]])[0])}

"""Max pooling where the window's maximum is not unique: ties (the gradient goes to
the first maximum in row-major window order), NaN, -inf and integer images; values
and gradients, eager and under tf.function."""
import numpy as np

NAN, INF = float("nan"), float("inf")
TIES = [[1, 1, 2, 2], [1, 1, 0, 2], [3, 0, 3, 3], [0, 0, 3, 3]]
ODD = [[NAN, 1, 2, 2], [1, 1, NAN, 2], [3, -INF, 3, 3], [0, 0, 3, NAN]]
GEOMETRIES = [(2, 2, "VALID"), (3, 1, "SAME"), (3, 2, "SAME"), (2, 1, "VALID")]


def _pools(tf, rows, grads=True):
    x = tf.constant(np.array(rows, np.float32).reshape(1, 4, 4, 1))
    out = {}
    for k, s, p in GEOMETRIES:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.max_pool2d(x, k, s, p)
            loss = tf.reduce_sum(y * tf.reshape(tf.range(1.0, 1.0 + tf.cast(tf.size(y), tf.float32)), y.shape))
        out[f"y_{k}{s}{p}"] = y
        if grads:
            out[f"dx_{k}{s}{p}"] = tape.gradient(loss, x)
    return out


def program_max_pool_ties(tf):
    return _pools(tf, TIES)


def program_max_pool_ties_in_function(tf):
    return tf.function(lambda: _pools(tf, TIES))()


def program_max_pool_nan_and_inf(tf):
    return _pools(tf, ODD)


def program_max_pool_all_minus_inf(tf):
    return _pools(tf, [[-INF] * 4] * 4)


def program_max_pool_integers(tf):
    x = tf.constant(np.array(TIES, np.int32).reshape(1, 4, 4, 1) - 2)
    return {f"{k}{s}{p}": tf.nn.max_pool2d(x, k, s, p) for k, s, p in GEOMETRIES}

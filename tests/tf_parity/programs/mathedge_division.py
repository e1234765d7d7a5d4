"""Integer and float division at the edges, eagerly and compiled: truncatediv/truncatemod
at INT_MIN, floor division and modulo of negative numbers, the sign of a zero remainder
(TF keeps the dividend's), infinities and NaN; casts of out-of-range floats are left out
(TF's result there is the CPU's, not a rule)."""
import numpy as np

_A = [-7, -6, -1, 0, 1, 5, 7, 2147483647, -2147483648]
_B = [2, -4, 3, -5, 7, -3, -7, 2, 3]
_F = [-4.0, 4.0, -4.0, 4.0, 0.0, -0.0, 1.0, -1.0, 3.5, np.nan, np.inf, 3.7e9]
_G = [2.0, 2.0, -2.0, -2.0, 3.0, 3.0, np.inf, np.inf, -1.5, 2.0, 2.0, -2.0]


def _ops(tf, x, y, z, w):
    return {"floordiv": x // y, "mod": x % y, "truncdiv": tf.truncatediv(x, y), "truncmod": tf.truncatemod(x, y),
            "fmod": tf.math.floormod(z, w), "fdiv": tf.math.floordiv(z, w),
            "zero_sign": np.signbit(tf.math.floormod(z, w).numpy()).tolist(),
            "shift": tf.bitwise.right_shift(x, 1), "abs": tf.abs(x[:-1]), "neg": -x[:-1]}


def program_division_edges_eager(tf):
    return _ops(tf, tf.constant(_A), tf.constant(_B), tf.constant(_F), tf.constant(_G))


def program_division_edges_compiled(tf):
    @tf.function
    def f(x, y, z, w):
        out = _ops_graph(tf, x, y, z, w)
        return out
    out = f(tf.constant(_A), tf.constant(_B), tf.constant(_F), tf.constant(_G))
    out["zero_sign"] = np.signbit(out["fmod"].numpy()).tolist()
    return out


def _ops_graph(tf, x, y, z, w):
    return {"floordiv": x // y, "mod": x % y, "truncdiv": tf.truncatediv(x, y), "truncmod": tf.truncatemod(x, y),
            "fmod": tf.math.floormod(z, w), "fdiv": tf.math.floordiv(z, w),
            "shift": tf.bitwise.right_shift(x, 1), "abs": tf.abs(x[:-1]), "neg": -x[:-1]}


def program_division_edges_int64_and_float64(tf):
    x = tf.constant([-9223372036854775808, -7, 7], tf.int64)
    y = tf.constant([3, 2, -2], tf.int64)
    z = tf.constant(_F, tf.float64)
    w = tf.constant(_G, tf.float64)
    g = tf.function(lambda a, b: (tf.truncatediv(a, b), tf.truncatemod(a, b), a // b, a % b))
    return {"eager": [tf.truncatediv(x, y), tf.truncatemod(x, y), x // y, x % y], "graph": g(x, y),
            "fmod64": np.signbit(tf.function(lambda a, b: a % b)(z, w).numpy()).tolist(), "mod64": z % w}

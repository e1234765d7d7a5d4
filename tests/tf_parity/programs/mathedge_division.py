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


def program_integer_means_and_ranges(tf):
    def errors(fn):
        try:
            fn()
            return None
        except Exception as e:  # noqa: BLE001
            return type(e).__name__
    return {"mean_u8": tf.reduce_mean(tf.constant([250, 250, 3], tf.uint8)),
            "mean_i32": tf.reduce_mean(tf.constant([2**31 - 1, 2**31 - 1])),
            "mean_i8": [tf.reduce_mean(tf.constant([127, 127, 1], tf.int8)), tf.reduce_mean(tf.constant([-128, -127], tf.int8))],
            "mean_axis": tf.reduce_mean(tf.constant([[250, 250], [3, 9]], tf.uint8), axis=0),
            "mean_neg": tf.reduce_mean(tf.constant([-1, -2, -4])),
            "mean_graph": tf.function(lambda v: tf.reduce_mean(v, 1))(tf.constant([[100, 100, 57]], tf.int8)),
            "range_f": [tf.range(0.0, 1.0, 0.1), tf.range(1.0, -1.0, -0.3), tf.range(2.5, 0.0, -0.7)],
            "range_f64": tf.range(0.0, 1.0, 0.1, dtype=tf.float64),
            "range_graph": tf.function(lambda n: tf.range(0.0, n, 0.3))(tf.constant(1.0)),
            "range_errors": [errors(lambda: tf.range(5, 0)), errors(lambda: tf.range(0, 5, -1))],
            "linspace": [tf.linspace(0, 10, 4), tf.linspace(tf.constant(0), tf.constant(10), 4), tf.linspace(0.0, 10, 4)],
            "div_zero_graph": errors(lambda: tf.function(lambda a, b: a // b)(tf.constant([7]), tf.constant([0]))),
            "mod_zero_graph": errors(lambda: tf.function(lambda a, b: a % b)(tf.constant([7]), tf.constant([0])))}

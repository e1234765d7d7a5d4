"""keras.ops array, bit and window functions as preprocessing code uses them (a positional
feature by vander, a framed signal windowed by hanning, bit-packed flags)."""
import numpy as np

from parity import tolerance
from _sweep import outcomes


@tolerance(rtol=1e-5, atol=1e-6)
def program_ops_array_functions(tf):
    ops = tf.keras.ops
    x = np.arange(12, dtype="float32").reshape(3, 4)
    return {"append": ops.append(x, np.ones((1, 4), "float32"), axis=0), "append_flat": ops.append(x[0], [7, 8]),
            "append_mixed": ops.append(np.array([1, 2], "int32"), np.array([0.5], "float32")),
            "array_split": ops.array_split(np.arange(7), 3), "array_split_axis": ops.array_split(x, 3, axis=1),
            "hsplit": ops.hsplit(x, 2), "vsplit": ops.vsplit(x, [1]), "dsplit": ops.dsplit(x.reshape(3, 2, 2), 2),
            "hsplit_1d": ops.hsplit(np.arange(6.0), 3), "diagflat": ops.diagflat(np.array([[1, 2], [3, 4]])),
            "diagflat_k": ops.diagflat(np.array([1.0, 2.0]), k=1), "vander": ops.vander(np.array([1.0, 2.0, 3.0])),
            "vander_inc": ops.vander(np.array([2, 3], "int32"), N=4, increasing=True),
            "meshgrid": ops.meshgrid(np.arange(3), np.arange(2)),
            "meshgrid_ij": ops.meshgrid(np.arange(3.0), np.arange(2.0), indexing="ij"),
            "trapezoid": ops.trapezoid(x), "trapezoid_dx": ops.trapezoid(x, dx=0.5, axis=0),
            "trapezoid_x": ops.trapezoid(np.array([1.0, 4.0, 9.0]), x=np.array([0.0, 1.0, 3.0])),
            "trapezoid_int": ops.trapezoid(np.array([1, 2, 4]))}


def program_ops_bits_and_predicates(tf):
    ops = tf.keras.ops
    a = np.array([12, 10, 7], "int32")
    b = np.array([10, 6, 1], "int32")
    v = np.array([-np.inf, 0.0, np.inf, np.nan], "float32")
    return {"and": ops.bitwise_and(a, b), "or": ops.bitwise_or(a, b), "xor": ops.bitwise_xor(a, b),
            "invert": ops.bitwise_invert(a), "not": ops.bitwise_not(np.array([0, 255], "uint8")),
            "left": ops.left_shift(a, 2), "right": ops.bitwise_right_shift(a, b % 3),
            "mixed": ops.bitwise_and(np.array([7], "int64"), np.array([3], "int32")),
            "logaddexp2": ops.logaddexp2(np.array([1.0, 0.0, np.nan], "float32"), np.array([1.0, -3.0, 0.0], "float32")),
            "logaddexp2_int": ops.logaddexp2(np.array([1, 2]), np.array([3, 2])),
            "isneginf": ops.isneginf(v), "isposinf": ops.isposinf(v), "isposinf_int": ops.isposinf(a),
            "errors": outcomes({"bits_of_floats": lambda: ops.bitwise_and(v, v)})}


@tolerance(rtol=1e-5, atol=1e-6)
def program_ops_windows(tf):
    ops = tf.keras.ops
    frames = np.arange(16, dtype="float32").reshape(2, 8)
    return {"hamming": ops.hamming(5), "hanning": ops.hanning(6), "blackman": ops.blackman(5),
            "bartlett": ops.bartlett(6), "one": (ops.hamming(1), ops.hanning(1), ops.blackman(1), ops.bartlett(1)),
            "windowed": frames * ops.hanning(8)}


def program_ops_counts_and_integers(tf):
    ops = tf.keras.ops
    return {"bincount": ops.bincount(np.array([0, 2, 2, 5])), "bincount_min": ops.bincount(np.array([1, 1]), minlength=4),
            "bincount_w": ops.bincount(np.array([0, 1, 1]), weights=np.array([0.5, 1.0, 2.0], "float32")),
            "bincount_2d": ops.bincount(np.array([[0, 1], [2, 2]])),
            "gcd": ops.gcd(np.array([12, -18, 7, 0]), np.array([8, 12, 0, 0])),
            "lcm": ops.lcm(np.array([4, -6, 5, 0], "int32"), np.array([6, 4, 0, 3], "int32")),
            "ldexp": ops.ldexp(np.array([1.0, -1.5, 0.0, np.inf], "float32"), np.array([3, -1, 5, 2])),
            "ldexp_int": ops.ldexp(np.array([3, 1]), np.array([1, 2], "int32")),
            "i0": (ops.i0(np.array([0.0, 1.0, -2.5], "float32")), ops.i0(np.array([1, 2]))),
            "errors": outcomes({"gcd_float": lambda: ops.gcd(np.array([1.5]), np.array([2.0])),
                                "ldexp_float": lambda: ops.ldexp(np.array([1.0]), np.array([2.0]))})}


def program_ops_custom_gradient_reversal(tf):
    """The keras.io domain-adaptation trick: a gradient-reversal layer by keras.ops.custom_gradient."""
    ops = tf.keras.ops

    @ops.custom_gradient
    def reverse(x):
        def grad(*args, upstream=None):
            g = args[0] if args else upstream
            return -0.5 * g
        return ops.multiply(x, 1.0), grad

    v = tf.Variable(np.array([1.0, -2.0, 3.0], "float32"))
    with tf.GradientTape() as tape:
        y = ops.sum(ops.square(reverse(v)))
    return {"y": y, "grad": tape.gradient(y, v)}

"""TensorFlow 2.21's tf.math / tf.dtypes / tf.bitwise docstring examples that tapeflow already
answered as TF does, rewritten as regression guards (values, dtypes and shapes recorded)."""
import numpy as np


def program_math_elementwise_examples(tf):
    x = tf.constant([-2.0, 0.0, 0.5, 3.0])
    return {"abs_complex": tf.math.abs(tf.constant([-2.25 + 4.75j, -3.25 + 5.75j])),
            "acos": tf.math.acos(tf.constant([1.0, -1.0, 0.5])),
            "atan2": tf.math.atan2(tf.constant([1.0, -1.0]), tf.constant([1.0, 1.0])),
            "ceil": tf.math.ceil([-1.7, -1.5, -0.2, 0.2, 1.5, 1.7, 2.0]),
            "floor": tf.math.floor([-1.7, -1.5, -0.2, 0.2, 1.5, 1.7, 2.0]),
            "sign": tf.math.sign(x), "square": tf.math.square(x), "rsqrt": tf.math.rsqrt(tf.constant([4.0, 0.25])),
            "sqrt_complex": tf.math.sqrt(tf.constant([-4.0 + 0j, 9.0 + 0j])),
            "exp": tf.math.exp(tf.constant([0.0, 1.0, 2.0])), "log": tf.math.log(tf.constant([1.0, np.e, 10.0])),
            "log1p": tf.math.log1p(tf.constant([0.0, 1e-8, 1.0])),
            "sigmoid": tf.math.sigmoid(tf.constant([-10.0, 0.0, 10.0])),
            "log_sigmoid": tf.math.log_sigmoid(tf.constant([-10.0, 0.0, 10.0])),
            "softplus": tf.math.softplus(tf.range(0, 2, dtype=tf.float32)),
            "tanh": tf.math.tanh(tf.constant([-float("inf"), -5.0, 0.0, 5.0, float("inf")])),
            "erf": tf.math.erf(tf.constant([-1.0, 0.0, 0.5])), "erfcinv": tf.math.erfcinv([0.0, 0.1, 1.0, 2.0]),
            "bessel_i0": tf.math.bessel_i0([-1.0, -0.5, 0.5, 1.0]), "bessel_i0e": tf.math.bessel_i0e([-1.0, 0.5]),
            "bessel_i1": tf.math.bessel_i1([-1.0, -0.5, 0.5, 1.0]), "bessel_i1e": tf.math.bessel_i1e([-1.0, 0.5]),
            "conj": tf.math.conj(tf.constant([-2.25 + 4.75j, 3.25 + 5.75j])),
            "xdivy": tf.math.xdivy([0.0, 1.0, 2.0], [0.0, 2.0, 4.0]),
            "xlog1py": tf.math.xlog1py([0.0, 1.0, 2.0], [-1.0, 1.0, 3.0]),
            "divide_no_nan": tf.math.divide_no_nan(tf.constant([3.0, 1.0]), tf.constant([0.0, 2.0])),
            "truediv_ints": tf.math.truediv(tf.constant([6, 5]), tf.constant([2, 2])),
            "divide": tf.math.divide(tf.constant([6, 5]), 2),
            "scalar_mul": tf.math.scalar_mul(2, tf.constant([1.0, 2.0])),
            "polyval": tf.math.polyval([2.0, 1.0, 0.0], 3.0),
            "maximum_broadcast": tf.math.maximum(tf.constant([0.0, 0.0, 0.0]), tf.constant([-5.0, -2.0, 0.0])),
            "minimum_int": tf.math.minimum(tf.constant([-5, 0, 5]), 0),
            "add_strings": tf.math.add(tf.constant(["a", "b"]), tf.constant(["c", "d"])),
            "subtract": tf.math.subtract(tf.ones([2, 2]), [1.0, 2.0]),
            "multiply": tf.math.multiply(tf.constant([[1, 2], [3, 4]]), 7)}


def program_math_logic_and_compare_examples(tf):
    a, b = tf.constant([True, False, True]), tf.constant([True, True, False])
    return {"and": tf.math.logical_and(a, b), "or": tf.math.logical_or(a, b), "xor": tf.math.logical_xor(a, b),
            "not": tf.math.logical_not(a), "equal": tf.math.equal(tf.constant([2, 4]), 2),
            "not_equal": tf.math.not_equal(tf.constant([2, 4]), tf.constant([2, 5])),
            "non_decreasing": tf.math.is_non_decreasing([1, 2, 2, 3]),
            "strictly_increasing": tf.math.is_strictly_increasing([1, 2, 2, 3]),
            "in_top_k": tf.math.in_top_k([3, 1], tf.constant([[0.1, 0.3, 0.2, 0.4], [0.1, 0.3, 0.2, 0.4]]), 2)}


def program_math_reduction_examples(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    i = tf.constant([[1, 1, 1], [1, 1, 1]])
    return {"sum_all": tf.math.reduce_sum(i), "sum_0": tf.math.reduce_sum(i, 0),
            "sum_keep": tf.math.reduce_sum(i, 1, keepdims=True), "sum_both": tf.math.reduce_sum(i, [0, 1]),
            "mean": tf.math.reduce_mean(x), "mean_0": tf.math.reduce_mean(x, 0),
            "mean_int": tf.math.reduce_mean(tf.constant([1, 0, 1, 0])),
            "max": tf.math.reduce_max(tf.constant([5, 1, 2, 4])),
            "max_inf": tf.math.reduce_max(tf.constant([-5.0, -float("inf")])),
            "max_nan": tf.math.reduce_max(tf.constant([4.0, float("nan")])),
            "min": tf.math.reduce_min(tf.constant([[1, 2], [3, 4]]), axis=1),
            "prod": tf.math.reduce_prod(x, 0), "std": tf.math.reduce_std(x), "std_0": tf.math.reduce_std(x, 0),
            "variance": tf.math.reduce_variance(x, 1),
            "variance_complex": tf.math.reduce_variance(tf.constant([1.0 + 1j, 3.0 - 1j])),
            "all": tf.math.reduce_all(tf.constant([[True, True], [False, False]]), 1),
            "any": tf.math.reduce_any(tf.constant([[True, True], [False, False]])),
            "add_n": tf.math.add_n([tf.constant([1, 2]), tf.constant([3, 4]), tf.constant([5, 6])]),
            "cumsum": tf.math.cumsum([2, 4, 6, 8]), "cumsum_exclusive": tf.math.cumsum([2, 4, 6, 8], exclusive=True),
            "cumsum_reverse": tf.math.cumsum([2, 4, 6, 8], reverse=True),
            "cumsum_axis": tf.math.cumsum([[2, 4], [6, 8]], axis=1),
            "argmax": tf.math.argmax(tf.constant([2, 20, 30, 3, 6])),
            "argmax_axis": tf.math.argmax(tf.constant([[1, 5], [7, 2]]), axis=1),
            "softmax": tf.math.softmax(tf.constant([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])),
            "l2_normalize": tf.math.l2_normalize(tf.constant([3.0, 4.0])),
            "l2_normalize_axis": tf.math.l2_normalize(tf.constant([[3.0], [4.0]]), axis=0)}


def program_math_segment_examples(tf):
    c = tf.constant([[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]])
    ids = tf.constant([0, 0, 1])
    unsorted = tf.constant([0, 1, 0])
    out = {}
    for name in ("sum", "prod", "max", "min", "mean"):
        data = tf.cast(c, tf.float32) if name == "mean" else c
        out[f"segment_{name}"] = getattr(tf.math, f"segment_{name}")(data, ids)
    for name in ("sum", "prod", "max", "min"):
        out[f"unsorted_{name}"] = getattr(tf.math, f"unsorted_segment_{name}")(c, unsorted, num_segments=2)
    out["bincount"] = tf.math.bincount(tf.constant([1, 1, 2, 3, 2, 4, 4, 5]))
    out["bincount_weights"] = tf.math.bincount(tf.constant([1, 1, 2, 3, 2, 4, 4, 5]),
                                               weights=tf.constant([1.0, 5, 0, 1, 0, 5, 4, 5]))
    out["bincount_2d_binary"] = tf.math.bincount(tf.constant([[1, 2, 2], [3, 0, 3]]), axis=-1, binary_output=True)
    out["bincount_minlength"] = tf.math.bincount(tf.constant([1, 1]), minlength=5)
    return out


def program_math_top_k_examples(tf):
    v = tf.constant([[1.0, 5.0, 3.0, 9.0], [8.0, 2.0, 2.0, 7.0]])
    top = tf.math.top_k(v, k=2)
    approx_max = tf.math.approx_max_k(v, 2)
    return {"values": top.values, "indices": top.indices, "sorted_1d": tf.math.top_k([1, 3, 2], k=3).values,
            "approx_max": list(approx_max)}  # (TF's CPU has no approx_min_k kernel: README)


def program_dtypes_and_bitwise_examples(tf):
    x = tf.constant([1.8, 2.2])
    a = tf.constant([0, 5, 3, 14], tf.int32)
    b = tf.constant([5, 0, 7, 11], tf.int32)
    return {"cast": tf.dtypes.cast(x, tf.int32), "cast_complex": tf.cast(tf.constant([1.5 + 2j]), tf.float32),
            "as_dtype_name": tf.as_dtype("float64"), "as_dtype_np": tf.as_dtype(np.int16),
            "dtype_props": [tf.float32.is_floating, tf.int32.is_integer, tf.uint8.is_unsigned, tf.bool.is_bool,
                            tf.complex64.is_complex, tf.float16.size, tf.int8.max, tf.uint16.min,
                            tf.complex128.real_dtype.name, tf.string.is_floating],
            "bitwise_and": tf.bitwise.bitwise_and(a, b), "bitwise_or": tf.bitwise.bitwise_or(a, b),
            "bitwise_xor": tf.bitwise.bitwise_xor(a, b), "invert": tf.bitwise.invert(tf.constant([0, 5], tf.uint8)),
            "left_shift": tf.bitwise.left_shift(a, 2), "right_shift": tf.bitwise.right_shift(b, 1)}


def program_reduce_variance_of_complex_is_real(tf):
    v = tf.Variable([1.0 + 1j, 3.0 - 2j])
    with tf.GradientTape() as g:
        y = tf.math.reduce_std(v)
    return {"variance": tf.math.reduce_variance(tf.constant([1.0 + 1j, 3.0 - 1j])),
            "std64": tf.math.reduce_std(tf.constant([[1.0 + 1j, 3.0 - 1j]], tf.complex64), axis=-1),
            "grad": g.gradient(y, v)}


def program_reduce_variance_of_integers_raises(tf):
    return tf.math.reduce_variance(tf.constant([1, 2]))


def program_reduce_std_of_integers_raises(tf):
    return tf.math.reduce_std(tf.constant([1, 2]))

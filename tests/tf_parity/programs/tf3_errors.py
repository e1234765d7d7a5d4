"""String and dtype errors: which exception TensorFlow raises (eagerly) for strings given to
numeric ops, kernels a dtype lacks (sort, matmul, logical ops), conversions and Python protocol
calls on tensors.  Values: the result's dtype, or the exception class."""
import numpy as np

from _sweep import outcomes


def _dtypes(cases):
    return outcomes({k: (lambda f=f: str(f().dtype.name)) for k, f in cases.items()}, keep_values=True)


def program_string_op_errors(tf):
    return _dtypes({
        "to_number_int": lambda: tf.strings.to_number(tf.constant(["12"]), tf.int32),
        "to_number_bad_dtype": lambda: tf.strings.to_number(tf.constant(["1"]), tf.string),
        "as_string_string": lambda: tf.strings.as_string(tf.constant(["a"])),
        "substr_oob": lambda: tf.strings.substr(tf.constant("abc"), 5, 1),
        "split_int": lambda: tf.strings.split(tf.constant([1])),
        "regex_bad": lambda: tf.strings.regex_replace(tf.constant("a"), "(", "b"),
        "regex_full_bad": lambda: tf.strings.regex_full_match(tf.constant("a"), "["),
        "reduce_join_axis": lambda: tf.strings.reduce_join(tf.constant([["a", "b"]]), axis=2),
        "reduce_join_neg": lambda: tf.strings.reduce_join(tf.constant([["a", "b"]]), axis=-3),
        "unicode_decode_strict": lambda: tf.strings.unicode_decode(tf.constant(b"\xff"), "UTF-8", errors="strict"),
        "format_mismatch": lambda: tf.strings.format("{} {}", [tf.constant(1)]),
        "string_less": lambda: tf.constant("a") < tf.constant("b"),
        "string_equal_int": lambda: tf.equal(tf.constant("a"), 1),
        "cast_bool_string": lambda: tf.cast(tf.constant([True]), tf.string),
        "sort_string": lambda: tf.sort(tf.constant(["b", "a"])),
        "argsort_string": lambda: tf.argsort(tf.constant(["b", "a"])),
        "top_k_string": lambda: tf.math.top_k(tf.constant(["b", "a"]), 1).values,
        "argmax_string": lambda: tf.argmax(tf.constant(["a", "b"])),
        "unique_string": lambda: tf.unique(tf.constant(["b", "a", "b"])).y,
        "zeros_string": lambda: tf.zeros([2], tf.string),
        "fill_string": lambda: tf.fill([2], "ab"),
        "variable_string_add": lambda: tf.Variable("a").assign_add("b"),
    })


def program_dtype_kernel_errors(tf):
    return _dtypes({
        "matmul_int8": lambda: tf.matmul(tf.constant([[1]], tf.int8), tf.constant([[1]], tf.int8)),
        "matmul_int16": lambda: tf.matmul(tf.constant([[1]], tf.int16), tf.constant([[1]], tf.int16)),
        "matmul_int64": lambda: tf.matmul(tf.constant([[1]], tf.int64), tf.constant([[1]], tf.int64)),
        "matmul_bool": lambda: tf.matmul(tf.constant([[True]]), tf.constant([[True]])),
        "matmul_f16": lambda: tf.matmul(tf.constant([[1]], tf.float16), tf.constant([[1]], tf.float16)),
        "matmul_int8_batch": lambda: tf.matmul(tf.ones([2, 1, 1], tf.int8), tf.ones([2, 1, 1], tf.int8)),
        "logical_and_int": lambda: tf.logical_and(tf.constant([1]), tf.constant([0])),
        "logical_not_int": lambda: tf.logical_not(tf.constant([1])),
        "logical_or_float": lambda: tf.logical_or(tf.constant([1.0]), tf.constant([0.0])),
        "bitand_int": lambda: tf.constant([1]) & tf.constant([0]),
        "sort_bool": lambda: tf.sort(tf.constant([True, False])),
        "abs_uint": lambda: tf.abs(tf.constant([1], tf.uint8)),
        "sqrt_int": lambda: tf.sqrt(tf.constant([4])),
        "div_int": lambda: tf.constant([7]) / tf.constant([2]),
        "truediv_int8": lambda: tf.constant([7], tf.int8) / tf.constant([2], tf.int8),
        "floordiv_zero": lambda: tf.constant([7]) // tf.constant([0]),
        "pow_int_neg": lambda: tf.pow(tf.constant([2]), tf.constant([-1])),
        "reduce_mean_bool": lambda: tf.reduce_mean(tf.constant([True, False])),
        "reduce_sum_bool": lambda: tf.reduce_sum(tf.constant([True, True])),
        "add_bool": lambda: tf.add(tf.constant([True]), tf.constant([True])),
        "where_int_cond": lambda: tf.where(tf.constant([1, 0]), 1, 2),
        "clip_mixed": lambda: tf.clip_by_value(tf.constant([5.0]), 0, 3),
        "maximum_mixed": lambda: tf.maximum(tf.constant([1.0]), tf.constant([1])),
        "one_hot_float_idx": lambda: tf.one_hot(tf.constant([0.0]), 3),
        "cast_complex_int": lambda: tf.cast(tf.constant([1 + 2j]), tf.int32),
        "bitcast_shape": lambda: tf.bitcast(tf.constant([1, 2, 3], tf.int8), tf.int16),
        "range_float_int": lambda: tf.range(0, 1.5, 0.5, dtype=tf.int32),
        "range_int_float": lambda: tf.range(0, 3, 1, dtype=tf.float32),
        "as_dtype_bad": lambda: tf.as_dtype("float33"),
        "as_dtype_object": lambda: tf.as_dtype(np.object_),
    })


def program_python_protocol_errors(tf):
    return outcomes({
        "bool_vector": lambda: bool(tf.constant([1, 2])),
        "int_vector": lambda: int(tf.constant([1, 2])),
        "float_string": lambda: float(tf.constant("1.5")),
        "index_float": lambda: tf.constant([1, 2])[1.0],
        "iter_scalar": lambda: list(tf.constant(1)),
        "len_scalar": lambda: len(tf.constant(1)),
        "hash_tensor": lambda: hash(tf.constant(1)),
        "contains": lambda: 1 in tf.constant([1, 2]),
        "bool_scalar": lambda: bool(tf.constant(0)),
        "int_scalar": lambda: int(tf.constant(3.7)),
        "index_scalar_tensor": lambda: [10, 20, 30][tf.constant(1)],
    }, keep_values=True)

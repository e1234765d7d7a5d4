"""TensorFlow 2.21's docstring examples (tf.*, tf.math, tf.dtypes) that tapeflow answered
differently, rewritten as programs: repeated tensor_scatter_nd_update indices, DataType
enum numbers as dtypes, get_static_value of a variable, numpy_function's decorator and its
eager/graph conversion rules."""
import numpy as np


def program_scatter_update_repeated_index_last_wins(tf):
    # the docstring's two diagonals cross at [2, 2]
    diag = [[i, i] for i in range(5)]
    anti = [[i, 4 - i] for i in range(5)]
    crossed = tf.tensor_scatter_nd_update(tf.zeros([5, 5]), tf.constant([diag, anti]), tf.ones([2, 5]))
    repeated = tf.tensor_scatter_nd_update(tf.zeros([4]), [[1], [1], [2], [1]], [5.0, 7.0, 3.0, 9.0])
    rows = tf.tensor_scatter_nd_update(tf.zeros([2, 3], tf.int32), [[1], [1]], [[5, 7, 3], [1, 2, 3]])
    f = tf.function(lambda t, i, u: tf.tensor_scatter_nd_update(t, i, u))
    many = f(tf.zeros([7]), tf.constant([[i % 7] for i in range(300)]), tf.range(300.0))
    empty = f(tf.ones([3, 2]), tf.zeros([0, 2], tf.int32), tf.zeros([0]))
    strings = tf.tensor_scatter_nd_update(tf.constant([b"a", b"b", b"c"]), [[2], [0], [2]], [b"x", b"y", b"z"])
    return {"crossed": crossed, "repeated": repeated, "rows": rows, "many": many, "empty": empty,
            "strings": strings}


def program_scatter_update_gradient_distinct(tf):
    v = tf.Variable([5.0, 7.0, 3.0])
    t = tf.Variable([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as g:
        y = tf.reduce_sum(tf.tensor_scatter_nd_update(t, [[3], [0], [2]], v) * [1.0, 2.0, 3.0, 4.0])
    return {"grads": g.gradient(y, [v, t])}


def program_scatter_update_index_out_of_range_raises(tf):
    return tf.tensor_scatter_nd_update(tf.zeros([3, 2]), [[0, 5]], [1.0])


def program_scatter_max_index_wraps_raises(tf):
    return tf.tensor_scatter_nd_max(tf.zeros([3, 2]), [[0, 2]], [1.0])


def program_scatter_update_index_out_of_range_in_function_raises(tf):
    f = tf.function(lambda t, i, u: tf.tensor_scatter_nd_update(t, i, u))
    return f(tf.zeros([3, 2]), tf.constant([[-1, 0]]), tf.constant([1.0]))


def program_as_dtype_enum_numbers(tf):
    return {"float64": tf.as_dtype(2), "int32": tf.as_dtype(3), "bool": tf.as_dtype(10),
            "from_float": tf.as_dtype(9.0), "from_true": tf.as_dtype(True),
            "enums": [d.as_datatype_enum for d in (tf.float32, tf.int64, tf.string, tf.bfloat16, tf.uint64)],
            "equal_enum": [tf.float32 == 1, tf.int32 == 3, tf.int32 == 1],
            "ones_dtype_3": tf.ones(2, 3), "zeros_dtype_9": tf.zeros([2], 9)}


def program_as_dtype_unknown_enum_raises(tf):
    return tf.as_dtype(-1)


def program_get_static_value_of_variable(tf):
    a, b = tf.constant(10), tf.constant(20)
    c = tf.Variable(30)
    return {"sum": tf.get_static_value(tf.add(a, b)), "variable": tf.get_static_value(c) is None,
            "numpy": tf.get_static_value(np.array([1, 2]))}


def program_numpy_function_decorator(tf):
    seen = []

    @tf.numpy_function(Tout=tf.float32)
    def sinh(x):
        seen.append((type(x).__name__, str(x.dtype), x.shape))
        return np.sinh(x)

    eager_float = sinh(1.0)            # a Python float arrives as a float64 array, and stays float64
    eager_tensor = sinh(tf.constant(1.0))
    graph = tf.function(lambda x: sinh(x))(tf.constant(1.0))
    return {"eager_float": eager_float, "eager_tensor": eager_tensor, "graph": graph, "seen": seen}


def program_numpy_function_eager_conversions(tf):
    same = lambda x: x  # noqa: E731
    return {"list_arg": tf.numpy_function(same, [[1, 2]], [tf.float32]),
            "string": tf.numpy_function(same, [tf.constant(b"ab")], tf.string),
            "none": tf.numpy_function(lambda: None, [], tf.float32) is None,
            "pair": tf.numpy_function(lambda: (1, 2.5), [], [tf.int32, tf.float32])}


def program_numpy_function_graph_args(tf):
    seen = []

    def record(x, y):
        seen.extend([(type(x).__name__, str(x.dtype)), (type(y).__name__, str(y.dtype))])
        return x, y
    f = tf.function(lambda a, b: tf.numpy_function(record, [a, b], [tf.float32, tf.int32]))
    return {"out": f(tf.constant(1.5), tf.constant(2)), "seen": seen}


def program_numpy_function_graph_dtype_mismatch_raises(tf):
    return tf.function(lambda: tf.numpy_function(lambda: 2.5, [], tf.float32))()


def program_numpy_function_graph_python_int_is_int64(tf):
    return {"int64": tf.function(lambda: tf.numpy_function(lambda: 2, [], tf.int64))(),
            "float64": tf.function(lambda: tf.numpy_function(lambda: 2.5, [], tf.float64))()}

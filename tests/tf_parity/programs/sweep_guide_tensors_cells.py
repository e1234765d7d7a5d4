"""The "Introduction to Tensors" guide, cell by cell as a user types it (moved here from
tests/programs/test_prog_guide_tensors.py: the expected values are now TF's)."""
import numpy as np

from _cells import error_name


def program_basics_ranks_and_dtypes(tf):
    rank_0 = tf.constant(4)
    rank_1 = tf.constant([2.0, 3.0, 4.0])
    rank_2 = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    rank_3 = tf.constant([[[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]],
                          [[10, 11, 12, 13, 14], [15, 16, 17, 18, 19]],
                          [[20, 21, 22, 23, 24], [25, 26, 27, 28, 29]]])
    return {"r0": rank_0, "r1": rank_1, "r2": rank_2, "r3_shape": rank_3.shape,
            "np": np.array(rank_2), "repr0": repr(rank_0), "str3": str(rank_3)}


def program_basic_math_cells(tf):
    a = tf.constant([[1, 2], [3, 4]])
    b = tf.constant([[1, 1], [1, 1]])
    c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
    return {"add": tf.add(a, b), "mul": tf.multiply(a, b), "matmul": tf.matmul(a, b), "op_add": a + b,
            "op_mm": a @ b, "max": tf.reduce_max(c), "argmax": tf.math.argmax(c), "softmax": tf.nn.softmax(c),
            "cvt": tf.convert_to_tensor([1, 2, 3]), "max_list": tf.reduce_max([1, 2, 3]),
            "softmax_list": tf.nn.softmax([4.0, 5.0])}


def program_shape_cells(tf):
    t = tf.zeros([3, 2, 4, 5])
    return {"dtype": t.dtype, "ndim": t.ndim, "shape": t.shape, "first": t.shape[0], "last": t.shape[-1],
            "size": tf.size(t), "rank": tf.rank(t), "tf_shape": tf.shape(t), "as_list": t.shape.as_list(),
            "partial": tf.TensorShape([None, 3]).as_list()}


def program_single_axis_indexing_cells(tf):
    t = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    return {"first": t[0], "last": t[-1], "all": t[:], "head": t[:4], "tail": t[4:], "mid": t[2:-3],
            "step": t[::2], "rev": t[::-1]}


def program_multi_axis_indexing_cells(tf):
    r2 = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    r3 = tf.reshape(tf.range(30), [3, 2, 5])
    return {"item": r2[1, 1], "row": r2[1, :], "col": r2[:, 1], "last_row": r2[-1, :], "skip": r2[1:, :],
            "r3_last": r3[:, :, 4], "ellipsis": r3[..., 4], "newaxis": r3[:, tf.newaxis, 0]}


def program_reshaping_cells(tf):
    x = tf.constant([[1], [2], [3]])
    r3 = tf.constant(np.arange(30).reshape(3, 2, 5))
    return {"x_shape": x.shape.as_list(), "reshaped": tf.reshape(x, [1, 3]), "flat": tf.reshape(r3, [-1]),
            "six_five": tf.reshape(r3, [3 * 2, 5]).shape, "three_m1": tf.reshape(r3, [3, -1]).shape,
            "bad": error_name(lambda: tf.reshape(r3, [7, -1])), "transposed": tf.transpose(r3, [1, 0, 2])}


def program_dtype_and_cast_cells(tf):
    f64 = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
    f16 = tf.cast(f64, dtype=tf.float16)
    u8 = tf.cast(f16, dtype=tf.uint8)
    return {"f16": f16, "u8": u8, "flags": [tf.float32.is_floating, tf.int32.is_integer, tf.int32.is_floating],
            "from_np": tf.as_dtype(np.float32), "np_type": tf.float32.as_numpy_dtype.__name__,
            "mixed": error_name(lambda: tf.constant([1, 2]) + tf.constant([1.0, 2.0]))}


def program_broadcasting_cells(tf):
    x = tf.constant([1, 2, 3])
    y = tf.constant(2)
    z = tf.constant([2, 2, 2])
    col = tf.reshape(x, [3, 1])
    return {"scalar": tf.multiply(x, 2), "xy": x * y, "xz": x * z, "outer": tf.multiply(col, tf.range(1, 5)),
            "broadcast_to": tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3])}


def program_numpy_interop_cells(tf):
    a = np.ones((2, 2), np.float32)
    t = tf.convert_to_tensor(np.array([1.0, 2.0]))
    n = np.add(tf.ones((2,)), 1)
    return {"t": t, "t2": tf.convert_to_tensor([1.0, 2.0], dtype=tf.float64), "add": tf.add(a, 1),
            "np_add_type": type(n).__name__, "np_add": n, "is_tensor": [tf.is_tensor(t), tf.is_tensor(a)],
            "mm": tf.ones((2, 2)).numpy() @ a}


def program_string_cells(tf):
    s = tf.constant("Gray wolf")
    many = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
    uni = tf.constant("アヒル 🦆")
    return {"s": s, "many_shape": many.shape, "emoji": str(tf.constant("🥳👍")),
            "split": tf.strings.split(s, sep=" "), "split_many": tf.strings.split(many),
            "numbers": tf.strings.to_number(tf.strings.split(tf.constant("1 10 100"), " ")),
            "bytes": tf.strings.bytes_split(tf.constant("Duck")),
            "unicode_split": tf.strings.unicode_split(uni, "UTF-8"),
            "unicode_decode": tf.strings.unicode_decode(uni, "UTF-8")}


def program_ragged_and_sparse_cells(tf):
    ragged_list = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
    rt = tf.ragged.constant(ragged_list)
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    return {"dense_fails": error_name(lambda: tf.constant(ragged_list)), "shape": rt.shape.as_list(),
            "rt": rt, "sparse_dense": tf.sparse.to_dense(st), "st": st}


def program_python_conversion_cells(tf):
    t = tf.constant([1.5, 2.5])
    return {"floats": [float(v) for v in t], "len": len(t), "bool": bool(tf.constant(True)),
            "int": int(tf.constant(3)), "eq": bool(tf.constant(3.0) == 3.0),
            "defined": tf.ones([2]).shape.is_fully_defined(), "var": tf.convert_to_tensor(tf.Variable([1.0, 2.0]))}

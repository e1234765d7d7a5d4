"""TF guide: Introduction to tensors (basics, shapes, indexing, broadcasting, conversion)."""


def program_rank_0_1_2(tf):
    r0 = tf.constant(4)
    r1 = tf.constant([2.0, 3.0, 4.0])
    r2 = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    return {"r0": r0, "r1": r1, "r2": r2, "ranks": [r0.ndim, r1.ndim, r2.ndim]}


def program_basic_math(tf):
    a = tf.constant([[1, 2], [3, 4]])
    b = tf.constant([[1, 1], [1, 1]])
    return {"add": tf.add(a, b), "mul": tf.multiply(a, b), "matmul": tf.matmul(a, b),
            "ops": a + b, "elem": a * b, "at": a @ b}


def program_reductions_and_softmax(tf):
    c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
    return {"max": tf.reduce_max(c), "argmax": tf.math.argmax(c), "softmax": tf.nn.softmax(c)}


def program_shapes(tf):
    t = tf.zeros([3, 2, 4, 5])
    return {"dtype": t.dtype, "ndim": t.ndim, "shape": t.shape, "axis0": t.shape[0], "last": t.shape[-1],
            "size": tf.size(t), "rank": tf.rank(t), "tshape": tf.shape(t)}


def program_indexing(tf):
    r = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    m = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return {"first": r[0], "last": r[-1], "slice": r[1:4], "step": r[::2], "rev": r[::-1],
            "m": m[1, 1], "row": m[1, :], "col": m[:, 1], "sub": m[1:, :]}


def program_reshape(tf):
    x = tf.constant([[1], [2], [3]])
    t = tf.reshape(tf.range(24), [2, 3, 4])
    return {"shape": x.shape.as_list(), "r": tf.reshape(x, [1, 3]), "flat": tf.reshape(t, [-1])[:6],
            "merge": tf.reshape(t, [2 * 3, 4]), "split": tf.reshape(t, [-1, 2, 12]).shape}


def program_dtypes_cast(tf):
    f64 = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
    f16 = tf.cast(f64, dtype=tf.float16)
    u8 = tf.cast(f16, dtype=tf.uint8)
    return {"f16": f16, "u8": u8}


def program_broadcasting(tf):
    x = tf.constant([1, 2, 3])
    y = tf.constant(2)
    z = tf.constant([2, 2, 2])
    col = tf.reshape(x, [3, 1])
    row = tf.range(1, 5)
    return {"a": tf.multiply(x, 2), "b": x * y, "c": x * z, "outer": col * row,
            "to": tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3])}


def program_convert_numpy(tf):
    import numpy as np
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    t = tf.convert_to_tensor(a)
    return {"t": t, "np": t.numpy(), "np_of_op": np.add(t, 1)}


def program_ragged(tf):
    r = tf.ragged.constant([[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]])
    return {"r": r, "shape": r.shape}


def program_sparse(tf):
    s = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    return {"s": s, "dense": tf.sparse.to_dense(s)}


def program_string_free_printing(tf):
    x = tf.constant([[1.5, 2.25], [3.0, 4.125]])
    return {"str": str(x), "repr": repr(x), "scalar_repr": repr(tf.constant(0.1)),
            "bool": str(tf.constant([True, False])), "f64": str(tf.constant(0.1, tf.float64))}


def program_variable_repr(tf):
    v = tf.Variable([1.0, 2.0])
    s = tf.Variable(0.1)
    return {"repr": repr(v), "scalar": repr(s), "name": v.name}


def program_concat_stack(tf):
    a = tf.constant([[1, 2]])
    b = tf.constant([[3, 4]])
    return {"c0": tf.concat([a, b], 0), "c1": tf.concat([a, b], 1), "s": tf.stack([a, b]),
            "u": tf.unstack(tf.constant([[1, 2], [3, 4]]))}


def program_float32_digits(tf):
    return {"str": str(tf.constant(1 / 3)), "arr": str(tf.constant([1 / 3, 2 / 3])),
            "repr": repr(tf.constant([0.1]))}

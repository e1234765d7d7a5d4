"""tf.sparse's index-level ops as TensorFlow keeps entries (explicit zeros stay):
add (threshold), maximum/minimum, transpose, reshape, concat, slice, split, softmax,
fill_empty_rows, segment reductions, bincount, eye, to_indicator, map_values,
reset_shape; also inside tf.function."""
from parity import tolerance
from _sweep import outcomes


def _st(tf):
    a = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 0.0], [2, 3])
    b = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 1]], [-1.0, 5.0, -3.0], [2, 3])
    return a, b


def program_merges(tf):
    a, b = _st(tf)
    return {"add": tf.sparse.add(a, b), "add_threshold": tf.sparse.add(a, b, threshold=0.5),
            "add_dense": tf.sparse.add(a, tf.ones([2, 3])), "max": tf.sparse.maximum(a, b),
            "min": tf.sparse.minimum(a, b), "int_add": tf.sparse.add(tf.sparse.from_dense([[1, 0], [0, 2]]),
                                                                   tf.sparse.from_dense([[0, 3], [0, -2]]))}


def program_layout(tf):
    a, b = _st(tf)
    x = tf.sparse.SparseTensor([[0, 1], [1, 2]], [1, 2], [2, 3])
    return {"transpose": tf.sparse.transpose(a), "transpose_perm": tf.sparse.transpose(
                tf.sparse.SparseTensor([[0, 1, 2], [1, 0, 1]], [7, 8], [2, 3, 4]), [2, 0, 1]),
            "reshape": tf.sparse.reshape(x, [3, -1]), "reshape3": tf.sparse.reshape(x, [1, 6, 1]),
            "concat": tf.sparse.concat(1, [a, b]), "concat0": tf.sparse.concat(0, [a, b]),
            "concat_expand": tf.sparse.concat(1, [tf.sparse.SparseTensor([[0, 0]], [1], [2, 2]),
                                                  tf.sparse.SparseTensor([[2, 0]], [1], [3, 1])],
                                              expand_nonconcat_dims=True),
            "slice": tf.sparse.slice(a, [0, 1], [2, 5]),
            "split": tf.sparse.split(sp_input=tf.sparse.SparseTensor([[0, 0], [0, 4], [1, 6]], [1, 2, 3], [2, 7]),
                                     num_split=3, axis=1)}


@tolerance(rtol=1e-6, atol=1e-7)
def program_rows_and_counts(tf):
    st = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 3.0], [2, 3])
    filled, empty = tf.sparse.fill_empty_rows(tf.sparse.SparseTensor([[1, 1], [3, 0]], [5, 6], [5, 2]), -1)
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return {"softmax": tf.sparse.softmax(st), "filled": filled, "empty": empty,
            "seg_sum": tf.sparse.segment_sum(data, tf.constant([0, 2, 1]), tf.constant([0, 0, 1])),
            "seg_mean": tf.sparse.segment_mean(data, tf.constant([0, 2, 1]), tf.constant([0, 0, 2]), num_segments=4),
            "seg_sqrt_n": tf.sparse.segment_sqrt_n(data, tf.constant([0, 2, 1]), tf.constant([0, 0, 1])),
            "bincount": tf.sparse.bincount(tf.constant([[1, 1, 3], [0, 2, 2]]), axis=-1),
            "bincount1": tf.sparse.bincount(tf.constant([1, 1, 3]), minlength=5),
            "eye": tf.sparse.eye(2, 3), "indicator": tf.sparse.to_indicator(
                tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [3, 1, 0], [2, 2]), 4),
            "map_values": tf.sparse.map_values(tf.math.negative, st),
            "map_two": tf.sparse.map_values(tf.add, st, st),
            "reset": tf.sparse.reset_shape(tf.sparse.SparseTensor([[0, 1]], [1], [4, 4])),
            "reset_to": tf.sparse.reset_shape(tf.sparse.SparseTensor([[0, 1]], [1], [4, 4]), [5, 6]).dense_shape}


def program_sparse_in_function(tf):
    @tf.function
    def f(values):
        a = tf.sparse.SparseTensor([[0, 0], [1, 2]], values, [2, 3])
        b = tf.sparse.SparseTensor([[0, 1], [1, 2]], values * 2.0, [2, 3])
        s = tf.sparse.add(a, b)
        t = tf.sparse.transpose(s)
        c = tf.sparse.concat(0, [s, s])
        return tf.sparse.to_dense(t), s.indices, tf.sparse.to_dense(tf.sparse.softmax(c)), tf.sparse.to_dense(
            tf.sparse.reshape(s, [3, 2]))

    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        dense, idx, soft, reshaped = f(v)
        loss = tf.reduce_sum(dense * tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]))
    return {"dense": dense, "idx": idx, "soft": soft, "reshaped": reshaped, "grad": tape.gradient(loss, v)}


def program_errors(tf):
    a, _ = _st(tf)
    out = {}
    out.update(outcomes({"add_shapes": lambda: tf.sparse.add(a, tf.sparse.SparseTensor([[0, 0]], [1.0], [3, 3])),
                         "reshape": lambda: tf.sparse.reshape(a, [4, 2]),
                         "concat": lambda: tf.sparse.concat(1, [tf.sparse.SparseTensor([[0, 0]], [1], [2, 2]),
                                                            tf.sparse.SparseTensor([[2, 0]], [1], [3, 1])]),
                         "map_none": lambda: tf.sparse.map_values(tf.abs, tf.ones([2]))}))
    return out

"""tf.ragged and RaggedTensor methods as their TF 2.21 docstring examples use them: the
numpy() of uniform rows, uniform_row_length as a tensor, nested value row ids, from_tensor
with nested lengths, tf.ragged.boolean_mask's keywords, and the constructors and accessors
the docstrings walk through."""
from _sweep import outcomes


def program_numpy_rows(tf):
    return {"ragged": tf.ragged.constant([[1, 2, 3], [4, 5]], dtype=tf.int64).numpy(),
            "uniform": tf.ragged.constant([[1, 2, 3], [4, 5, 6]], dtype=tf.int64).numpy(),
            "uniform3d": tf.ragged.constant([[[1], [2]], [[3], [4]]]).numpy(),
            "strings": tf.ragged.constant([["a", "b"], ["c", "d"]]).numpy(),
            "empty_rows": tf.ragged.constant([[], []], dtype=tf.float32).numpy(),
            "no_rows": tf.ragged.constant([[1, 2], [3]])[:0].numpy()}


def program_uniform_row_length(tf):
    rt = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]])
    rt2 = tf.RaggedTensor.from_uniform_row_length(rt, uniform_row_length=2)
    return {"ragged_rows": rt.uniform_row_length is None, "uniform": rt2.uniform_row_length,
            "shape": rt2.shape, "rows": rt2.to_list(),
            "from_tensor": tf.RaggedTensor.from_tensor(tf.zeros([2, 3, 4]), ragged_rank=2).uniform_row_length}


def program_nested_value_rowids(tf):
    rt = tf.ragged.constant([[[[3, 1, 4, 1], [], [5, 9, 2]], [], [[6], []]]])
    return {"ids": list(rt.nested_value_rowids()), "one": list(tf.ragged.constant([[1], [], [2, 3]]).nested_value_rowids()),
            "lengths": list(rt.nested_row_lengths()), "splits": list(rt.nested_row_splits)}


def program_from_tensor_lengths(tf):
    dt = tf.constant([[5, 7, 0], [0, 3, 0], [6, 0, 0]])
    dt3 = tf.constant([[[5, 0], [7, 0], [0, 0]], [[0, 0], [3, 0], [0, 0]], [[6, 0], [0, 0], [0, 0]]])
    t = tf.constant([[[1, 0], [2, 3]], [[0, 0], [4, 0]]])
    out = {"plain": tf.RaggedTensor.from_tensor(dt), "lengths": tf.RaggedTensor.from_tensor(dt, lengths=[1, 0, 3]),
           "padding": tf.RaggedTensor.from_tensor(dt, padding=0),
           "nested": tf.RaggedTensor.from_tensor(dt3, lengths=([2, 0, 3], [1, 1, 2, 0, 1])),
           "nested_rr2": tf.RaggedTensor.from_tensor(dt3, lengths=([2, 0, 3], [1, 1, 2, 0, 1]), ragged_rank=2),
           "rank2_padding": tf.RaggedTensor.from_tensor(t, padding=0, ragged_rank=2),
           "rank2_lengths": tf.RaggedTensor.from_tensor(t, lengths=[1, 2, 0, 1], ragged_rank=2)}
    out.update(outcomes({
        "both": lambda: tf.RaggedTensor.from_tensor(dt, lengths=[1, 2, 0], padding=0),
        "nested_bad_rank": lambda: tf.RaggedTensor.from_tensor(t, lengths=([1, 1], [1]), ragged_rank=3)}))
    return out


def program_boolean_mask(tf):
    T, F = True, False
    return {"dense_2d": tf.ragged.boolean_mask(data=[[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                                               mask=[[T, F, T], [F, F, F], [T, F, F]]),
            "ragged": tf.ragged.boolean_mask(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]),
                                             tf.ragged.constant([[F, F, T], [F], [T, T]])),
            "rows": tf.ragged.boolean_mask(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]), [T, F, T]),
            "dense_rows": tf.ragged.boolean_mask(data=tf.reshape(tf.range(6), [3, 2]), mask=[F, T, T])}


def program_constructors(tf):
    v = [3, 1, 4, 1, 5, 9, 2, 6]
    return {"splits": tf.RaggedTensor.from_row_splits(v, row_splits=[0, 4, 4, 7, 8, 8]),
            "lengths": tf.RaggedTensor.from_row_lengths(v, row_lengths=[4, 0, 3, 1, 0]),
            "starts": tf.RaggedTensor.from_row_starts(v, row_starts=[0, 4, 4, 7, 8]),
            "limits": tf.RaggedTensor.from_row_limits(v, row_limits=[4, 4, 7, 8, 8]),
            "rowids": tf.RaggedTensor.from_value_rowids(v, value_rowids=[0, 0, 0, 0, 2, 2, 2, 3], nrows=5),
            "uniform": tf.RaggedTensor.from_uniform_row_length(v, uniform_row_length=2),
            "sparse": tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4])),
            "to_sparse": tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]]).to_sparse()}


def program_accessors(tf):
    rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    rt3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    return {"row_starts": rt.row_starts(), "row_limits": rt.row_limits(), "row_lengths": rt.row_lengths(),
            "value_rowids": rt.value_rowids(), "nrows": rt.nrows(), "nrows32": rt.nrows(out_type=tf.int32),
            "bounding": rt.bounding_shape(), "bounding3": rt3.bounding_shape(),
            "flat_values": rt3.flat_values, "ragged_rank": rt3.ragged_rank, "merge": rt3.merge_dims(0, 1),
            "merge_all": rt3.merge_dims(0, -1), "to_tensor": rt.to_tensor(default_value=-1),
            "to_tensor_shape": rt.to_tensor(shape=[2, 3]), "getitem": rt3[1, 0], "slice": rt[1:3],
            "shape": rt3.shape, "add": rt + tf.ragged.constant([[1, 1, 1, 1], [], [2, 2, 2], [3], []])}

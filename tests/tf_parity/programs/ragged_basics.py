"""tf.RaggedTensor construction, properties and conversion (TF guide: ragged tensors)."""


def program_constant_and_properties(tf):
    rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    return {"rt": rt, "shape": rt.shape, "dtype": rt.dtype, "ragged_rank": rt.ragged_rank,
            "values": rt.values, "splits": rt.row_splits, "flat": rt.flat_values, "nrows": rt.nrows(),
            "lengths": rt.row_lengths(), "rowids": rt.value_rowids(), "starts": rt.row_starts(),
            "limits": rt.row_limits(), "bounding": rt.bounding_shape(), "list": rt.to_list(),
            "str": str(rt), "splits_dtype": rt.row_splits.dtype}


def program_constant_dtypes_and_empty(tf):
    return {"floats": tf.ragged.constant([[1.5], [2.0, 3.0]]), "strings": tf.ragged.constant([["a", "b"], []]),
            "typed": tf.ragged.constant([[1, 2], [3]], dtype=tf.float64), "empty_rows": tf.ragged.constant([[], []]),
            "bools": tf.ragged.constant([[True], [False, True]]), "dense": tf.ragged.constant([1, 2])}


def program_nested_ragged(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]], []])
    return {"rt": rt, "shape": rt.shape, "ragged_rank": rt.ragged_rank, "nested": rt.nested_row_splits,
            "nested_lengths": rt.nested_row_lengths(), "flat": rt.flat_values, "values": rt.values,
            "dense": rt.to_tensor(), "bounding": rt.bounding_shape(), "inner_lengths": rt.row_lengths(axis=2)}


def program_inner_dense_dims(tf):
    rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    return {"rt": rt, "shape": rt.shape, "ragged_rank": rt.ragged_rank, "flat": rt.flat_values,
            "dense": rt.to_tensor(), "inner": tf.ragged.constant([[], [[1, 2]]], inner_shape=(2,))}


def program_from_row_partitions(tf):
    values = [3, 1, 4, 1, 5, 9, 2]
    return {"splits": tf.RaggedTensor.from_row_splits(values, [0, 4, 4, 7]),
            "lengths": tf.RaggedTensor.from_row_lengths(values, [4, 0, 3]),
            "rowids": tf.RaggedTensor.from_value_rowids(values, [0, 0, 0, 0, 2, 2, 2], nrows=4),
            "rowids_no_n": tf.RaggedTensor.from_value_rowids(values, [0, 0, 1, 1, 1, 3, 3]),
            "starts": tf.RaggedTensor.from_row_starts(values, [0, 4, 4]),
            "limits": tf.RaggedTensor.from_row_limits(values, [4, 4, 7]),
            "uniform": tf.RaggedTensor.from_uniform_row_length(values[:6], 2),
            "nested": tf.RaggedTensor.from_nested_row_splits(values, ([0, 1, 3], [0, 2, 3, 7])),
            "nested_lengths": tf.RaggedTensor.from_nested_row_lengths(values, ([1, 2], [2, 1, 4]))}


def program_bad_splits_raise(tf):
    return {"rt": tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3])}


def program_splits_not_matching_values_raise(tf):
    return {"rt": tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 5])}


def program_from_tensor_and_back(tf):
    dense = tf.constant([[1, 0, 0], [2, 3, 0], [0, 0, 0]])
    return {"all": tf.RaggedTensor.from_tensor(dense), "padding": tf.RaggedTensor.from_tensor(dense, padding=0),
            "lengths": tf.RaggedTensor.from_tensor(dense, lengths=[1, 3, 0]),
            "rank2": tf.RaggedTensor.from_tensor(tf.reshape(tf.range(8), (2, 2, 2)), ragged_rank=2),
            "inner_pad": tf.RaggedTensor.from_tensor(tf.constant([[[1, 1], [0, 0]], [[2, 0], [0, 0]]]),
                                                     padding=[0, 0])}


def program_to_tensor_options(tf):
    rt = tf.ragged.constant([[1.0, 2.0], [], [3.0]])
    return {"default": rt.to_tensor(), "fill": rt.to_tensor(default_value=-1.0),
            "crop": rt.to_tensor(default_value=-1, shape=[2, 1]), "pad": rt.to_tensor(shape=[4, 3]),
            "strings": tf.ragged.constant([["a"], ["b", "c"]]).to_tensor(default_value="?")}


def program_numpy_of_ragged(tf):
    rt = tf.ragged.constant([[1, 2], [], [3]])
    rows = rt.numpy()
    return {"n": len(rows), "rows": [r for r in rows]}


def program_constant_dense_raises(tf):
    return {"t": tf.constant([[1, 2], [3]])}


def program_mixed_depth_raises(tf):
    return {"rt": tf.ragged.constant([[1, [2]], [3]])}


def program_sparse_round_trip(tf):
    rt = tf.ragged.constant([[1, 2], [], [3]])
    st = rt.to_sparse()
    nested = tf.ragged.constant([[[1], [2, 3]], [[4]]]).to_sparse()
    return {"sparse": st, "back": tf.RaggedTensor.from_sparse(st), "nested": nested,
            "dense": tf.sparse.to_dense(st)}

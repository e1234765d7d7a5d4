"""Sweep 4: ragged tensors as the ragged-tensor guide uses them, written anew."""


def program_constructors(tf):
    a = tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7])
    b = tf.RaggedTensor.from_row_lengths([3, 1, 4, 1, 5, 9, 2], row_lengths=[2, 0, 3, 2])
    c = tf.RaggedTensor.from_value_rowids([3, 1, 4, 1, 5], value_rowids=[0, 0, 2, 2, 3], nrows=5)
    d = tf.RaggedTensor.from_row_starts([1, 2, 3, 4], row_starts=[0, 1, 1])
    e = tf.RaggedTensor.from_row_limits([1, 2, 3, 4], row_limits=[2, 2, 4])
    f = tf.RaggedTensor.from_uniform_row_length(tf.range(6), 2)
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "f_shape": f.shape,
            "a_splits": a.row_splits, "b_lengths": b.row_lengths(), "c_rowids": c.value_rowids(),
            "c_nrows": c.nrows(), "a_starts": a.row_starts(), "a_limits": a.row_limits()}


def program_nested_and_properties(tf):
    r = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
    return {"r": r, "rank": r.ragged_rank, "shape": r.shape, "flat": r.flat_values,
            "nested_splits": list(r.nested_row_splits), "dtype": r.dtype, "bounding": r.bounding_shape(),
            "values": r.values}


def program_ragged_constant_inner_shape(tf):
    r = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    return {"r": r, "shape": r.shape, "rr": r.ragged_rank, "flat_shape": r.flat_values.shape}


def program_ragged_ops_dispatch(tf):
    r = tf.ragged.constant([[1., 2., 3.], [], [4., 5.]])
    return {"add": r + 1., "mul": r * r, "sum": tf.reduce_sum(r, axis=1), "mean": tf.reduce_mean(r, axis=1),
            "max": tf.reduce_max(r, axis=1), "sqrt": tf.math.sqrt(r), "where": tf.where(r > 2., r, -r),
            "concat0": tf.concat([r, r], axis=0), "concat1": tf.concat([r, r], axis=1),
            "stack": tf.stack([r, r], axis=0).shape, "cast": tf.cast(r, tf.int32),
            "size": tf.size(r), "gather": tf.gather(r, [2, 0]), "total": tf.reduce_sum(r)}


def program_map_flat_values(tf):
    r = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])
    return {"sq": tf.ragged.map_flat_values(tf.square, r),
            "mix": tf.ragged.map_flat_values(lambda x, y: x * 10 + y, r, r),
            "row_sum": tf.ragged.map_flat_values(tf.cast, r, tf.float32)}


def program_to_tensor_from_tensor(tf):
    r = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])
    t = tf.constant([[1, 0, 0], [2, 3, 0], [0, 0, 0]])
    return {"dense": r.to_tensor(), "dense_default": r.to_tensor(default_value=-1),
            "dense_shape": r.to_tensor(shape=[5, 2]), "from_pad": tf.RaggedTensor.from_tensor(t, padding=0),
            "from_len": tf.RaggedTensor.from_tensor(t, lengths=[1, 2, 0]),
            "sparse": r.to_sparse(), "from_sparse": tf.RaggedTensor.from_sparse(r.to_sparse()),
            "list": r.to_list(), "np": [x.tolist() for x in r.numpy()]}


def program_ragged_indexing(tf):
    r = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])
    return {"row": r[0], "rows": r[1:3], "col": r[:, :2], "last": r[-1], "neg": r[:, -1:],
            "scalar": r[3, 1]}


def program_ragged_in_function_signature(tf):
    traces = []

    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    def row_max(x):
        traces.append(1)
        return tf.reduce_max(x, axis=1), x.row_lengths()

    a = row_max(tf.ragged.constant([[1, 5], [3]]))
    b = row_max(tf.ragged.constant([[7], [2, 9, 1], [4]]))
    return {"a": a, "b": b, "traces": len(traces)}


def program_ragged_in_function_no_signature(tf):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x * 2

    a = f(tf.ragged.constant([[1, 2], [3]]))
    b = f(tf.ragged.constant([[1], [2, 3, 4], []]))
    c = f(tf.ragged.constant([[1.5]]))
    return {"a": a, "b": b, "c": c, "traces": len(traces)}


def program_ragged_strings_split(tf):
    s = tf.constant(["the quick brown", "fox", "", "jumps over"])
    w = tf.strings.split(s)
    return {"w": w, "lens": w.row_lengths(), "shape": w.shape, "first": w[:, :1].to_tensor(default_value="")}


def program_ragged_boolean_mask_and_range(tf):
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    return {"bm": tf.ragged.boolean_mask(x, x % 2 == 1), "rng": tf.ragged.range([3, 0, 2]),
            "rng2": tf.ragged.range([1, 2], [4, 7], [1, 2]),
            "stack_dyn": tf.ragged.stack_dynamic_partitions(tf.constant([1, 2, 3, 4]), tf.constant([1, 0, 1, 2]), 3)}


def program_ragged_dataset(tf):
    r = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    ds = tf.data.Dataset.from_tensor_slices(r)
    batched = tf.data.Dataset.range(5).map(lambda x: tf.range(x)).ragged_batch(2)
    return {"rows": [x for x in ds], "spec": ds.element_spec, "batched": [b for b in batched],
            "bspec": batched.element_spec}


def program_ragged_mismatch_error(tf):
    a = tf.ragged.constant([[1, 2], [3]])
    b = tf.ragged.constant([[1], [2, 3]])
    return {"e": a + b}


def program_ragged_merge_dims_and_with_values(tf):
    r = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    return {"merge": r.merge_dims(0, 1), "merge_all": r.merge_dims(0, -1),
            "with_flat": r.with_flat_values(r.flat_values * 10), "with_vals": r.with_values(r.values[::-1]),
            "row_lengths_axis2": r.row_lengths(axis=2)}


def program_ragged_segment_ids_and_cross(tf):
    r = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    return {"rowids": r.value_rowids(), "nrows": r.nrows(out_type=tf.int32),
            "uniform": tf.RaggedTensor.from_uniform_row_length(tf.reshape(tf.range(8), [4, 2]), 2).shape,
            "expand": tf.expand_dims(r, 0).shape, "ragged_shape_rank": tf.shape(r).rank, "ragged_shape_dim0": tf.shape(r)[0]}

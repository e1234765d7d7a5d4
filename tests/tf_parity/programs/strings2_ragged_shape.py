"""tf.shape of a RaggedTensor (a DynamicRaggedShape), and reductions / concat of ragged
tensors of ragged_rank > 1 along every axis."""


def _rt3(tf):
    return tf.ragged.constant([[[1, 2], [3]], [[4]], [], [[5, 6, 7], [], [8]]])


def program_shape_of_a_ragged_tensor(tf):
    s = tf.shape(tf.ragged.constant([[1.0, 2.0], [3.0]]))
    out = {"type": type(s).__name__, "repr": repr(s), "rank": s.rank, "num_row_partitions": s.num_row_partitions,
           "nrows": s[0], "static_lengths": s.static_lengths(), "dtype": s.dtype, "inner_shape": s.inner_shape,
           "row_splits": [p.row_splits() for p in s.row_partitions],
           "is_experimental_class": isinstance(s, tf.experimental.DynamicRaggedShape)}
    try:
        s[1]
    except ValueError as exc:
        out["ragged_index"] = str(exc).split(" (at ")[0]
    return out


def program_shape_with_inner_dims_and_int64(tf):
    rt = tf.RaggedTensor.from_row_splits(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 2, 3])
    s = tf.shape(rt, out_type=tf.int64)
    s3 = tf.shape(_rt3(tf))
    return {"repr": repr(s), "last": s[-1], "dim2": s[2], "dtype": s.dtype, "inner": s.inner_shape,
            "repr3": repr(s3), "static3": s3.static_lengths(), "rank3": s3.rank}


def program_ones_and_zeros_of_a_ragged_shape(tf):
    rt = tf.RaggedTensor.from_row_splits(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 2, 3])
    return {"ones": tf.ones(tf.shape(rt)), "zeros": tf.zeros(tf.shape(_rt3(tf)), tf.int32)}


def program_reductions_of_ragged_rank_2(tf):
    rt = _rt3(tf)
    out = {}
    for name, fn in (("sum", tf.reduce_sum), ("max", tf.reduce_max), ("min", tf.reduce_min),
                     ("prod", tf.reduce_prod)):
        for axis in (0, 1, 2, -1):
            out[f"{name}_{axis}"] = fn(rt, axis=axis)
        out[f"{name}_all"] = fn(rt)
    f = tf.cast(rt, tf.float32)
    out["mean_0"], out["mean_1"] = tf.reduce_mean(f, axis=0), tf.reduce_mean(f, axis=1)
    b = rt > 3
    out["any_0"], out["all_1"] = tf.reduce_any(b, axis=0), tf.reduce_all(b, axis=1)
    out["sum_01"] = tf.reduce_sum(rt, axis=[0, 1])
    return out


def program_reductions_of_ragged_rank_3(tf):
    rt = tf.ragged.constant([[[[1, 2], [3]], [[4, 5, 6]]], [[[7]], [], [[8, 9], [10]]]])
    return {f"sum_{a}": tf.reduce_sum(rt, axis=a) for a in range(4)}


def program_concat_of_ragged_rank_2(tf):
    a = _rt3(tf)
    b = tf.ragged.constant([[[9]], [[8, 8], [7]], [[6]], [[5], [4, 4]]])
    c = tf.ragged.constant([[[0], [0, 0]], [[1]], [], [[2], [], [3, 3, 3]]])
    return {"axis0": tf.concat([a, b], axis=0), "axis1": tf.concat([a, b, a], axis=1),
            "axis2": tf.concat([a, c], axis=2), "axis_neg1": tf.concat([c, a], axis=-1)}


def program_concat_axis2_rows_must_line_up(tf):
    a = tf.ragged.constant([[[1], [2]], [[3]]])
    b = tf.ragged.constant([[[1]], [[3], [4]]])
    return {"concat": tf.concat([a, b], axis=2)}


def program_reduce_of_ragged_rank_2_in_a_function(tf):
    @tf.function
    def f(x):
        return tf.reduce_sum(x, axis=1), tf.reduce_max(x, axis=0), tf.shape(x)[0]

    s1, m0, n = f(_rt3(tf))
    return {"sum1": s1, "max0": m0, "nrows": n}

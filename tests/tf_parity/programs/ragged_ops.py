"""Ops on ragged tensors: elementwise math, map_flat_values, reductions, concat, stack,
gather, boolean_mask, where, indexing and slicing."""


def _rt(tf):
    return tf.ragged.constant([[1.0, 2.0, 3.0], [], [4.0, 5.0], [6.0]])


def program_elementwise_math(tf):
    rt = _rt(tf)
    other = tf.ragged.constant([[1.0, 1.0, 1.0], [], [2.0, 2.0], [3.0]])
    return {"add": rt + 1.0, "radd": 10.0 + rt, "mul": rt * other, "sub": rt - other, "div": rt / 2.0,
            "neg": -rt, "pow": rt ** 2, "tf_add": tf.add(rt, other), "exp": tf.math.exp(rt),
            "sqrt": tf.sqrt(rt), "abs": tf.abs(-rt), "square": tf.square(rt), "max": tf.maximum(rt, 2.5),
            "cmp": rt > 2.0, "eq": tf.equal(rt, other), "cast": tf.cast(rt, tf.int32),
            "logical": tf.logical_and(rt > 1.0, rt < 5.0), "dense_rows": rt + tf.constant([[1.0], [2.0], [3.0], [4.0]])}


def program_mismatched_partitions_raise(tf):
    return {"r": tf.ragged.constant([[1.0, 2.0], [3.0]]) + tf.ragged.constant([[1.0], [2.0, 3.0]])}


def program_map_flat_values(tf):
    rt = _rt(tf)
    return {"scale": tf.ragged.map_flat_values(tf.multiply, rt, 3.0),
            "two": tf.ragged.map_flat_values(tf.add, rt, rt),
            "lambda": tf.ragged.map_flat_values(lambda x: x * x + 1.0, rt),
            "nested": tf.ragged.map_flat_values(tf.negative, tf.ragged.constant([[[1], [2, 3]], [[4]]]))}


def program_reductions(tf):
    rt = _rt(tf)
    ints = tf.ragged.constant([[1, 2], [], [5]])
    return {"sum_all": tf.reduce_sum(rt), "sum1": tf.reduce_sum(rt, axis=1), "sum0": tf.reduce_sum(rt, axis=0),
            "mean1": tf.reduce_mean(rt, axis=1), "mean0": tf.reduce_mean(rt, axis=0),
            "max1": tf.reduce_max(rt, axis=1), "min0": tf.reduce_min(rt, axis=0), "prod1": tf.reduce_prod(rt, axis=1),
            "int_max1": tf.reduce_max(ints, axis=1), "int_min1": tf.reduce_min(ints, axis=1),
            "neg_axis": tf.reduce_sum(rt, axis=-1), "mean_all": tf.reduce_mean(rt),
            "any1": tf.reduce_any(rt > 4.5, axis=1), "all1": tf.reduce_all(rt > 0.5, axis=1),
            "math_ns": tf.math.reduce_sum(rt, axis=1)}


def program_reduce_inner_dense_axis(tf):
    rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    return {"axis2": tf.reduce_sum(rt, axis=2), "axis1": tf.reduce_sum(rt, axis=1)}


def program_concat_and_stack(tf):
    a = tf.ragged.constant([[1, 2], [3]])
    b = tf.ragged.constant([[4], [], [5, 6]])
    c = tf.ragged.constant([[7], [8, 9]])
    return {"concat0": tf.concat([a, b], axis=0), "concat1": tf.concat([a, c], axis=1),
            "stack0": tf.stack([a, c], axis=0), "stack1": tf.stack([a, c], axis=1),
            "ragged_stack": tf.ragged.stack([a, b]), "with_dense": tf.concat([a, tf.constant([[0, 0]])], axis=0)}


def program_gather_and_mask(tf):
    rt = tf.ragged.constant([["a", "b"], [], ["c"], ["d", "e", "f"]])
    return {"gather": tf.gather(rt, [3, 0, 0]), "gather_scalar": tf.gather(rt, 2),
            "mask_rows": tf.ragged.boolean_mask(rt, [True, False, False, True]),
            "mask_values": tf.ragged.boolean_mask(rt, tf.ragged.constant([[True, False], [], [True], [False, True, True]]))}


def program_dense_boolean_mask_of_ragged_raises(tf):
    return {"m": tf.boolean_mask(tf.ragged.constant([[1], [2]]), [True, False])}


def program_gather_out_of_range_raises(tf):
    return {"g": tf.gather(tf.ragged.constant([[1], [2]]), [5])}


def program_where(tf):
    rt = _rt(tf)
    return {"where": tf.where(rt > 2.5, rt, -rt), "scalar": tf.where(rt > 2.5, rt, 0.0)}


def program_indexing(tf):
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])
    return {"row0": rt[0], "row_neg": rt[-1], "rows": rt[1:3], "rows_step": rt[::2], "item": rt[0, 1],
            "inner_slice": rt[:, :2], "inner_tail": rt[:, 1:], "inner_neg": rt[:, -1:], "empty_slice": rt[5:]}


def program_index_inner_ragged_raises(tf):
    return {"c": tf.ragged.constant([[1, 2], [3]])[:, 0]}


def program_index_out_of_range_raises(tf):
    return {"r": tf.ragged.constant([[1], [2]])[2]}


def program_nested_indexing(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]], []])
    return {"row": rt[0], "row_row": rt[0][1], "pair": rt[0, 1], "rows": rt[1:], "inner": rt[:, :1]}


def program_uniform_rows(tf):
    rt = tf.RaggedTensor.from_uniform_row_length(tf.range(6), 2)
    return {"rt": rt, "shape": rt.shape, "col": rt[:, 1], "dense": rt.to_tensor()}


def program_strings_on_ragged(tf):
    rt = tf.ragged.constant([["Hello", "World"], [], ["é"]])
    return {"upper": tf.strings.upper(rt), "length": tf.strings.length(rt), "join": tf.strings.reduce_join(
        rt.flat_values, separator=" "), "hash": tf.strings.to_hash_bucket_fast(rt, 3),
        "regex": tf.strings.regex_replace(rt, "o", "0"), "eq": rt == "World"}

"""Less common ops that TF programs reach for: sequence reversal, permutations,
monotonicity checks, saturating casts, depth/space moves, LRN, moments from
sufficient statistics, cross products, least squares, broadcast shapes,
linspace over vectors, TensorShape arithmetic and DType printing."""
from parity import tolerance


def program_reverse_sequence(tf):
    x = tf.reshape(tf.range(24), [2, 3, 4])
    return {"seq1_batch0": tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1, batch_axis=0),
            "seq2_batch0": tf.reverse_sequence(x, tf.constant([3, 1], tf.int64), seq_axis=2, batch_axis=0),
            "seq0_batch1": tf.reverse_sequence(x, [1, 2, 0], seq_axis=0, batch_axis=1)}


def program_reverse_sequence_gradient(tf):
    x = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        y = tf.reverse_sequence(x, [2, 3], seq_axis=1, batch_axis=0) * [[1.0, 2.0, 3.0]]
    return {"grad": tape.gradient(y, x)}


def program_permutations_and_monotonicity(tf):
    return {"inverse": tf.math.invert_permutation([3, 0, 2, 1]),
            "inverse64": tf.math.invert_permutation(tf.constant([1, 0], tf.int64)),
            "non_decreasing": tf.math.is_non_decreasing([[1, 2], [2, 5]]),
            "decreasing": tf.math.is_non_decreasing([3.0, 1.0]),
            "strict": tf.math.is_strictly_increasing([1, 2, 3]),
            "not_strict": tf.math.is_strictly_increasing([1, 2, 2]),
            "single": tf.math.is_strictly_increasing([7])}


def program_saturate_cast(tf):
    return {"to_uint8": tf.saturate_cast([300.0, -5.0, 12.7], tf.uint8),
            "to_int32": tf.saturate_cast(tf.constant([3e10, -3e10, 1.5]), tf.int32),
            "to_int16": tf.saturate_cast([70000, -70000, 5], tf.int16),
            "to_int8_from_int64": tf.saturate_cast(tf.constant([1000, -1000], tf.int64), tf.int8),
            "widening": tf.saturate_cast(tf.constant([1, 2], tf.int8), tf.int64)}


def program_multiply_no_nan_rint_accumulate(tf):
    return {"no_nan": tf.math.multiply_no_nan([float("inf"), float("nan"), 2.0], [0.0, 0.0, 3.0]),
            "rint": tf.math.rint([0.5, 1.5, 2.5, -0.5, -1.7]),
            "accumulate_n": tf.math.accumulate_n([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])}


def program_space_depth(tf):
    x = tf.reshape(tf.range(32.0), [1, 4, 4, 2])
    s2d = tf.nn.space_to_depth(x, 2)
    return {"s2d": s2d, "d2s": tf.nn.depth_to_space(s2d, 2),
            "d2s_3": tf.nn.depth_to_space(tf.reshape(tf.range(18.0), [1, 1, 2, 9]), 3)}


def program_space_to_depth_bad_block(tf):
    return {"y": tf.nn.space_to_depth(tf.zeros([1, 3, 3, 1]), 2)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_local_response_normalization(tf):
    x = tf.reshape(tf.range(1.0, 25.0), [1, 2, 2, 6]) / 10.0
    return {"default": tf.nn.local_response_normalization(x),
            "radius1": tf.nn.lrn(x, depth_radius=1, bias=2.0, alpha=0.5, beta=0.75)}


def program_moments_and_zero_fraction(tf):
    mean, var = tf.nn.normalize_moments(4.0, [4.0, 8.0], [10.0, 20.0], None)
    smean, svar = tf.nn.normalize_moments(2.0, [2.0, 4.0], [10.0, 20.0], [1.0, -1.0])
    return {"mean": mean, "var": var, "shift_mean": smean, "shift_var": svar,
            "zero_fraction": tf.nn.zero_fraction([[0.0, 1.0], [0.0, 0.0]]),
            "zero_fraction_int": tf.nn.zero_fraction([1, 0, 3])}


@tolerance(rtol=1e-5, atol=1e-5)
def program_cross_and_lstsq(tf):
    a = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 1.0]])
    b = tf.constant([[1.0], [1.0], [2.0], [2.5]])
    wide = tf.constant([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0]])
    return {"cross": tf.linalg.cross([[1.0, 0.0, 0.0], [1.0, 2.0, 3.0]], [[0.0, 1.0, 0.0], [4.0, 5.0, 6.0]]),
            "lstsq": tf.linalg.lstsq(a, b), "lstsq_reg": tf.linalg.lstsq(a, b, l2_regularizer=0.5),
            "lstsq_wide": tf.linalg.lstsq(wide, [[1.0], [2.0]])}


def program_broadcast_shapes(tf):
    return {"static": tf.broadcast_static_shape(tf.TensorShape([2, 1, 3]), tf.TensorShape([4, 1])),
            "static_unknown": tf.broadcast_static_shape(tf.TensorShape([None, 3]), tf.TensorShape([2, 1])),
            "dynamic": tf.broadcast_dynamic_shape([2, 1], [3]),
            "dynamic64": tf.broadcast_dynamic_shape(tf.constant([5, 1, 2], tf.int64), tf.constant([4, 1], tf.int64))}


def program_broadcast_static_shape_clash(tf):
    return {"s": tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4]))}


def program_linspace(tf):
    return {"scalar": tf.linspace(0.0, 1.0, 7), "vector_axis1": tf.linspace([0.0, 1.0], [1.0, 3.0], 4, axis=1),
            "vector_axis0": tf.linspace([0.0, 10.0], [1.0, 20.0], 3), "one": tf.linspace(2.0, 5.0, 1),
            "negative_axis": tf.linspace([[0.0], [1.0]], [[2.0], [3.0]], 3, axis=-1),
            "float64": tf.linspace(tf.constant(0.0, tf.float64), 1.0, 3)}


def program_tensor_shape_methods(tf):
    s = tf.TensorShape([None, 3])
    return {"merge": s.merge_with([2, None]), "concat": s.concatenate([4]), "plus": tf.TensorShape([1]) + [2],
            "with_rank": s.with_rank(2), "specific": s.most_specific_compatible_shape([2, 4]),
            "unknown_dim": tf.TensorShape(None)[0], "unknown_concat": tf.TensorShape(None).concatenate([1]),
            "at_least": s.with_rank_at_least(1)}


def program_tensor_shape_merge_clash(tf):
    return {"m": tf.TensorShape([2, 3]).merge_with([2, 4])}


def program_tensor_shape_with_rank_clash(tf):
    return {"m": tf.TensorShape([2, 3]).with_rank(3)}


def program_dtype_printing(tf):
    return {"str": str(tf.float32), "repr": repr(tf.int64), "format": f"{tf.bool}", "in_list": str([tf.int32]),
            "spec": repr(tf.TensorSpec([None], tf.float16))}

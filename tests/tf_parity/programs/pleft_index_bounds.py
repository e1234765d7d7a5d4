"""Constant indices out of bounds: while tracing TensorFlow's shape inference raises
ValueError ("slice index K of dimension D out of bounds."), eagerly the kernel raises
InvalidArgumentError with the same words; gathers fail when they run (issue #11)."""


def _outcome(tf, fn, x, key):
    """The exception's class name, and whether its message holds TF's key words."""
    try:
        fn(x)
    except Exception as exc:
        return [type(exc).__name__, key in str(exc)]
    return ["no error", False]


def _both(tf, fn, x, key):
    return {"eager": _outcome(tf, fn, x, key), "graph": _outcome(tf, tf.function(fn), x, key)}


def program_index_past_the_end(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    return {"five": _both(tf, lambda v: v[5], x, "slice index 5 of dimension 0 out of bounds"),
            "three": _both(tf, lambda v: v[3], x, "slice index 3 of dimension 0 out of bounds")}


def program_negative_index_before_the_start(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    m = tf.ones([1, 3])
    return {"minus4": _both(tf, lambda v: v[-4], x, "slice index -1 of dimension 0 out of bounds"),
            "rows": _both(tf, lambda v: v[-2], m, "slice index -1 of dimension 0 out of bounds")}


def program_second_axis_and_ellipsis(tf):
    m = tf.reshape(tf.range(6.0), [3, 2])
    return {"pair": _both(tf, lambda v: v[0, 2], m, "slice index 2 of dimension 1 out of bounds"),
            "ellipsis": _both(tf, lambda v: v[..., 5], m, "slice index 5 of dimension 1 out of bounds"),
            "in_bounds": tf.function(lambda v: v[-1, 1])(m)}


def program_too_many_indices(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    return _both(tf, lambda v: v[0, 0], x, "Index out of range using input dim 1; input has only 1 dims")


def program_strided_slice_shrink_axis(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    shrink = _both(tf, lambda v: tf.strided_slice(v, [4], [5], [1], shrink_axis_mask=1), x,
                   "slice index 4 of dimension 0 out of bounds")
    # without shrinking, a slice past the end is empty, as in Python
    return {"shrink": shrink, "empty": tf.function(lambda v: tf.strided_slice(v, [4], [5], [1]))(x),
            "slice": tf.function(lambda v: v[5:7])(x)}


def program_gather_constant_indices_fail_at_run_time(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    return {"vector": _both(tf, lambda v: tf.gather(v, [0, 5]), x, "indices[1] = 5 is not in [0, 3)"),
            "scalar": _both(tf, lambda v: tf.gather(v, 7), x, "indices = 7 is not in [0, 3)"),
            "nd": _both(tf, lambda v: tf.gather_nd(v, [[5]]), x, "does not index into param shape [3]")}


def program_caught_as_value_error_while_tracing(tf):
    @tf.function
    def f(v):
        try:
            return v[7]
        except ValueError:
            return tf.constant(-1.0)
    return {"caught": f(tf.constant([1.0, 2.0]))}

"""TensorFlow 2.21's docstring examples of top-level tf.* functions (shapes, gathers, scatters,
searches, sorting, splitting) that tapeflow already answered as TF does: regression guards."""


def program_top_shape_examples(tf):
    t = tf.constant([[1, 2, 3], [4, 5, 6]])
    return {"reshape": tf.reshape(t, [3, 2]), "reshape_infer": tf.reshape(t, [-1]),
            "reshape_scalar": tf.reshape(tf.constant([7]), []),
            "expand_dims": tf.expand_dims(t, 0).shape, "expand_last": tf.expand_dims(t, -1).shape,
            "transpose": tf.transpose(t), "transpose_perm": tf.transpose(tf.reshape(tf.range(24), [2, 3, 4]), [2, 0, 1]),
            "transpose_conj": tf.transpose(tf.constant([[1 + 1j, 2 + 2j]]), conjugate=True),
            "broadcast_to": tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]),
            "broadcast_static": tf.broadcast_static_shape(tf.TensorShape([1, 3]), tf.TensorShape([2, 1])),
            "broadcast_dynamic": tf.broadcast_dynamic_shape([1, 3], [2, 1]),
            "shape": tf.shape(t), "shape_int64": tf.shape(t, out_type=tf.int64), "shape_n": tf.shape_n([t, t[0]]),
            "size": tf.size(t), "tile": tf.tile(t, [1, 2]), "fill": tf.fill([2, 3], 9),
            "zeros": tf.zeros([2, 2], tf.int32), "ones_like": tf.ones_like(t), "zeros_like": tf.zeros_like(tf.ones([2])),
            "ones": tf.ones([3], tf.float16), "linspace": tf.linspace(10.0, 12.0, 3),
            "linspace_batch": tf.linspace([0.0, 5.0], [10.0, 40.0], 5, axis=-1),
            "range": tf.range(3, 18, 3), "range_float": tf.range(3, 1, -0.5), "range_one": tf.range(5),
            "identity": tf.identity(t), "ensure_shape": tf.ensure_shape(t, [None, 3]),
            "constant_fill": tf.constant(0.5, shape=[2, 2]), "constant_np": tf.constant([1, 2], dtype=tf.float64),
            "convert": tf.convert_to_tensor([[1, 2], [3, 4]], dtype=tf.float32)}


def program_top_join_and_split_examples(tf):
    t1 = [[1, 2, 3], [4, 5, 6]]
    t2 = [[7, 8, 9], [10, 11, 12]]
    x = tf.reshape(tf.range(30), [5, 6])
    return {"concat0": tf.concat([t1, t2], 0), "concat1": tf.concat([t1, t2], 1),
            "concat_neg": tf.concat([tf.constant([[[1, 2]]]), tf.constant([[[3, 4]]])], -1),
            "stack": tf.stack([[1, 4], [2, 5], [3, 6]]), "stack_axis": tf.stack([[1, 4], [2, 5]], axis=1),
            "unstack": tf.unstack(tf.constant([[1, 2, 3], [4, 5, 6]])),
            "unstack_axis": tf.unstack(tf.constant([[1, 2, 3], [4, 5, 6]]), axis=1),
            "split": [s.shape for s in tf.split(tf.zeros([5, 30]), [4, 15, 11], 1)],
            "split_even": tf.split(x, num_or_size_splits=3, axis=1),
            "repeat": tf.repeat(["a", "b", "c"], repeats=[3, 0, 2], axis=0),
            "repeat_2d": tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=0),
            "repeat_flat": tf.repeat([[1, 2], [3, 4]], repeats=2),
            "reverse_sequence": tf.reverse_sequence(tf.constant([[1, 2, 3, 4], [5, 6, 7, 8]]), [2, 3], seq_axis=1)}


def program_top_gather_and_where_examples(tf):
    params = tf.constant(["p0", "p1", "p2", "p3", "p4", "p5"])
    grid = tf.constant([[0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0]])
    return {"gather": tf.gather(params, [2, 0, 2, 5]), "gather_2d": tf.gather(params, [[2, 0], [2, 5]]),
            "gather_axis": tf.gather(grid, [2, 0], axis=1),
            "gather_batch": tf.gather(tf.reshape(tf.range(12), [2, 3, 2]), [[0, 2], [1, 1]], axis=1, batch_dims=1),
            "gather_nd": tf.gather_nd(tf.constant([["a", "b"], ["c", "d"]]), [[0, 0], [1, 1]]),
            "gather_nd_rows": tf.gather_nd(tf.constant([["a", "b"], ["c", "d"]]), [[1], [0]]),
            "gather_nd_batch": tf.gather_nd(tf.reshape(tf.range(8), [2, 2, 2]), [[1], [0]], batch_dims=1),
            "where_select": tf.where([True, False, False, True], [1, 2, 3, 4], [100, 200, 300, 400]),
            "where_broadcast": tf.where([True, False, False, True], [1, 2, 3, 4], [100]),
            "where_indices": tf.where([True, False, False, True]),
            "where_2d": tf.where([[True, False], [False, True]]),
            "boolean_mask": tf.boolean_mask([0, 1, 2, 3], [True, False, True, False]),
            "boolean_mask_rows": tf.boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True]),
            "searchsorted": tf.searchsorted([[-1.0, 0.0, 3.0, 9.0, 10.0], [1.0, 2.0, 3.0, 4.0, 5.0]],
                                            [[-10.0, 2.0, 11.0], [0.0, 5.0, 6.0]]),
            "searchsorted_right": tf.searchsorted([1, 2, 2, 3], [2, 2, 4], side="right"),
            "sort": tf.sort([1, 10, 26.7, 2.8, 0.0]), "sort_desc": tf.sort([[1, 10], [3, 2]], direction="DESCENDING"),
            "argsort": tf.argsort([1, 10, 26.7, 2.8, 0.0]),
            "argsort_desc": tf.argsort([[1, 10], [3, 2]], direction="DESCENDING", axis=0)}


def program_top_scatter_examples(tf):
    tensor = tf.constant([1, 1, 1, 1, 1, 1, 1, 1])
    indices = tf.constant([[4], [3], [1], [7]])
    updates = tf.constant([9, 10, 11, 12])
    matrix = tf.zeros([4, 4, 4], tf.int32)
    return {"add": tf.tensor_scatter_nd_add(tensor, indices, updates),
            "add_repeated": tf.tensor_scatter_nd_add(tensor, [[1], [1]], [5, 7]),
            "max": tf.tensor_scatter_nd_max(tensor, indices, updates),
            "min": tf.tensor_scatter_nd_min(tf.constant([5, 5, 5, 5]), [[0], [0], [2]], [3, 1, 9]),
            "sub": tf.tensor_scatter_nd_sub(tensor, indices, updates),
            "update": tf.tensor_scatter_nd_update(tensor, indices, updates),
            "update_slices": tf.tensor_scatter_nd_update(matrix, [[0], [2]], tf.ones([2, 4, 4], tf.int32) * [[[5]], [[6]]]),
            "scatter_nd": tf.scatter_nd([[4], [3], [1], [7]], [9, 10, 11, 12], [8]),
            "scatter_nd_repeated": tf.scatter_nd([[1], [1]], [2.0, 3.0], [3])}


def program_top_misc_examples(tf):
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    h = tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    bins = tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    hyp = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], (2, 1, 1))
    truth = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"], (2, 2, 2))
    return {"clip_by_value": tf.clip_by_value(t, 1.5, 3.5),
            "clip_by_value_int": tf.clip_by_value(tf.constant([-5, 0, 5]), -1, 1),
            "clip_by_norm": tf.clip_by_norm(tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0]]), 2.0),
            "bitcast": tf.bitcast(tf.constant(0xFFFFFFFF, tf.uint32), tf.uint8),
            "bitcast_float": tf.bitcast(tf.constant([1.0], tf.float32), tf.int32),
            "as_string": tf.as_string([3.14159, 2.5], precision=2),
            "as_string_int": tf.as_string([3, 42], width=4, fill="0"),
            "histogram": h, "histogram_bins": bins, "edit_distance": tf.edit_distance(hyp, truth, normalize=False),
            "get_static_value": tf.get_static_value(tf.constant([1, 2]) + 1),
            "executing_eagerly": tf.executing_eagerly(),
            "cond": tf.cond(tf.constant(2) < tf.constant(3), lambda: tf.constant(10), lambda: tf.constant(20)),
            "while_loop": tf.while_loop(lambda i: tf.less(i, 10), lambda i: (tf.add(i, 1),), [tf.constant(0)]),
            "map_fn": tf.map_fn(lambda x: x * x, tf.constant([1, 2, 3])),
            "einsum": tf.einsum("ij,j->i", t, tf.constant([1.0, -1.0]))}


def program_while_loop_result_structure(tf):
    """Eagerly TF returns the structure the body returned last; in a graph, loop_vars' own."""
    c = lambda i, *rest: i < 3  # noqa: E731
    cases = {"list_in_tuple_body": ([tf.constant(0)], lambda i: (i + 1,)),
             "tuple_in_list_body": ((tf.constant(0),), lambda i: [i + 1]),
             "pair_list_in_tuple_body": ([tf.constant(0), tf.constant(1)], lambda i, j: (i + 1, j)),
             "pair_tuple_in_list_body": ((tf.constant(0), tf.constant(1)), lambda i, j: [i + 1, j])}
    out = {}
    for name, (loop_vars, body) in cases.items():
        eager = tf.while_loop(c, body, loop_vars)
        graph = tf.function(lambda: tf.while_loop(c, body, loop_vars))()
        never = tf.while_loop(lambda *a: False, body, loop_vars)
        # (with maximum_iterations TF's eager loop refuses a list/tuple change: TypeError)
        out[name] = {"eager": type(eager).__name__, "graph": type(graph).__name__,
                     "never": type(never).__name__, "value": eager}
    return out

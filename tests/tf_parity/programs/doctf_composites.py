"""TensorFlow 2.21's docstring examples of tf.RaggedTensor, tf.SparseTensor, tf.TensorSpec,
tf.GradientTape, tf.recompute_grad and tf.math.accumulate_n that tapeflow answered differently:
RaggedTensor.numpy of uniform rows, uniform_row_length, nested_value_rowids, gradients with
respect to a ragged source, SparseTensor.set_shape, TensorSpec.from_spec, the wrapped model of
recompute_grad, accumulate_n's shape/tensor_dtype and add_n's refusal to broadcast."""


def program_ragged_numpy_layouts(tf):
    cases = {"uniform": tf.ragged.constant([[1, 2, 3], [4, 5, 6]], dtype=tf.int64),
             "ragged": tf.ragged.constant([[1, 2, 3], [4, 5]]),
             "uniform_inner": tf.ragged.constant([[[1], [2]], [[3], [4]]]),
             "two_levels": tf.ragged.constant([[[1, 2], [3]], [[4], [5]]]),
             "strings": tf.ragged.constant([[b"a"], [b"b"]]),
             "empty_row": tf.ragged.constant([[1.5], []])}
    out = {}
    for name, rt in cases.items():
        a = rt.numpy()
        out[name] = {"dtype": str(a.dtype), "shape": list(a.shape), "list": rt.to_list()}
    out["uniform_values"] = cases["uniform"].numpy()
    out["no_rows"] = tf.RaggedTensor.from_row_splits(tf.zeros([0]), [0]).numpy()
    return out


def program_ragged_uniform_row_length_and_rowids(tf):
    rt = tf.RaggedTensor.from_nested_row_splits([3, 1, 4, 1, 5, 9, 2, 6], ([0, 3, 3, 5], [0, 4, 4, 7, 8, 8]))
    uniform = tf.RaggedTensor.from_uniform_row_length(tf.range(6), 2)
    return {"uniform_row_length": uniform.uniform_row_length,
            "ragged_has_none": tf.ragged.constant([[1], [2, 3]]).uniform_row_length is None,
            "nested_value_rowids": list(rt.nested_value_rowids()),
            "value_rowids": rt.value_rowids()}


def program_gradient_of_ragged_source(tf):
    x = tf.ragged.constant([[1.0, 2.0], [3.0]])
    w = tf.ragged.constant([[1.0], [2.0, 5.0]])
    n = tf.ragged.constant([[[1.0], [2.0, 4.0]], [[3.0]]])
    with tf.GradientTape(persistent=True) as g:
        g.watch([x, w, n])
        y = x * x
        z = tf.reduce_sum(x * 3.0)
        nested = tf.reduce_sum(n * n)
    return {"elementwise": g.gradient(y, x), "structure": g.gradient(z, {"a": x, "b": [x]}),
            "unconnected": g.gradient(z, [w, x]), "zero": g.gradient(z, x, unconnected_gradients="zero"),
            "nested": g.gradient(nested, n)}


def program_sparse_set_shape(tf):
    st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    st.set_shape([3, 4])
    st.set_shape([3, None])
    st.set_shape(None)

    def traced(i, v, s):
        sp = tf.SparseTensor(i, v, s)
        before = sp.shape
        sp.set_shape([None, 4])
        return tf.sparse.to_dense(sp), before, sp.shape
    seen = {}

    def f(i, v, s):
        dense, before, after = traced(i, v, s)
        seen.update(before=before, after=after)
        return dense
    dense = tf.function(f)(tf.constant([[0, 0], [1, 2]], tf.int64), tf.constant([1, 2]), tf.constant([3, 4], tf.int64))
    return {"shape": st.shape, "dense": dense, "traced_before": seen["before"], "traced_after": seen["after"]}


def program_sparse_set_shape_conflict_raises(tf):
    st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    st.set_shape([1, 4])


def program_tensor_spec_from_spec(tf):
    spec = tf.TensorSpec(shape=[8, 3], dtype=tf.int32, name="OriginalName")
    renamed = tf.TensorSpec.from_spec(spec, "NewName")
    kept = tf.TensorSpec.from_spec(spec)
    return {"renamed": renamed, "name": renamed.name, "kept_name": kept.name, "equal": kept == spec}


def program_recompute_grad_wrapped_model(tf):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model_recompute = tf.recompute_grad(model)
    with tf.GradientTape(persistent=True) as tape:
        r = tf.constant([[1.0, 2.0]])
        for _ in range(2):
            r = model_recompute(r)
    by_model = tape.gradient(r, model.variables)
    by_wrapped = tape.gradient(r, model_recompute.__wrapped__.variables)
    return {"is_model": model_recompute.__wrapped__ is model, "same": [
        bool(tf.reduce_all(a == b)) for a, b in zip(by_model, by_wrapped)], "count": len(by_wrapped)}


def program_accumulate_n_arguments(tf):
    a = tf.constant([[1, 2], [3, 4]])
    b = tf.constant([[5, 0], [0, 6]])
    return {"plain": tf.math.accumulate_n([a, b, a]),
            "shape_and_dtype": tf.math.accumulate_n([a, b, a], shape=[2, 2], tensor_dtype=tf.int32),
            "partial_shape": tf.math.accumulate_n([a, b], shape=[None, 2]),
            "lists": tf.math.accumulate_n([[1, 2], [3, 4]]), "one": tf.math.accumulate_n([a]),
            "add_n": tf.add_n([a, b, [[1, 1], [1, 1]]])}


def program_accumulate_n_shape_mismatch_raises(tf):
    return tf.math.accumulate_n([tf.ones([2, 2])], shape=[2, 3])


def program_accumulate_n_dtype_mismatch_raises(tf):
    return tf.math.accumulate_n([tf.ones([2])], tensor_dtype=tf.int32)


def program_accumulate_n_mixed_dtypes_raises(tf):
    return tf.math.accumulate_n([tf.ones([2]), tf.ones([2], tf.float64)])


def program_accumulate_n_empty_raises(tf):
    return tf.math.accumulate_n([])


def program_add_n_does_not_broadcast_raises(tf):
    return tf.add_n([tf.constant([[1, 2], [3, 4]]), tf.constant([1, 2])])


def program_add_n_does_not_broadcast_in_function_raises(tf):
    return tf.function(lambda x, y: tf.add_n([x, y]))(tf.ones([2, 2]), tf.ones([2]))


def program_gradient_sparse_source_raises(tf):
    st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])
    with tf.GradientTape() as g:
        g.watch(st)
        y = tf.reduce_sum(tf.sparse.to_dense(st))
    return g.gradient(y, st)


def program_gradient_sparse_target_raises(tf):
    st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])
    x = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = st * x
    return g.gradient(y, x)


def program_keras_tensor_in_tf_shape_raises(tf):
    return tf.shape(tf.keras.layers.Input((None, 10)))


def program_keras_tensor_in_tf_op_raises(tf):
    x = tf.keras.Input(shape=(5,))
    return tf.concat([x, x], axis=1)


def program_keras_tensor_iterate_raises(tf):
    return list(tf.keras.layers.Input((3,)))


def program_keras_tensor_int_raises(tf):
    return int(tf.keras.layers.Input((3,)))


_DT3 = [[[5, 0], [7, 0], [0, 0]], [[0, 0], [3, 0], [0, 0]], [[6, 0], [0, 0], [0, 0]]]


def program_ragged_from_tensor_nested_lengths(tf):
    dt = tf.constant(_DT3)
    return {"tuple": tf.RaggedTensor.from_tensor(dt, lengths=([2, 0, 3], [1, 1, 2, 0, 1])),
            "list": tf.RaggedTensor.from_tensor(dt, lengths=[[2, 0, 3], [1, 1, 2, 0, 1]]),
            "rank2": tf.RaggedTensor.from_tensor(dt, lengths=([2, 0, 3], [1, 1, 2, 0, 1]), ragged_rank=2),
            "tensors": tf.RaggedTensor.from_tensor(dt, lengths=(tf.constant([2, 0, 3]), tf.constant([1, 1, 2, 0, 1]))),
            "flat": tf.RaggedTensor.from_tensor(tf.constant([[5, 7, 0], [0, 3, 0], [6, 0, 0]]), lengths=[1, 0, 3])}


def program_ragged_from_tensor_nested_lengths_short_raises(tf):
    return tf.RaggedTensor.from_tensor(tf.constant(_DT3), lengths=([1, 0, 1], [1, 1]))


def program_ragged_from_tensor_nested_lengths_rank_raises(tf):
    return tf.RaggedTensor.from_tensor(tf.constant(_DT3), lengths=([2, 0, 3], [1, 1, 2, 0, 1]), ragged_rank=3)


def program_map_fn_rows_of_traced_shape(tf):
    seen = {}

    @tf.function
    def func(elems):
        out = tf.map_fn(lambda t: tf.range(t, t + 3), elems, parallel_iterations=3)
        seen["static"] = out.shape
        return out

    @tf.function
    def pair(elems):
        return tf.map_fn(lambda t: (tf.range(t), tf.cast(t, tf.float32) * 2.0), elems,
                         fn_output_signature=(tf.int32, tf.float32))
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.function(lambda e: tf.map_fn(
            lambda t: tf.fill([tf.cast(t, tf.int32) * 0 + 2], t * v[0]), e))(v))
    return {"rows": func(tf.constant([3, 5, 2])), "static": seen["static"], "pair": pair(tf.constant([2, 2])),
            "grad": tape.gradient(y, v)}


def program_map_fn_over_sparse_rows(tf):
    st = tf.sparse.SparseTensor([[0, 0], [2, 0], [2, 1]], [2, 3, 4], [4, 4])
    doubled = tf.map_fn(lambda s: s * 2, st, fn_output_signature=tf.SparseTensorSpec(None, tf.int32))
    return {"row_sums": tf.map_fn(tf.sparse.reduce_sum, st, fn_output_signature=tf.int32),
            "eyes": tf.sparse.to_dense(tf.map_fn(tf.sparse.eye, tf.constant([2, 3]),
                                                 fn_output_signature=tf.SparseTensorSpec(None, tf.float32))),
            "doubled": tf.sparse.to_dense(doubled), "doubled_shape": doubled.shape,
            "dense_rows": tf.map_fn(lambda s: tf.sparse.to_dense(s), st, fn_output_signature=tf.int32)}

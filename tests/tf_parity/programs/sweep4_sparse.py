"""Sweep 4: sparse tensors as the sparse-tensor guide uses them, written anew."""


def _st(tf):
    return tf.sparse.SparseTensor(indices=[[0, 1], [1, 0], [2, 3]], values=[10., 20., 30.], dense_shape=[3, 4])


def program_construct_and_dense(tf):
    st = _st(tf)
    return {"dense": tf.sparse.to_dense(st), "shape": st.shape, "dtype": st.dtype,
            "from_dense": tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]])),
            "nnz": tf.size(st.values), "st": st}


def program_reorder_and_unordered(tf):
    st = tf.sparse.SparseTensor([[2, 0], [0, 1], [1, 1]], [1, 2, 3], [3, 2])
    return {"reordered": tf.sparse.reorder(st), "dense": tf.sparse.to_dense(tf.sparse.reorder(st))}


def program_sparse_add_and_ops(tf):
    a = _st(tf)
    b = tf.sparse.SparseTensor([[0, 1], [2, 2]], [1., 2.], [3, 4])
    return {"add": tf.sparse.add(a, b), "add_dense": tf.sparse.add(a, tf.ones([3, 4])),
            "neg": tf.sparse.map_values(tf.negative, a), "scaled": a * 2.,
            "reduce_sum": tf.sparse.reduce_sum(a, axis=1), "reduce_max": tf.sparse.reduce_max(a),
            "reduce_sum_sp": tf.sparse.reduce_sum(a, axis=0, output_is_sparse=True),
            "transpose": tf.sparse.transpose(a), "retain": tf.sparse.retain(a, [True, False, True])}


def program_sparse_dense_matmul(tf):
    a = _st(tf)
    d = tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])
    return {"mm": tf.sparse.sparse_dense_matmul(a, d),
            "mm_t": tf.sparse.sparse_dense_matmul(a, tf.ones([3, 2]), adjoint_a=True),
            "matmul": tf.linalg.matmul(tf.sparse.to_dense(a), d)}


def program_sparse_concat_slice_reshape(tf):
    a = _st(tf)
    return {"concat": tf.sparse.concat(axis=1, sp_inputs=[a, a]), "slice": tf.sparse.slice(a, [0, 0], [2, 2]),
            "reshape": tf.sparse.reshape(a, [2, 6]), "expand": tf.sparse.expand_dims(a, 0).shape,
            "fill": tf.sparse.to_dense(tf.sparse.reset_shape(a, [4, 5])),
            "fill_empty": tf.sparse.fill_empty_rows(tf.sparse.SparseTensor([[1, 0]], [5], [3, 2]), -1)}


def program_sparse_mask_and_indicator(tf):
    st = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [0, 3, 1], [2, 2])
    ind = tf.sparse.to_indicator(tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1]], [1, 0, 3], [2, 2]), 4)
    return {"indicator": ind, "minimum": tf.sparse.minimum(st, st), "maximum": tf.sparse.maximum(st, st),
            "softmax": tf.sparse.softmax(tf.sparse.SparseTensor([[0, 0], [0, 1]], [1., 2.], [1, 2]))}


def program_sparse_in_dataset(tf):
    st = tf.sparse.SparseTensor([[0, 0], [1, 2], [2, 1]], [1, 2, 3], [3, 3])
    ds = tf.data.Dataset.from_tensor_slices(st)
    rows = [tf.sparse.to_dense(x) for x in ds]
    batched = tf.data.Dataset.from_tensors(st).map(lambda s: tf.sparse.to_dense(s) * 2)
    return {"rows": rows, "spec": ds.element_spec, "batched": [b for b in batched]}


def program_sparse_in_function(tf):
    traces = []

    @tf.function
    def f(st, d):
        traces.append(1)
        return tf.sparse.sparse_dense_matmul(st, d), tf.sparse.reduce_sum(st)

    a = f(_st(tf), tf.ones([4, 1]))
    b = f(tf.sparse.SparseTensor([[0, 0]], [5.], [2, 4]), tf.ones([4, 1]))
    return {"a": a, "b": b, "traces": len(traces)}


def program_sparse_bad_index_order(tf):
    st = tf.sparse.SparseTensor([[2, 0], [0, 1]], [1, 2], [3, 2])
    return {"d": tf.sparse.to_dense(st)}


def program_sparse_gradient(tf):
    w = tf.Variable([[1.], [2.], [3.], [4.]])
    st = _st(tf)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, w))
    return {"g": tape.gradient(y, w)}


def program_sparse_segment_and_embedding(tf):
    params = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3])
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 3, 2], tf.int64), [2, 2])
    return {"emb_sum": tf.nn.embedding_lookup_sparse(params, ids, None, combiner="sum"),
            "emb_mean": tf.nn.embedding_lookup_sparse(params, ids, None, combiner="mean"),
            "seg": tf.sparse.segment_sum(params, tf.constant([0, 2]), tf.constant([0, 0])),
            "seg_mean": tf.sparse.segment_mean(params, [0, 1, 3], [0, 1, 1])}

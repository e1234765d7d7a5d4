"""SparseTensor elements in tf.data: from_tensor_slices of a SparseTensor, map returning
SparseTensors, batch / unbatch-free pipelines of sparse elements, element_spec."""


def _sp(e):
    return {"indices": e.indices, "values": e.values, "dense_shape": e.dense_shape}


def program_slices_of_a_sparse_tensor(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2], [2, 1], [2, 3]], values=[1.0, 2.0, 3.0, 4.0],
                                dense_shape=[4, 5])
    ds = tf.data.Dataset.from_tensor_slices(st)
    return {"spec": ds.element_spec, "elements": [_sp(e) for e in ds], "cardinality": int(ds.cardinality())}


def program_batch_of_sparse_slices(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2], [2, 1], [2, 3]], values=[1, 2, 3, 4],
                                dense_shape=[4, 5])
    ds = tf.data.Dataset.from_tensor_slices(st).batch(3)
    return {"spec": ds.element_spec, "batches": [_sp(e) for e in ds],
            "dense": [tf.sparse.to_dense(e) for e in ds]}


def program_map_returning_sparse(tf):
    ds = tf.data.Dataset.range(5).map(lambda i: tf.sparse.SparseTensor([[0], [2]], tf.stack([i, 10 * i]), [3]))
    batched = ds.batch(2, drop_remainder=True)
    return {"spec": ds.element_spec, "batched_spec": batched.element_spec,
            "elements": [_sp(e) for e in ds], "batches": [_sp(e) for e in batched]}


def program_sparse_next_to_dense_components(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 1], [2, 0]], values=[b"a", b"b"], dense_shape=[3, 2])
    ds = tf.data.Dataset.from_tensor_slices({"s": st, "x": tf.constant([1.0, 2.0, 3.0])}).batch(2)
    out = [{"s": _sp(e["s"]), "x": e["x"]} for e in ds]
    return {"spec": ds.element_spec, "batches": out}


def program_batch_takes_the_widest_dense_shape(tf):
    ds = tf.data.Dataset.range(1, 4).map(
        lambda n: tf.sparse.SparseTensor([[0]], [n], tf.reshape(n, [1])))
    return {"batches": [_sp(e) for e in ds.batch(3)]}


def program_from_tensors_of_a_sparse_tensor(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 1]], values=[7], dense_shape=[2, 2])
    ds = tf.data.Dataset.from_tensors(st)
    return {"spec": ds.element_spec, "elements": [_sp(e) for e in ds]}

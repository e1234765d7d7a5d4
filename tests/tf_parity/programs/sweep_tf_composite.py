"""TF guides "ragged tensors", "sparse tensors" and "extension types" basics, written anew
(the parity_bugs list -- ragged batching -- is elsewhere)."""


def program_ragged_construct_and_props(tf):
    rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    return {"rt": rt, "shape": rt.shape, "rank": rt.ragged_rank, "rows": rt.row_lengths(),
            "splits": rt.row_splits, "vals": rt.values, "bounding": rt.bounding_shape(),
            "nrows": rt.nrows()}


def program_ragged_from_factories(tf):
    values = [3, 1, 4, 1, 5, 9, 2]
    a = tf.RaggedTensor.from_row_splits(values, row_splits=[0, 4, 4, 6, 7])
    b = tf.RaggedTensor.from_row_lengths(values, row_lengths=[4, 0, 2, 1])
    c = tf.RaggedTensor.from_value_rowids(values, value_rowids=[0, 0, 0, 0, 2, 2, 3], nrows=4)
    d = tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], padding=0)
    return {"a": a, "b": b, "c": c, "d": d, "eq": tf.reduce_all(a.to_tensor() == b.to_tensor())}


def program_ragged_ops_elementwise_and_reduce(tf):
    rt = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]])
    return {"plus": rt + 1.0, "mul": rt * rt, "sum": tf.reduce_sum(rt, axis=1),
            "mean": tf.reduce_mean(rt, axis=1), "max": tf.reduce_max(rt, axis=1),
            "map": tf.ragged.map_flat_values(tf.square, rt), "dense": rt.to_tensor(default_value=-1.0),
            "concat": tf.concat([rt, rt], axis=0), "concat1": tf.concat([rt, rt], axis=1)}


def program_ragged_indexing(tf):
    rt = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    return {"row0": rt[0], "col_slice": rt[:, :2], "rows": rt[1:], "last": rt[2, -1],
            "list": rt.to_list()}


def program_ragged_in_tf_function(tf):
    traces = []

    @tf.function
    def row_sums(x):
        traces.append(1)
        return tf.reduce_sum(x, axis=1)
    a = row_sums(tf.ragged.constant([[1, 2], [3]]))
    b = row_sums(tf.ragged.constant([[1], [2, 3, 4], []]))
    return {"a": a, "b": b, "traces": len(traces)}


def program_ragged_keras_embedding_mean(tf):
    ids = tf.ragged.constant([[1, 2], [3], [0, 1, 2]])
    emb = tf.keras.layers.Embedding(4, 2, embeddings_initializer=tf.keras.initializers.Constant(0.5))
    return {"lookup": tf.nn.embedding_lookup(tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]), ids),
            "row_mean": tf.reduce_mean(tf.ragged.map_flat_values(lambda v: v * 2.0,
                                                                 tf.cast(ids, tf.float32)), axis=1)}


def program_sparse_construct_and_convert(tf):
    st = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
    return {"st": st, "dense": tf.sparse.to_dense(st), "shape": st.shape,
            "from_dense": tf.sparse.from_dense(tf.constant([[0, 1], [2, 0]])),
            "reorder": tf.sparse.reorder(tf.sparse.SparseTensor([[1, 0], [0, 1]], [1.0, 2.0], [2, 2]))}


def program_sparse_math(tf):
    a = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[2, 3])
    b = tf.sparse.SparseTensor(indices=[[0, 0], [0, 1]], values=[3.0, 4.0], dense_shape=[2, 3])
    dense = tf.ones([3, 2])
    return {"add": tf.sparse.add(a, b), "matmul": tf.sparse.sparse_dense_matmul(a, dense),
            "sum": tf.sparse.reduce_sum(a, axis=1), "scaled": a * 3.0,
            "retain": tf.sparse.retain(a, [True, False]), "transpose": tf.sparse.transpose(a)}


def program_sparse_in_tf_function(tf):
    @tf.function
    def total(st):
        return tf.sparse.reduce_sum(st)
    st = tf.sparse.SparseTensor([[0, 1], [1, 1]], [2.0, 5.0], [2, 2])
    return {"t": total(st), "t2": total(tf.sparse.SparseTensor([[0, 0]], [1.5], [3, 3]))}


def program_extension_type_basic(tf):
    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

        def masked_sum(self):
            return tf.reduce_sum(tf.where(self.mask, self.values, tf.zeros_like(self.values)))
    mt = MaskedTensor(values=tf.constant([1.0, 2.0, 3.0]), mask=tf.constant([True, False, True]))
    out = {"sum": mt.masked_sum(), "values": mt.values, "eq": mt == mt}
    try:
        mt.values = tf.constant([0.0])
        out["immutable"] = "mutated"
    except Exception as e:
        out["immutable"] = type(e).__name__
    return out


def program_extension_type_in_function_and_nest(tf):
    class Pair(tf.experimental.ExtensionType):
        a: tf.Tensor
        b: tf.Tensor

    traces = []

    @tf.function
    def combine(p):
        traces.append(1)
        return p.a * 10 + p.b
    r1 = combine(Pair(tf.constant(1), tf.constant(2)))
    r2 = combine(Pair(tf.constant(3), tf.constant(4)))
    flat = tf.nest.flatten(Pair(tf.constant(5), tf.constant(6)), expand_composites=True)
    return {"r1": r1, "r2": r2, "traces": len(traces), "flat": flat}


def program_extension_type_validation(tf):
    class Point(tf.experimental.ExtensionType):
        x: tf.Tensor
        y: tf.Tensor

        def __validate__(self):
            self.x.shape.assert_is_compatible_with(self.y.shape)
    p = Point(x=tf.constant([1.0, 2.0]), y=tf.constant([3.0, 4.0]))
    out = {"x": p.x, "coerced_dtype": Point(x=[1, 2], y=[3, 4]).x.dtype}
    try:
        Point(x=tf.constant([1.0]), y=tf.constant([1.0, 2.0]))
        out["bad"] = "ok"
    except Exception as e:
        out["bad"] = type(e).__name__
    return out


def program_ragged_repr_and_print(tf):
    rows = [tf.ragged.constant([[1.0, 2.5], [0.1]]), tf.ragged.constant([[[1, 2], [3]], [[4]]]),
            tf.RaggedTensor.from_row_lengths(tf.constant([[1.5, 2.0], [3.0, 4.0], [5.0, 6.0]]), [2, 1])]
    return {"repr": [repr(r) for r in rows], "str": [str(r) for r in rows]}


def program_embedding_lookup_max_norm_and_ragged(tf):
    p = tf.constant([[3.0, 4.0], [0.3, 0.4], [1.0, 0.0]])
    return {"clipped": tf.nn.embedding_lookup(p, [0, 1, 2], max_norm=1.0),
            "nested": tf.nn.embedding_lookup(p, [[0], [1]], max_norm=2.0),
            "ragged": tf.nn.embedding_lookup(p, tf.ragged.constant([[0, 1], [2]]))}


def program_extension_type_gradient_and_defaults(tf):
    class Scaled(tf.experimental.ExtensionType):
        x: tf.Tensor
        factor: float = 2.0
        label: str = "s"

        def value(self):
            return self.x * self.factor
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        s = Scaled(w * 3.0)
        y = tf.reduce_sum(s.value())
    traces = []

    @tf.function
    def f(v):
        traces.append(1)
        return v.value()
    f(Scaled(tf.constant([1.0])))
    f(Scaled(tf.constant([2.0])))
    f(Scaled(tf.constant([2.0]), factor=3.0))
    return {"g": tape.gradient(y, w), "factor": s.factor, "label": s.label, "traces": len(traces),
            "repr_type": type(s).__name__, "ne": Scaled(tf.constant([1.0])) != Scaled(tf.constant([2.0]))}

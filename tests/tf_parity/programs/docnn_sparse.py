"""tf.sparse as its TF 2.21 docstring examples use it: bincount (dtypes, SparseTensor input,
zero-weight bins, limits), reductions over groups without entries, sampled_addmm with int32
indices, set_shape, and the other examples of the module."""
from _sweep import outcomes


def _bins(sp):
    return {"indices": sp.indices, "values": sp.values, "dense_shape": sp.dense_shape}


def program_bincount(tf):
    data = tf.constant([[10, 20, 30, 20], [11, 101, 11, 10001]], dtype=tf.int64)
    d = tf.constant([[3, 1, 3], [0, 5, 5]], tf.int64)
    w = tf.constant([[1., 0, 2], [3, 4, 5]])
    sp = tf.sparse.SparseTensor([[0, 3], [0, 7], [0, 8], [0, 11], [1, 9], [1, 11], [1, 18], [1, 27]],
                                [10, 20, 30, 20, 11, 101, 11, 10001], [2, 30])
    return {"rows": _bins(tf.sparse.bincount(data, axis=-1)), "flat": _bins(tf.sparse.bincount(data)),
            "sparse_rows": _bins(tf.sparse.bincount(sp, axis=-1)), "sparse_flat": _bins(tf.sparse.bincount(sp)),
            "limits": _bins(tf.sparse.bincount(data, axis=-1, minlength=500, maxlength=500)),
            "maxlength": _bins(tf.sparse.bincount(d, axis=-1, maxlength=4)),
            "minlength": _bins(tf.sparse.bincount(d, minlength=8)),
            "binary": _bins(tf.sparse.bincount(data, binary_output=True, axis=-1)),
            "sparse_binary": _bins(tf.sparse.bincount(sp, axis=-1, binary_output=True, minlength=40)),
            "weights": _bins(tf.sparse.bincount(d, weights=w)),
            "weights_rows": _bins(tf.sparse.bincount(d, weights=w, axis=-1)),
            "int32": _bins(tf.sparse.bincount(tf.constant([1, 2, 2])))}


def program_bincount_errors(tf):
    sp = tf.sparse.SparseTensor([[0, 1]], [2], [1, 3])
    return outcomes({"dense_weights": lambda: tf.sparse.bincount(sp, weights=tf.constant([1.5])),
                     "axis": lambda: tf.sparse.bincount(tf.constant([1, 2]), axis=1),
                     "binary_weights": lambda: tf.sparse.bincount(tf.constant([1, 2]), weights=[1., 2.],
                                                                  binary_output=True),
                     "negative": lambda: tf.sparse.bincount(tf.constant([1, -2, 2]))})


def program_reduce_empty_groups(tf):
    y = tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1], [3, 1]], [-7., 4., 0., -1.], [4, 2])
    yi = tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1]], [-7, 4, 3], [3, 2])
    e = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0], tf.int32), [2, 3])
    z = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 1]], [2., -2., 1.], [3, 2])
    return {"max1": tf.sparse.reduce_max(y, 1), "max0": tf.sparse.reduce_max(y, 0),
            "max_int": tf.sparse.reduce_max(yi, 1), "max_keep": tf.sparse.reduce_max(y, 1, keepdims=True),
            "max_all": tf.sparse.reduce_max(y), "max_sparse": _bins(tf.sparse.reduce_max(y, 1, output_is_sparse=True)),
            "max_empty": tf.sparse.reduce_max(e, 1), "max_empty_all": tf.sparse.reduce_max(e),
            "sum_sparse": _bins(tf.sparse.reduce_sum(z, 1, output_is_sparse=True)),
            "sum1": tf.sparse.reduce_sum(z, 1), "sum_keep": tf.sparse.reduce_sum(z, 0, keepdims=True)}


def program_sampled_addmm(tf):
    idx = tf.constant([[0, 0], [1, 1]])
    vals = tf.constant([0.5, 0.3])
    m1 = tf.constant([1, 2, 3, 4, 5, 6], shape=[2, 3], dtype=tf.float32)
    m2 = tf.constant([7, 8, 9, 10, 11, 12], shape=[3, 2], dtype=tf.float32)
    bidx = tf.constant([0, 1, 1, 0, 0, 0, 1, 0], shape=[2, 2, 2])
    bm1 = tf.reshape(tf.range(1, 13, dtype=tf.float32), [2, 2, 3])
    bm2 = tf.reshape(tf.range(13, 25, dtype=tf.float32), [2, 3, 2])
    out = {"plain": tf.sparse.sampled_addmm(idx, vals, [2, 2], m1, m2, alpha=0.75, beta=0.25),
           "int64": tf.sparse.sampled_addmm(tf.cast(idx, tf.int64), vals, [2, 2], m1, m2),
           "batched": tf.sparse.sampled_addmm(bidx, tf.constant([[0.5, 0.3], [1.2, 0.4]]), [2, 2], bm1, bm2,
                                              alpha=0.75, beta=0.25)}
    out.update(outcomes({"bad_shape": lambda: tf.sparse.sampled_addmm(idx, vals, [3, 2], m1, m2)}))
    return out


def program_set_shape(tf):
    st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    st.set_shape([3, 4])
    st.set_shape([3, None])
    out = {"shape": st.shape}
    out.update(outcomes({"incompatible": lambda: st.set_shape([1, 4]),
                         "rank": lambda: st.set_shape([3, 4, 1])}))
    return out


def program_module_examples(tf):
    st = tf.sparse.from_dense([[1, 0, 2, 0], [3, 0, 0, 4]])
    a = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1., 5.], [2, 2])
    b = tf.sparse.SparseTensor([[0, 0], [0, 1]], [3., 2.], [2, 2])
    parts = tf.sparse.split(sp_input=st, num_split=2, axis=1)
    return {"from_dense": _bins(st), "to_dense": tf.sparse.to_dense(st, default_value=-1),
            "map_values": _bins(tf.sparse.map_values(tf.multiply, st, 10)),
            "maximum": _bins(tf.sparse.maximum(a, b)), "minimum": _bins(tf.sparse.minimum(a, b)),
            "expand_dims": _bins(tf.sparse.expand_dims(st, axis=0)), "transpose": _bins(tf.sparse.transpose(st)),
            "softmax": tf.sparse.to_dense(tf.sparse.softmax(tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]],
                                                                                    [1., 2., 3.], [2, 3]))),
            "split": [_bins(p) for p in parts], "reduce_sum": tf.sparse.reduce_sum(st, 1),
            "with_values": _bins(st.with_values(st.values * 2))}

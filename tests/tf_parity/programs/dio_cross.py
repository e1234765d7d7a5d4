"""tf.sparse.cross / cross_hashed and tf.ragged.cross / cross_hashed (FingerprintCat64)."""


def _inputs(tf):
    a = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant(["a", "b", "c"]), [3, 2])
    b = tf.constant([["d"], ["e"], ["f"]])
    c = tf.SparseTensor([[0, 0], [1, 0], [2, 0]], tf.constant([7, 8, 9], tf.int64), [3, 1])
    return a, b, c


def program_sparse_cross(tf):
    a, b, c = _inputs(tf)
    x = tf.sparse.cross([a, b, c])
    y = tf.sparse.cross([a, b], separator="+")
    h = tf.sparse.cross_hashed([a, b, c])
    hb = tf.sparse.cross_hashed([a, b], num_buckets=100, hash_key=123)
    return {"idx": x.indices, "vals": x.values, "shape": x.dense_shape, "sep": y.values,
            "h_idx": h.indices, "h": h.values, "hb": hb.values}


def program_ragged_cross(tf):
    r = tf.ragged.constant([["a"], ["b", "c"], []])
    d = tf.constant([["d"], ["e"], ["f"]])
    return {"cross": tf.ragged.cross([r, d]), "hashed": tf.ragged.cross_hashed([r, d], num_buckets=7)}


def program_sparse_mask(tf):
    a = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([12, 26, 37]),
                         tf.constant([40, 2]))
    m = tf.sparse.mask(a, tf.constant([12, 45]))
    return {"values": m.values, "indices": m.indices, "dense_shape": m.dense_shape}


def program_sampled_addmm(tf):
    idx = tf.constant([[0, 0], [1, 1], [0, 2]], tf.int64)
    vals = tf.constant([0.5, 1.0, -1.0])
    m1 = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    m2 = tf.constant([[1.0, 0.0, 2.0], [0.5, 1.0, 1.0]])
    out = tf.sparse.sampled_addmm(idx, vals, [2, 3], m1, m2, beta=2.0, alpha=0.5)
    return {"out": out, "default": tf.sparse.sampled_addmm(idx, vals, [2, 3], m1, m2)}

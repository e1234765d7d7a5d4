"""tf.fingerprint (farmhash Fingerprint64 of every row, 8 little-endian bytes) and
tf.edit_distance (Levenshtein distance between SparseTensor sequences)."""


def program_fingerprint_numbers(tf):
    return {"int32": tf.fingerprint(tf.constant([[1, 2], [3, 4]], tf.int32)),
            "float32": tf.fingerprint(tf.constant([1.5, 2.0])),
            "float64_3d": tf.fingerprint(tf.constant([[[1.5], [2.0]]], tf.float64)),
            "int64": tf.fingerprint(tf.constant([[1, 2]], tf.int64)),
            "uint16": tf.fingerprint(tf.constant([1, 2], tf.uint16)),
            "float16": tf.fingerprint(tf.constant([1, 2], tf.float16)),
            "bool": tf.fingerprint(tf.constant([True, False])),
            "complex64": tf.fingerprint(tf.constant([1 + 2j], tf.complex64)),
            "empty": tf.fingerprint(tf.zeros([0, 3]))}


def program_fingerprint_strings(tf):
    return {"vector": tf.fingerprint(tf.constant(["abc", "d", ""])),
            "rows": tf.fingerprint(tf.constant([["abc", "d"], ["x", "yz"]])),
            "column": tf.fingerprint(tf.constant([["abc"], ["d"]])),
            "graph": tf.function(lambda x: tf.fingerprint(x))(tf.constant(["abc", "d"]))}


def program_fingerprint_scalar_raises(tf):
    return tf.fingerprint(tf.constant(3))


def program_fingerprint_method_raises(tf):
    return tf.fingerprint(tf.constant([1, 2]), method="md5")


def _sp(tf, indices, values, shape, dtype=None):
    if not indices:
        return tf.sparse.SparseTensor(tf.zeros([0, len(shape)], tf.int64), tf.constant([], dtype), shape)
    return tf.sparse.SparseTensor(indices, values, shape)


def program_edit_distance_strings(tf):
    h = _sp(tf, [[0, 0], [0, 1], [1, 0], [2, 0]], ["a", "b", "c", "x"], [3, 2])
    t = _sp(tf, [[0, 0], [1, 0], [1, 1]], ["a", "c", "d"], [3, 2])
    return {"normalized": tf.edit_distance(h, t), "raw": tf.edit_distance(h, t, normalize=False)}


def program_edit_distance_empty(tf):
    h = _sp(tf, [[0, 0], [0, 1], [1, 0]], ["a", "b", "c"], [2, 2])
    e = _sp(tf, [], None, [2, 2], tf.string)
    return {"empty_truth": tf.edit_distance(h, e), "empty_truth_raw": tf.edit_distance(h, e, normalize=False),
            "both_empty": tf.edit_distance(e, e), "empty_hyp": tf.edit_distance(e, h)}


def program_edit_distance_rank3_ints(tf):
    h = _sp(tf, [[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 1, 0]], [1, 2, 3, 4], [2, 2, 3])
    t = _sp(tf, [[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1]], [2, 3, 4, 4], [2, 2, 2])
    wider = tf.edit_distance(_sp(tf, [[0, 0], [0, 1]], ["a", "b"], [1, 2]), _sp(tf, [[0, 0]], ["a"], [3, 5]))
    return {"rank3": tf.edit_distance(h, t), "wider_truth": wider}


def program_edit_distance_in_function(tf):
    g = tf.function(lambda h, t: tf.edit_distance(h, t, normalize=False))
    out = [g(_sp(tf, [[0, 0], [0, 1]], ["a", "b"], [1, 2]), _sp(tf, [[0, 0]], ["a"], [1, 1])),
           g(_sp(tf, [[0, 0], [1, 2]], ["q", "b"], [2, 3]), _sp(tf, [[0, 0], [0, 1]], ["a", "q"], [2, 2]))]
    return {"out": out}


def program_edit_distance_rank_mismatch_raises(tf):
    return tf.edit_distance(_sp(tf, [[0, 0]], [1], [1, 2]), _sp(tf, [[0, 0, 0]], [1], [1, 1, 1]))


def program_edit_distance_dtype_mismatch_raises(tf):
    return tf.edit_distance(_sp(tf, [[0, 0]], [1.0], [1, 2]), _sp(tf, [[0, 0]], [1], [1, 1]))


def program_edit_distance_rank1_raises(tf):
    return tf.edit_distance(_sp(tf, [[0]], [1], [1]), _sp(tf, [[0]], [1], [1]))

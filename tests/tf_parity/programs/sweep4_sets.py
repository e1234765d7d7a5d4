"""Sweep 4: tf.sets over dense tensors and SparseTensors."""


def program_sets_dense(tf):
    a = tf.constant([[1, 2, 3], [4, 4, 5]])
    b = tf.constant([[2, 9, 1], [5, 6, 6]])
    return {"inter": tf.sets.intersection(a, b), "union": tf.sets.union(a, b),
            "diff": tf.sets.difference(a, b), "bminusa": tf.sets.difference(a, b, aminusb=False)}


def program_sets_rank1_error(tf):
    return {"one_d": tf.sets.intersection(tf.constant([1, 2, 3]), tf.constant([3, 1]))}


def program_sets_strings(tf):
    return {"u": tf.sets.union(tf.constant([["a", "b"]]), tf.constant([["c", "a"]]))}


def program_sets_sparse_and_size(tf):
    sp = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([7, 7, 3]), [2, 2])
    return {"size": tf.sets.size(sp), "inter": tf.sets.intersection(sp, tf.constant([[7, 1], [2, 3]]))}


def program_sets_size_dense_error(tf):
    return {"s": tf.sets.size(tf.constant([[1, 2]]))}


def program_sets_dtype_mismatch(tf):
    return {"s": tf.sets.union(tf.constant([[1]]), tf.constant([[1]], tf.int64))}

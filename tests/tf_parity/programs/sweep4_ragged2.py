"""Sweep 4: more ragged tensors: in functions, gradients, datasets, Keras-free ops."""


def program_ragged_gradient(tf):
    v = tf.Variable([1., 2., 3., 4.])
    with tf.GradientTape() as tape:
        r = tf.RaggedTensor.from_row_splits(v * 2., [0, 1, 4])
        y = tf.reduce_sum(tf.reduce_mean(r, axis=1))
    return {"g": tape.gradient(y, v)}


def program_ragged_function_loop(tf):
    @tf.function
    def row_sums(r):
        out = tf.TensorArray(tf.float32, size=tf.cast(r.nrows(), tf.int32))
        for i in tf.range(r.nrows()):
            out = out.write(tf.cast(i, tf.int32), tf.reduce_sum(r[i]))
        return out.stack()

    return {"r": row_sums(tf.ragged.constant([[1., 2.], [], [3., 4., 5.]]))}


def program_ragged_function_returns_ragged(tf):
    @tf.function
    def f(x, lengths):
        return tf.RaggedTensor.from_row_lengths(x, lengths)

    r = f(tf.range(6), tf.constant([1, 2, 3], tf.int64))
    return {"r": r, "shape": r.shape, "type": type(r).__name__}


def program_ragged_map_fn(tf):
    r = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    lens = tf.map_fn(lambda row: tf.size(row), r, fn_output_signature=tf.int32)
    doubled = tf.map_fn(lambda row: row * 2, r,
                        fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))
    return {"lens": lens, "doubled": doubled}


def program_ragged_to_tensor_in_dataset(tf):
    r = tf.ragged.constant([[1, 2], [3], [4, 5, 6], []])
    ds = tf.data.Dataset.from_tensor_slices(r).batch(2).map(lambda x: x.to_tensor())
    return {"out": [t for t in ds]}


def program_ragged_comparisons_and_where(tf):
    r = tf.ragged.constant([[1, 5], [3], [7, 2, 9]])
    return {"gt": r > 2, "mask": tf.ragged.boolean_mask(r, r > 2), "maxrow": tf.reduce_max(r, axis=1),
            "argmax_dense": tf.argmax(r.to_tensor(-100), axis=1), "eq": tf.math.equal(r, 3)}


def program_ragged_unicode(tf):
    s = tf.constant(["héllo", "wörld!"])
    chars = tf.strings.unicode_split(s, "UTF-8")
    codes = tf.strings.unicode_decode(s, "UTF-8")
    return {"chars": chars, "codes": codes, "lens": chars.row_lengths(),
            "back": tf.strings.unicode_encode(codes, "UTF-8")}


def program_ragged_row_ops(tf):
    r = tf.ragged.constant([[3, 1, 2], [], [9, 8]])
    return {"rev": tf.reverse(r.to_tensor(), [1]), "first": r[:, :1].to_tensor(-1),
            "tile": tf.tile(r, [2]) if False else r.row_lengths() * 2,
            "nested_lengths": tf.ragged.constant([[[1], [2, 3]], [[4]]]).nested_row_lengths(),
            "row_splits_to_ids": tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]),
            "ids_to_splits": tf.ragged.segment_ids_to_row_splits([0, 0, 2])}


def program_ragged_bad_constructor(tf):
    return {"r": tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1])}


def program_ragged_cross_and_concat_axis1(tf):
    a = tf.ragged.constant([[1, 2], [3]])
    b = tf.ragged.constant([[4], [5, 6, 7]])
    return {"c1": tf.concat([a, b], axis=1), "stack1": tf.stack([a, b], axis=1)}

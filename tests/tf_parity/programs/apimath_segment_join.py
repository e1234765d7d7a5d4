"""tf.strings.unsorted_segment_join: rows joined per segment id in input order."""


def program_segment_join(tf):
    words = tf.constant(["a", "b", "c", "d", "e"])
    return {"sep": tf.strings.unsorted_segment_join(words, [1, 0, 1, 3, 1], 4, separator=":"),
            "plain": tf.strings.unsorted_segment_join(words, tf.constant([2, 2, 0, 0, 2], tf.int64), 3),
            "rows": tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"], ["e", "f"]], [1, 0, 1], 2,
                                                     separator="-"),
            "all_empty": tf.strings.unsorted_segment_join(tf.constant([], tf.string), tf.constant([], tf.int32), 2)}


def program_segment_join_in_function(tf):
    f = tf.function(lambda x, ids: tf.strings.unsorted_segment_join(x, ids, 3, separator=", "))
    return {"out": [f(tf.constant(["x", "y", "z"]), tf.constant([2, 0, 2])),
                    f(tf.constant(["p", "q"]), tf.constant([1, 1]))],
            "traces": f.experimental_get_tracing_count()}


def program_segment_join_bad_id_raises(tf):
    return tf.strings.unsorted_segment_join(["a", "b"], [1, 5], 2)

"""Strings and ragged tensors at their edges (from a probe of 35 calls against TF: only
tf.ragged.stack of vectors of different lengths differed): empty strings, UTF-8 units, regexes,
hashing, number parsing, ragged reductions over empty rows, stacking dense vectors."""


def program_string_edges(tf):
    S = tf.strings
    x = tf.constant(["Hello World", "  tf.data  ", "", "ünïcödé ß"])
    return {"split": S.split(x), "lower": S.lower(x), "strip": S.strip(x),
            "length": [S.length(x), S.length(x, unit="UTF8_CHAR")],
            "substr": [S.substr(x, 1, 3), S.substr(x, 1, 3, unit="UTF8_CHAR")],
            "regex": S.regex_replace(x, r"[aeiou]", "_"), "reduce_join": S.reduce_join(x, separator=","),
            "number": S.to_number(tf.constant(["1.5", "-2", "3e2"])),
            "hash": S.to_hash_bucket_fast(x, 10), "unicode_split": S.unicode_split(x, "UTF-8"),
            "ngrams": S.ngrams(S.split(tf.constant(["a b c d"])), 2, separator="_")}


def program_ragged_edges(tf):
    r = tf.ragged.constant([[1.0, 2.0], [], [3.0]])
    return {"sum": tf.reduce_sum(r, axis=1), "mean_empty": tf.reduce_mean(r, axis=1),
            "to_tensor": r.to_tensor(default_value=-1.0, shape=[3, 3]),
            "stack_vectors": tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])]),
            "stack_lists": tf.ragged.stack([tf.constant([1, 2]), [3, 4, 5]]),
            "stack_graph": tf.function(lambda a, b: tf.ragged.stack([a, b]))(tf.constant([1.0]), tf.constant([2.0, 3.0])),
            "stack_ragged": tf.ragged.stack([tf.ragged.constant([[1, 2]]), tf.ragged.constant([[3]])]),
            "gather": tf.gather(tf.ragged.constant([[1], [2, 3], []]), [2, 1, 1]),
            "concat1": tf.concat([tf.ragged.constant([[1], [2, 3]]), tf.ragged.constant([[4], []])], axis=1)}

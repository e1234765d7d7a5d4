"""tf.strings ops with ragged results: split, bytes_split, unicode_split/decode/encode."""


def program_split_whitespace(tf):
    return {"scalar": tf.strings.split("a b  c"), "vector": tf.strings.split(["a b", "", " c "]),
            "matrix": tf.strings.split([["a b"], ["c"]]), "maxsplit": tf.strings.split(["a b c"], maxsplit=1),
            "empty_sep": tf.strings.split(["abc d"], sep="")}


def program_split_sep(tf):
    return {"comma": tf.strings.split(["a,b,,c", "", ","], sep=","),
            "maxsplit": tf.strings.split(["a,b,c"], sep=",", maxsplit=1),
            "multi": tf.strings.split(["a--b--", "--"], sep="--"), "utf8": tf.strings.split(["é,日"], sep=",")}


def program_split_to_tensor_and_rows(tf):
    rt = tf.strings.split(["hello world", "a", "x y z"])
    return {"dense": rt.to_tensor(), "padded": rt.to_tensor(default_value="<pad>"), "lengths": rt.row_lengths(),
            "splits": rt.row_splits, "flat": rt.flat_values, "nrows": rt.nrows(), "first": rt[0],
            "shape": rt.shape, "bounding": rt.bounding_shape()}


def program_split_of_ragged(tf):
    lines = tf.ragged.constant([["a b", "c"], [], ["d e f"]])
    return {"words": tf.strings.split(lines), "lengths": tf.strings.length(tf.strings.split(lines))}


def program_bytes_split(tf):
    return {"vector": tf.strings.bytes_split(["ab", "", "é"]), "scalar": tf.strings.bytes_split("abc")}


def program_unicode_split_decode(tf):
    x = tf.constant(["aé", "", "日本"])
    return {"split": tf.strings.unicode_split(x, "UTF-8"), "decode": tf.strings.unicode_decode(x, "UTF-8"),
            "decode_scalar": tf.strings.unicode_decode("aé", "UTF-8"),
            "decode_matrix": tf.strings.unicode_decode([["a"], ["bé"]], "UTF-8"),
            "bad_replace": tf.strings.unicode_decode([b"a\xffb"], "UTF-8"),
            "bad_split": tf.strings.unicode_split([b"a\xffb"], "UTF-8"),
            "bad_ignore": tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="ignore"),
            "bad_char": tf.strings.unicode_decode([b"a\xffb"], "UTF-8", replacement_char=63),
            "control": tf.strings.unicode_decode(["a\x01\tb"], "UTF-8", replace_control_characters=True)}


def program_unicode_decode_strict_raises(tf):
    return {"d": tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="strict")}


def program_unicode_encode(tf):
    return {"dense": tf.strings.unicode_encode([[97, 233], [26085, 26412]], "UTF-8"),
            "ragged": tf.strings.unicode_encode(tf.ragged.constant([[97, 233], [], [26085]]), "UTF-8"),
            "round_trip": tf.strings.unicode_encode(tf.strings.unicode_decode(["héllo", ""], "UTF-8"), "UTF-8")}


def program_split_in_function(tf):
    traces = []

    @tf.function
    def words(s):
        traces.append(1)
        rt = tf.strings.split(s)
        return rt, rt.to_tensor(), tf.strings.length(rt), rt.row_lengths()

    return {"a": words(tf.constant(["a b", "c"])), "b": words(tf.constant(["x y z", "", "q"])),
            "traces": len(traces)}


def program_word_counts_pipeline(tf):
    lines = tf.constant(["the cat", "the dog the end", ""])
    words = tf.strings.split(lines)
    return {"per_line": words.row_lengths(), "total": tf.size(words.flat_values),
            "hashed": tf.strings.to_hash_bucket_fast(words, 5),
            "unique": tf.unique(words.flat_values)[0]}


def program_ngrams(tf):
    rt = tf.ragged.constant([["a", "b", "c"], [], ["d"]])
    return {"bigrams": tf.strings.ngrams(rt, 2), "uni_bi": tf.strings.ngrams(rt, (1, 2)),
            "padded": tf.strings.ngrams(rt, 2, pad_values=("<s>", "</s>")),
            "pad_width": tf.strings.ngrams(rt, 3, pad_values="#", padding_width=1),
            "preserve": tf.strings.ngrams(rt, 3, preserve_short_sequences=True),
            "vector": tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2),
            "matrix": tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2, separator="_"),
            "of_split": tf.strings.ngrams(tf.strings.split(["the cat sat", "hi"]), 2)}


def program_ngrams_in_function(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def f(lines):
        return tf.strings.ngrams(tf.strings.split(lines), (1, 2), separator="+")

    return {"a": f(tf.constant(["a b c", ""])), "b": f(tf.constant(["x y"]))}

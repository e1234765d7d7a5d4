"""tf.io.gfile, tf.io, tf.strings and tf.lookup as their docstrings show them (TF 2.21):
file:// paths and an iterator of glob patterns (fixed); the rest already matched."""
import os
import tempfile


def program_gfile_file_scheme(tf):
    d = tempfile.mkdtemp()
    x, y = os.path.join(d, "x"), os.path.join(d, "y")
    with tf.io.gfile.GFile("file://" + x, "w") as f:
        f.write("qwert")
        f.write("asdf")
    out = {"read": tf.io.gfile.GFile("file://" + x).read(), "exists": tf.io.gfile.exists("file://" + x),
           "plain_read": tf.io.gfile.GFile(x).read()}
    tf.io.gfile.copy(x, "file://" + y)
    out["copied"] = tf.io.gfile.exists(y)
    tf.io.gfile.copy(x, "file://" + y, overwrite=True)
    tf.io.gfile.remove("file://" + y)
    out["removed"] = tf.io.gfile.exists(y)
    out["isdir"] = tf.io.gfile.isdir("file://" + d)
    return out


def program_gfile_glob_patterns(tf):
    d = tempfile.mkdtemp()
    for name in ("a.py", "b.py", "c.txt"):
        with open(os.path.join(d, name), "w") as f:
            f.write(name)
    rel = lambda paths: sorted(os.path.basename(p) for p in paths)  # noqa: E731
    return {"one": rel(tf.io.gfile.glob(os.path.join(d, "*.py"))),
            "iterator": rel(tf.io.gfile.glob(iter({os.path.join(d, "*.py")}))),
            "list": rel(tf.io.gfile.glob([os.path.join(d, "*.py"), os.path.join(d, "*.txt")])),
            "none": tf.io.gfile.glob(os.path.join(d, "*.md"))}


def program_gfile_reading(tf):
    d = tempfile.mkdtemp()
    x = os.path.join(d, "x")
    with tf.io.gfile.GFile(x, "w") as f:
        f.write("asdf\n")
        f.write("qwer\n")
    lines = tf.io.gfile.GFile(x).readlines()
    looped = [line[:-1] for line in tf.io.gfile.GFile(x)]
    with open(x, "w") as f:
        f.write("asdfqwer")
    f = tf.io.gfile.GFile(x)
    first = f.read(3)
    f.seek(4)
    at = f.tell()
    second = f.read(3)
    end = f.tell()
    f.close()
    return {"lines": lines, "looped": looped, "first": first, "at": at, "second": second, "end": end,
            "join": tf.io.gfile.join("gcs://folder", "file.py")}


def program_decode_raw_examples(tf):
    x = "".join([chr(1), chr(2), chr(3), chr(4)])
    return {"one": tf.io.decode_raw(tf.constant("1"), tf.uint8),
            "shape": tf.io.decode_raw(tf.constant([["1"], ["2"]]), tf.uint8).shape,
            "u16": tf.io.decode_raw(tf.constant("1234"), tf.uint16),
            "i64": tf.io.decode_raw(tf.constant("1234567887654321"), tf.int64),
            "big_endian": tf.io.decode_raw(tf.constant("\x0a\x0b"), tf.int16, little_endian=False),
            "fixed": tf.io.decode_raw(tf.constant([["1"], ["23"]]), tf.uint8, fixed_length=4),
            "fixed_u16": tf.io.decode_raw(x, tf.uint16, fixed_length=2),
            "pairs": tf.io.decode_raw(["12345678", "87654321"], tf.int16, fixed_length=8)}


def program_serialize_tensor_examples(tf):
    nonscalar = tf.concat([[[1, 2]], [[7, 8]]], 0)
    serialized = tf.io.serialize_tensor(nonscalar)
    feature = tf.train.Feature(bytes_list=tf.train.BytesList(value=[serialized.numpy()]))
    example = tf.train.Example(features=tf.train.Features(feature={"feature0": feature}))
    return {"scalar": tf.io.serialize_tensor(tf.constant(1)), "nonscalar": serialized,
            "back": tf.io.parse_tensor(serialized, tf.int32), "example": example.SerializeToString()}


def program_strings_examples(tf):
    strings = tf.constant(["Hello", "TensorFlow", "\U0001F642"])
    text = [s.encode("utf8") for s in ("G\xf6\xf6dnight", "\U0001f60a")]
    decoded = tf.strings.unicode_decode_with_offsets(text, "UTF-8")
    split = tf.strings.unicode_split_with_offsets(text, "UTF-8")
    return {"as_string": tf.strings.as_string([3.1415926, 2.71828], precision=2),
            "bytes_split": tf.strings.bytes_split(["hello", "123"]),
            "format": tf.strings.format("a: {}, b: {}, suffix", (tf.range(2), tf.range(1, 4, 2))),
            "join": tf.strings.join([["abc", "123"], ["def", "456"]], separator=" "),
            "length": [tf.strings.length(strings), tf.strings.length(strings, unit="UTF8_CHAR")],
            "ngrams": tf.strings.ngrams(["A", "B", "C", "D"], 2),
            "reduce_join": tf.strings.reduce_join([["abc", "123"], ["def", "456"]], axis=-1, separator=" "),
            "split": tf.strings.split(["hello world", "a b c"]),
            "strip": tf.strings.strip(["\nTensorFlow", "     The python library    "]),
            "hash": [tf.strings.to_hash_bucket(["Hello", "TensorFlow", "2.x"], 3),
                     tf.strings.to_hash_bucket_strong(["Hello", "TF"], 3, [1, 2])],
            "to_number": [tf.strings.to_number("1.55"), tf.strings.to_number("3", tf.int32)],
            "decode": tf.strings.unicode_decode(text, "UTF-8"), "decode_offsets": list(decoded),
            "split_offsets": list(split),
            "encode": tf.strings.unicode_encode(tf.ragged.constant([[71, 246, 246, 100], [128522]]), "UTF-8"),
            "script": tf.strings.unicode_script([1, 31, 38]),
            "transcode": tf.strings.unicode_transcode(["Hello", "2.x"], "UTF-8", "UTF-16-BE"),
            "segment_join": tf.strings.unsorted_segment_join([["Y", "q", "c"], ["Y", "6", "6"], ["p", "G", "a"]],
                                                             [1, 0, 1], 2, separator=":"),
            "regex": [tf.strings.regex_full_match(["TF lib", "lib TF"], ".*TF$"),
                      tf.strings.regex_replace("Text with tags.<br /><b>contains html</b>", "<[^>]+>", " ")]}


def program_lookup_examples(tf):
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b", "c"]), tf.constant([7, 8, 9])), default_value=-1)
    vocab = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(keys=tf.constant(["emerson", "lake", "palmer"]),
                                            values=tf.constant([0, 1, 2], dtype=tf.int64)), num_oov_buckets=5)
    f = tempfile.NamedTemporaryFile(delete=False)
    f.write("\n".join(["emerson", "lake", "palmer", "crimnson"]).encode("utf-8"))
    f.close()
    init = tf.lookup.TextFileInitializer(f.name, key_dtype=tf.string, key_index=tf.lookup.TextFileIndex.WHOLE_LINE,
                                         value_dtype=tf.int64, value_index=tf.lookup.TextFileIndex.LINE_NUMBER)
    from_file = tf.lookup.StaticVocabularyTable(init, 3)
    mutable = tf.lookup.experimental.MutableHashTable(key_dtype=tf.string, value_dtype=tf.int64, default_value=-1)
    mutable.insert(tf.constant(["a", "b", "c"]), tf.constant([7, 8, 9], tf.int64))
    mutable.remove(tf.constant(["c"]))
    out = {"lookup": table.lookup(tf.constant(["a", "f"])), "getitem": table[tf.constant([["a", "b"], ["c", "d"]])],
           "vocab": vocab[tf.constant(["emerson", "lake", "palmer", "king", "crimson"])],
           "from_file": from_file.lookup(tf.constant(["palmer", "crimnson", "king", "tarkus", "black", "moon"])),
           "mutable": mutable.lookup(tf.constant(["a", "c", "z"])), "mutable_size": mutable.size()}
    os.unlink(f.name)
    return out


def program_static_vocabulary_table_int_keys(tf):
    init = tf.lookup.KeyValueTensorInitializer(tf.constant([5, 7], tf.int64), tf.constant([0, 1], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=3)
    narrow = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=3, lookup_key_dtype=tf.int32)
    out = {"lookup": table.lookup(tf.constant([5, 7, 9, 100, -4], tf.int64)), "size": table.size(),
           "int32": narrow.lookup(tf.constant([5, 8, 11], tf.int32)), "getitem": narrow[tf.constant([[7, 1000]])]}
    try:
        table.lookup(tf.constant([5], tf.int32))
    except TypeError:
        out["wrong_dtype"] = "TypeError"
    try:
        tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(tf.constant([5.0]),
                                                                          tf.constant([0], tf.int64)), 2)
    except TypeError:
        out["float_keys"] = "TypeError"
    return out


def program_dense_hash_table_erase(tf):
    t = tf.lookup.experimental.DenseHashTable(key_dtype=tf.int64, value_dtype=tf.int64, default_value=-1,
                                              empty_key=0, deleted_key=-1)
    t.insert(tf.constant([1, 2], tf.int64), tf.constant([10, 20], tf.int64))
    before = t.lookup(tf.constant([1, 3], tf.int64))
    t.erase(tf.constant([1], tf.int64))
    return {"before": before, "after": t.lookup(tf.constant([1, 2], tf.int64)), "size": t.size()}


def program_reduce_join_needs_strings(tf):
    out = {"strings": tf.strings.reduce_join(["a", "b"], separator=",")}
    for name, value in (("empty_list", []), ("ints", [1, 2])):
        try:
            tf.strings.reduce_join(value, separator=",")
        except tf.errors.InvalidArgumentError:
            out[name] = "InvalidArgumentError"
    return out


def program_static_table_import_errors(tf):
    def outcome(make):
        try:
            return make()
        except (tf.errors.InvalidArgumentError, tf.errors.FailedPreconditionError) as exc:
            return type(exc).__name__

    init = tf.lookup.KeyValueTensorInitializer
    return {"same_value_twice": outcome(lambda: tf.lookup.StaticHashTable(init(["a", "a"], [1, 1]), -1)
                                        .lookup(tf.constant(["a", "b"]))),
            "two_values": outcome(lambda: tf.lookup.StaticHashTable(init(["a", "a"], [1, 2]), -1)),
            "vocab_two_values": outcome(lambda: tf.lookup.StaticVocabularyTable(
                init(["a", "a"], tf.constant([1, 2], tf.int64)), 2)),
            "lengths": outcome(lambda: tf.lookup.StaticHashTable(init(["a", "b"], [1]), -1))}


def program_unicode_encode_output_encodings(tf):
    out = {"utf16": tf.strings.unicode_encode(tf.ragged.constant([[104, 0x1F600], []]), "UTF-16-BE"),
           "utf32": tf.strings.unicode_encode(tf.constant([[104, 105]]), "UTF-32-BE"),
           "replaced": tf.strings.unicode_encode(tf.constant([104, -5]), "UTF-16-BE"),
           "utf8": tf.strings.unicode_encode(tf.constant([104, 233]), "UTF-8"),
           "join_tuple": tf.strings.join(("a", "b"))}
    try:
        tf.strings.unicode_encode(tf.constant([104]), "latin1")
    except tf.errors.InvalidArgumentError:
        out["latin1"] = "InvalidArgumentError"
    try:
        tf.strings.join("a")
    except TypeError:
        out["join_str"] = "TypeError"
    return out

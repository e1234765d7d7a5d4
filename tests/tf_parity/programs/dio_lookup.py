"""tf.lookup: TextFileInitializer / TextFileIndex, experimental.MutableHashTable and
DenseHashTable (insert, lookup, remove, export, size, checkpoints)."""
import os
import tempfile


def _vocab_file(lines):
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def program_text_file_initializer(tf):
    L = tf.lookup
    path = _vocab_file(["emerson\t10", "lake\t20", "palmer\t30"])
    by_line = L.StaticHashTable(L.TextFileInitializer(path, tf.string, L.TextFileIndex.WHOLE_LINE,
                                                      tf.int64, L.TextFileIndex.LINE_NUMBER), -1)
    by_col = L.StaticHashTable(L.TextFileInitializer(path, tf.string, 0, tf.int64, 1, delimiter="\t"), -1)
    inverse = L.StaticHashTable(L.TextFileInitializer(path, tf.int64, L.TextFileIndex.LINE_NUMBER,
                                                      tf.string, 0), "?")
    limited = L.StaticHashTable(L.TextFileInitializer(path, tf.string, 0, tf.int64, L.TextFileIndex.LINE_NUMBER,
                                                      vocab_size=2), -1)
    vocab = L.StaticVocabularyTable(L.TextFileInitializer(path, tf.string, 0, tf.int64,
                                                          L.TextFileIndex.LINE_NUMBER), 2)
    probe = tf.constant(["lake", "palmer", "x"])
    return {"line": by_line.lookup(tf.constant(["lake\t20", "lake"])), "col": by_col.lookup(probe),
            "inverse": inverse.lookup(tf.constant([2, 0, 7], tf.int64)), "limited": limited.lookup(probe),
            "limited_size": limited.size(), "vocab": vocab.lookup(probe),
            "index": (L.TextFileIndex.WHOLE_LINE, L.TextFileIndex.LINE_NUMBER)}


def program_text_file_bad_column(tf):
    L = tf.lookup
    path = _vocab_file(["a\t1", "b"])
    return {"v": L.StaticHashTable(L.TextFileInitializer(path, tf.string, 0, tf.int64, 1), -1).size()}


def program_text_file_vocab_size_too_big(tf):
    L = tf.lookup
    path = _vocab_file(["a", "b"])
    t = L.StaticHashTable(L.TextFileInitializer(path, tf.string, 0, tf.int64, L.TextFileIndex.LINE_NUMBER,
                                                vocab_size=5), -1)
    return {"v": t.size()}


def program_mutable_hash_table(tf):
    t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
    t.insert(tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64))
    t.insert(tf.constant(["b", "d"]), tf.constant([20, 4], tf.int64))
    first = t.lookup(tf.constant([["a", "b"], ["d", "z"]]))
    t.remove(tf.constant(["a", "q"]))
    keys, values = t.export()
    pairs = sorted(zip(keys.numpy().tolist(), values.numpy().tolist()))
    return {"first": first, "size": t.size(), "after": t.lookup(tf.constant(["a", "c"])),
            "pairs": pairs, "export_dtypes": (keys.dtype, values.dtype),
            "dtypes": (t.key_dtype, t.value_dtype), "getitem": t[tf.constant(["c"])]}


def program_mutable_hash_table_vector_values(tf):
    t = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, default_value=[0.0, -1.0])
    t.insert(tf.constant([5, 7], tf.int64), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return {"v": t.lookup(tf.constant([7, 6, 5], tf.int64)), "size": t.size()}


def program_mutable_hash_table_checkpoint(tf):
    t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=0)
    t.insert(tf.constant(["x", "y"]), tf.constant([1, 2], tf.int64))
    prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
    path = tf.train.Checkpoint(table=t).save(prefix)
    t.insert(tf.constant(["z"]), tf.constant([3], tf.int64))
    t.remove(tf.constant(["x"]))
    fresh = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=0)
    tf.train.Checkpoint(table=fresh).restore(path)
    tf.train.Checkpoint(table=t).restore(path)
    probe = tf.constant(["x", "y", "z"])
    return {"fresh": fresh.lookup(probe), "fresh_size": fresh.size(), "old": t.lookup(probe), "old_size": t.size()}


def program_mutable_hash_table_bad_dtype(tf):
    t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
    t.insert(tf.constant([1, 2], tf.int64), tf.constant([1, 2], tf.int64))
    return {"v": t.size()}


def program_dense_hash_table(tf):
    t = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1)
    t.insert(tf.constant([3, 5, 8], tf.int64), tf.constant([30, 50, 80], tf.int64))
    t.remove(tf.constant([5], tf.int64))
    t.insert(tf.constant([9], tf.int64), tf.constant([90], tf.int64))
    return {"v": t.lookup(tf.constant([3, 5, 8, 9, 4], tf.int64)), "size": t.size(),
            "getitem": t[tf.constant([8], tf.int64)]}


def program_dense_hash_table_empty_key(tf):
    t = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1)
    t.insert(tf.constant([0], tf.int64), tf.constant([1], tf.int64))
    return {"v": t.size()}


def program_dense_hash_table_same_keys(tf):
    t = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=2, deleted_key=2)
    return {"v": t.size()}


def program_dense_hash_table_strings(tf):
    t = tf.lookup.experimental.DenseHashTable(tf.string, tf.float32, default_value=0.5, empty_key="",
                                              deleted_key="$")
    t.insert(tf.constant(["u", "v"]), tf.constant([1.0, 2.0]))
    return {"v": t.lookup(tf.constant(["v", "w"])), "size": t.size()}

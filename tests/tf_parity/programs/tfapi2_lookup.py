"""tf.lookup StaticHashTable, StaticVocabularyTable, KeyValueTensorInitializer: eager,
inside tf.function and in Dataset.map."""


def _init(tf):
    return tf.lookup.KeyValueTensorInitializer(tf.constant(["cat", "dog", "emu"]), tf.constant([7, 3, 5], tf.int64))


def program_static_hash_table(tf):
    table = tf.lookup.StaticHashTable(_init(tf), default_value=-1)
    ints = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant([1, 5, 9]), tf.constant([0.5, 1.5, 2.5])), -0.5)
    f = tf.function(lambda x: table.lookup(x))
    ds = tf.data.Dataset.from_tensor_slices(["emu", "yak", "cat"]).map(table.lookup)
    k, v = table.export()
    return {"eager": table.lookup(tf.constant([["dog", "fox"], ["cat", "emu"]])), "size": table.size(),
            "scalar": table.lookup(tf.constant("emu")), "ints": ints.lookup(tf.constant([9, 2, 1])),
            "traced": f(tf.constant(["fox", "dog"])), "data": list(ds.as_numpy_iterator()),
            "key_dtype": table.key_dtype, "value_dtype": table.value_dtype, "keys": k, "values": v,
            "getitem": table[tf.constant(["cat"])]}


def program_static_hash_table_wrong_key_dtype(tf):
    table = tf.lookup.StaticHashTable(_init(tf), default_value=-1)
    return {"v": table.lookup(tf.constant([1, 2]))}


def program_static_vocabulary_table(tf):
    init = tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b", "c"]), tf.constant([0, 1, 2], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    f = tf.function(lambda x: table.lookup(x))
    return {"eager": table.lookup(tf.constant(["b", "zebra", "a", "quokka", "c", ""])), "size": table.size(),
            "traced": f(tf.constant(["c", "hello"]))}

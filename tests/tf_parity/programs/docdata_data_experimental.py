"""tf.data.experimental as its docstrings show it (TF 2.21): from_list of elements whose
shapes differ (fixed), and examples that already matched (bucketing, ragged batches,
tables from data sets, optionals, structures, counters)."""


def program_from_list_varying_shapes(tf):
    lengths = tf.data.experimental.from_list([[1], [2, 3]])
    ranks = tf.data.experimental.from_list([[1], [[2]]])
    pairs = tf.data.experimental.from_list([([1], "a"), ([2, 3], "bc")])
    return {"lengths": [x.tolist() for x in lengths.as_numpy_iterator()], "lengths_spec": lengths.element_spec,
            "lengths_card": lengths.cardinality(),
            "ranks": [x.tolist() for x in ranks.as_numpy_iterator()], "ranks_spec": ranks.element_spec,
            "pairs": [[a.tolist(), b] for a, b in pairs.as_numpy_iterator()], "pairs_spec": pairs.element_spec}


def program_from_list_same_shapes(tf):
    ds = tf.data.experimental.from_list([(1, "a"), (2, "b"), (3, "c")])
    return {"values": [(n.item(), s) for n, s in ds.as_numpy_iterator()], "spec": ds.element_spec}


def _elements():
    return [[0], [1, 2, 3, 4], [5, 6, 7], [7, 8, 9, 10, 11], [13, 14, 15, 16, 19, 20], [21, 22]]


def program_bucket_by_sequence_length(tf):
    def run(dtype, **kw):
        ds = tf.data.Dataset.from_generator(_elements, dtype, output_shapes=[None])
        ds = ds.apply(tf.data.experimental.bucket_by_sequence_length(
            element_length_func=lambda elem: tf.shape(elem)[0], bucket_batch_sizes=[2, 2, 2], **kw))
        return [e.tolist() for e in ds.as_numpy_iterator()]

    return {"plain": run(tf.int64, bucket_boundaries=[3, 5]),
            "padded": run(tf.int32, bucket_boundaries=[4, 7], pad_to_bucket_boundary=True, padding_values=-1),
            "dropped": run(tf.int32, bucket_boundaries=[4, 7], pad_to_bucket_boundary=True, padding_values=-1,
                           drop_remainder=True)}


def program_dense_to_ragged_batch(tf):
    import numpy as np
    ds = tf.data.Dataset.from_tensor_slices(np.arange(6)).map(lambda x: tf.range(x))
    batched = ds.apply(tf.data.experimental.dense_to_ragged_batch(batch_size=2))
    return {"shape": ds.element_spec.shape, "batches": [b for b in batched]}


def program_table_from_dataset(tf):
    keys = tf.data.Dataset.range(100)
    values = tf.data.Dataset.range(100).map(lambda x: tf.strings.as_string(x * 2))
    table = tf.data.experimental.table_from_dataset(tf.data.Dataset.zip((keys, values)), default_value="n/a",
                                                    key_dtype=tf.int64)
    index = tf.data.experimental.index_table_from_dataset(values, key_dtype=tf.string)
    return {"lookup": table.lookup(tf.constant([0, 1, 2, 500], dtype=tf.int64)),
            "index": index.lookup(tf.constant(["0", "2", "4", "7"]))}


def program_optional(tf):
    some = tf.experimental.Optional.from_value(42)
    none = tf.experimental.Optional.empty(element_spec=tf.TensorSpec(shape=[], dtype=tf.int32))
    return {"has": some.has_value(), "value": some.get_value(), "spec": some.element_spec,
            "empty_has": none.has_value(), "empty_spec": none.element_spec}


def program_get_structure_and_counter(tf):
    ds = tf.data.Dataset.from_tensor_slices(([1.0, 2.0], [[1, 2], [3, 4]], ["a", "b"]))
    counter = tf.data.experimental.Counter(start=2, step=5)
    return {"structure": tf.data.experimental.get_structure(ds),
            "counter": [c.item() for c in counter.take(3).as_numpy_iterator()],
            "zipped": [list(map(int, p)) for p in tf.data.Dataset.zip((tf.data.Dataset.range(3),
                                                                       tf.data.experimental.Counter(10, -1)))],
            "cardinality": [tf.data.experimental.cardinality(d) for d in (
                tf.data.Dataset.range(42), tf.data.Dataset.range(42).repeat(),
                tf.data.Dataset.range(42).filter(lambda x: True))]}

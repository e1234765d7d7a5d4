"""tf.data.experimental functions over files and tables: snapshot, TFRecordWriter,
parse_example_dataset, make_batched_features_dataset, DatasetInitializer,
table_from_dataset and index_table_from_dataset."""
import os

from tapeflow.runtime.errors import with_location


def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """The data set, written under `path` on its first full pass and read back from there after
    (tapeflow's cache files, not TensorFlow's snapshot layout: a snapshot TF wrote is not read)."""
    def apply(dataset):
        os.makedirs(path, exist_ok=True)
        return dataset.cache(os.path.join(path, "tapeflow_snapshot"))
    return apply


class TFRecordWriter:
    """Writes a data set of scalar strings as one TFRecord file."""

    def __init__(self, filename, compression_type=None):
        self._filename, self._compression = filename, compression_type

    def write(self, dataset):
        import tapeflow
        spec = dataset.element_spec
        if not isinstance(spec, tapeflow.TensorSpec) or spec.dtype is not tapeflow.string or spec.shape.rank != 0:
            raise TypeError(with_location(
                f"TFRecordWriter.write: the data set's elements must be scalar strings, got {spec}"))
        with tapeflow.io.TFRecordWriter(self._filename, self._compression) as out:
            for record in dataset.as_numpy_iterator():
                out.write(record)


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """Batches of serialized tf.train.Example protos parsed with tf.io.parse_example."""
    import tapeflow
    return lambda dataset: dataset.map(lambda records: tapeflow.io.parse_example(records, features))


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None,
                                  reader_args=None, num_epochs=None, shuffle=True, shuffle_buffer_size=10000,
                                  shuffle_seed=None, prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False, drop_final_batch=False):
    """Records of the files matching file_pattern, shuffled and repeated (num_epochs; None: forever),
    batched, parsed as Examples with `features`; with label_key, (features, label) pairs."""
    import tapeflow
    if label_key is not None and label_key not in features:
        raise ValueError(f"The `label_key` provided ({label_key}) must be one of the `features` keys.")
    reader = tapeflow.data.TFRecordDataset if reader is None else reader
    files = tapeflow.data.Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    records = files.flat_map(lambda name: reader(name, *(reader_args or [])))
    if shuffle:
        records = records.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    if num_epochs != 1:
        records = records.repeat(num_epochs)
    out = records.batch(batch_size, drop_remainder=drop_final_batch).apply(parse_example_dataset(features))
    if label_key is not None:
        out = out.map(lambda parsed: ({k: v for k, v in parsed.items() if k != label_key}, parsed[label_key]))
    return out


class DatasetInitializer:
    """A table initializer from a data set of (key, value) pairs."""

    def __init__(self, dataset):
        import tapeflow
        spec = dataset.element_spec
        if not isinstance(spec, tuple) or len(spec) != 2:
            raise ValueError(with_location(
                f"DatasetInitializer: the data set's elements must be (key, value) pairs, got {spec}"))
        keys, values = [], []
        for k, v in dataset.as_numpy_iterator():
            keys.append(k)
            values.append(v)
        kinit = tapeflow.lookup.KeyValueTensorInitializer(
            tapeflow.constant(keys, spec[0].dtype) if keys else tapeflow.zeros([0], spec[0].dtype),
            tapeflow.constant(values, spec[1].dtype) if values else tapeflow.zeros([0], spec[1].dtype))
        self._keys, self._values = kinit._keys, kinit._values
        self.dataset = dataset

    key_dtype = property(lambda self: self._keys.dtype)
    value_dtype = property(lambda self: self._values.dtype)


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None,
                       hasher_spec=None, key_dtype=None, name=None):
    """A StaticHashTable of the (key, value) pairs (a StaticVocabularyTable with OOV buckets)."""
    import tapeflow
    if vocab_size is not None:
        dataset = dataset.take(vocab_size)
    init = DatasetInitializer(dataset)
    if num_oov_buckets:
        return tapeflow.lookup.StaticVocabularyTable(init, num_oov_buckets, name=name)
    return tapeflow.lookup.StaticHashTable(init, default_value, name=name)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1,
                             hasher_spec=None, key_dtype=None, name=None):
    """Each key of the data set to its position (int64)."""
    pairs = dataset.enumerate().map(lambda i, key: (key, i))
    return table_from_dataset(pairs, num_oov_buckets, vocab_size, default_value, name=name)

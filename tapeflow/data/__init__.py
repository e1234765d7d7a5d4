"""tf.data: input pipelines."""
from tapeflow.data import grouping as _grouping
from tapeflow.runtime.errors import FailedPreconditionError
from tapeflow.data import sampling as _sampling
from tapeflow.data.dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset  # noqa: F401
from tapeflow.data.readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset  # noqa: F401
from tapeflow.data import csv_dataset as _csv
from tapeflow.data.options import (  # noqa: F401
    AutoShardPolicy, AutotuneOptions, DistributeOptions, ExternalStatePolicy, OptimizationOptions, Options,
    ThreadingOptions,
)

from tapeflow.data.iterator import DatasetIterator as Iterator  # noqa: E402,F401 - tf.data.Iterator
from tapeflow.data.iterator_types import DatasetSpec, IteratorSpec, NumpyIterator  # noqa: E402,F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


class experimental:  # noqa: N801 - tf.data.experimental namespace
    AUTOTUNE = AUTOTUNE
    INFINITE_CARDINALITY = INFINITE
    UNKNOWN_CARDINALITY = UNKNOWN
    AutoShardPolicy = AutoShardPolicy
    AutotuneOptions = AutotuneOptions
    DistributeOptions = DistributeOptions
    ExternalStatePolicy = ExternalStatePolicy
    OptimizationOptions = OptimizationOptions
    ThreadingOptions = ThreadingOptions
    CsvDataset = _csv.CsvDataset
    make_csv_dataset = staticmethod(_csv.make_csv_dataset)
    choose_from_datasets = staticmethod(_sampling.choose_from_datasets)
    sample_from_datasets = staticmethod(_sampling.sample_from_datasets)
    bucket_by_sequence_length = staticmethod(_grouping.bucket_by_sequence_length)
    Counter = staticmethod(Dataset.counter)
    RandomDataset = staticmethod(Dataset.random)

    @staticmethod
    def shuffle_and_repeat(buffer_size, count=None, seed=None):
        """The same order as shuffle(buffer_size, seed).repeat(count) (TF fuses the two alike)."""
        return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)

    @staticmethod
    def cardinality(dataset):
        return dataset.cardinality()

    @staticmethod
    def scan(initial_state, scan_func):
        return lambda dataset: dataset.scan(initial_state, scan_func)

    @staticmethod
    def take_while(predicate):
        return lambda dataset: dataset.take_while(predicate)

    @staticmethod
    def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
        return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)

    @staticmethod
    def rebatch(batch_size, drop_remainder=False):
        return lambda dataset: dataset.rebatch(batch_size, drop_remainder)

    @staticmethod
    def assert_cardinality(expected_cardinality):
        def check(dataset):
            expected, source = int(expected_cardinality), dataset._produce

            def produce():  # TF: FailedPreconditionError as soon as the count is seen to differ
                n = 0
                for flat in source():
                    n += 1
                    if n > expected:
                        raise FailedPreconditionError(
                            f"Input dataset was expected to contain {expected} elements but contained at least {n} elements.")
                    yield flat
                if n < expected:
                    raise FailedPreconditionError(
                        f"Input dataset was expected to contain {expected} elements but contained only {n} elements.")
            return dataset._derive(produce, expected)
        return check


# --- names added by tf_api2 (one line per public name; to move into the table of issue #16) ---
from tapeflow.data import experimental_ops as _xops  # noqa: E402

experimental.enumerate_dataset = staticmethod(_xops.enumerate_dataset)
experimental.dense_to_ragged_batch = staticmethod(_xops.dense_to_ragged_batch)
experimental.shuffle_and_repeat = staticmethod(_xops.shuffle_and_repeat)
experimental.map_and_batch = staticmethod(_xops.map_and_batch)
experimental.unbatch = staticmethod(_xops.unbatch)
experimental.rejection_resample = staticmethod(_xops.rejection_resample)
experimental.group_by_reducer = staticmethod(_grouping.group_by_reducer)
experimental.Reducer = _grouping.Reducer
experimental.Counter = staticmethod(_xops.Counter)

# --- tf.data.experimental functions (api_data_io)
from tapeflow.data import experimental_fns as _xfns  # noqa: E402
from tapeflow.data import optional as _optional  # noqa: E402
from tapeflow.data import save_load as _save_load  # noqa: E402

for _name in ("from_list", "at", "get_structure", "get_single_element", "pad_to_cardinality",
              "dense_to_sparse_batch", "copy_to_device", "prefetch_to_device", "parallel_interleave",
              "ignore_errors", "unique", "enable_debug_mode"):
    setattr(experimental, _name, staticmethod(getattr(_xfns, _name)))
experimental.AutotuneAlgorithm = _xfns.AutotuneAlgorithm
experimental.SHARD_HINT = _xfns.SHARD_HINT
experimental.Optional = _optional.Optional
experimental.get_next_as_optional = staticmethod(_optional.get_next_as_optional)
experimental.save = staticmethod(_save_load.save)
experimental.load = staticmethod(_save_load.load)
from tapeflow.data import io_fns as _io_fns  # noqa: E402

for _name in ("snapshot", "parse_example_dataset", "make_batched_features_dataset", "table_from_dataset",
              "index_table_from_dataset"):
    setattr(experimental, _name, staticmethod(getattr(_io_fns, _name)))
experimental.TFRecordWriter = _io_fns.TFRecordWriter
experimental.DatasetInitializer = _io_fns.DatasetInitializer

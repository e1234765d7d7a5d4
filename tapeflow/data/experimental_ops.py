"""tf.data.experimental transformations that are spellings of Dataset methods (each returns
a function of a dataset, for Dataset.apply), and Counter."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import math_ops as M


def enumerate_dataset(start=0):
    return lambda dataset: dataset.enumerate(start)


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype=row_splits_dtype)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """shuffle (reshuffled each epoch) then repeat, as TensorFlow's fused transformation."""
    return lambda dataset: dataset.shuffle(buffer_size, seed=seed).repeat(count)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("map_and_batch: give num_parallel_batches or num_parallel_calls, not both")
    return lambda dataset: dataset.map(map_func, num_parallel_calls=num_parallel_calls).batch(
        batch_size, drop_remainder)


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist, seed)


def unbatch():
    return lambda dataset: dataset.unbatch()


def Counter(start=0, step=1, dtype=dtypes.int64):  # noqa: N802 - TensorFlow's name
    """start, start + step, start + 2 step, ... (without end)."""
    from tapeflow.data.dataset import Dataset
    dtype = dtypes.as_dtype(dtype)
    return Dataset.from_tensors(0).repeat().enumerate().map(
        lambda i, _: M.cast(start, dtype) + M.cast(i, dtype) * M.cast(step, dtype))

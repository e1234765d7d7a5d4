"""keras.utils helpers that build tf.data pipelines from arrays: sliding windows of a
time series and the split of one dataset into two; and how fit walks its data by epoch."""
import random
import warnings

import numpy as np

from tapeflow.runtime import nest
from tapeflow.runtime.tensor import convert_to_tensor


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1, sampling_rate=1,
                                  batch_size=128, shuffle=False, seed=None, start_index=None, end_index=None):
    """Batches of windows data[i : i + sequence_length * sampling_rate : sampling_rate] for
    i = start_index, start_index + sequence_stride, ...; window i's target is targets[i]."""
    from tapeflow.data import Dataset
    if start_index is not None and (start_index < 0 or start_index >= len(data)):
        raise ValueError(f"`start_index` must be 0 <= start_index < len(data). Received: start_index={start_index}")
    if end_index is not None and (end_index <= (start_index or 0) or end_index > len(data)):
        raise ValueError(f"`end_index` must be start_index < end_index <= len(data). Received: end_index={end_index}")
    for arg, value in (("sequence_stride", sequence_stride), ("sampling_rate", sampling_rate)):
        if value <= 0:
            raise ValueError(f"`{arg}` must be higher than 0. Received: {arg}={value}")
    start = start_index or 0
    end = len(data) if end_index is None else end_index
    span = (sequence_length - 1) * sampling_rate + 1
    starts = np.arange(0, end - start - span + 1, sequence_stride, dtype="int64")
    if targets is not None:
        starts = starts[starts < len(targets)]
    if shuffle:  # Keras's order: the window starts by NumPy's RandomState, then a tf.data shuffle
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(starts)
    starts = starts + start
    # Keras gathers each window by a tf.range of its steps, so the window length is not static
    # (element_spec (None, ...)), as TF's is
    import tapeflow as tf
    data = np.asarray(data)
    values = tf.constant(data)
    if len(starts):
        ds = Dataset.from_tensor_slices(starts).map(
            lambda s: tf.gather(values, tf.range(s, s + sequence_length * sampling_rate, sampling_rate)))
    else:  # no window fits: an empty data set that still knows its element's structure
        ds = Dataset.from_tensor_slices(np.zeros((0, sequence_length) + data.shape[1:], data.dtype))
    if targets is not None:
        ds = Dataset.zip((ds, Dataset.from_tensor_slices(np.asarray(targets)[starts])))
    if batch_size is None:
        return ds.shuffle(1024, seed=seed) if shuffle else ds
    return (ds.shuffle(batch_size * 8, seed=seed) if shuffle else ds).batch(batch_size)


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    """Two tf.data Datasets from a Dataset, an array or a tuple of arrays: sizes are counts
    (int) or fractions (float); the one not given is the rest."""
    from tapeflow.data import Dataset
    if isinstance(dataset, Dataset):
        items = list(dataset.as_numpy_iterator())
        columns = None
    else:
        columns = dataset if isinstance(dataset, (tuple, list)) else None
        items = list(zip(*[np.asarray(c) for c in columns])) if columns is not None else list(np.asarray(dataset))
    n = len(items)
    if left_size is None and right_size is None:
        raise TypeError("The `left_size` and `right_size` arguments cannot both be None.")

    def count(size, name):
        if size is None:
            return None
        if isinstance(size, float):
            if not 0 < size < 1:
                raise ValueError(f"`{name}` should be in the range (0, 1) as a float. Received: {name}={size}")
            return int(round(size * n))
        if not 0 < size <= n:
            raise ValueError(f"`{name}` should be in the range [1, {n}] as an int. Received: {name}={size}")
        return int(size)
    left, right = count(left_size, "left_size"), count(right_size, "right_size")
    left = n - right if left is None else left
    right = n - left if right is None else right
    if left + right > n:
        raise ValueError(f"The sum of `left_size` and `right_size` is greater than the total number of "
                         f"samples. Received: left_size + right_size = {left + right} and total_size = {n}")
    order = list(range(n))
    if shuffle:  # Keras shuffles the list of samples with Python's random module
        random.seed(random.randint(0, int(1e6)) if seed is None else seed)
        random.shuffle(order)
    # Keras takes the right part from the end: with both sizes given, the middle is dropped.
    array = not isinstance(dataset, Dataset) and columns is None
    return _from_items([items[i] for i in order[:left]], columns, array), \
        _from_items([items[i] for i in order[n - right:]], columns, array)


def _from_items(items, columns, array=False):
    from tapeflow.data import Dataset
    if items and isinstance(items[0], tuple):
        return Dataset.from_tensor_slices(tuple(np.stack(c) for c in zip(*items)))
    if items and isinstance(items[0], dict):
        return Dataset.from_tensor_slices({k: np.stack([it[k] for it in items]) for k in items[0]})
    if items and array and np.ndim(items[0]) == 0:
        return Dataset.from_tensor_slices(list(items))  # Keras slices the list of NumPy scalars (ints: int32)
    return Dataset.from_tensor_slices(np.stack(items)) if items else Dataset.from_tensor_slices(np.zeros((0,)))


class PyDataset:
    """A Python source of batches for fit/evaluate/predict: `__len__` batches per epoch,
    `__getitem__(i)` the i-th batch ((x,), (x, y) or (x, y, sample_weight)), and
    `on_epoch_end()` called after each epoch (to reshuffle, say)."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        # Batches are read in order on the calling thread; the options are accepted for Keras's API.
        self.workers, self.use_multiprocessing, self.max_queue_size = workers, use_multiprocessing, max_queue_size

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __len__")

    @property
    def num_batches(self):
        return len(self)

    def on_epoch_begin(self):
        pass

    def on_epoch_end(self):
        pass


Sequence = PyDataset


class PyDatasetBatches:
    """fit's view of a PyDataset, as Keras 3's adapter walks it: made, it reads the first two
    batches (Keras learns the element spec from them) and, for fit and evaluate, ends an epoch;
    then each pass is on_epoch_begin, the batches (in Python's random order when shuffled, as
    Keras's random.shuffle), on_epoch_end."""

    def __init__(self, source, shuffle=False, reset=True):
        self.source, self.shuffle = source, shuffle
        for i in range(min(2, len(source))):
            source[i]
        if reset:
            source.on_epoch_end()

    def steps(self):
        return len(self.source)

    def __iter__(self):
        self.source.on_epoch_begin()
        order = list(range(len(self.source)))
        if self.shuffle:
            random.shuffle(order)
        for i in order:
            batch = self.source[i]
            # NumPy batches become tensors, as a Dataset's elements are.
            yield nest.map_structure(convert_to_tensor, tuple(batch) if isinstance(batch, list) else batch)
        self.source.on_epoch_end()


class EpochBatches:
    """The batches of each epoch of fit, as Keras 3's epoch iterator gives them: without
    steps_per_epoch every epoch iterates the data anew; with it, one iterator runs on
    across epochs (a repeated dataset continues where the last epoch stopped) and
    starts over once the data are used up."""

    def __init__(self, data, steps_per_epoch):
        self.data, self.steps = data, steps_per_epoch
        self.total = data.steps() if steps_per_epoch else None  # batches in one pass; None: endless
        self.iterator, self.seen = None, 0

    def epoch(self):
        if not self.steps:
            yield from self.data
            return
        if self.iterator is None:
            self.iterator, self.seen = iter(self.data), 0
        for _ in range(self.steps):
            if self.total and self.seen >= self.total:
                _ran_out()
                break
            try:
                batch = next(self.iterator)
            except StopIteration:
                self.total = self.seen
                _ran_out()
                break
            self.seen += 1
            yield batch
        if self.total and self.seen >= self.total:
            self.iterator = None


def _ran_out():
    warnings.warn("Your input ran out of data; interrupting training. Make sure that your dataset or generator "
                  "can generate at least `steps_per_epoch * epochs` batches.", UserWarning, stacklevel=3)


def validation_due(epoch, validation_freq):
    """Keras's rule: validate after epoch `epoch` (counted from 1) every validation_freq
    epochs, or at the epochs a list names."""
    if isinstance(validation_freq, int):
        return epoch % validation_freq == 0
    if isinstance(validation_freq, (list, tuple)):
        return epoch in validation_freq
    raise ValueError(f"Expected `validation_freq` to be a list or int. Received: validation_freq={validation_freq} "
                     f"of the type {type(validation_freq)}.")

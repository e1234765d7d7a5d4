"""Datasets drawn from several datasets: choose_from_datasets (by an index
dataset), sample_from_datasets (at random, seeded) and bucket_by_sequence_length."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import INFINITE, UNKNOWN, Dataset
from tapeflow.runtime.errors import with_location


def _check_members(op, datasets):
    datasets = list(datasets)
    if not datasets:
        raise ValueError(with_location(f"Dataset.{op}: expected a non-empty list of datasets"))
    for d in datasets:
        if not isinstance(d, Dataset):
            raise TypeError(with_location(f"Dataset.{op}: expected datasets, got {type(d).__name__}"))
    return datasets


def _first_tmpl(datasets):
    return lambda: datasets[0]._tmpl


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """Element i is the next element of datasets[choice_i] (choice_dataset: int64
    scalars).  A chosen dataset that has ended stops the result
    (stop_on_empty_dataset) or that choice is skipped."""
    datasets = _check_members("choose_from_datasets", datasets)

    def produce():
        its = [iter(d._produce()) for d in datasets]
        for i, (choice,) in enumerate(choice_dataset._produce()):
            if choice.shape != () or choice.dtype != np.int64:
                raise TypeError(with_location(
                    f"Dataset.choose_from_datasets: choices must be int64 scalars, got "
                    f"{choice.dtype}{list(choice.shape)} at element {i}"))
            k = int(choice)
            if not 0 <= k < len(its):
                raise ValueError(with_location(
                    f"Dataset.choose_from_datasets: choice {k} at element {i} is out of range for "
                    f"{len(its)} datasets"))
            flat = next(its[k], None)
            if flat is None:
                if stop_on_empty_dataset:
                    return
                continue
            yield flat

    return Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=_first_tmpl(datasets))


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """Each element from a dataset picked at random with probability proportional to
    `weights` (default uniform).  An ended dataset stops the result
    (stop_on_empty_dataset) or drops out of the draw.  With a seed every pass draws
    the same sequence unless rerandomize_each_iteration."""
    datasets = _check_members("sample_from_datasets", datasets)
    w = np.ones(len(datasets)) if weights is None else np.asarray(S.to_array(weights), np.float64).reshape(-1)
    if w.shape != (len(datasets),) or np.any(w < 0) or not np.isfinite(w).all():
        raise ValueError(with_location(
            f"Dataset.sample_from_datasets: expected {len(datasets)} non-negative weights, got {w.tolist()}"))
    passes = [0]

    def produce():
        if seed is None:
            rng = np.random.default_rng()
        else:
            rng = np.random.default_rng([int(seed), passes[0]] if rerandomize_each_iteration else int(seed))
            passes[0] += 1
        its = [iter(d._produce()) for d in datasets]
        live = w.copy()
        while live.sum() > 0:
            k = int(rng.choice(len(its), p=live / live.sum()))
            flat = next(its[k], None)
            if flat is None:
                if stop_on_empty_dataset:
                    return
                live[k] = 0.0
                continue
            yield flat

    cards = [d._card for d in datasets]
    card = INFINITE if all(c == INFINITE for c in cards) and not stop_on_empty_dataset else UNKNOWN
    return Dataset(produce, cardinality=card, shapes=None, tmpl_fn=_first_tmpl(datasets))


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                              no_padding=False, drop_remainder=False):
    """A transformation (for Dataset.apply): elements go to the bucket of their
    length (bucket i holds boundaries[i-1] <= length < boundaries[i]) and leave
    as padded batches of bucket_batch_sizes[i]."""
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(s) for s in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(with_location(
            f"bucket_by_sequence_length: expected {len(boundaries) + 1} bucket_batch_sizes for "
            f"{len(boundaries)} boundaries, got {len(sizes)}"))
    if pad_to_bucket_boundary and padded_shapes is not None:
        raise ValueError(with_location("bucket_by_sequence_length: pad_to_bucket_boundary needs "
                                       "padded_shapes=None"))
    import tapeflow

    def bucket_of(*element):
        length = int(np.asarray(S.to_array(element_length_func(*element))))
        return tapeflow.constant(int(np.searchsorted(boundaries, length, side="right")), tapeflow.int64)

    def batch_bucket(key, window):
        k = int(key.numpy())
        if no_padding:
            return window.batch(sizes[k], drop_remainder=drop_remainder)
        shapes = padded_shapes
        if pad_to_bucket_boundary:
            if k == len(boundaries):
                raise ValueError(with_location(
                    "bucket_by_sequence_length: with pad_to_bucket_boundary every length must be "
                    f"below the last boundary {boundaries[-1]}"))
            shapes = _pad_first_dim(window._tmpl, boundaries[k] - 1, window)
        return window.padded_batch(sizes[k], padded_shapes=shapes, padding_values=padding_values,
                                   drop_remainder=drop_remainder)

    def transform(dataset):
        return dataset.group_by_window(bucket_of, batch_bucket,
                                       window_size_func=lambda key: sizes[int(key.numpy())])

    return transform


def _pad_first_dim(tmpl, length, window):
    """padded_shapes that pad every component's first axis to `length`, the others to the widest."""
    first = next(iter(window._produce()))
    return S.pack(tmpl, [[length] + [None] * (a.ndim - 1) if a.ndim else [] for a in first])


def _apply_bucketing(self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                     padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                     drop_remainder=False, name=None):
    return bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                                     padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                     drop_remainder)(self)


Dataset.choose_from_datasets = staticmethod(choose_from_datasets)
Dataset.sample_from_datasets = staticmethod(sample_from_datasets)
Dataset.bucket_by_sequence_length = _apply_bucketing

"""Grouping elements by key: Dataset.group_by_window, and bucket_by_sequence_length
(padded batches per length bucket) built on it."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import UNKNOWN, learnt_tmpl, positive, scalar_result
from tapeflow.runtime.errors import with_location


def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
    """Group elements by key_func(element) (an int64 scalar); when a group holds its
    window size, yield the elements of reduce_func(key, window_dataset).  At the
    end, the unfinished groups are reduced in the order of their keys (TF keeps them
    in an ordered map)."""
    if (window_size is None) == (window_size_func is None):
        raise ValueError(with_location("Dataset.group_by_window: give exactly one of window_size and "
                                       "window_size_func"))
    parent, source, store = self, self._produce, []

    def size_of(key):
        if window_size is not None:
            return positive(window_size, "group_by_window")
        import tapeflow
        return positive(int(np.asarray(S.to_array(window_size_func(tapeflow.constant(key, tapeflow.int64))))),
                         "group_by_window")

    def reduce(key, flats):
        import tapeflow
        win = Dataset(lambda: iter(flats), cardinality=len(flats), shapes=parent._shapes,
                      tmpl_fn=parent._tmpl_fn)
        out = reduce_func(tapeflow.constant(key, tapeflow.int64), win)
        if not isinstance(out, Dataset):
            raise TypeError(with_location(
                f"Dataset.group_by_window: reduce_func must return a Dataset, got {type(out).__name__}"))
        if not store:
            store.append(out._tmpl)
        return out._produce()

    def produce():
        groups, sizes = {}, {}
        for i, flat in enumerate(source()):
            key = int(scalar_result("Dataset.group_by_window", key_func, parent._element(flat), i, np.int64,
                                    "key_func must return an int64 scalar"))
            if key not in groups:
                groups[key], sizes[key] = [], size_of(key)
            groups[key].append(flat)
            if len(groups[key]) >= sizes[key]:
                yield from reduce(key, groups.pop(key))
        for key in sorted(groups):
            yield from reduce(key, groups[key])

    return Dataset(produce, cardinality=UNKNOWN, shapes=None,
                   tmpl_fn=learnt_tmpl(store, produce, "group_by_window"), 
                   parents=(self,))


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


class Reducer:
    """tf.data.experimental.Reducer: init_func(key) -> state, reduce_func(state, element)
    -> state, finalize_func(state) -> the group's element (the state itself when None)."""

    def __init__(self, init_func, reduce_func, finalize_func=None):
        self.init_func, self.reduce_func = init_func, reduce_func
        self.finalize_func = finalize_func if finalize_func is not None else (lambda state: state)


def group_by_reducer(key_func, reducer):
    """tf.data.experimental.group_by_reducer: one element per key, after the input ends
    (keys in the order they first came, as TensorFlow keeps them)."""
    def apply(dataset):
        parent, source, store = dataset, dataset._produce, []

        def produce():
            import tapeflow
            states = {}
            for i, flat in enumerate(source()):
                element = parent._element(flat)
                key = int(scalar_result("group_by_reducer", key_func, element, i, np.int64,
                                        "key_func must return an int64 scalar"))
                if key not in states:
                    states[key] = reducer.init_func(tapeflow.constant(key, tapeflow.int64))
                states[key] = reducer.reduce_func(states[key], element)
            for state in states.values():
                tmpl, out = S.flat_arrays(reducer.finalize_func(state))
                if not store:
                    store.append(tmpl)
                yield out

        return Dataset(produce, cardinality=UNKNOWN, shapes=None,
                       tmpl_fn=learnt_tmpl(store, produce, "group_by_reducer"), parents=(dataset,))
    return apply

"""More Dataset transformations: interleave/flat_map, window, take_while, scan,
shard, rebatch, group_by_window and with_options.  They are attached to Dataset
at import (dataset.py is near its size budget); each keeps the recipe style of
dataset.py: a `produce()` generator over flat lists of NumPy arrays."""
import collections
import os

import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import (AUTOTUNE, UNKNOWN, Dataset, _element_error, _positive, call_on_element,
                                   scalar_result)
from tapeflow.data.options import Options
from tapeflow.runtime.errors import with_location


def _child(op, fn, parent, index, flat):
    """The Dataset that `fn` makes from one input element (interleave, flat_map, ...)."""
    try:
        out = call_on_element(fn, parent._element(flat))
    except Exception as exc:
        raise _element_error(f"Dataset.{op}", fn, index, exc) from exc
    if not isinstance(out, Dataset):
        raise TypeError(with_location(
            f"Dataset.{op}: the function must return a Dataset, got {type(out).__name__} "
            f"for element {index}"))
    return out


def _learnt_tmpl(store, produce, op):
    def tmpl_fn():
        if not store:  # not iterated yet: run until the first child dataset is made
            next(iter(produce()), None)
        if not store:
            raise ValueError(f"Dataset.{op}: the element structure of an empty result is unknown")
        return store[0]
    return tmpl_fn


def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
               deterministic=None, name=None):
    """Open `cycle_length` datasets map_func(element) and take `block_length`
    elements from each in turn.  A slot whose dataset ends is refilled with the
    next input element's dataset when its turn comes again (TF's order exactly);
    num_parallel_calls and deterministic change nothing here: the order is
    always the deterministic one."""
    cycle = (os.cpu_count() or 1) if cycle_length in (None, AUTOTUNE) else _positive(cycle_length, "interleave")
    block = 1 if block_length is None else _positive(block_length, "interleave")
    parent, source, store = self, self._produce, []

    def produce():
        inputs = enumerate(source())
        slots = [None] * cycle
        index, input_done = 0, False
        while True:
            if slots[index] is None and not input_done:
                item = next(inputs, None)
                if item is None:
                    input_done = True
                else:
                    child = _child("interleave", map_func, parent, *item)
                    if not store:
                        store.append(child._tmpl)
                    slots[index] = (child, iter(child._produce()))
            if slots[index] is None:
                if input_done and all(s is None for s in slots):
                    return
                index = (index + 1) % cycle
                continue
            child, it = slots[index]
            for _ in range(block):
                flat = next(it, None)
                if flat is None:
                    slots[index] = None
                    break
                yield flat
            index = (index + 1) % cycle

    out = Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=_learnt_tmpl(store, produce, "interleave"))
    out._options = self._options
    return out


def flat_map(self, map_func, name=None):
    """The elements of map_func(element) for every element, one dataset after the other."""
    return interleave(self, map_func, cycle_length=1, block_length=1)


def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
    """Windows of `size` elements `stride` apart, a new one every `shift` elements
    (default: size).  Each element is a structure of Datasets.  Without
    drop_remainder the last windows may be shorter (but never empty)."""
    size = _positive(size, "window")
    shift = size if shift is None else _positive(shift, "window")
    stride = _positive(stride, "window")
    span = (size - 1) * stride + 1
    source = self._produce

    def produce():
        it = iter(source())
        buf, base, exhausted = collections.deque(), 0, False  # buf[0] is element number `base`
        start = 0
        while True:
            while not exhausted and base + len(buf) < start + span:
                flat = next(it, None)
                if flat is None:
                    exhausted = True
                else:
                    buf.append(flat)
            while buf and base < start:  # elements before this window are no longer needed
                buf.popleft()
                base += 1
            if exhausted and base < start:  # the input ended before this window's start
                return
            picks = [buf[k - base] for k in range(start, start + span, stride) if k - base < len(buf)]
            if not picks or (drop_remainder and len(picks) < size):
                return
            yield [np.stack(parts) for parts in zip(*picks)]
            start += shift

    card = self._card
    if card >= 0:
        card = (max(0, (card - span) // shift + 1) if card >= span else 0) if drop_remainder \
            else -(-card // shift)
    shapes = None if self._shapes is None else [((None,) + tuple(s), d) for s, d in self._shapes]
    out = self._derive(produce, card, shapes)
    out._nested = True
    return out


def take_while(self, predicate, name=None):
    parent, source = self, self._produce

    def produce():
        for i, flat in enumerate(source()):
            keep = scalar_result("Dataset.take_while", predicate, parent._element(flat), i, np.bool_,
                                 "the predicate must return a scalar bool")
            if not keep:
                return
            yield flat

    return self._derive(produce, UNKNOWN if self._card != 0 else 0)


def scan(self, initial_state, scan_func, name=None):
    """scan_func(state, element) -> (new_state, output); the state keeps its structure
    and dtypes from one element to the next."""
    parent, source, store = self, self._produce, []
    state_tmpl, state0 = S.flat_arrays(initial_state)

    def produce():
        state = [a.copy() for a in state0]
        for i, flat in enumerate(source()):
            try:
                result = scan_func(S.to_tensors(state_tmpl, state), parent._element(flat))
            except Exception as exc:
                raise _element_error("Dataset.scan", scan_func, i, exc) from exc
            if not (isinstance(result, tuple) and len(result) == 2):
                raise TypeError(with_location(
                    "Dataset.scan: scan_func must return a pair (new_state, output_element)"))
            new_tmpl, new_state = S.flat_arrays(result[0])
            if not S.same_structure(new_tmpl, state_tmpl) or \
                    [a.dtype for a in new_state] != [a.dtype for a in state]:
                raise TypeError(with_location(
                    f"Dataset.scan: the new state {S.describe(new_tmpl, new_state)} does not match the "
                    f"initial state {S.describe(state_tmpl, state)} (structure and dtypes)"))
            state = new_state
            out_tmpl, out_flat = S.flat_arrays(result[1])
            if not store:
                store.append(out_tmpl)
            yield out_flat

    return Dataset(produce, cardinality=self._card, shapes=None, tmpl_fn=_learnt_tmpl(store, produce, "scan"))


def shard(self, num_shards, index, name=None):
    """Every num_shards-th element, starting with element `index`."""
    num_shards = _positive(num_shards, "shard")
    index = int(index)
    if not 0 <= index < num_shards:
        raise ValueError(with_location(f"Dataset.shard: index must be in [0, {num_shards}), got {index}"))
    source = self._produce

    def produce():
        for i, flat in enumerate(source()):
            if i % num_shards == index:
                yield flat

    card = self._card
    if card >= 0:
        card = card // num_shards + (1 if index < card % num_shards else 0)
    return self._derive(produce, card)


def rebatch(self, batch_size, drop_remainder=False, name=None):
    """Re-cut batched elements into batches of batch_size (a scalar size)."""
    if isinstance(batch_size, (list, tuple)) or np.ndim(batch_size):
        raise NotImplementedError(with_location("Dataset.rebatch: only a scalar batch_size is supported"))
    return self.unbatch().batch(int(batch_size), drop_remainder=drop_remainder)


def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
    """Group elements by key_func(element) (an int64 scalar); when a group holds its
    window size, yield the elements of reduce_func(key, window_dataset).  At the
    end, the unfinished groups are reduced in the order their keys first appeared."""
    if (window_size is None) == (window_size_func is None):
        raise ValueError(with_location("Dataset.group_by_window: give exactly one of window_size and "
                                       "window_size_func"))
    parent, source, store = self, self._produce, []

    def size_of(key):
        if window_size is not None:
            return _positive(window_size, "group_by_window")
        import tapeflow
        return _positive(int(np.asarray(S.to_array(window_size_func(tapeflow.constant(key, tapeflow.int64))))),
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
        for key, flats in groups.items():
            yield from reduce(key, flats)

    return Dataset(produce, cardinality=UNKNOWN, shapes=None,
                   tmpl_fn=_learnt_tmpl(store, produce, "group_by_window"))


def with_options(self, options, name=None):
    if not isinstance(options, Options):
        raise TypeError(with_location(
            f"Dataset.with_options: expected a tf.data.Options, got {type(options).__name__}"))
    out = self._derive(self._produce)
    out._options = options if self._options is None else self._options.merge(options)
    return out


def options(self):
    return self._options if self._options is not None else Options()


for _fn in (interleave, flat_map, window, take_while, scan, shard, rebatch, group_by_window,
            with_options, options):
    setattr(Dataset, _fn.__name__, _fn)
del _fn

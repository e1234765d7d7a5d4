"""Indexing a RaggedTensor: rows (`rt[i]`, `rt[a:b]`, `rt[::2]`), items within rows
(`rt[i, j]`), slices within rows (`rt[:, a:b]`) and columns of uniform rows.
Written in tapeflow ops, so a slice within rows traces and differentiates."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import ragged_ops as RO
from tapeflow.runtime.ops import segment_ops as SG
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.ragged_ops import gather_rows, is_ragged
from tapeflow.ragged_tensor import RaggedTensor


def _row(rt, i):
    s = rt.row_splits
    start, stop = s[i], s[i + 1]
    if is_ragged(rt.values):
        return _slice_rows(rt.values, start, stop)
    return rt.values[start:stop]


def _slice_rows(rt, start, stop):
    new = rt.row_splits[start:stop + 1]
    values = rt.values
    lo, hi = new[0], new[-1]
    values = _slice_rows(values, lo, hi) if is_ragged(values) else values[lo:hi]
    return RaggedTensor(values, new - lo, rt._uniform_row_length, _validate=False)


def _static_nrows(rt):
    n = rt.row_splits.shape[0]
    return None if n is None else n - 1


def getitem(rt, key):
    if not isinstance(key, tuple):
        key = (key,)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if first is Ellipsis:
        raise NotImplementedError(with_location("RaggedTensor indexing with ..."))
    if isinstance(first, slice):
        n = _static_nrows(rt)
        if n is None and (first.start, first.stop, first.step) != (None, None, None):
            raise NotImplementedError(with_location("slicing the rows of a traced RaggedTensor"))
        if first.step not in (None, 1):
            out = gather_rows(rt, np.arange(n)[first])
        else:
            start, stop, _ = first.indices(n) if n is not None else (0, None, 1)
            out = rt if n is None else _slice_rows(rt, start, max(start, stop))
        if not rest:
            return out
        return _index_inner(out, rest)
    if isinstance(first, (int, np.integer)) or (isinstance(first, TensorBase) and first.shape.rank == 0):
        n = _static_nrows(rt)
        i = first
        if isinstance(first, (int, np.integer)):
            if n is not None and not -n <= first < n:
                raise IndexError(with_location(f"RaggedTensor: row {first} out of range for {n} rows"))
            i = int(first) % n if n else int(first)
        row = _row(rt, i)
        return getitem(row, rest) if rest and is_ragged(row) else (row[rest] if rest else row)
    raise TypeError(with_location(f"RaggedTensor: cannot index with {type(first).__name__}"))


def _index_inner(rt, rest):
    """rt[:, rest...]: index within every row."""
    first, more = rest[0], rest[1:]
    if isinstance(first, slice):
        if first.step not in (None, 1):
            raise NotImplementedError(with_location("RaggedTensor: a step inside rows"))
        col, row = RO.ids(rt.row_splits, "col"), rt.value_rowids()
        length = G.gather(rt.row_lengths(), row)

        def bound(b, default):
            if b is None:
                return default
            b = convert_to_tensor(np.int64(b))
            return M.minimum(M.maximum(A.where(M.less(b, 0), b + length, A.broadcast_to(b, A.shape(length))), 0),
                             length)

        lo, hi = bound(first.start, A.zeros_like(length)), bound(first.stop, length)
        keep = M.logical_and(M.greater_equal(col, lo), M.less(col, hi))
        lengths = SG.unsorted_segment_sum(M.cast(keep, dtypes.int64), row, rt.nrows())
        if is_ragged(rt.values):
            kept = gather_rows(rt.values, A.reshape(A.where(keep), (-1,)))
            kept = _index_inner(kept, more) if more else kept
        else:
            kept = G.boolean_mask(rt.values, keep)
            kept = kept[(slice(None),) + more] if more else kept
        return RaggedTensor.from_row_lengths(kept, lengths, validate=False)
    if isinstance(first, (int, np.integer)) and rt._uniform_row_length is not None:
        j = int(first) % rt._uniform_row_length
        picked = rt.row_starts() + j
        values = gather_rows(rt.values, picked) if is_ragged(rt.values) else G.gather(rt.values, picked)
        return getitem(values, (slice(None),) + more) if more else values
    if not isinstance(first, slice):
        raise ValueError(with_location("Cannot index into an inner ragged dimension."))
    raise NotImplementedError(with_location(f"RaggedTensor indexing with {rest!r} inside rows"))


# ------------------------------------------------------------------ shape queries

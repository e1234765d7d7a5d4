"""Primitives of ragged tensors: a ragged dimension is `values` split at int64
`splits` (row i is values[splits[i]:splits[i+1]]).  The RaggedTensor type lives
in tapeflow/ragged.py; these are the few ops that need a row partition to run.

ragged_to_dense and ragged_dense_values are each other's gradient: padding the
rows into a dense [nrows, width, ...] block, and reading the rows back out.
"""
import numpy as np

from .. import dtypes
from ..registry import Aval, bind, defprim


def _lengths(splits):
    return np.diff(splits.astype(np.int64))


def _positions(splits):
    """(row, column) of every value."""
    lengths = _lengths(splits)
    rows = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    cols = np.arange(int(splits[-1]) - int(splits[0]), dtype=np.int64) - np.repeat(splits[:-1] - splits[0], lengths)
    return rows, cols


def _to_dense_impl(xp, values, splits, default, *like, width):
    lengths = _lengths(splits)
    if like:
        width = like[0].shape[1]
    w = int(lengths.max()) if width is None and len(lengths) else (width or 0)
    inner = values.shape[1:]
    out = np.empty((len(lengths), w) + inner, dtype=values.dtype)
    out[...] = default if default.ndim else default[()]
    rows, cols = _positions(splits)
    keep = cols < w
    out[rows[keep], cols[keep]] = values[int(splits[0]):int(splits[-1])][keep]
    return out


def _to_dense_rule(values, splits, default, *like, width):
    if default.dtype is not values.dtype:
        raise TypeError(f"ragged to_tensor: default_value is {default.dtype.name}, the values are {values.dtype.name}")
    n = splits.shape[0]
    if like:
        width = like[0].shape[1]
    return Aval((None if n is None else n - 1, width) + tuple(values.shape[1:]), values.dtype)


def _to_dense_vjp(g, out, values, splits, default, *like, width):
    return (bind(RAGGED_DENSE_VALUES, (g, splits), {}), None, None) + (None,) * len(like)


def _dense_values_impl(xp, dense, splits):
    """The values of the rows; a position outside `dense` (a row cropped by
    to_tensor(shape=...), seen by its gradient) reads as zero."""
    rows, cols = _positions(splits)
    keep = (cols < dense.shape[1]) & (rows < dense.shape[0])
    if keep.all():
        return dense[rows, cols]
    out = np.zeros((len(cols),) + dense.shape[2:], dense.dtype)
    out[keep] = dense[rows[keep], cols[keep]]
    return out


def _dense_values_rule(dense, splits):
    return Aval((None,) + tuple(dense.shape[2:]), dense.dtype)


def _dense_values_vjp(g, out, dense, splits):
    zero = bind(_ZERO, (g,), {})
    # `dense` itself gives the width: it may be known only when the graph runs.
    return bind(RAGGED_TO_DENSE, (g, splits, zero, dense), {"width": None}), None


RAGGED_TO_DENSE = defprim("ragged_to_dense", _to_dense_impl, _to_dense_rule, _to_dense_vjp)
RAGGED_DENSE_VALUES = defprim("ragged_dense_values", _dense_values_impl, _dense_values_rule, _dense_values_vjp)
# The zero scalar of a tensor's dtype (b"" for strings), a graph node like any other.
_ZERO = defprim("ragged_zero", lambda xp, x: np.zeros((), x.dtype) if x.dtype != object else np.asarray(b"", object),
                lambda x: Aval((), x.dtype))


def _ids_impl(xp, splits, which):
    rows, cols = _positions(splits)
    return rows if which == "row" else cols


def _ids_rule(splits, which):
    if splits.dtype not in (dtypes.int64, dtypes.int32) or len(splits.shape) != 1:
        raise TypeError(f"row_splits must be an int64 vector, got {splits.dtype.name}{list(splits.shape)}")
    return Aval((None,), dtypes.int64)


# The row (which="row") or the column (which="col") of every value.
RAGGED_IDS = defprim("ragged_ids", _ids_impl, _ids_rule)


def _splits_from_lengths_impl(xp, lengths):
    out = np.zeros(lengths.shape[0] + 1, np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


SPLITS_FROM_LENGTHS = defprim(
    "splits_from_lengths", _splits_from_lengths_impl,
    lambda lengths: Aval((None if lengths.shape[0] is None else lengths.shape[0] + 1,), dtypes.int64))


def ids(splits, which):
    return bind(RAGGED_IDS, (splits,), {"which": which})


def to_dense(values, splits, default, width=None):
    return bind(RAGGED_TO_DENSE, (values, splits, default), {"width": width})


def dense_values(dense, splits):
    return bind(RAGGED_DENSE_VALUES, (dense, splits), {})


def splits_from_lengths(lengths):
    return bind(SPLITS_FROM_LENGTHS, (lengths,), {})


def zero_of(x):
    return bind(_ZERO, (x,), {})


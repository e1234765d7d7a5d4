"""Segment reductions, unique, searchsorted and the counting ops built on them
(bincount, confusion_matrix, histogram_fixed_width).

One primitive, `segment_reduce`, serves the sorted (tf.math.segment_*) and
unsorted (tf.math.unsorted_segment_*) families: data rows are combined per
segment id into `num_segments` rows.  The number of segments is an attr when
static, the optional third input when it is a tensor, and max(id) + 1 when
neither is given (then the output's first dim is unknown while tracing).
Negative ids are dropped (TensorFlow's unsorted rule); ids >= num_segments are
an error.  Empty segments hold 0 (sum), 1 (prod), or the dtype's lowest (max)
or highest (min) value; the sorted max/min wrappers turn those into 0.
"""
import collections

import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, with_location
from ..registry import Aval, bind, defprim
from ..tensor import SymbolicTensor, convert_to_tensor
from . import array_ops as A
from . import complex_ops as C
from . import gather_ops as G
from . import join_ops as J
from . import math_ops as M
from . import reduce_ops as RD

def _identity(reducer, dtype):
    if reducer == "sum":
        return 0
    if reducer == "prod":
        return 1
    info = dtypes.as_dtype(np.dtype(dtype))       # ml_dtypes' bfloat16 has no np.finfo
    if info.is_floating:
        return -np.inf if reducer == "max" else np.inf
    return info.min if reducer == "max" else info.max


def _segment_impl(xp, data, ids, *num, reducer, num_segments):
    flat_ids = ids.reshape(-1)
    rows = data.reshape((flat_ids.size,) + data.shape[ids.ndim:])
    if num:
        n = int(num[0])
    elif num_segments is not None:
        n = num_segments
    else:
        n = int(flat_ids.max()) + 1 if flat_ids.size else 0
    if flat_ids.size and int(flat_ids.max()) >= n:
        raise ValueError(f"segment id {int(flat_ids.max())} is out of range [0, {n})")
    keep = flat_ids >= 0
    flat_ids, rows = flat_ids[keep], rows[keep]
    out = xp.full((max(n, 0),) + data.shape[ids.ndim:], _identity(reducer, data.dtype), dtype=data.dtype)
    if xp is np:
        {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[reducer].at(out, flat_ids, rows)
    else:
        import cupyx
        if reducer == "prod":
            raise NotImplementedError("segment products are not implemented on the GPU")
        getattr(cupyx, f"scatter_{'add' if reducer == 'sum' else reducer}")(out, flat_ids, rows)
    if reducer in ("max", "min") and dtypes.as_dtype(np.dtype(data.dtype)).is_floating:
        # An empty segment holds the dtype's lowest (highest) finite value, as
        # TensorFlow; the infinite start value kept -inf (+inf) entries exact.
        empty = xp.bincount(flat_ids, minlength=n)[:n] == 0
        info = dtypes.as_dtype(np.dtype(data.dtype))
        out[empty] = info.min if reducer == "max" else info.max
    return out


def _segment_rule(data, ids, *num, reducer, num_segments):
    if not ids.dtype.is_integer:
        raise TypeError(f"segment ids must be integers, got {ids.dtype.name}")
    k = len(ids.shape)
    if k > len(data.shape) or not all(a is None or b is None or a == b for a, b in zip(ids.shape, data.shape)):
        raise R.ShapeError(f"segment ids of shape {list(ids.shape)} must be a prefix of the data shape "
                           f"{list(data.shape)}")
    if num and (len(num[0].shape) != 0 or not num[0].dtype.is_integer):
        raise TypeError("num_segments must be an integer scalar")
    return Aval((num_segments,) + tuple(data.shape[k:]), data.dtype)


def _gather_rows(x, ids):
    """x[ids] with rows of dropped (negative) ids read as zeros."""
    valid = M.greater_equal(ids, 0)
    rows = G.gather(x, A.where(valid, ids, A.zeros_like(ids)))
    mask = A.reshape_keeping_unknown(valid, list(ids.shape.dims) + [1] * (x.shape.rank - 1))
    return A.where(mask, rows, A.zeros_like(rows))


def _segment_vjp(g, out, data, ids, *num, reducer, num_segments):
    none = (None,) * (1 + len(num))
    attrs = {"num_segments": num_segments}

    def seg_sum(x):
        return bind(SEGMENT_REDUCE, (x, ids) + num, dict(attrs, reducer="sum"))

    if reducer == "sum":
        return (_gather_rows(g, ids),) + none
    if reducer in ("max", "min"):
        # Ties share the gradient equally, as TensorFlow.
        hit = M.cast(M.equal(data, _gather_rows(out, ids)), data.dtype)
        count = seg_sum(hit)
        return (_gather_rows(g / M.maximum(count, 1), ids) * hit,) + none
    # prod: exact at zeros (the product of the other entries of the segment).
    is_zero = M.equal(data, 0)
    safe = A.where(is_zero, A.ones_like(data), data)
    prod_nz = _gather_rows(bind(SEGMENT_REDUCE, (safe, ids) + num, dict(attrs, reducer="prod")), ids)
    zeros = _gather_rows(seg_sum(M.cast(is_zero, data.dtype)), ids)
    zero = A.zeros_like(data)
    grad = A.where(is_zero, A.where(M.equal(zeros, 1), prod_nz, zero),
                   A.where(M.equal(zeros, 0), prod_nz / safe, zero))
    return (_gather_rows(g, ids) * grad,) + none


SEGMENT_REDUCE = defprim("segment_reduce", _segment_impl, _segment_rule, _segment_vjp)


def _segment(reducer, data, segment_ids, num_segments, op):
    x = convert_to_tensor(data)
    ids = convert_to_tensor(segment_ids)
    inputs = (x, ids)
    if isinstance(num_segments, SymbolicTensor):
        inputs += (M.cast(num_segments, dtypes.int64) if not num_segments.dtype.is_integer else num_segments,)
        static = None
    elif num_segments is None:
        static = None
    else:
        static = int(num_segments.numpy() if hasattr(num_segments, "numpy") else num_segments)
        if static < 0:
            raise ValueError(with_location(f"{op}: num_segments must be >= 0, got {static}"))
    if x.dtype.is_bool:
        raise TypeError(with_location(f"{op}: bool data cannot be reduced; cast it first"))
    C.no_complex(reducer, x)
    attrs = {"reducer": reducer, "num_segments": static}
    A.check_rule(_segment_rule, op, *inputs, **attrs)
    return bind(SEGMENT_REDUCE, inputs, attrs)


def _unsorted(reducer):
    def op(data, segment_ids, num_segments, name=None):
        return _segment(reducer, data, segment_ids, num_segments, f"unsorted_segment_{reducer}")
    op.__name__ = f"unsorted_segment_{reducer}"
    op.__doc__ = f"Segment {reducer} into num_segments rows; negative ids are dropped."
    return op


def _sorted(reducer):
    def op(data, segment_ids, name=None):
        out = _segment(reducer, data, segment_ids, None, f"segment_{reducer}")
        if reducer in ("max", "min"):  # an empty sorted segment is 0, not the identity
            ones = A.ones_like(convert_to_tensor(segment_ids), dtypes.int32)
            counts = _segment("sum", ones, segment_ids, None, f"segment_{reducer}")
            mask = A.reshape_keeping_unknown(M.greater(counts, 0), [None] + [1] * (out.shape.rank - 1))
            out = A.where(mask, out, A.zeros_like(out))
        return out
    op.__name__ = f"segment_{reducer}"
    op.__doc__ = f"Segment {reducer} over sorted ids into max(id) + 1 rows."
    return op


unsorted_segment_sum = _unsorted("sum")
unsorted_segment_prod = _unsorted("prod")
unsorted_segment_max = _unsorted("max")
unsorted_segment_min = _unsorted("min")
segment_sum = _sorted("sum")
segment_prod = _sorted("prod")
segment_max = _sorted("max")
segment_min = _sorted("min")


def _mean(data, segment_ids, num_segments, op):
    x = convert_to_tensor(data)
    total = _segment("sum", x, segment_ids, num_segments, op)
    ones = A.ones_like(convert_to_tensor(segment_ids), x.dtype)
    count = _segment("sum", ones, segment_ids, num_segments, op)
    count = A.reshape_keeping_unknown(M.maximum(count, 1), [total.shape[0]] + [1] * (total.shape.rank - 1))
    return total / count if x.dtype.is_floating else M.floordiv(total, count)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    return _mean(data, segment_ids, num_segments, "unsorted_segment_mean")


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    x = convert_to_tensor(data)
    total = _segment("sum", x, segment_ids, num_segments, "unsorted_segment_sqrt_n")
    count = _segment("sum", A.ones_like(convert_to_tensor(segment_ids), x.dtype), segment_ids, num_segments,
                     "unsorted_segment_sqrt_n")
    count = A.reshape_keeping_unknown(M.maximum(count, 1), [total.shape[0]] + [1] * (total.shape.rank - 1))
    return total * M.rsqrt(count)


def segment_mean(data, segment_ids, name=None):
    return _mean(data, segment_ids, None, "segment_mean")


# --- unique, searchsorted -------------------------------------------------------------------
def _unique_impl(xp, x, out_idx):
    vals, first, inverse = np.unique(x if xp is np else x.get(), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # TensorFlow keeps the order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    counts = np.bincount(rank[inverse.reshape(-1)], minlength=order.size)
    outs = (vals[order].astype(x.dtype), rank[inverse.reshape(-1)].astype(out_idx.np), counts.astype(out_idx.np))
    return outs if xp is np else tuple(xp.asarray(o) for o in outs)


def _unique_rule(x, out_idx):
    if len(x.shape) != 1:
        raise R.ShapeError(f"unique expects a vector, got shape {list(x.shape)}")
    return Aval((None,), x.dtype), Aval(x.shape, out_idx), Aval((None,), out_idx)


UNIQUE = defprim("unique", _unique_impl, _unique_rule, None, multiple_results=True)
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _unique(x, out_idx, op):
    x = convert_to_tensor(x)
    out_idx = dtypes.as_dtype(out_idx)
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(with_location(f"{op}: out_idx must be int32 or int64, got {out_idx.name}"))
    A.check_rule(_unique_rule, op, x, out_idx=out_idx)
    return bind(UNIQUE, (x,), {"out_idx": out_idx})


def unique(x, out_idx=dtypes.int32, name=None):
    """The distinct values of a vector in order of first appearance, and each entry's index into them."""
    y, idx, _ = _unique(x, out_idx, "unique")
    return Unique(y, idx)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    return UniqueWithCounts(*_unique(x, out_idx, "unique_with_counts"))


def _searchsorted_impl(xp, seq, values, side, out_type):
    s2 = seq.reshape(-1, seq.shape[-1])
    v2 = values.reshape(s2.shape[0], values.shape[-1])  # not -1: values may be empty
    out = xp.empty(v2.shape, dtype=out_type.np)
    for i in range(s2.shape[0]):
        out[i] = xp.searchsorted(s2[i], v2[i], side=side)
    return out.reshape(values.shape)


def _searchsorted_rule(seq, values, side, out_type):
    if seq.dtype is not values.dtype:
        raise TypeError(f"dtypes {seq.dtype.name} and {values.dtype.name} do not match")
    if len(seq.shape) < 1 or len(seq.shape) != len(values.shape):
        raise R.ShapeError(f"sorted_sequence {list(seq.shape)} and values {list(values.shape)} must have "
                           "one rank (>= 1)")
    for a, b in zip(seq.shape[:-1], values.shape[:-1]):
        if a is not None and b is not None and a != b:
            raise R.ShapeError(f"the leading dims of {list(seq.shape)} and {list(values.shape)} differ")
    return Aval(values.shape, out_type)


SEARCHSORTED = defprim("searchsorted", _searchsorted_impl, _searchsorted_rule, None)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Insertion points of `values` into the innermost rows of `sorted_sequence`."""
    seq = convert_to_tensor(sorted_sequence)
    vals = convert_to_tensor(values, seq.dtype) if not hasattr(values, "dtype") else convert_to_tensor(values)
    if side not in ("left", "right"):
        raise ValueError(with_location(f"searchsorted: side must be 'left' or 'right', got {side!r}"))
    attrs = {"side": side, "out_type": dtypes.as_dtype(out_type)}
    A.check_rule(_searchsorted_rule, "searchsorted", seq, vals, **attrs)
    return bind(SEARCHSORTED, (seq, vals), attrs)


# --- counting ------------------------------------------------------------------------------
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """Counts (or summed weights) of each value 0..n-1 of a non-negative int tensor;
    n = max(arr) + 1, at least minlength and at most maxlength (larger values are dropped)."""
    x = convert_to_tensor(arr)
    if not x.dtype.is_integer:
        raise TypeError(with_location(f"bincount: arr must be integers, got {x.dtype.name}"))
    if axis not in (None, 0, -1):
        raise InvalidArgumentError(with_location(f"bincount: axis must be 0 or -1, got {axis}"))
    per_row = axis == -1 and x.shape.rank == 2  # one histogram per row
    flat = A.reshape(x, [-1])
    if weights is not None:
        w = A.reshape(convert_to_tensor(weights), [-1])
    else:
        w = A.ones_like(flat, dtypes.as_dtype(dtype))
    if binary_output:
        w = A.ones_like(w)
    n = RD.reduce_max(J.concat([flat, A.constant([-1], x.dtype)], 0)) + 1
    if minlength is not None:
        n = M.maximum(n, M.cast(convert_to_tensor(minlength), x.dtype))
    if maxlength is not None:
        n = M.minimum(n, M.cast(convert_to_tensor(maxlength), x.dtype))
    ids = A.where(M.less(flat, n), flat, -A.ones_like(flat))  # dropped beyond n
    if per_row:
        rows = A.shape(x, out_type=x.dtype)[0]
        row_of = A.reshape(A.broadcast_to(A.reshape(A.range_(rows, dtype=x.dtype), [-1, 1]), A.shape(x)), [-1])
        ids = A.where(M.less(ids, 0), ids, row_of * n + ids)
        total = rows * n
        out = _segment("sum", w, ids, total if isinstance(total, SymbolicTensor) else int(total), "bincount")
        out = A.reshape(out, J.stack([rows, n]) if isinstance(total, SymbolicTensor) else [int(rows), int(n)])
    else:
        out = _segment("sum", w, ids, n if isinstance(n, SymbolicTensor) else int(n), "bincount")
    if binary_output:
        out = M.cast(M.greater(out, 0), w.dtype)
    return out


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """[num_classes, num_classes] counts: row = label, column = prediction."""
    labels = convert_to_tensor(labels)
    preds = convert_to_tensor(predictions)
    for t, what in ((labels, "labels"), (preds, "predictions")):
        if not t.dtype.is_integer:
            raise TypeError(with_location(f"confusion_matrix: {what} must be integers, got {t.dtype.name}"))
    if labels.dtype is not preds.dtype:
        preds = M.cast(preds, labels.dtype)
    labels, preds = A.reshape(labels, [-1]), A.reshape(preds, [-1])
    if num_classes is None:
        if isinstance(labels, SymbolicTensor) or isinstance(preds, SymbolicTensor):
            raise ValueError(with_location("confusion_matrix: give num_classes inside tf.function"))
        num_classes = int(max(RD.reduce_max(labels).numpy(), RD.reduce_max(preds).numpy(), -1)) + 1
    n = int(num_classes)
    w = A.ones_like(labels, dtypes.as_dtype(dtype)) if weights is None else \
        M.cast(A.reshape(convert_to_tensor(weights), [-1]), dtype)
    flat = _segment("sum", w, labels * n + preds, n * n, "confusion_matrix")
    return A.reshape(flat, [n, n])


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts of `values` in nbins equal bins over value_range (outliers go to the end bins)."""
    v = convert_to_tensor(values)
    rng = convert_to_tensor(value_range, v.dtype) if not hasattr(value_range, "dtype") else \
        convert_to_tensor(value_range)
    nbins = int(nbins)
    if nbins <= 0:
        raise ValueError(with_location(f"histogram_fixed_width: nbins must be positive, got {nbins}"))
    lo, hi = rng[0], rng[1]
    scaled = M.cast(v - lo, dtypes.float64) / M.cast(hi - lo, dtypes.float64)
    idx = M.cast(M.floor(scaled * float(nbins)), dtypes.int32)
    idx = M.clip_by_value(A.reshape(idx, [-1]), 0, nbins - 1)
    return _segment("sum", A.ones_like(idx, dtypes.as_dtype(dtype)), idx, nbins, "histogram_fixed_width")


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The int32 bin of every value among nbins equal bins over value_range (outliers go to
    the end bins), computed in the values' dtype as TensorFlow does; `dtype` is unused (TF's too)."""
    v, rng = convert_to_tensor(values), convert_to_tensor(value_range)  # no dtype: TF's rule
    if int(nbins) <= 0:
        raise InvalidArgumentError(with_location(f"histogram_fixed_width_bins: nbins {nbins} must > 0"))
    if not v.dtype.is_floating or rng.dtype is not v.dtype:
        raise InvalidArgumentError(with_location(
            f"histogram_fixed_width_bins: values and value_range must have the same floating dtype, "
            f"got {v.dtype.name} and {rng.dtype.name}"))
    n = M.cast(int(nbins), v.dtype)
    idx = M.floor(n * ((v - rng[0]) / (rng[1] - rng[0])))
    return M.cast(M.clip_by_value(idx, M.cast(0, v.dtype), n - 1), dtypes.int32)

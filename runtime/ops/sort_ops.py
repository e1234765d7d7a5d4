"""Order along an axis: cumsum and argsort (primitives); sort, top_k on top."""
import collections

import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, NotFoundError, dtype_not_supported, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import complex_ops as C
from . import gather_ops as G


def scan_impl(xp, x, axis, exclusive, reverse, scan, identity_like):
    """A running sum/product along `axis` (`scan` = xp.cumsum or xp.cumprod);
    exclusive shifts it by one with the identity first, reverse runs it from
    the end."""
    if reverse:
        x = xp.flip(x, axis)
    out = scan(x, axis=axis, dtype=x.dtype)
    if exclusive:
        to = [slice(None)] * x.ndim
        frm = [slice(None)] * x.ndim
        to[axis], frm[axis] = slice(1, None), slice(None, -1)
        shifted = identity_like(out)
        shifted[tuple(to)] = out[tuple(frm)]
        out = shifted
    return xp.flip(out, axis) if reverse else out


def _cumsum_impl(xp, x, axis, exclusive, reverse):
    return scan_impl(xp, x, axis, exclusive, reverse, xp.cumsum, xp.zeros_like)


CUMSUM = defprim("cumsum", _cumsum_impl, lambda x, axis, exclusive, reverse: R.same(x),
                 lambda g, out, x, axis, exclusive, reverse:
                 bind(CUMSUM, (g,), {"axis": axis, "exclusive": exclusive, "reverse": not reverse}))


def _argsort_impl(xp, x, axis, descending):
    if not descending:
        return xp.argsort(x, axis=axis, kind="stable").astype(np.int32)
    # Descending and stable (equal values keep their order), without negating
    # (which overflows for the smallest int and is wrong for unsigned types).
    n = x.shape[axis]
    flipped = xp.argsort(xp.flip(x, axis), axis=axis, kind="stable")
    return (n - 1 - xp.flip(flipped, axis)).astype(np.int32)


ARGSORT = defprim("argsort", _argsort_impl,
                  lambda x, axis, descending: Aval(x.shape, dtypes.int32), None)


def _top_k_impl(xp, x, k):
    """Indices of the k largest along the last axis, ties lower index first: an
    O(n) partition picks candidates, and only those k are sorted (a full argsort of
    each row is what made top_k on a distance matrix slow)."""
    n = x.shape[-1]
    if k == 0 or 4 * k >= n or x.size == 0:
        return _argsort_impl(xp, x, x.ndim - 1, True)[..., :k]
    rows = x.reshape(-1, n)
    cand = xp.sort(xp.argpartition(rows, n - k, axis=-1)[:, n - k:], axis=-1)
    picked = xp.take_along_axis(cand, _argsort_impl(xp, xp.take_along_axis(rows, cand, -1), 1, True), -1)
    # The partition breaks ties at the k-th value arbitrarily; TensorFlow keeps the
    # lowest indices.  Rows with such a tie (or a NaN there) are sorted in full.
    last = xp.take_along_axis(rows, picked[:, -1:], -1)
    chosen = xp.take_along_axis(rows, picked, -1)
    tied = ((rows == last).sum(-1) != (chosen == last).sum(-1)) | (last[:, 0] != last[:, 0])
    if tied.any():
        picked[tied] = _argsort_impl(xp, rows[tied], 1, True)[:, :k]
    return picked.reshape(x.shape[:-1] + (k,)).astype(np.int32)


TOP_K = defprim("top_k_indices", _top_k_impl,
                lambda x, k: Aval(tuple(x.shape[:-1]) + (k,), dtypes.int32), None)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    x = convert_to_tensor(x)
    if x.dtype.is_bool:
        raise TypeError(with_location("cumsum: bool tensors cannot be summed; cast them first"))
    attrs = {"axis": A.static_axis(axis, x.shape.rank, "cumsum"), "exclusive": bool(exclusive),
             "reverse": bool(reverse)}
    return bind(CUMSUM, (x,), attrs)


def _direction(direction, op):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(with_location(f"{op}: direction must be ASCENDING or DESCENDING, got {direction!r}"))
    return direction == "DESCENDING"


def _sortable(op, values):
    """The tensor to sort: TF's sort and top_k kernels take numbers only (not strings or bools)."""
    x = convert_to_tensor(values)
    C.no_complex(op, x)
    if x.dtype.is_string or x.dtype.is_bool:
        raise dtype_not_supported(op, x)
    return x


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    x = _sortable("argsort", values)
    return bind(ARGSORT, (x,), {"axis": A.static_axis(axis, x.shape.rank, "argsort"),
                                "descending": _direction(direction, "argsort")})


def _take_along_last(x, idx):
    rank = x.shape.rank
    if rank == 1:  # as TF's sort/top_k gradient: dense (a plain gather's would be IndexedSlices)
        return G.gather_nd(x, A.expand_dims(idx, -1))
    return G.gather(x, idx, axis=rank - 1, batch_dims=rank - 1)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """Sorted values; the gradient flows back through the gather to the original positions."""
    x = _sortable("sort", values)
    axis = A.static_axis(axis, x.shape.rank, "sort")
    last = x.shape.rank - 1
    perm = list(range(x.shape.rank))
    perm[axis], perm[last] = last, axis
    moved = A.transpose(x, perm)
    idx = bind(ARGSORT, (moved,), {"axis": last, "descending": _direction(direction, "sort")})
    return A.transpose(_take_along_last(moved, idx), perm)


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """The k largest entries along the last axis (ties: the lower index first)."""
    x = _sortable("top_k", input)
    k = int(k)
    n = x.shape[-1] if x.shape.rank else None
    if x.shape.rank == 0 or k < 0 or (n is not None and k > n):
        raise ValueError(with_location(f"top_k: k={k} is out of range for a tensor of shape {list(x.shape)}"))
    idx = bind(TOP_K, (x,), {"k": k})
    values = _take_along_last(x, idx)
    from . import math_ops as M
    return TopKV2(values, M.cast(idx, index_type))


def _approx_k(op, operand, k, reduction_dimension, is_max):
    """TensorFlow's CPU kernel of approx_max_k is exact: top_k along the last axis, for
    float32/float16 only; recall_target and the other tuning arguments only matter on
    TPUs.  (TF's CPU has no approx_min_k kernel at all; tapeflow's is exact.)"""
    x = convert_to_tensor(operand)
    if x.dtype not in (dtypes.float32, dtypes.float16):
        raise InvalidArgumentError(with_location(f"{op}: operand must be float32 or float16, got {x.dtype.name}"))
    rank, k = x.shape.rank, int(k)
    if rank == 0 or (x.shape[-1] is not None and not 0 <= k <= x.shape[-1]):
        raise InvalidArgumentError(with_location(f"{op}: k={k} is out of range for shape {list(x.shape)}"))
    if int(reduction_dimension) not in (-1, rank - 1):
        raise NotFoundError(with_location(
            f"{op}: only the last axis (reduction_dimension=-1) can be reduced, got {reduction_dimension}"))
    if is_max:
        return top_k(x, k)
    values, indices = top_k(-x, k)
    return TopKV2(-values, indices)


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """(values, indices) of the k largest entries along the last axis (exact, as TF's CPU kernel)."""
    return _approx_k("approx_max_k", operand, k, reduction_dimension, True)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """(values, indices) of the k smallest entries along the last axis (exact)."""
    return _approx_k("approx_min_k", operand, k, reduction_dimension, False)

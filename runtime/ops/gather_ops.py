"""Gathers and scatters: gather (axis, batch_dims), gather_nd, scatter_nd and the
scatter-add that is gather's gradient; boolean_mask and one_hot on top.

Implementations flatten the leading `batch_dims` into one axis B so that one
NumPy fancy index serves every case: params (B, pre..., N, post...) with
indices (B, I...) become out (B, pre..., I..., post...).
"""
import numpy as np

from .. import dtypes
from .. import shape_rules as R
from .. import tape
from ..errors import arg_error, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import join_ops as J
from . import math_ops as M


def _check_bounds(xp, indices, limits, shape_words=None):
    """TensorFlow rejects out-of-range indices (NumPy would wrap negative ones), naming the
    first bad one in its words: `limits` is a size (gather), or, with `shape_words` ("param
    shape [2,3]"), the sizes that the last axis of `indices` indexes (gather_nd, scatter_nd)."""
    if xp is np and indices.size:
        lo = indices.min(axis=tuple(range(indices.ndim - 1))) if limits.ndim else indices.min()
        hi = indices.max(axis=tuple(range(indices.ndim - 1))) if limits.ndim else indices.max()
        if np.any(lo < 0) or np.any(hi >= limits):
            bad = (indices < 0) | (indices >= limits)
            if limits.ndim:
                bad = bad.any(axis=-1)
            where = np.argwhere(bad)[0] if bad.ndim else ()
            at = f"[{','.join(str(int(i)) for i in where)}]" if bad.ndim else ""
            value = indices[tuple(where)]
            if limits.ndim:
                raise IndexError(f"indices{at} = [{', '.join(str(int(v)) for v in value)}] "
                                 f"does not index into {shape_words}")
            raise IndexError(f"indices{at} = {int(value)} is not in [0, {int(limits)})")


def _batch_index(xp, nb, rank):
    """arange(nb) shaped to broadcast against an index array of the given rank."""
    return xp.arange(nb).reshape((nb,) + (1,) * rank)


def _gather_layout(params_shape, axis, batch_dims):
    b = batch_dims
    return params_shape[:b], params_shape[b:axis], params_shape[axis], params_shape[axis + 1:]


def _gather_impl(xp, params, indices, axis, batch_dims):
    batch, pre, n, post = _gather_layout(params.shape, axis, batch_dims)
    _check_bounds(xp, indices, np.asarray(n))
    nb = int(np.prod(batch, dtype=np.int64))
    p = xp.moveaxis(params.reshape((nb,) + params.shape[batch_dims:]), 1 + len(pre), 1)  # (B, N, pre, post)
    idx = indices.reshape((nb,) + indices.shape[batch_dims:])
    sel = p[_batch_index(xp, nb, idx.ndim - 1), idx]  # (B, I..., pre..., post...)
    ni = idx.ndim - 1
    sel = xp.moveaxis(sel, tuple(range(1 + ni, 1 + ni + len(pre))), tuple(range(1, 1 + len(pre))))
    return sel.reshape(batch + pre + indices.shape[batch_dims:] + post)


def _scatter_add(xp, out, index, values):
    if xp is np:
        np.add.at(out, index, values)
    else:  # cupy
        import cupyx
        cupyx.scatter_add(out, index, values)


def _gather_grad_impl(xp, g, indices, like, axis, batch_dims):
    batch, pre, n, post = _gather_layout(like.shape, axis, batch_dims)
    nb = int(np.prod(batch, dtype=np.int64))
    idx = indices.reshape((nb,) + indices.shape[batch_dims:])
    ni = idx.ndim - 1
    gf = g.reshape((nb,) + pre + idx.shape[1:] + post)
    gf = xp.moveaxis(gf, tuple(range(1, 1 + len(pre))), tuple(range(1 + ni, 1 + ni + len(pre))))
    out = xp.zeros((nb, n) + pre + post, dtype=g.dtype)
    _scatter_add(xp, out, (_batch_index(xp, nb, ni), idx), gf)
    return xp.moveaxis(out, 1, 1 + len(pre)).reshape(like.shape)


def _gather_rule(params, indices, axis, batch_dims):
    if not indices.dtype.is_integer:
        raise TypeError(f"indices must be integers, got {indices.dtype.name}")
    batch, pre, _, post = _gather_layout(params.shape, axis, batch_dims)
    if tuple(indices.shape[:batch_dims]) != batch and None not in batch + indices.shape[:batch_dims]:
        raise R.ShapeError(f"the first {batch_dims} dims of params and indices differ")
    return Aval(batch + pre + indices.shape[batch_dims:] + post, params.dtype)


GATHER = defprim("gather", _gather_impl, _gather_rule,
                 lambda g, out, params, indices, axis, batch_dims:
                 (bind(GATHER_GRAD, (g, indices, params), {"axis": axis, "batch_dims": batch_dims}), None))
# gather's gradient: g scatter-added into zeros shaped like params.
GATHER_GRAD = defprim("gather_grad", _gather_grad_impl,
                      lambda g, indices, like, axis, batch_dims: Aval(like.shape, g.dtype),
                      lambda gg, out, g, indices, like, axis, batch_dims:
                      (gather(gg, indices, axis=axis, batch_dims=batch_dims), None, None))


def _gather_sparse_vjp(g, out, params, indices, axis, batch_dims):
    """Along axis 0 the params gradient is IndexedSlices, as TensorFlow's."""
    if axis or batch_dims:
        return None
    from ..indexed_slices import gather_gradient
    slices = gather_gradient(g, params, indices)
    return None if slices is None else (slices, None)


tape.SPARSE_VJPS["gather"] = _gather_sparse_vjp


def scatter_rows(values, indices, like):
    """Rows `values[i]` added at `indices[i]` into zeros shaped like `like` (dense IndexedSlices)."""
    return bind(GATHER_GRAD, (values, indices, like), {"axis": 0, "batch_dims": 0})


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    p = convert_to_tensor(params)
    idx = convert_to_tensor(indices)
    rank = p.shape.rank
    if idx.dtype.is_floating or idx.dtype.is_bool:
        raise TypeError(with_location(f"gather: indices must be integers, got {idx.dtype.name}"))
    batch_dims = int(batch_dims)
    if batch_dims < 0:
        batch_dims += idx.shape.rank
    axis = batch_dims if axis is None else int(axis.numpy() if hasattr(axis, "numpy") else axis)
    if not -rank <= axis < rank:
        raise ValueError(with_location(f"gather: axis {axis} is out of range for params of rank {rank}"))
    axis %= rank
    if not 0 <= batch_dims <= min(axis, idx.shape.rank):
        raise ValueError(with_location(
            f"gather: batch_dims {batch_dims} must be at most axis {axis} and the rank of indices {idx.shape.rank}"))
    attrs = {"axis": axis, "batch_dims": batch_dims}
    A.check_rule(_gather_rule, "gather", p, idx, **attrs)
    return bind(GATHER, (p, idx), attrs)


# --- gather_nd / scatter_nd ----------------------------------------------------------
def _nd_index(xp, indices, batch_dims):
    nb = int(np.prod(indices.shape[:batch_dims], dtype=np.int64))
    idx = indices.reshape((nb,) + indices.shape[batch_dims:])
    k = idx.shape[-1]
    return nb, (_batch_index(xp, nb, idx.ndim - 2),) + tuple(idx[..., j] for j in range(k))


def _gather_nd_impl(xp, params, indices, batch_dims):
    k = indices.shape[-1]
    _check_bounds(xp, indices, np.asarray(params.shape[batch_dims:batch_dims + k]),
                  f"param shape [{','.join(map(str, params.shape))}]")
    nb, index = _nd_index(xp, indices, batch_dims)
    p = params.reshape((nb,) + params.shape[batch_dims:])
    return p[index].reshape(indices.shape[:-1] + params.shape[batch_dims + k:])


def _gather_nd_rule(params, indices, batch_dims):
    if not indices.dtype.is_integer:
        raise TypeError(f"indices must be integers, got {indices.dtype.name}")
    k = indices.shape[-1] if indices.shape else None
    if k is None:
        raise R.ShapeError("the last dimension of indices must be known")
    if batch_dims + k > len(params.shape):
        raise R.ShapeError(f"index depth {k} is too large for params of rank {len(params.shape)}")
    return Aval(indices.shape[:-1] + params.shape[batch_dims + k:], params.dtype)


def _scatter_nd_impl(xp, indices, updates, like, batch_dims):
    k = indices.shape[-1]
    _check_bounds(xp, indices, np.asarray(like.shape[batch_dims:batch_dims + k]),
                  f"shape [{','.join(map(str, like.shape))}]")
    nb, index = _nd_index(xp, indices, batch_dims)
    out = xp.zeros((nb,) + like.shape[batch_dims:], dtype=updates.dtype)
    upd = updates.reshape((nb,) + updates.shape[batch_dims:])
    _scatter_add(xp, out, index, upd)
    return out.reshape(like.shape)


GATHER_ND = defprim("gather_nd", _gather_nd_impl, _gather_nd_rule,
                    lambda g, out, params, indices, batch_dims:
                    (bind(SCATTER_ND, (indices, g, params), {"batch_dims": batch_dims}), None))
# Sums updates into zeros shaped like `like` (repeated indices add up, as tf.scatter_nd).
SCATTER_ND = defprim("scatter_nd", _scatter_nd_impl,
                     lambda indices, updates, like, batch_dims: Aval(like.shape, updates.dtype),
                     lambda g, out, indices, updates, like, batch_dims:
                     (None, bind(GATHER_ND, (g, indices), {"batch_dims": batch_dims}), None))


def gather_nd(params, indices, batch_dims=0, name=None):
    p = convert_to_tensor(params)
    idx = convert_to_tensor(indices)
    if idx.dtype.is_floating or idx.dtype.is_bool:
        raise TypeError(with_location(f"gather_nd: indices must be integers, got {idx.dtype.name}"))
    attrs = {"batch_dims": int(batch_dims)}
    A.check_rule(_gather_nd_rule, "gather_nd", p, idx, **attrs)
    return bind(GATHER_ND, (p, idx), attrs)


def scatter_nd(indices, updates, shape, name=None):
    idx = convert_to_tensor(indices)
    upd = convert_to_tensor(updates)
    shape = A.shape_arg(shape, "scatter_nd")
    k = idx.shape[-1]
    want = tuple(idx.shape.dims[:-1]) + shape[k:]
    if idx.dtype.is_floating or idx.dtype.is_bool or not upd.shape.is_compatible_with(want):
        raise ValueError(with_location(
            f"scatter_nd: indices {idx.dtype.name}{list(idx.shape)} and updates {list(upd.shape)} "
            f"do not fit shape {list(shape)} (updates must have shape {list(want)})"))
    like = A.broadcast_to(A.zeros([], upd.dtype), shape)
    return bind(SCATTER_ND, (idx, upd, like), {"batch_dims": 0})


# --- composites -----------------------------------------------------------------------
def boolean_mask(tensor, mask, axis=None, name=None):
    """The entries of `tensor` where `mask` (covering dims axis..axis+k) is True."""
    x = convert_to_tensor(tensor)
    m = convert_to_tensor(mask)
    if not m.dtype.is_bool:
        raise TypeError(with_location(f"boolean_mask: the mask must be bool, got {m.dtype.name}"))
    axis = 0 if axis is None else int(axis) % max(x.shape.rank, 1)
    k = m.shape.rank
    dims = x.shape.dims
    if k == 0 or axis + k > len(dims) or not x.shape[axis:axis + k].is_compatible_with(m.shape):
        raise ValueError(with_location(
            f"boolean_mask: mask of shape {list(m.shape)} does not match tensor shape {list(dims)} at axis {axis}"))
    lead = [d if d is not None else -1 for d in dims[:axis]]
    rest = [d if d is not None else -1 for d in dims[axis + k:]]
    if (lead + rest).count(-1):
        raise ValueError(with_location(
            "boolean_mask: the dimensions outside the mask must be known while tracing"))
    flat = A.reshape(x, lead + [-1] + rest)
    where = A.where(A.reshape(m, [-1]))
    return gather(flat, A.reshape(where, [-1]), axis=axis)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """indices -> vectors of `depth` with on_value at the index (off_value elsewhere,
    and everywhere for an index outside [0, depth))."""
    idx = convert_to_tensor(indices)
    if not idx.dtype.is_integer:
        raise arg_error(TypeError, with_location(f"one_hot: indices must be integers, got {idx.dtype.name}"))
    if dtype is None:  # from on_value or off_value when given, else float32
        given = on_value if on_value is not None else off_value
        dtype = dtypes.float32 if given is None else convert_to_tensor(given).dtype
    dtype = dtypes.as_dtype(dtype)
    on = convert_to_tensor(1 if on_value is None else on_value, dtype)
    off = convert_to_tensor(0 if off_value is None else off_value, dtype)
    rank = idx.shape.rank + 1
    axis = -1 if axis is None else int(axis)
    if not -1 <= axis < rank:
        raise ValueError(with_location(f"one_hot: axis {axis} is out of range for output rank {rank}"))
    axis %= rank
    depth, = A.shape_arg([depth], "one_hot")  # a traced depth must be known while tracing
    positions = A.reshape(A.range_(depth, dtype=idx.dtype), [-1] + [1] * (rank - 1 - axis))
    hit = M.equal(A.expand_dims(idx, axis), positions)
    return A.where(hit, on, off)


# --- tensor_scatter_nd_* ----------------------------------------------------------------
def _tensor_scatter_args(tensor, indices, updates, op):
    t = convert_to_tensor(tensor)
    idx = convert_to_tensor(indices)
    upd = convert_to_tensor(updates, t.dtype) if not hasattr(updates, "dtype") else convert_to_tensor(updates)
    if upd.dtype is not t.dtype:
        M.dtype_mismatch(op, t, upd)
    if idx.dtype.is_floating or idx.dtype.is_bool or idx.shape.rank < 1 or idx.shape[-1] is None:
        raise TypeError(with_location(f"{op}: indices must be integers with a known last dim, got "
                                      f"{idx.dtype.name}{list(idx.shape)}"))
    k = idx.shape[-1]
    want = tuple(idx.shape.dims[:-1]) + tuple(t.shape.dims[k:])
    if k > t.shape.rank or not upd.shape.is_compatible_with(want):
        raise ValueError(with_location(
            f"{op}: indices {list(idx.shape)} and updates {list(upd.shape)} do not fit a tensor of shape "
            f"{list(t.shape)} (updates must have shape {list(want)})"))
    return t, idx, upd


def _scattered(idx, upd, like):
    return bind(SCATTER_ND, (idx, upd, like), {"batch_dims": 0})


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """tensor with updates added at indices (repeated indices add up)."""
    t, idx, upd = _tensor_scatter_args(tensor, indices, updates, "tensor_scatter_nd_add")
    return t + _scattered(idx, upd, t)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    t, idx, upd = _tensor_scatter_args(tensor, indices, updates, "tensor_scatter_nd_sub")
    return t - _scattered(idx, upd, t)


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """tensor with the entries at indices replaced by updates.  A repeated index takes its
    last update, as TF's CPU kernel (it assigns in order); the gradient reaches the updates
    that land, where TF's gather_nd gradient also reaches the overwritten ones."""
    from . import segment_ops  # segment_ops builds on this module
    t, idx, upd = _tensor_scatter_args(tensor, indices, updates, "tensor_scatter_nd_update")
    dims, flat_t, linear, rows = _scatter_positions(t, idx)
    order = A.range_(A.size(linear, dtypes.int64), dtype=dtypes.int64)
    positions = A.shape(flat_t, dtypes.int64)[0]
    last = segment_ops.unsorted_segment_max(order, linear, positions)  # -big where none lands
    # One gather from [old rows; update rows]: position p reads update `last` or keeps row p.
    source = A.where(M.greater_equal(last, 0), positions + last, A.range_(positions, dtype=dtypes.int64))
    return A.reshape(gather(J.concat([flat_t, A.reshape(upd, rows)], 0), source), dims)


def _scatter_positions(t, idx):
    """(dims of t, t as rows [positions, rest...], each update's row number (flat), rows).
    Row numbers come from a gather_nd of the numbered positions, which refuses (as TF) an
    index outside the tensor that a plain linearization would wrap onto another row."""
    from .reduce_ops import reduce_prod  # reduce_ops builds on this module
    k = idx.shape[-1]
    dims = A.shape(t, dtypes.int64)
    numbered = A.reshape(A.range_(reduce_prod(dims[:k]), dtype=dtypes.int64), dims[:k])
    linear = A.reshape(gather_nd(numbered, idx), [-1])
    rows = J.concat([convert_to_tensor([-1], dtypes.int64), dims[k:]], 0)
    return dims, A.reshape(t, rows), linear, rows


def _tensor_scatter_extreme(reducer, tensor, indices, updates, op):
    """Repeated indices take the extreme of all their updates and the old entry: an unsorted
    segment max/min per linear position (an empty one holds the identity, which never wins)."""
    from . import segment_ops  # segment_ops builds on this module
    t, idx, upd = _tensor_scatter_args(tensor, indices, updates, op)
    dims, flat_t, linear, rows = _scatter_positions(t, idx)
    seg = getattr(segment_ops, f"unsorted_segment_{reducer}")
    best = seg(A.reshape(upd, rows), linear, A.shape(flat_t, dtypes.int64)[0])
    return A.reshape((M.maximum if reducer == "max" else M.minimum)(flat_t, best), dims)


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    return _tensor_scatter_extreme("max", tensor, indices, updates, "tensor_scatter_nd_max")


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    return _tensor_scatter_extreme("min", tensor, indices, updates, "tensor_scatter_nd_min")

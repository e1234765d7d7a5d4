"""Joining and cutting tensors: concat, split, constant pad and dynamic slices
(primitives), and stack, unstack, tile, reverse, slice, mirror pads on top."""
import builtins

import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, arg_error, bad_shape_error, with_location
from ..registry import Aval, bind, defprim, state
from ..tensor import SymbolicTensor, TensorBase, convert_to_tensor
from . import array_ops as A
from . import indexing as I
from . import math_ops as M

_NO_ATTRS = {}
_py_slice = builtins.slice  # this module defines tf.slice


# --- concat / split -------------------------------------------------------------
def _concat_rule(*xs, axis):
    first = xs[0]
    for x in xs:
        if x.dtype is not first.dtype:
            raise TypeError(f"dtypes {', '.join(x.dtype.name for x in xs)} do not match")
        if len(x.shape) != len(first.shape):
            raise R.ShapeError(f"ranks differ: {', '.join(str(list(x.shape)) for x in xs)}")
    out = []
    for i in range(len(first.shape)):
        dims = [x.shape[i] for x in xs]
        if i == axis:
            out.append(None if None in dims else sum(dims))
            continue
        known = {d for d in dims if d is not None}
        if len(known) > 1:
            raise R.ShapeError(f"shapes {', '.join(str(list(x.shape)) for x in xs)} differ outside axis {axis}")
        out.append(known.pop() if known else None)
    return Aval(tuple(out), first.dtype)


def _concat_vjp(g, out, *xs, axis):
    sizes = [x.shape[axis] for x in xs]
    if None not in sizes:
        return split(g, sizes, axis)
    # Sizes known only when the graph runs: cut g with dynamic slices.
    begin = A.zeros([len(xs[0].shape)], dtypes.int32)
    offset = convert_to_tensor(0)
    grads = []
    for x in xs:
        shp = A.shape(x)
        start = A.where(M.equal(A.range_(len(x.shape)), axis), A.fill([len(x.shape)], offset), begin)
        grads.append(dynamic_slice(g, start, shp))
        offset = offset + shp[axis]
    return tuple(grads)


CONCAT = defprim("concat", lambda xp, *xs, axis: xp.concatenate(xs, axis=axis), _concat_rule, _concat_vjp)


def _split_impl(xp, x, axis, sizes):
    cuts = np.cumsum(sizes[:-1]).tolist()
    return tuple(xp.split(x, cuts, axis=axis))


def _split_rule(x, axis, sizes):
    d = x.shape[axis]
    if d is not None and sum(sizes) != d:
        raise R.ShapeError(f"sizes {list(sizes)} do not add up to dimension {axis} of size {d}")
    return tuple(Aval(x.shape[:axis] + (s,) + x.shape[axis + 1:], x.dtype) for s in sizes)


SPLIT = defprim("split", _split_impl, _split_rule,
                lambda gs, outs, x, axis, sizes: concat(list(gs), axis), multiple_results=True)


def _with_hint(v, hint):
    """TensorFlow's dtype_hint: converted to `hint` where that conversion works, else as itself."""
    try:
        return convert_to_tensor(v, hint)
    except (TypeError, ValueError):
        return convert_to_tensor(v)


def packed(values):
    """The values of a concat or stack as tensors: non-tensors (Python numbers, lists, NumPy
    arrays) take the dtype of the first tensor among them where they can, as in TensorFlow."""
    hint = next((v.dtype for v in values if isinstance(v, TensorBase)), None)
    if hint is None:
        return [convert_to_tensor(v) for v in values]
    return [v if isinstance(v, TensorBase) else _with_hint(v, hint) for v in values]


def concat(values, axis, name=None):
    xs = packed(values)
    if not xs:
        raise ValueError(with_location("concat: needs at least one tensor"))
    if xs[0].shape.rank == 0:
        raise ValueError(with_location("concat: cannot join scalars (rank-0 tensors); use stack"))
    axis = A.static_axis(axis, xs[0].shape.rank, "concat")
    A.check_rule(_concat_rule, "concat", *xs, axis=axis)
    if len(xs) == 1:
        return xs[0]
    return bind(CONCAT, tuple(xs), {"axis": axis})


def split(value, num_or_size_splits, axis=0, num=None, name=None):
    """Cut along `axis` into equal parts (an int) or parts of the given sizes (one may be -1)."""
    x = convert_to_tensor(value)
    axis = A.static_axis(axis, x.shape.rank, "split")
    dim = x.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)) and not isinstance(num_or_size_splits, bool):
        n = int(num_or_size_splits)
        if dim is None:
            raise ValueError(with_location("split: an equal split needs a known dimension while tracing"))
        if n <= 0 or dim % n:
            raise arg_error(ValueError, with_location(
                f"split: dimension {axis} of size {dim} (shape {list(x.shape)}) cannot be split into {n} equal parts"))
        sizes = (dim // n,) * n
    else:
        sizes = [int(s) for s in A.shape_arg(num_or_size_splits, "split")]
        if sizes.count(-1) > 1:
            raise ValueError(with_location(f"split: at most one size may be -1, got {sizes}"))
        if -1 in sizes:
            if dim is None:
                raise ValueError(with_location("split: a -1 size needs a known dimension while tracing"))
            sizes[sizes.index(-1)] = dim - (sum(sizes) + 1)
        sizes = tuple(sizes)
        if any(s < 0 for s in sizes) or (dim is not None and sum(sizes) != dim):
            raise ValueError(with_location(
                f"split: sizes {list(sizes)} do not add up to dimension {axis} of size {dim} (shape {list(x.shape)})"))
    return list(bind(SPLIT, (x,), {"axis": axis, "sizes": sizes}))


def stack(values, axis=0, name=None):
    xs = packed(values)
    if not xs:
        raise ValueError(with_location("stack: needs at least one tensor"))
    rank = xs[0].shape.rank + 1
    axis = A.static_axis(axis, rank, "stack")
    for x in xs[1:]:
        if x.dtype is not xs[0].dtype:
            raise TypeError(with_location(
                f"stack: dtypes {', '.join(x.dtype.name for x in xs)} do not match"))
        if not x.shape.is_compatible_with(xs[0].shape):
            raise bad_shape_error()(with_location(
                f"stack: shapes {', '.join(str(list(x.shape)) for x in xs)} differ"))
    return concat([A.expand_dims(x, axis) for x in xs], axis)


def unstack(value, num=None, axis=0, name=None):
    x = convert_to_tensor(value)
    axis = A.static_axis(axis, x.shape.rank, "unstack")
    n = x.shape[axis] if num is None else int(num)
    if n is None:
        raise ValueError(with_location(f"unstack: cannot infer the number of parts from shape {list(x.shape)}"))
    lead = (_py_slice(None),) * axis
    return [I.getitem(x, lead + (i,)) for i in range(n)]


# --- pad --------------------------------------------------------------------------
def _pad_rule(x, paddings, constant_value):
    if len(paddings) != len(x.shape):
        raise R.ShapeError(f"paddings {[list(p) for p in paddings]} do not match rank {len(x.shape)}")
    return Aval(tuple(None if d is None else d + lo + hi for d, (lo, hi) in zip(x.shape, paddings)), x.dtype)


def _pad_vjp(g, out, x, paddings, constant_value):
    spec = tuple(("s", lo, -hi if hi else None, None) for lo, hi in paddings)
    return I.strided(g, spec)


PAD = defprim("pad", lambda xp, x, paddings, constant_value: xp.pad(x, paddings, constant_values=constant_value),
              _pad_rule, _pad_vjp)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    x = convert_to_tensor(tensor)
    pads = np.asarray(paddings.numpy() if hasattr(paddings, "numpy") else paddings)
    if pads.shape != (x.shape.rank, 2) or pads.dtype.kind not in "iu":  # as TF: eagerly the kernel's error
        raise arg_error(ValueError, with_location(
            f"pad: paddings must be integers of shape [{x.shape.rank}, 2] for shape {list(x.shape)}, "
            f"got {pads.tolist()}"))
    if (pads < 0).any():
        raise arg_error(ValueError, with_location(f"pad: paddings must be non-negative, got {pads.tolist()}"))
    pads = tuple((int(lo), int(hi)) for lo, hi in pads)
    mode = mode.upper()
    if mode == "CONSTANT":
        value = convert_to_tensor(constant_values, x.dtype)
        if isinstance(value, SymbolicTensor):  # known when the graph runs: chosen where the pads are
            inside = bind(PAD, (A.ones_like(x, "bool"),), {"paddings": pads, "constant_value": False})
            zero = b"" if x.dtype is dtypes.string else 0
            return A.where(inside, bind(PAD, (x,), {"paddings": pads, "constant_value": zero}), value)
        return bind(PAD, (x,), {"paddings": pads, "constant_value": value._value.item()})
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(with_location(f"pad: mode must be CONSTANT, REFLECT or SYMMETRIC, got {mode!r}"))
    # Mirror pads are reversed slices joined on, so they need no gradient of their own.
    skip = 1 if mode == "REFLECT" else 0
    for axis, (lo, hi) in enumerate(pads):
        if not lo and not hi:
            continue
        dim = x.shape[axis]
        if dim is not None and (lo > dim - skip or hi > dim - skip):
            raise InvalidArgumentError(with_location(  # TF's kernel checks it, also in a graph
                f"pad: {mode} padding {[lo, hi]} is too large for dimension {axis} of size {dim}"))
        lead = (_py_slice(None),) * axis
        parts = []
        if lo:
            parts.append(I.getitem(x, lead + (_py_slice(lo - 1 + skip, skip - 1 if skip else None, -1),)))
        parts.append(x)
        if hi:
            parts.append(I.getitem(x, lead + (_py_slice(-1 - skip, -hi - 1 - skip, -1),)))
        x = concat(parts, axis)
    return x


# --- dynamic slices (bounds known only when the graph runs) -----------------------
def _dyn_index(begin, size, shape):
    out = []
    for b, s, d in zip(begin.tolist(), size.tolist(), shape):
        b = int(b)
        stop = d if s == -1 else b + int(s)
        if b < 0 or stop > d or stop < b:
            raise IndexError(
                f"slice begin {begin.tolist()} size {size.tolist()} is out of bounds for shape {list(shape)}")
        out.append(_py_slice(b, stop))
    return tuple(out)


def _host(a):
    return a.get() if hasattr(a, "get") else np.asarray(a)


def _dynamic_slice_impl(xp, x, begin, size):
    return x[_dyn_index(_host(begin), _host(size), x.shape)]


def _dynamic_slice_grad_impl(xp, g, begin, like):
    out = xp.zeros(like.shape, dtype=g.dtype)
    out[_dyn_index(_host(begin), np.asarray(g.shape), like.shape)] = g
    return out


def _slice_rule(x, begin, size):
    if len(begin.shape) != 1 or begin.shape[0] not in (None, len(x.shape)):
        raise R.ShapeError(f"begin must be a vector of length {len(x.shape)}")
    return Aval((None,) * len(x.shape), x.dtype)


DYNAMIC_SLICE = defprim("dynamic_slice", _dynamic_slice_impl, _slice_rule,
                        lambda g, out, x, begin, size: (dynamic_slice_grad(g, begin, x), None, None))
DYNAMIC_SLICE_GRAD = defprim(
    "dynamic_slice_grad", _dynamic_slice_grad_impl, lambda g, begin, like: Aval(like.shape, g.dtype),
    lambda gg, out, g, begin, like: (dynamic_slice(gg, begin, A.shape(g)), None, None))


def dynamic_slice(x, begin, size):
    begin = convert_to_tensor(begin, dtypes.int32) if not isinstance(begin, TensorBase) else begin
    size = convert_to_tensor(size, begin.dtype) if not isinstance(size, TensorBase) else size
    if not (begin.dtype.is_integer and size.dtype.is_integer):
        raise TypeError(with_location(f"slice: begin and size must be integers, got {begin.dtype.name}"))
    return bind(DYNAMIC_SLICE, (x, begin, size), _NO_ATTRS)


def dynamic_slice_grad(g, begin, like):
    return bind(DYNAMIC_SLICE_GRAD, (g, begin, like), _NO_ATTRS)


def slice(input_, begin, size, name=None):  # noqa: A001 - TensorFlow's name
    """input_[begin[i] : begin[i] + size[i]] on every axis; size -1 means to the end."""
    x = convert_to_tensor(input_)
    if isinstance(begin, SymbolicTensor) or isinstance(size, SymbolicTensor):
        return dynamic_slice(x, begin, size)
    b = A.shape_arg(begin, "slice")
    s = A.shape_arg(size, "slice")
    if len(b) != x.shape.rank or len(s) != x.shape.rank:
        raise ValueError(with_location(
            f"slice: begin {list(b)} and size {list(s)} must have one entry per axis of shape {list(x.shape)}"))
    index = []
    for axis, (lo, n, d) in enumerate(zip(b, s, x.shape.dims)):
        stop = None if n == -1 else lo + n
        if lo < 0 or n < -1 or (d is not None and (stop or d) > d):
            raise InvalidArgumentError(with_location(  # TF: a run-time check, in both modes
                f"slice: begin {list(b)} size {list(s)} is out of bounds for shape {list(x.shape)}"))
        index.append(_py_slice(lo, stop))
    return I.getitem(x, tuple(index))


# --- composites over getitem, reshape and concat -------------------------------------
def reverse(tensor, axis, name=None):
    x = convert_to_tensor(tensor)
    axes = {A.static_axis(a, x.shape.rank, "reverse") for a in A.shape_arg(axis, "reverse")}
    if not axes:
        return x
    return I.getitem(x, tuple(_py_slice(None, None, -1) if i in axes else _py_slice(None)
                              for i in range(x.shape.rank)))


def tile(input, multiples, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    reps = A.shape_arg(multiples, "tile")
    dims = x.shape.dims
    if len(reps) != len(dims) or any(r < 0 for r in reps):
        raise bad_shape_error()(with_location(
            f"tile: multiples {list(reps)} must be non-negative, one per axis of shape {list(dims)}"))
    if None not in dims:
        # Broadcast a (1, d0, 1, d1, ...) view to (m0, d0, m1, d1, ...) and merge the pairs.
        spread = A.reshape(x, [v for d in dims for v in (1, d)])
        spread = A.broadcast_to(spread, [v for r, d in zip(reps, dims) for v in (r, d)])
        return A.reshape(spread, [r * d for r, d in zip(reps, dims)])
    for axis, r in enumerate(reps):
        if r != 1:
            x = concat([x] * r, axis) if r else I.getitem(x, (_py_slice(None),) * axis + (_py_slice(0, 0),))
    return x


def parallel_stack(values, name="parallel_stack"):
    """stack(values, 0), in a tf.function only (TensorFlow's rule: RuntimeError eagerly)."""
    if state.graph is None:
        raise RuntimeError(with_location("tf.parallel_stack() is not compatible with eager execution."))
    return stack(values, 0)

"""Layout composites: linspace, meshgrid, repeat, roll and the broadcast shape of two shapes.

repeat and roll are gathers along one axis with computed indices, so they
trace with unknown sizes and tensor arguments, and take gather's gradient.
"""
import numpy as np

from .. import dtypes
from ..errors import with_location
from ..tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import join_ops as J
from . import indexing as I
from . import math_ops as M
from . import reduce_ops as RD
from . import segment_ops as S
from . import sort_ops as SO


def _axis_size(x, axis):
    """The static size of an axis, or an int32 scalar tensor when unknown while tracing."""
    d = x.shape[axis]
    return d if d is not None else I.getitem(A.shape(x), axis)


def linspace(start, stop, num, name=None, axis=0):
    """num evenly spaced values from start to stop inclusive, along a new `axis`
    of the broadcast of start and stop.  As TF computes it: start + i * delta for
    the inner points, the endpoints exactly start and stop."""
    start, stop = convert_to_tensor(start), convert_to_tensor(stop)
    if not start.dtype.is_floating:  # TF: integer bounds give float64 (or the other bound's float dtype)
        start = M.cast(start, stop.dtype if stop.dtype.is_floating else dtypes.float64)
    stop = M.cast(stop, start.dtype)
    num = int(num)
    if num < 1:
        raise ValueError(with_location(f"linspace: num must be at least 1, got {num}"))
    start, stop = start + A.zeros_like(stop), stop + A.zeros_like(start)  # broadcast to one shape
    rank = start.shape.rank + 1
    axis = axis % rank
    first, last = A.expand_dims(start, axis), A.expand_dims(stop, axis)
    if num == 1:
        return first
    delta = (last - first) / float(num - 1)
    along = [1] * rank
    along[axis] = num - 2
    inner = first + A.reshape(A.range_(1, num - 1, dtype=start.dtype), along) * delta
    return J.concat([first, inner, last], axis)


def meshgrid(*args, **kwargs):
    """N coordinate arrays from N vectors.  indexing='xy' (default) swaps the first two
    output axes (Cartesian), 'ij' keeps the argument order (matrix)."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(with_location(f"meshgrid: unexpected arguments {sorted(kwargs)}"))
    if indexing not in ("xy", "ij"):
        raise ValueError(with_location(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}"))
    xs = [A.reshape(convert_to_tensor(a), [-1]) for a in args]
    if not xs:
        return []
    for x in xs[1:]:
        if x.dtype is not xs[0].dtype:
            M.dtype_mismatch("meshgrid", xs[0], x)
    n = len(xs)
    shaped = []
    for i, x in enumerate(xs):
        pos = i
        if indexing == "xy" and n >= 2 and i < 2:
            pos = 1 - i
        dims = [1] * n
        dims[pos] = -1
        shaped.append(A.reshape(x, dims))
    # Broadcast every output against the zero sum of all: works for unknown lengths too.
    like = shaped[0] * 0
    for s in shaped[1:]:
        like = like + s * 0
    return [A.broadcast_like(s, like) for s in shaped]


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Repeat each entry along `axis` (flattened when None) `repeats` times (a scalar or one per entry)."""
    x = convert_to_tensor(input)
    if axis is None:
        x = A.reshape(x, [-1])
        axis = 0
    axis = A.static_axis(axis, x.shape.rank, "repeat")
    r = convert_to_tensor(repeats)
    if not r.dtype.is_integer or r.shape.rank > 1:
        raise ValueError(with_location(
            f"repeat: repeats must be an integer scalar or vector, got {r.dtype.name}{list(r.shape)}"))
    r = M.cast(r, dtypes.int32)
    n = _axis_size(x, axis)
    if r.shape.rank == 0:
        r = A.fill(A.reshape(convert_to_tensor(n, dtypes.int32), [1]), r) if isinstance(n, SymbolicTensor) \
            else A.fill([n], r)
    elif isinstance(n, int) and r.shape[0] is not None and r.shape[0] != n:
        raise ValueError(with_location(f"repeat: {r.shape[0]} repeats for an axis of size {n}"))
    ends = SO.cumsum(r)
    positions = A.range_(RD.reduce_sum(r), dtype=dtypes.int32)
    idx = S.searchsorted(ends, positions, side="right")
    return G.gather(x, idx, axis=axis)


def roll(input, shift, axis, name=None):  # noqa: A002
    """Shift entries along each axis cyclically (a positive shift moves them to higher indices)."""
    x = convert_to_tensor(input)
    shifts = _per_axis(shift)
    axes = _per_axis(axis.numpy() if isinstance(axis, Tensor) else axis)
    if len(shifts) != len(axes):
        raise ValueError(with_location(f"roll: {len(shifts)} shifts for {len(axes)} axes"))
    for s, a in zip(shifts, axes):
        a = A.static_axis(a, x.shape.rank, "roll")
        n = _axis_size(x, a)
        if isinstance(n, int) and n == 0:
            continue
        s = convert_to_tensor(s)
        if not s.dtype.is_integer:
            raise TypeError(with_location(f"roll: shift must be an integer, got {s.dtype.name}"))
        s = M.cast(s, dtypes.int32)
        idx = M.floormod(A.range_(n, dtype=dtypes.int32) - s, n)
        x = G.gather(x, idx, axis=a)
    return x


def _per_axis(v):
    """roll's shift or axis as a list: a scalar is one entry, a 1-D tensor or array one per element."""
    if isinstance(v, (list, tuple)):
        return list(v)
    rank = v.shape.rank if isinstance(v, TensorBase) else np.ndim(v)
    if rank == 1:
        return [v[i] for i in range(int(v.shape[0]))] if isinstance(v, TensorBase) else list(v)
    return [v]


def _broadcast_dims(a, b):
    """NumPy's broadcast of two static dim lists; ValueError if they clash.  An
    unknown dim (None) against a known dim d > 1 is taken to be d (TF's rule:
    anything else would fail at run time), against 1 or None it stays unknown."""
    out = []
    for x, y in zip([1] * (len(b) - len(a)) + list(a), [1] * (len(a) - len(b)) + list(b)):
        if x is None or y is None:
            known = y if x is None else x
            out.append(known if known is not None and known > 1 else None)
        elif x == 1 or x == y:
            out.append(y)
        elif y == 1:
            out.append(x)
        else:
            raise ValueError(with_location(f"Incompatible shapes for broadcasting: {tuple(a)} and {tuple(b)}"))
    return out


def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two TensorShapes (unknown rank in, unknown rank out)."""
    from ..shape import TensorShape, as_shape
    x, y = as_shape(shape_x), as_shape(shape_y)
    if x.dims is None or y.dims is None:
        return TensorShape(None)
    return TensorShape(_broadcast_dims(x.dims, y.dims))


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shape vectors, as a vector of their dtype."""
    sx, sy = convert_to_tensor(shape_x), convert_to_tensor(shape_y)
    if not isinstance(sx, SymbolicTensor) and not isinstance(sy, SymbolicTensor):
        dims = _broadcast_dims([int(d) for d in sx.numpy()], [int(d) for d in sy.numpy()])
        return convert_to_tensor(dims, dtype=sx.dtype)
    # Unknown while tracing: the shape of a broadcast sum of zeros of both shapes.
    total = M.add(A.zeros(sx, dtypes.int8), A.zeros(sy, dtypes.int8))
    return A.shape(total, out_type=sx.dtype)

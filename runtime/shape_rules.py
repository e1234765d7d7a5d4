"""Shape/dtype rules shared by many primitives.  They see only Avals, so they
work while tracing (unknown dims are None) as well as eagerly."""
from . import dtypes
from .registry import Aval


class ShapeError(ValueError):
    pass


def broadcast_shapes(*shapes):
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dim = 1
        for s in shapes:
            j = i - (rank - len(s))
            if j < 0:
                continue
            d = s[j]
            if d == 1:
                continue
            if dim == 1:
                dim = d
            elif d is None or dim is None:
                dim = d if dim is None else dim if d is None else None
            elif d != dim:
                raise ShapeError(f"shapes {', '.join(str(list(s)) for s in shapes)} cannot be broadcast together")
        out.append(dim)
    return tuple(out)


def same(x, **_):
    return Aval(x.shape, x.dtype)


def floating(x, **_):
    if not x.dtype.is_floating:
        raise TypeError(f"expects a floating-point tensor, got {x.dtype.name}")
    return Aval(x.shape, x.dtype)


def inexact(x, **_):
    """Floating or complex (exp, log, sqrt, trigonometric functions)."""
    if not x.dtype.is_inexact:
        raise TypeError(f"expects a floating-point or complex tensor, got {x.dtype.name}")
    return Aval(x.shape, x.dtype)


def _check_same_dtype(avals):
    d = avals[0].dtype
    for a in avals[1:]:
        if a.dtype is not d:
            raise TypeError(f"dtypes {' and '.join(x.dtype.name for x in avals)} do not match")
    return d


def broadcast(*avals, **_):
    d = _check_same_dtype(avals)
    return Aval(broadcast_shapes(*[a.shape for a in avals]), d)


def compare(*avals, **_):
    _check_same_dtype(avals)
    return Aval(broadcast_shapes(*[a.shape for a in avals]), dtypes.bool_)


def order(*avals, **_):
    """less / greater: complex numbers have no order."""
    if avals[0].dtype.is_complex:
        raise TypeError(f"{avals[0].dtype.name} values have no order")
    return compare(*avals)


def reduce(x, axis, keepdims, dtype=None, **_):
    shape = reduced_shape(x.shape, axis, keepdims)
    return Aval(shape, dtype or x.dtype)


def reduced_shape(shape, axis, keepdims):
    axes = set(axis)
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)

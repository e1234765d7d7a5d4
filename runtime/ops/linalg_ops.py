"""Matrix primitives: matmul (batched, with transposes) and einsum."""
from .. import shape_rules as R
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import math_ops as M


def _mt(xp, a, flag):
    return xp.swapaxes(a, -1, -2) if flag else a


def _matmul_impl(xp, a, b, transpose_a, transpose_b):
    return xp.matmul(_mt(xp, a, transpose_a), _mt(xp, b, transpose_b))


def _matmul_rule(a, b, transpose_a, transpose_b):
    if a.dtype is not b.dtype:
        raise TypeError(f"dtypes {a.dtype.name} and {b.dtype.name} do not match")
    if len(a.shape) < 2 or len(b.shape) < 2:
        raise R.ShapeError("both operands must have rank >= 2")
    m, k = (a.shape[-1], a.shape[-2]) if transpose_a else (a.shape[-2], a.shape[-1])
    k2, n = (b.shape[-1], b.shape[-2]) if transpose_b else (b.shape[-2], b.shape[-1])
    if k is not None and k2 is not None and k != k2:
        raise R.ShapeError(f"inner dimensions {k} and {k2} differ")
    batch = R.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return Aval(batch + (m, n), a.dtype)


def _matmul_vjp(g, out, a, b, transpose_a, transpose_b):
    if not transpose_a:
        ga = matmul(g, b, transpose_b=not transpose_b)
    else:
        ga = matmul(b, g, transpose_a=transpose_b, transpose_b=True)
    if not transpose_b:
        gb = matmul(a, g, transpose_a=not transpose_a)
    else:
        gb = matmul(g, a, transpose_a=True, transpose_b=transpose_a)
    return ga, gb


MATMUL = defprim("matmul", _matmul_impl, _matmul_rule, _matmul_vjp)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    a, b = M._binary_args(a, b, "matmul")
    attrs = {"transpose_a": bool(transpose_a or adjoint_a), "transpose_b": bool(transpose_b or adjoint_b)}
    try:
        _matmul_rule(Aval(a.shape.dims, a.dtype), Aval(b.shape.dims, b.dtype), **attrs)
    except (R.ShapeError, TypeError) as exc:
        raise (TypeError if isinstance(exc, TypeError) and not isinstance(exc, R.ShapeError) else ValueError)(
            with_location(f"matmul of {a.dtype.name}{list(a.shape)} by {b.dtype.name}{list(b.shape)}"
                          f"{' (transpose_a)' if attrs['transpose_a'] else ''}"
                          f"{' (transpose_b)' if attrs['transpose_b'] else ''}: {exc}")) from None
    return bind(MATMUL, (a, b), attrs)

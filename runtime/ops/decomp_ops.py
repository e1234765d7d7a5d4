"""Matrix primitives beyond products: inverse, determinant, log-determinant,
solve, Cholesky and triangular solve, batched over leading axes.

Gradients are the standard matrix-calculus rules, written with these same ops
so that they can be taped again and traced:
  inv:   dA = -X^T g X^T                       (X = inv(A))
  det:   dA = g det(A) inv(A)^T
  solve: db = solve(A^T, g), dA = -db X^T      (X = solve(A, b))
  chol:  dA = sym(L^-T Phi(L^T g) L^-1) / 2   (Phi: lower triangle, half diagonal)
A singular or non-positive-definite input is an InvalidArgumentError naming the op.
"""
import numpy as np

from .. import shape_rules as R
from ..errors import InvalidArgumentError, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import join_ops as J
from . import linalg_ops as L
from . import math_ops as M
from . import matrix_ops as MX
from . import reduce_ops as RD

_NO_ATTRS = {}


def _square_rule(a, **_):
    if not a.dtype.is_floating:
        raise TypeError(f"expects floating-point matrices, got {a.dtype.name}")
    if len(a.shape) < 2:
        raise R.ShapeError(f"needs a tensor of rank >= 2, got shape {list(a.shape)}")
    m, n = a.shape[-2:]
    if m is not None and n is not None and m != n:
        raise R.ShapeError(f"needs square matrices, got shape {list(a.shape)}")
    return Aval(a.shape, a.dtype)


def _batch_scalar_rule(a, **_):
    _square_rule(a)
    return Aval(a.shape[:-2], a.dtype)


def _solve_rule(a, b, **_):
    _square_rule(a)
    if a.dtype is not b.dtype:
        raise TypeError(f"dtypes {a.dtype.name} and {b.dtype.name} do not match")
    if len(b.shape) < 2:
        raise R.ShapeError(f"the right-hand side must have rank >= 2, got shape {list(b.shape)}")
    if a.shape[-1] is not None and b.shape[-2] is not None and a.shape[-1] != b.shape[-2]:
        raise R.ShapeError(f"matrix of shape {list(a.shape)} and right-hand side {list(b.shape)} do not fit")
    batch = R.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return Aval(batch + b.shape[-2:], b.dtype)


def _lapack(fn, *args):
    """fn(*args), a singular / not positive-definite input raised as TensorFlow's error type."""
    try:
        return fn(*args)
    except np.linalg.LinAlgError as exc:
        raise InvalidArgumentError(str(exc)) from None


def _t(x):
    return L.matrix_transpose(x)


def _unsqueeze2(x):
    return A.expand_dims(A.expand_dims(x, -1), -1)


# --- inverse, determinants ---------------------------------------------------------------
def _inv_vjp(g, out, a):
    return -L.matmul(out, L.matmul(g, out, transpose_b=True), transpose_a=True)


MATRIX_INVERSE = defprim("matrix_inverse", lambda xp, a: _lapack(xp.linalg.inv, a), _square_rule, _inv_vjp)
MATRIX_DETERMINANT = defprim("matrix_determinant", lambda xp, a: xp.linalg.det(a), _batch_scalar_rule,
                             lambda g, out, a: _unsqueeze2(g * out) * _t(inv(a)))


def _slogdet_impl(xp, a):
    sign, logabs = xp.linalg.slogdet(a)
    return sign.astype(a.dtype, copy=False), logabs.astype(a.dtype, copy=False)


def _slogdet_rule(a):
    out = _batch_scalar_rule(a)
    return out, out


# The sign is piecewise constant: only log|det| carries a gradient, g * inv(A)^T.
LOG_MATRIX_DETERMINANT = defprim("log_matrix_determinant", _slogdet_impl, _slogdet_rule,
                                 lambda g, out, a: _unsqueeze2(g[1]) * _t(inv(a)), multiple_results=True)


def _square(x, op):
    x = convert_to_tensor(x)
    A.check_rule(_square_rule, op, x)
    return x


def inv(input, adjoint=False, name=None):  # noqa: A002
    x = bind(MATRIX_INVERSE, (_square(input, "matrix_inverse"),), _NO_ATTRS)
    return _t(x) if adjoint else x


def det(input, name=None):  # noqa: A002
    return bind(MATRIX_DETERMINANT, (_square(input, "det"),), _NO_ATTRS)


def slogdet(input, name=None):  # noqa: A002
    """(sign, log|det|) of each matrix."""
    return bind(LOG_MATRIX_DETERMINANT, (_square(input, "slogdet"),), _NO_ATTRS)


def logdet(matrix, name=None):
    """log det of Hermitian positive-definite matrices, through their Cholesky factor."""
    chol = cholesky(matrix)
    return RD.reduce_sum(M.log(MX.diag_part(chol)), -1) * 2.0


# --- solves ------------------------------------------------------------------------------
def _solve_impl(xp, a, b, adjoint):
    if adjoint:
        a = xp.swapaxes(a, -1, -2)
    return _lapack(xp.linalg.solve, a, b)


def _solve_vjp(g, out, a, b, adjoint):
    gb = bind(MATRIX_SOLVE, (a, g), {"adjoint": not adjoint})
    ga = -L.matmul(out, gb, transpose_b=True) if adjoint else -L.matmul(gb, out, transpose_b=True)
    return ga, gb


MATRIX_SOLVE = defprim("matrix_solve", _solve_impl, _solve_rule, _solve_vjp)


def _triangle(xp, a, lower):
    return xp.tril(a) if lower else xp.triu(a)


def _triangular_solve_impl(xp, a, b, lower, adjoint):
    # Only the named triangle of `a` is read, as TensorFlow's kernel.
    a = _triangle(xp, a, lower)
    if adjoint:
        a = xp.swapaxes(a, -1, -2)
    return _lapack(xp.linalg.solve, a, b)


def _triangular_solve_vjp(g, out, a, b, lower, adjoint):
    gb = bind(TRIANGULAR_SOLVE, (a, g), {"lower": lower, "adjoint": not adjoint})
    ga = -L.matmul(out, gb, transpose_b=True) if adjoint else -L.matmul(gb, out, transpose_b=True)
    ga = MX.band_part(ga, -1, 0) if lower else MX.band_part(ga, 0, -1)
    return ga, gb


TRIANGULAR_SOLVE = defprim("triangular_solve", _triangular_solve_impl, _solve_rule, _triangular_solve_vjp)


def _solve_args(matrix, rhs, op):
    a = convert_to_tensor(matrix)
    b = convert_to_tensor(rhs)
    if a.dtype is not b.dtype:
        M.dtype_mismatch(op, a, b)
    A.check_rule(_solve_rule, op, a, b)
    return a, b


def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (adjoint: matrix^T @ X = rhs)."""
    a, b = _solve_args(matrix, rhs, "solve")
    return bind(MATRIX_SOLVE, (a, b), {"adjoint": bool(adjoint)})


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with tri(matrix) @ X = rhs, reading only the lower (or upper) triangle."""
    a, b = _solve_args(matrix, rhs, "triangular_solve")
    return bind(TRIANGULAR_SOLVE, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)})


def cholesky_solve(chol, rhs, name=None):
    """X with (L L^T) X = rhs, given the Cholesky factor L."""
    y = triangular_solve(chol, rhs, lower=True)
    return triangular_solve(chol, y, lower=True, adjoint=True)


# --- Cholesky ------------------------------------------------------------------------------
def _cholesky_vjp(g, out, a):
    # Murray's rule, as TensorFlow writes it (only the lower triangle of g is used).
    eye = MX.diag(A.ones_like(MX.diag_part(out)))  # works for unknown dims too
    l_inv = triangular_solve(out, eye, lower=True)
    middle = L.matmul(out, g, transpose_a=True)
    middle = MX.set_diag(middle, MX.diag_part(middle) * 0.5)
    middle = MX.band_part(middle, -1, 0)
    ga = L.matmul(L.matmul(l_inv, middle, transpose_a=True), l_inv)
    return (ga + _t(ga)) * 0.5


CHOLESKY = defprim("cholesky", lambda xp, a: _lapack(xp.linalg.cholesky, a), _square_rule, _cholesky_vjp)


def cholesky(input, name=None):  # noqa: A002
    """The lower-triangular L with L @ L^T = input (input Hermitian positive-definite)."""
    return bind(CHOLESKY, (_square(input, "cholesky"),), _NO_ATTRS)


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """triangular_solve with the matrix given by its K+1 bands [..., K+1, M] (TF's layout):
    lower, A[i, i-k] = bands[k, i] (k = 0 the diagonal); upper, A[i, i+K-r] = bands[r, i]
    (r = K the diagonal).  Entries that fall outside the matrix are ignored."""
    b = convert_to_tensor(bands)
    if b.shape.rank is None or b.shape.rank < 2 or b.shape[-2] is None:
        raise ValueError(with_location(f"banded_triangular_solve: bands must be [..., K+1, M] with K known, "
                                       f"got {b.shape}"))
    count, dense = b.shape[-2], None
    for r in range(count):
        d = MX.diag(b[..., r, :])  # band r on the diagonal, then its columns shifted into place
        shift = r if lower else count - 1 - r
        if shift:
            pad = A.zeros_like(d[..., :, :shift])
            d = J.concat([d[..., :, shift:], pad] if lower else [pad, d[..., :, :-shift]], -1)
        dense = d if dense is None else dense + d
    return triangular_solve(dense, rhs, lower=lower, adjoint=adjoint)

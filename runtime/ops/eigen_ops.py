"""Orthogonal decompositions and what is built on them: qr, eigh (self-adjoint eigen-
decomposition), eigvalsh, pinv, matrix_rank, normalize; batched over leading axes.

Gradients, written in tapeflow ops (tapeable and traceable):
  qr (m >= n, reduced):  M = R gR^T - gQ^T Q,  gA = (gQ + Q copyltu(M)) R^-T
                         (copyltu: M's lower triangle mirrored onto the upper one)
  eigh:                  gA = V (diag(ge) + F o (V^T gV)) V^T,  F_ij = 1 / (e_j - e_i) (0 on
                         ties), then folded onto the lower triangle, which is all eigh reads
                         (TensorFlow's rule: an input change above the diagonal does nothing).
  pinv:                  the Golub-Pereyra derivative of A^+ at constant rank.
Eigenvectors and Q's columns are unique only up to sign; LAPACK's signs may differ from
TensorFlow's Eigen kernels, so compare Q R, V diag(e) V^T or |V|, not V itself.
"""
import numpy as np

from .. import dtypes
from ..custom_gradient import custom_gradient
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import decomp_ops as D
from . import linalg_ops as L
from . import math_ops as M
from . import matrix_ops as MX
from . import reduce_ops as RD
from . import svd_ops


def _float_matrices(a, op):
    if not a.dtype.is_floating:
        raise TypeError(f"{op} expects floating-point matrices, got {a.dtype.name}")
    if len(a.shape) < 2:
        raise ValueError(f"{op} needs a tensor of rank >= 2, got shape {list(a.shape)}")
    return a.shape


# --- qr ----------------------------------------------------------------------------------
def _qr_impl(xp, a, full_matrices):
    q, r = xp.linalg.qr(a, mode="complete" if full_matrices else "reduced")
    return q.astype(a.dtype), r.astype(a.dtype)


def _qr_rule(a, full_matrices):
    *batch, m, n = _float_matrices(a, "qr")
    k = None if m is None or n is None else min(m, n)
    kq = m if full_matrices else k
    return Aval(tuple(batch) + (m, kq), a.dtype), Aval(tuple(batch) + (kq, n), a.dtype)


def _copyltu(x):
    low = MX.band_part(x, -1, 0)
    return low + L.matrix_transpose(MX.band_part(x, -1, 0) - MX.band_part(x, 0, 0))


def _qr_vjp(g, out, a, full_matrices):
    g_q, g_r = g
    q, r = out
    m, n = a.shape[-2:]
    if full_matrices and m != n or m < n:
        raise NotImplementedError(with_location(
            f"qr: the gradient is implemented for full_matrices=False and rows >= columns "
            f"(TensorFlow's condition), got shape {list(a.shape)}"))
    g_q = A.zeros_like(q) if g_q is None else g_q
    g_r = A.zeros_like(r) if g_r is None else g_r
    mm = L.matmul(r, g_r, transpose_b=True) - L.matmul(g_q, q, transpose_a=True)
    rhs = g_q + L.matmul(q, _copyltu(mm))
    # rhs R^-T = (R^-1 rhs^T)^T
    return (L.matrix_transpose(D.triangular_solve(r, L.matrix_transpose(rhs), lower=False)),)


QR = defprim("qr", _qr_impl, _qr_rule, _qr_vjp, multiple_results=True)


def qr(input, full_matrices=False, name=None):  # noqa: A002
    """(q, r) with input = q r, q orthonormal columns, r upper triangular."""
    return bind(QR, (convert_to_tensor(input),), {"full_matrices": bool(full_matrices)})


# --- eigh --------------------------------------------------------------------------------
def _eigh_impl(xp, a):
    e, v = xp.linalg.eigh(a)  # reads the lower triangle, as TensorFlow does
    return e.astype(a.dtype), v.astype(a.dtype)


def _eigh_rule(a):
    *batch, m, n = _float_matrices(a, "eigh")
    if m is not None and n is not None and m != n:
        raise ValueError(f"eigh needs square matrices, got shape {list(a.shape)}")
    return Aval(tuple(batch) + (m,), a.dtype), Aval(a.shape, a.dtype)


def _eigh_vjp(g, out, a):
    g_e, g_v = g
    e, v = out
    inner = A.zeros_like(v)
    if g_v is not None:
        gap = A.expand_dims(e, -2) - A.expand_dims(e, -1)  # gap[i, j] = e_j - e_i
        inner = M.div_no_nan(L.matmul(v, g_v, transpose_a=True), gap)
    if g_e is not None:
        inner = MX.set_diag(inner, g_e)
    grad = L.matmul(v, L.matmul(inner, v, transpose_b=True))
    grad = MX.band_part(grad + L.matrix_transpose(grad), -1, 0)
    return (MX.set_diag(grad, MX.diag_part(grad) * 0.5),)


EIGH = defprim("eigh", _eigh_impl, _eigh_rule, _eigh_vjp, multiple_results=True)


def eigh(tensor, name=None):
    """(e, v): ascending eigenvalues and eigenvectors (columns) of self-adjoint matrices."""
    return bind(EIGH, (convert_to_tensor(tensor),), {})


def eigvalsh(tensor, name=None):
    return eigh(tensor)[0]


# --- built on svd ------------------------------------------------------------------------
def _default_rcond(a):
    m, n = a.shape[-2:]
    if m is None or n is None:
        raise ValueError(with_location("pinv / matrix_rank: the matrix dimensions must be static"))
    return 10.0 * max(m, n) * float(np.finfo(a.dtype.np).eps)


def _pinv_value(a, rcond):
    s, u, v = svd_ops.svd(a)
    cutoff = rcond * RD.reduce_max(s, -1, keepdims=True)
    s_inv = A.where(M.greater(s, cutoff), M.reciprocal(A.where(M.greater(s, cutoff), s, A.ones_like(s))),
                    A.zeros_like(s))
    return L.matmul(v * A.expand_dims(s_inv, -2), u, transpose_b=True)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse (singular values <= rcond * max(s) count as 0)."""
    a = convert_to_tensor(a)
    _float_matrices(a, "pinv")
    rcond = _default_rcond(a) if rcond is None else float(rcond)

    @custom_gradient
    def _pinv(x):
        p = _pinv_value(x, rcond)

        def grad(g):
            # gA = -P^T g P^T + (I - A P) g^T P P^T + P^T P g^T (I - P A)
            pt, gt = L.matrix_transpose(p), L.matrix_transpose(g)
            eye_m = A.eye(x.shape[-2], dtype=x.dtype)
            eye_n = A.eye(x.shape[-1], dtype=x.dtype)
            left = L.matmul(eye_m - L.matmul(x, p), L.matmul(gt, L.matmul(p, pt)))
            right = L.matmul(L.matmul(pt, p), L.matmul(gt, eye_n - L.matmul(p, x)))
            return -L.matmul(pt, L.matmul(g, pt)) + left + right
        return p, grad

    return _pinv(a)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above tol (default: 10 max(m, n) eps max(s)), int32."""
    a = convert_to_tensor(a)
    _float_matrices(a, "matrix_rank")
    s = svd_ops.svd(a, compute_uv=False)
    cutoff = (_default_rcond(a) * RD.reduce_max(s, -1, keepdims=True)) if tol is None else tol
    return RD.count_nonzero(M.greater(s, cutoff), -1, dtype=dtypes.int32)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """(tensor / norm(tensor), norm(tensor)) with the norm's axes kept."""
    x = convert_to_tensor(tensor)
    norm = MX.norm(x, ord=ord, axis=axis, keepdims=True)
    return x / norm, norm

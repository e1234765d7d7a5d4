"""Orthogonal decompositions: qr, eigh (self-adjoint eigendecomposition) and eigvalsh,
eig and eigvals (general matrices, complex results),
batched over leading axes (pinv, matrix_rank, normalize: tapeflow/linalg_svd.py).

Gradients, written in tapeflow ops (tapeable and traceable):
  qr (m >= n, reduced):  M = R gR^T - gQ^T Q,  gA = (gQ + Q copyltu(M)) R^-T
                         (copyltu: M's lower triangle mirrored onto the upper one)
  eigh:                  gA = V (diag(ge) + F o (V^T gV)) V^T,  F_ij = 1 / (e_j - e_i) (0 on
                         ties), then folded onto the lower triangle, which is all eigh reads
                         (TensorFlow's rule: an input change above the diagonal does nothing).
Eigenvectors and Q's columns are unique only up to sign; LAPACK's signs may differ from
TensorFlow's Eigen kernels, so compare Q R, V diag(e) V^T or |V|, not V itself.
"""
from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import complex_ops as C
from . import decomp_ops as D
from . import gather_ops as G
from . import join_ops as J
from . import linalg_ops as L
from . import math_ops as M
from . import matrix_ops as MX
from . import reduce_ops as RD


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


# --- eig (general matrices: complex eigenvalues and unit-norm eigenvectors) ----------------
_EIG_OUT = {"float32": "complex64", "complex64": "complex64", "float64": "complex128",
            "complex128": "complex128"}


def _eig_impl(xp, a):
    out = _EIG_OUT[a.dtype.name]
    e, v = xp.linalg.eig(a)  # LAPACK geev; TF's order agrees on most matrices, not all
    return e.astype(out), v.astype(out)


def _eig_rule(a):
    if a.dtype.name not in _EIG_OUT:
        raise TypeError(f"eig expects float32, float64, complex64 or complex128 matrices, got {a.dtype.name}")
    if len(a.shape) < 2:
        raise R.ShapeError(f"Input tensor 0 must have rank >= 2, got {len(a.shape)}")
    *batch, m, n = a.shape
    if m is not None and n is not None and m != n:
        raise R.ShapeError("Input matrix must be square.")
    out = dtypes.as_dtype(_EIG_OUT[a.dtype.name])
    return Aval(tuple(batch) + (m,), out), Aval(a.shape, out)


def _complex_solve(m, b):
    """m^-1 b for complex m: the real system [[Re m, -Im m], [Im m, Re m]] [x_re; x_im] = [b_re; b_im]."""
    mr, mi, br, bi = C.real(m), C.imag(m), C.real(b), C.imag(b)
    big = J.concat([J.concat([mr, -mi], -1), J.concat([mi, mr], -1)], -2)
    x = D.solve(big, J.concat([br, bi], -2))
    n = m.shape[-1]
    return C.complex(x[..., :n, :], x[..., n:, :])


def _eig_vjp(g, out, a):
    """TensorFlow's rule (distinct eigenvalues): gA = V^-H (diag(ge) + conj(F) o (V^H gV -
    V^H V diag(Re diag(V^H gV)))) V^H, F_ij = 1 / (e_j - e_i) (0 on the diagonal)."""
    g_e, g_v = g
    e, v = out
    vt = L.adjoint(v)
    mid = MX.diag(g_e) if g_e is not None else A.zeros_like(v)
    if g_v is not None:
        gap = A.expand_dims(e, -2) - A.expand_dims(e, -1)
        f = C.conj(MX.set_diag(gap * M.reciprocal(gap * gap + 1e-20), A.zeros_like(e)))
        vgv = L.matmul(vt, g_v)
        diag_part = MX.diag(M.cast(C.real(MX.diag_part(vgv)), vgv.dtype))
        mid = mid + f * (vgv - L.matmul(L.matmul(vt, v), diag_part))
    grad = _complex_solve(vt, L.matmul(mid, vt))
    return (grad if a.dtype.is_complex else C.real(grad),)


EIG = defprim("eig", _eig_impl, _eig_rule, _eig_vjp, multiple_results=True)


def eig(tensor, name=None):
    """(e, v): the eigenvalues and unit-norm eigenvectors (columns) of general square
    matrices, complex (complex64 for float32 input).  Eigenvectors are unique up to a
    complex phase and the eigenvalues' order is LAPACK's (TF's on most, not all,
    matrices), so compare A v = v diag(e) and sorted eigenvalues."""
    a = convert_to_tensor(tensor)
    A.check_rule(_eig_rule, "eig", a)
    return bind(EIG, (a,), {})


def eigvals(tensor, name=None):
    """The eigenvalues of general square matrices (see eig)."""
    return eig(tensor)[0]


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """Eigenvalues (ascending; with eigvals_only=False also the eigenvectors, columns) of the
    real symmetric tridiagonal matrix of diagonal alpha [n] and off-diagonal beta [n-1], by
    eigh of the dense matrix.  select "a": all, "i": indices select_range[0]..[1] inclusive,
    "v": eigenvalues in (select_range[0], select_range[1]].  The gradient is eigh's (TF's
    bisection kernel gives another)."""
    if select not in ("a", "i", "v"):
        raise ValueError(with_location("'select must have a value in {'a', 'i', 'v'}."))
    a, b = convert_to_tensor(alpha), convert_to_tensor(beta)
    if a.dtype.is_complex or b.dtype.is_complex:
        raise NotImplementedError(with_location("eigh_tridiagonal: tapeflow takes real alpha and beta only"))
    if a.shape.rank != 1 or b.shape.rank != 1:
        raise ValueError(with_location(f"eigh_tridiagonal: alpha and beta must be vectors, got shapes "
                                       f"{a.shape} and {b.shape}"))
    if a.shape[0] is not None and b.shape[0] is not None and b.shape[0] != a.shape[0] - 1:
        raise InvalidArgumentError(with_location(f"eigh_tridiagonal: beta must have length len(alpha) - 1, got "
                                       f"{b.shape[0]} and {a.shape[0]}"))
    upper = J.pad(MX.diag(b), [[0, 1], [1, 0]])
    e, v = eigh(MX.diag(a) + upper + L.matrix_transpose(upper))
    if select == "i":
        lo, hi = int(select_range[0]), int(select_range[1])
        e, v = e[lo:hi + 1], v[:, lo:hi + 1]
    elif select == "v":
        keep = M.logical_and(M.greater(e, M.cast(select_range[0], e.dtype)),
                             M.less_equal(e, M.cast(select_range[1], e.dtype)))
        e, v = G.boolean_mask(e, keep), G.boolean_mask(v, keep, axis=1)
    return e if eigvals_only else (e, v)

"""Singular value decomposition (tf.linalg.svd), batched over leading axes.

TensorFlow's result order and layout: s (descending), u, v with a = u diag(s) v^T
(v, not v^T).  Singular vectors are unique only up to sign (and rotation within
repeated singular values); LAPACK's choice here may differ from TensorFlow's
Eigen kernel, so compare u diag(s) v^T or |u|, not u itself.

Gradient: through s, u and v (TensorFlow's rule, below; of s only it is
dA = u diag(g_s) v^T).  Only functions of u, v invariant under the sign flips have a
well-defined gradient; repeated singular values give none (their terms are dropped,
as TensorFlow drops them).  compute_uv=False is its own primitive.
"""
import numpy as np

from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import SymbolicTensor, Tensor, convert_to_tensor
from . import array_ops as A
from . import linalg_ops as L
from . import matrix_ops as MX


def _svd_impl(xp, a, full_matrices):
    u, s, vh = xp.linalg.svd(a, full_matrices=full_matrices)
    return s.astype(a.dtype), u.astype(a.dtype), xp.swapaxes(vh, -1, -2).astype(a.dtype)


def _svd_rule(a, full_matrices):
    if not a.dtype.is_floating:
        raise TypeError(f"svd expects floating-point matrices, got {a.dtype.name}")
    if len(a.shape) < 2:
        raise ValueError(f"svd needs a tensor of rank >= 2, got shape {list(a.shape)}")
    *batch, m, n = a.shape
    k = None if m is None or n is None else min(m, n)
    ku, kv = (m, n) if full_matrices else (k, k)
    return (Aval(tuple(batch) + (k,), a.dtype), Aval(tuple(batch) + (m, ku), a.dtype),
            Aval(tuple(batch) + (n, kv), a.dtype))


def _is_zero(g):
    """The tape hands zeros for outputs no gradient reached; an eager all-zero gradient
    contributes nothing, so it is exact to skip.  A traced one cannot be inspected."""
    return g is None or (isinstance(g, Tensor) and not isinstance(g, SymbolicTensor)
                         and not np.any(np.asarray(g.numpy())))


def _safe_reciprocal(x):
    """1/x, and 0 where x is 0 (repeated or zero singular values), as TensorFlow's."""
    return x / (x * x + 1e-20)


def _svd_vjp(g, out, a, full_matrices):
    """TensorFlow's rule (the reduced-SVD adjoint of Townsend's notes), in its layout: a
    tall matrix is differentiated as its transpose, so m <= n below and u is square."""
    g_s, g_u, g_v = g
    s, u, v = out
    k = s.shape[-1]
    if _is_zero(g_u) and _is_zero(g_v):  # the common case: only s is used
        return (L.matmul(u[..., :k] * A.expand_dims(g_s, -2), v[..., :k], transpose_b=True),)
    m, n = a.shape[-2:]
    if m is None or n is None:
        raise NotImplementedError(with_location(
            "svd: the gradient through u, v needs the matrix dimensions to be known statically"))
    tall, t, s2 = m > n, L.matrix_transpose, s * s
    if tall:
        u, v, g_u, g_v, m, n = v, u, g_v, g_u, n, m
    f = MX.set_diag(_safe_reciprocal(A.expand_dims(s2, -2) - A.expand_dims(s2, -1)), A.zeros_like(s))
    s_mat = MX.diag(s)
    v1, g_v1 = v[..., :, :m], g_v[..., :, :m]
    f_u = f * L.matmul(u, g_u, transpose_a=True)
    f_v = f * L.matmul(v1, g_v1, transpose_a=True)
    inner = MX.diag(g_s) + L.matmul(f_u + t(f_u), s_mat) + L.matmul(s_mat, f_v + t(f_v))
    grad = L.matmul(u, L.matmul(inner, v1, transpose_b=True))
    if m != n:
        g_v1t = t(g_v1)
        rest = g_v1t - L.matmul(L.matmul(g_v1t, v1), v1, transpose_b=True)
        if full_matrices:
            v2, g_v2 = v[..., :, m:], g_v[..., :, m:]
            rest = rest - L.matmul(L.matmul(v1, g_v2, transpose_a=True), v2, transpose_b=True)
        grad = grad + L.matmul(u * A.expand_dims(_safe_reciprocal(s), -2), rest)
    return (t(grad) if tall else grad,)


SVD = defprim("svd", _svd_impl, _svd_rule, _svd_vjp, multiple_results=True)


def _singular_values_impl(xp, a):
    return xp.linalg.svd(a, compute_uv=False).astype(a.dtype)


def _singular_values_rule(a):
    return _svd_rule(a, False)[0]


def _singular_values_vjp(g, s, a):
    _, u, v = svd(a)
    return L.matmul(u * A.expand_dims(g, -2), v, transpose_b=True)


SINGULAR_VALUES = defprim("singular_values", _singular_values_impl, _singular_values_rule, _singular_values_vjp)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """(s, u, v) with tensor = u diag(s) v^T; only s when compute_uv=False."""
    a = convert_to_tensor(tensor)
    if not compute_uv:
        return bind(SINGULAR_VALUES, (a,), {})
    return bind(SVD, (a,), {"full_matrices": bool(full_matrices)})

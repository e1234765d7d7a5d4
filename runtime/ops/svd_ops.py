"""Singular value decomposition (tf.linalg.svd), batched over leading axes.

TensorFlow's result order and layout: s (descending), u, v with a = u diag(s) v^T
(v, not v^T).  Singular vectors are unique only up to sign (and rotation within
repeated singular values); LAPACK's choice here may differ from TensorFlow's
Eigen kernel, so compare u diag(s) v^T or |u|, not u itself.

Gradient: of s only, dA = u diag(g_s) v^T (reduced form); compute_uv=False is its
own primitive, differentiable in graphs too.  A gradient that flows through u or v is
not implemented and says so, rather than being dropped.
"""
import numpy as np

from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import SymbolicTensor, Tensor, convert_to_tensor
from . import array_ops as A
from . import linalg_ops as L


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


def _svd_vjp(g, out, a, full_matrices):
    g_s, g_u, g_v = g
    if not (_is_zero(g_u) and _is_zero(g_v)):
        raise NotImplementedError(with_location(
            "svd: the gradient through the singular vectors u, v is not implemented; "
            "only the singular values s have a gradient (eagerly; inside tf.function use "
            "compute_uv=False)"))
    if g_s is None:
        return (None,)
    s, u, v = out
    k = s.shape[-1]
    u_k, v_k = u[..., :k], v[..., :k]
    return (L.matmul(u_k * A.expand_dims(g_s, -2), v_k, transpose_b=True),)


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

"""tf.linalg functions built on the SVD: pinv (with the Golub-Pereyra gradient of A^+ at
constant rank, as the SVD's own gradient covers the singular values only), matrix_rank,
and normalize."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.custom_gradient import custom_gradient
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import matrix_ops as MX
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops import svd_ops


def _float_matrices(a, op):
    if not a.dtype.is_floating:
        raise TypeError(f"{op} expects floating-point matrices, got {a.dtype.name}")
    if len(a.shape) < 2:
        raise ValueError(f"{op} needs a tensor of rank >= 2, got shape {list(a.shape)}")


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

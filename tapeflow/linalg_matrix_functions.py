"""tf.linalg.sqrtm (tf.matrix_square_root) and tf.linalg.logm, composed of tapeflow ops (so
they trace and take gradients from the tape; TF itself has no gradient for logm).

sqrtm: the principal square root by the coupled Denman-Beavers iteration
    Y <- (Y + Z^-1) / 2,  Z <- (Z + Y^-1) / 2   (Y -> A^1/2, Z -> A^-1/2)
on A scaled to unit Frobenius norm.  A matrix with no principal root (an eigenvalue on the
closed negative real axis) gives NaN, as TF's real Schur kernel does; a singular one
raises InvalidArgumentError at the inverse (TF returns NaN / inf there).
logm (complex input, as TF): inverse scaling and squaring, log A = 2^s log A^(1/2^s), the
last log by the series 2 atanh(Z) = 2 sum Z^(2j+1) / (2j+1), Z = (X - I)(X + I)^-1.
Complex inverses go through the real 2n x 2n form [[Re, -Im], [Im, Re]], as the decomposition
primitives are real."""
import numpy as np

from tapeflow.runtime.errors import arg_error, with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import decomp_ops as D
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD

_FIRST_ROOT_STEPS = 24   # from unit norm: eigenvalues down to ~1e-12 converge within this many
_LATER_ROOT_STEPS = 10   # roots of matrices already near the identity
_LOG_ROOTS = 6           # log A = 64 log A^(1/64)
_LOG_TERMS = 12          # atanh series terms: |Z| < 0.15 gives double precision


def _inverse(x):
    if not x.dtype.is_complex:
        return D.inv(x)
    re, im = C.real(x), C.imag(x)
    n = x.shape[-1]
    big = J.concat([J.concat([re, -im], -1), J.concat([im, re], -1)], -2)
    inv = D.inv(big)
    return C.complex(inv[..., :n, :n], inv[..., n:, :n])


def _eye_like(x):
    return A.eye(x.shape[-1], dtype=x.dtype)  # broadcasts against x's batch


def _frobenius(x):
    squares = C.real(x * C.conj(x)) if x.dtype.is_complex else x * x
    return M.sqrt(RD.reduce_sum(squares, axis=[-2, -1], keepdims=True))


def _denman_beavers(a, steps):
    y, z = a, _eye_like(a)
    for _ in range(steps):
        y, z = 0.5 * (y + _inverse(z)), 0.5 * (z + _inverse(y))
    return y


def _checked(x, op, allowed):
    x = convert_to_tensor(x)
    if x.dtype.name not in allowed:
        raise arg_error(TypeError, with_location(
            f"{op}: Value for attr 'T' of {x.dtype.name} is not in the list of allowed values: {', '.join(allowed)}"))
    if x.shape.rank is None or x.shape.rank < 2 or x.shape[-1] != x.shape[-2]:
        raise arg_error(ValueError, with_location(f"{op}: Input matrix must be square, got shape {list(x.shape)}"))
    return x


def _scale(norm, dtype):
    return M.cast(norm, dtype) if dtype.is_complex else norm


def sqrtm(input, name=None):  # noqa: A002 - TensorFlow's name
    """The principal square root of each (batch) square matrix."""
    a = _checked(input, "MatrixSquareRoot", ("float64", "float32", "float16", "complex64", "complex128"))
    if a.shape[-1] == 0 or 0 in a.shape.as_list():
        return A.identity(a)
    norm = M.maximum(_frobenius(a), M.cast(np.finfo(a.dtype.real_dtype.np).tiny, a.dtype.real_dtype))
    root = _denman_beavers(a / _scale(norm, a.dtype), _FIRST_ROOT_STEPS) * _scale(M.sqrt(norm), a.dtype)
    # no principal root (a non-converged iteration): NaN, as TF
    residual = _frobenius(L.matmul(root, root) - a) / norm
    ok = M.less(residual, M.cast(1e3 * np.finfo(a.dtype.real_dtype.np).eps ** 0.5, residual.dtype))
    return A.where(ok, root, M.cast(np.nan, a.dtype) * A.ones_like(root))


def logm(input, name=None):  # noqa: A002
    """The principal logarithm of each (batch) square complex matrix."""
    a = _checked(input, "MatrixLogarithm", ("complex64", "complex128"))
    if 0 in a.shape.as_list():
        return A.identity(a)
    norm = M.maximum(_frobenius(a), M.cast(np.finfo(a.dtype.real_dtype.np).tiny, a.dtype.real_dtype))
    x = a / _scale(norm, a.dtype)
    for k in range(_LOG_ROOTS):
        x = _denman_beavers(x, _FIRST_ROOT_STEPS if k == 0 else _LATER_ROOT_STEPS)
    eye = _eye_like(a)
    z = L.matmul(x - eye, _inverse(x + eye))
    z2, term = L.matmul(z, z), z
    series = z
    for j in range(1, _LOG_TERMS):
        term = L.matmul(term, z2)
        series = series + term / M.cast(2 * j + 1, a.dtype)
    return (2.0 ** (_LOG_ROOTS + 1)) * series + eye * _scale(M.log(norm), a.dtype)


matrix_square_root = sqrtm

"""Dense solves and determinants of complex matrices for the operators' defaults: the
decomposition primitives are real, so a solve goes through the real 2n x 2n form
[[Re, -Im], [Im, Re]] (whose determinant is |det|^2), and the determinant itself is the
product of the eigenvalues (tf.linalg.eigvals takes complex input)."""
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import decomp_ops as D
from tapeflow.runtime.ops import eigen_ops as E
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD


def _real_form(m):
    re, im = C.real(m), C.imag(m)
    return J.concat([J.concat([re, -im], -1), J.concat([im, re], -1)], -2)


def solve(matrix, rhs, adjoint=False):
    """X with matrix @ X = rhs (matrix^H @ X with adjoint), both complex, same batch shape."""
    if adjoint:
        matrix = L.adjoint(matrix)
    n = matrix.shape[-1]
    stacked = J.concat([C.real(rhs), C.imag(rhs)], -2)
    x = D.solve(_real_form(matrix), stacked)
    return C.complex(x[..., :n, :], x[..., n:, :])


def log_abs_determinant(matrix):
    """log |det|, as the operator's dtype (TF casts it to complex)."""
    half = 0.5 * D.slogdet(_real_form(matrix))[1]
    return M.cast(half, matrix.dtype)


def determinant(matrix):
    return RD.reduce_prod(E.eigvals(matrix), axis=-1)

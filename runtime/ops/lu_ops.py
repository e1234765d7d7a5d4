"""LU with partial pivoting (tf.linalg.lu) and what stands on it: lu_solve,
lu_reconstruct, lu_matrix_inverse; and two solvers written as composites: expm
(scaling and squaring of a Pade approximant) and tridiagonal_solve.

`lu(a)` gives (lu, p) with L (unit lower, strictly below the diagonal of lu) and U
(upper triangle of lu) such that L @ U = a[p] (rows of a in the order p), as TF.
TensorFlow has no gradient for lu itself (a LookupError); the composites take their
ops' gradients.
"""
import numpy as np

from .. import dtypes
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import Tensor, convert_to_tensor
from . import array_ops as A
from . import decomp_ops as D
from . import gather_ops as G
from . import linalg_ops as L
from . import math_ops as M
from . import matrix_ops as MX
from . import reduce_ops as RD
from . import sort_ops as SO


def _lu_impl(xp, a, index_dtype):
    n = a.shape[-1]
    batch = a.shape[:-2]
    lu = a.reshape((-1, n, n)).copy()
    perm = xp.tile(xp.arange(n), (lu.shape[0], 1))
    rows = xp.arange(lu.shape[0])
    for k in range(n):
        piv = k + xp.argmax(xp.abs(lu[:, k:, k]), axis=1)  # the first largest, as LAPACK
        top, other = lu[rows, k].copy(), lu[rows, piv].copy()
        lu[rows, k], lu[rows, piv] = other, top
        pk, pp = perm[rows, k].copy(), perm[rows, piv].copy()
        perm[rows, k], perm[rows, piv] = pp, pk
        pivot = lu[:, k, k]
        safe = xp.where(pivot == 0, 1, pivot)  # a zero column: nothing to eliminate
        lu[:, k + 1:, k] = xp.where((pivot == 0)[:, None], lu[:, k + 1:, k], lu[:, k + 1:, k] / safe[:, None])
        lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k:k + 1] * lu[:, k:k + 1, k + 1:]
    return lu.reshape(a.shape), perm.reshape(batch + (n,)).astype(index_dtype.np)


def _lu_rule(a, index_dtype):
    D._square_rule(a)
    return Aval(a.shape, a.dtype), Aval(a.shape[:-1], index_dtype)


def _factors(lu):
    lower = MX.set_diag(MX.band_part(lu, -1, 0), A.ones_like(MX.diag_part(lu)))
    return lower, MX.band_part(lu, 0, -1)


def _lu_vjp(gs, outs, a, index_dtype):
    # TensorFlow registers no gradient for Lu: differentiating through it is its LookupError.
    raise LookupError("gradient registry has no entry for: Lu")


LU = defprim("lu", _lu_impl, _lu_rule, _lu_vjp, multiple_results=True)


def _inverse(perm):
    return SO.argsort(perm, axis=-1)


def _rows(x, index):
    """The rows of each matrix of x in the order `index`, as a product with the permutation
    matrix (exact; a gather's gradient would be IndexedSlices, TF's is dense)."""
    n = x.shape.dims[-2] if x.shape.dims[-2] is not None else A.shape(x)[-2]
    return L.matmul(G.one_hot(index, n, dtype=x.dtype), x)


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002
    """(lu, p): L (unit lower) and U packed in lu, with L @ U = input[p]."""
    a = convert_to_tensor(input)
    index_dtype = dtypes.as_dtype(output_idx_type)
    if index_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(with_location(f"lu: output_idx_type must be int32 or int64, got {index_dtype.name}"))
    A.check_rule(_lu_rule, "lu", a, index_dtype=index_dtype)
    return tuple(bind(LU, (a,), {"index_dtype": index_dtype}))


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with input @ X = rhs, from lu(input)."""
    lower, upper = _factors(convert_to_tensor(lower_upper))
    y = D.triangular_solve(lower, _rows(convert_to_tensor(rhs), convert_to_tensor(perm)), lower=True)
    return D.triangular_solve(upper, y, lower=False)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The input of lu: (L @ U) with its rows put back in their original order."""
    lower, upper = _factors(convert_to_tensor(lower_upper))
    return _rows(L.matmul(lower, upper), _inverse(convert_to_tensor(perm)))


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    lu_t = convert_to_tensor(lower_upper)
    eye = MX.diag(A.ones_like(MX.diag_part(lu_t)))
    return lu_solve(lu_t, perm, eye)


# --- expm -----------------------------------------------------------------------------------
# TensorFlow's algorithm (so float32 results round as TF's): the [m/m] Pade approximant of
# exp for the smallest order m whose 1-norm bound holds, else order 13 (float32: 7) on the
# matrix scaled by 2^-s, s = floor(log2(norm / bound)), then squared s times.
_ORDERS = {"float64": ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1), (7, 9.504178996162932e-1),
                       (9, 2.097847961257068), (13, 5.371920351148152)),
           "float32": ((3, 4.258730016922831e-1), (5, 1.880152677804762), (7, 3.925724783138660))}


def _pade_coefficients(m):
    """b_j of the [m/m] Pade approximant of exp (b_m = 1): (2m - j)! m! / ((2m)! j! (m - j)!), scaled."""
    from math import factorial
    c = [factorial(2 * m - j) * factorial(m) / (factorial(2 * m) * factorial(j) * factorial(m - j))
         for j in range(m + 1)]
    return [v / c[m] for v in c]


def _pade(x, eye, powers, m):
    """(U, V) of the order-m approximant: exp(x) ~ (V - U)^-1 (V + U)."""
    b = _pade_coefficients(m)
    if m == 13:  # Higham's evaluation with x^2, x^4, x^6 only
        x2, x4, x6 = powers[2], powers[4], powers[6]
        inner_u = L.matmul(x6, b[13] * x6 + b[11] * x4 + b[9] * x2)
        u = L.matmul(x, inner_u + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * eye)
        v = L.matmul(x6, b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * eye
        return u, v
    u = b[1] * eye
    v = b[0] * eye
    for j in range(2, m + 1, 2):
        u = u + b[j + 1] * powers[j]
        v = v + b[j] * powers[j]
    return L.matmul(x, u), v


def _powers(x, top):
    x2 = L.matmul(x, x)
    out = {2: x2}
    for j in range(4, top + 1, 2):
        out[j] = L.matmul(out[j - 2], x2)
    return out


def expm(input, name=None):  # noqa: A002
    """The matrix exponential of each square matrix of input."""
    a = convert_to_tensor(input)
    A.check_rule(D._square_rule, "expm", a)
    orders = _ORDERS["float64" if a.dtype is dtypes.float64 else "float32"]
    norm = RD.reduce_max(RD.reduce_sum(M.abs(a), axis=-2), axis=-1)  # the 1-norm of each matrix
    top, bound = orders[-1]
    tiny = float(np.finfo(a.dtype.np).tiny)  # a zero matrix: no log(0) warning, s = 0
    s = M.maximum(M.floor(M.log(M.maximum(norm, tiny) / bound) / np.log(2.0)), 0.0)
    s = A.where(M.is_finite(s), s, A.zeros_like(s))
    eye = MX.diag(A.ones_like(MX.diag_part(a)))
    scaled = a / A.expand_dims(A.expand_dims(M.pow(convert_to_tensor(2.0, a.dtype), s), -1), -1)
    u, v = _pade(scaled, eye, _powers(scaled, 6 if top == 13 else top - 1), top)
    if len(orders) > 1:
        powers = _powers(a, orders[-2][0] - 1)
        for m, limit in reversed(orders[:-1]):  # the smallest order whose bound holds wins
            um, vm = _pade(a, eye, powers, m)
            small = A.expand_dims(A.expand_dims(M.less(norm, limit), -1), -1)
            u, v = A.where(small, um, u), A.where(small, vm, v)
    out = D.solve(v - u, v + u)
    rounds = int(np.max(s.numpy(), initial=0)) if isinstance(s, Tensor) else _MAX_SQUARINGS
    for k in range(rounds):
        more = A.expand_dims(A.expand_dims(M.less(float(k), s), -1), -1)
        out = A.where(more, L.matmul(out, out), out)
    if not isinstance(s, Tensor):  # a norm beyond 2^64 * bound while tracing: NaN, never a wrong value
        beyond = A.expand_dims(A.expand_dims(M.greater(s, float(_MAX_SQUARINGS)), -1), -1)
        out = A.where(beyond, A.zeros_like(out) + float("nan"), out)
    return out


_MAX_SQUARINGS = 64  # while tracing the norm is unknown: each squaring is selected per matrix


def _tridiagonal(sup, main, sub):
    """[..., M, M] with row i holding sub[i], main[i], sup[i] at columns i - 1, i, i + 1."""
    n = A.shape(main)[-1]
    index = A.range_(0, n)
    rows, cols = A.expand_dims(index, -1), A.expand_dims(index, 0)
    zeros = A.zeros_like(A.expand_dims(main, -1))

    def band(offset, values):
        return A.where(M.equal(cols, rows + offset), A.expand_dims(values, -1), zeros)
    return band(0, main) + band(1, sup) + band(-1, sub)


# --- tridiagonal_solve ----------------------------------------------------------------------
def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True, perturb_singular=False):
    """X with T @ X = rhs for tridiagonal T given as [..., 3, M] (superdiagonal, diagonal,
    subdiagonal: the last superdiagonal and first subdiagonal entries are ignored), a
    sequence of the three, or the matrix; solved as the dense system (pivoting)."""
    rhs = convert_to_tensor(rhs)
    if conjugate_rhs and rhs.dtype.is_complex:
        rhs = M.conj(rhs)
    if diagonals_format == "matrix":
        matrix = convert_to_tensor(diagonals)
    elif diagonals_format in ("compact", "sequence"):
        if diagonals_format == "compact":
            d = convert_to_tensor(diagonals)
            if d.shape.rank is None or d.shape.rank < 2 or d.shape.dims[-2] != 3:
                raise ValueError(with_location(
                    f"tridiagonal_solve: compact diagonals must have shape [..., 3, M], got {list(d.shape)}"))
            sup, main, sub = d[..., 0, :], d[..., 1, :], d[..., 2, :]
        else:
            sup, main, sub = (convert_to_tensor(x) for x in diagonals)
        matrix = _tridiagonal(sup, main, sub)
    else:
        raise ValueError(with_location(f"tridiagonal_solve: unrecognized diagonals_format {diagonals_format!r}"))
    vector = rhs.shape.rank == matrix.shape.rank - 1
    if transpose_rhs and not vector:  # a vector right-hand side stays as it is
        rhs = L.matrix_transpose(rhs)
    rows, m = rhs.shape.dims[-1 if vector else -2], matrix.shape.dims[-1]
    if rows is not None and m is not None and rows != m:
        raise ValueError(with_location(
            f"tridiagonal_solve: the right-hand side has {rows} rows, the {m}x{m} system needs {m}"))
    singular = _zero_pivot(matrix) if partial_pivoting or matrix.shape.dims[-1] is None else _zero_thomas_pivot(matrix)
    out = _nan_where_singular(matrix, A.expand_dims(rhs, -1) if vector else rhs, singular)
    return out[..., 0] if vector else out  # (transpose_rhs: the solution of T X = rhs^T, not transposed back)


def _zero_pivot(matrix):
    """[..., 1, 1]: does pivoted elimination meet an exact zero pivot (the pivots of a dense
    LU are the tridiagonal kernel's: only the next row can be swapped in)?"""
    pivots = MX.diag_part(lu(A.stop_gradient(matrix))[0])
    return A.expand_dims(RD.reduce_any(M.equal(pivots, A.zeros_like(pivots)), axis=-1, keepdims=True), -1)


def _zero_thomas_pivot(matrix):
    """[..., 1, 1]: does the Thomas algorithm (no pivoting) meet an exact zero denominator?
    TF's kernel: u = sup[i-1] / denom[i-1]; denom[i] = main[i] - sub[i] * u (one Python step
    per row: the size is known)."""
    m = A.stop_gradient(matrix)
    denom = m[..., 0, 0]
    zero = A.zeros_like(denom)
    found = M.equal(denom, zero)
    for i in range(1, matrix.shape.dims[-1]):
        safe = A.where(found, A.ones_like(denom), denom)  # past a zero, the rest does not matter
        denom = m[..., i, i] - m[..., i, i - 1] * (m[..., i - 1, i] / safe)
        found = M.logical_or(found, M.equal(denom, zero))
    return A.expand_dims(A.expand_dims(found, -1), -1)


def _nan_where_singular(matrix, rhs, singular):
    """solve(matrix, rhs), all NaN for each system of the batch that is `singular` (TF's kernel
    fills that system's solution with NaN instead of raising).  The singular ones are solved as
    the identity so that the others keep their values and gradients."""
    eye = MX.diag(A.ones_like(MX.diag_part(matrix)))
    out = D.solve(A.where(singular, eye, matrix), rhs)
    return A.where(singular, A.fill(A.shape(out), convert_to_tensor(float("nan"), dtype=out.dtype)), out)

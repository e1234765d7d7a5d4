"""Matrix and norm composites: band_part, diag / diag_part / set_diag, trace,
matvec, tensor_diag, norm, global_norm and the norm clippers.

All are written over primitives (select, reductions, matmul), so gradients and
tracing come for free.  Masks over the last two axes are built from `range`
so that they also work while tracing with unknown dims.
"""
import math

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, with_location
from ..registry import state
from ..tensor import TensorBase, convert_to_tensor
from . import array_ops as A
from . import complex_ops as C
from . import indexing as I
from . import join_ops as J
from . import linalg_ops as L
from . import math_ops as M
from . import reduce_ops as RD


def _matrix(x, op, square=False):
    x = convert_to_tensor(x)
    if x.shape.rank < 2:
        raise ValueError(with_location(f"{op}: needs a tensor of rank >= 2, got shape {list(x.shape)}"))
    m, n = x.shape[-2], x.shape[-1]
    if square and m is not None and n is not None and m != n:
        raise ValueError(with_location(f"{op}: needs square matrices, got shape {list(x.shape)}"))
    return x


def _dim(x, axis):
    """Static size of one axis, or a scalar int32 tensor when unknown while tracing."""
    d = x.shape[axis]
    return d if d is not None else I.getitem(A.shape(x), axis)


def _row_col(m, n):
    """int32 row indices as (m, 1) and column indices as (1, n)."""
    rows = A.expand_dims(A.range_(m, dtype=dtypes.int32), -1)
    cols = A.expand_dims(A.range_(n, dtype=dtypes.int32), 0)
    return rows, cols


def _diag_mask(x):
    rows, cols = _row_col(_dim(x, -2), _dim(x, -1))
    return M.equal(rows, cols)


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """Keep entries with -num_lower <= col - row <= num_upper (a negative bound keeps that whole triangle)."""
    x = _matrix(input, "band_part")
    rows, cols = _row_col(_dim(x, -2), _dim(x, -1))
    keep = None
    if int(num_lower) >= 0:
        keep = M.less_equal(rows - cols, int(num_lower))
    if int(num_upper) >= 0:
        upper = M.less_equal(cols - rows, int(num_upper))
        keep = upper if keep is None else M.logical_and(keep, upper)
    return x if keep is None else A.where(keep, x, A.zeros_like(x))


def _band_of(k, align, op, m, n):
    """(lo, hi) of the diagonals k names (an int or a pair), checked as TF's MatrixDiagV3 ops."""
    if isinstance(k, TensorBase):
        k = k.numpy()
    ks = [int(v) for v in np.reshape(np.asarray(k), [-1])]
    if len(ks) not in (1, 2):
        raise InvalidArgumentError(with_location(f"{op}: k must have one or two elements, got {ks}"))
    lo, hi = ks[0], ks[-1]
    if lo > hi:
        raise InvalidArgumentError(with_location(f"{op}: k = ({lo}, {hi}): the lower diagonal must not be above "
                                                 f"the upper"))
    if align not in _ALIGNS:
        raise InvalidArgumentError(with_location(f"{op}: align {align!r} is not one of {', '.join(_ALIGNS)}"))
    if (lo, hi) != (0, 0) and (m is None or n is None):
        raise NotImplementedError(with_location(f"{op}: diagonals k != 0 of matrices of unknown size"))
    for end in (lo, hi):
        if end != 0 and not -m < end < n:
            raise InvalidArgumentError(with_location(f"{op}: diagonal {end} is out of bounds of {m}x{n} matrices"))
    return lo, hi


_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _aligned_offset(d, length, max_len, align):
    """Where diagonal d (of `length` entries) starts in its padded row of max_len: align's first word
    places the superdiagonals (d >= 0), its second the subdiagonals; RIGHT pads at the front."""
    sup, sub = (word == "RIGHT" for word in align.split("_"))
    right = A.where(M.greater_equal(d, 0), convert_to_tensor(sup), convert_to_tensor(sub))
    return A.where(right, max_len - length, A.zeros_like(length))


def _band_rows(x, lo, hi):
    """(m, n, flat batch shape, max_len) of diagonals lo..hi of static m x n matrices, packed as
    TF packs them: row r holds diagonal hi - r, padded to the longest one's max_len."""
    m, n = x.shape[-2], x.shape[-1]
    return m, n, [-1 if v is None else v for v in x.shape.dims[:-2]], min(m + min(hi, 0), n - max(lo, 0))


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """Diagonals of the innermost matrices: [..., M, N] -> [..., min(M, N)] for k = 0, one diagonal
    [..., len] for an int k, a band [..., hi - lo + 1, len] for k = (lo, hi) (padded, as align says)."""
    x = _matrix(input, "diag_part")
    lo, hi = _band_of(k, align, "diag_part", x.shape[-2], x.shape[-1])
    if (lo, hi) != (0, 0):
        return _band_of_matrix(x, lo, hi, padding_value, align)
    m, n = x.shape[-2], x.shape[-1]
    on_diag = A.where(_diag_mask(x), x, A.zeros_like(x))
    if m is not None and n is not None and m > n:
        return RD.reduce_sum(on_diag, -2)  # [..., N]
    rows = RD.reduce_sum(on_diag, -1)  # [..., M]
    if m is not None and n is not None:
        return rows
    return I.getitem(rows, (Ellipsis, slice(0, M.minimum(_dim(x, -2), _dim(x, -1)))))


def _band_of_matrix(x, lo, hi, padding_value, align):
    from . import gather_ops as G
    m, n, batch, max_len = _band_rows(x, lo, hi)
    r, p = _row_col(hi - lo + 1, max_len)
    d = hi - r
    length = M.minimum(m + M.minimum(d, 0), n - M.maximum(d, 0))
    t = p - _aligned_offset(d, length, max_len, align)       # entry t of diagonal d is (t + max(-d, 0), t + max(d, 0))
    valid = M.logical_and(M.greater_equal(t, 0), M.less(t, length))
    at = (t + M.maximum(-d, 0)) * n + t + M.maximum(d, 0)
    picked = G.gather(A.reshape(x, batch + [m * n]), A.where(valid, at, A.zeros_like(at)), axis=x.shape.rank - 2)
    out = A.where(valid, picked, A.zeros_like(picked) + M.cast(convert_to_tensor(padding_value), x.dtype))
    return A.squeeze(out, -2) if lo == hi else out


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """`input` with diagonals replaced: the main one by `diagonal` ([..., min(M, N)]), one diagonal
    k by [..., len], a band k = (lo, hi) by [..., hi - lo + 1, len] (packed as diag_part gives it)."""
    x = _matrix(input, "set_diag")
    d = convert_to_tensor(diagonal, x.dtype)
    lo, hi = _band_of(k, align, "set_diag", x.shape[-2], x.shape[-1])
    if (lo, hi) != (0, 0):
        return _set_band(x, d, lo, hi, align)
    m, n = x.shape[-2], x.shape[-1]
    want = None if m is None or n is None else min(m, n)
    if d.shape.rank != x.shape.rank - 1 or (want is not None and d.shape[-1] not in (None, want)):
        raise _bad_diagonal(d, x)
    if want is not None and n > want:  # pad to N columns; the mask never reads the padding
        d = J.pad(d, [[0, 0]] * (d.shape.rank - 1) + [[0, n - want]])
    # Broadcast the diagonal along rows: entry (i, i) reads d[i].
    return A.where(_diag_mask(x), A.expand_dims(d, -2), x)


def _bad_diagonal(d, x):
    return (InvalidArgumentError if state.graph is None else ValueError)(with_location(
        f"set_diag: diagonal of shape {list(d.shape)} does not fit matrices of shape {list(x.shape)}"))


def _set_band(x, d, lo, hi, align):
    from . import gather_ops as G
    m, n, batch, max_len = _band_rows(x, lo, hi)
    if not d.shape.is_compatible_with(x.shape.dims[:-2] + ((max_len,) if lo == hi else (hi - lo + 1, max_len))):
        raise _bad_diagonal(d, x)
    rows, cols = _row_col(m, n)
    on = cols - rows                     # entry (i, j) is entry min(i, j) of diagonal j - i
    length = M.minimum(m + M.minimum(on, 0), n - M.maximum(on, 0))
    at = (hi - on) * max_len + M.minimum(rows, cols) + _aligned_offset(on, length, max_len, align)
    in_band = M.logical_and(M.greater_equal(on, lo), M.less_equal(on, hi))
    packed = A.reshape(d, batch + [(hi - lo + 1) * max_len])
    return A.where(in_band, G.gather(packed, A.where(in_band, at, A.zeros_like(at)), axis=x.shape.rank - 2), x)


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """[..., N] -> [..., N, N] with `diagonal` on the main diagonal (tf.linalg.diag)."""
    d = convert_to_tensor(diagonal)
    if d.shape.rank < 1:
        raise ValueError(with_location(f"diag: needs a tensor of rank >= 1, got shape {list(d.shape)}"))
    if isinstance(k, (list, tuple)) and len(k) == 1:
        k = k[0]
    if k != 0 or num_rows not in (-1, None) or num_cols not in (-1, None):
        return _off_diag(d, k, num_rows, num_cols, padding_value)
    n = _dim(d, -1)
    rows, cols = _row_col(n, n)
    row = A.expand_dims(d, -2)  # [..., 1, N]
    return A.where(M.equal(rows, cols), row, A.zeros_like(row))


def _off_diag(d, k, num_rows, num_cols, padding_value):
    """One diagonal k (an int) of [..., R, C] matrices, R and C by default n + |k|: entry
    (i, i + k) is d[i] for k >= 0, entry (j - k, j) is d[j] for k < 0; padding elsewhere."""
    if not isinstance(k, int) or d.shape[-1] is None:
        raise NotImplementedError(with_location(
            "diag: a band of diagonals (k = (lo, hi)) or an unknown diagonal length is not supported"))
    n = d.shape[-1]
    rows = num_rows if num_rows not in (-1, None) else None
    cols = num_cols if num_cols not in (-1, None) else None
    if rows is None and cols is None:
        rows = cols = n + abs(k)
    elif rows is None:
        rows = n - min(k, 0) if cols >= n + max(k, 0) else cols - k  # the smallest R that holds the diagonal
    elif cols is None:
        cols = n + max(k, 0)
    if min(rows, cols - k) - max(0, -k) != n and min(rows + k, cols) - max(0, k) != n:
        raise ValueError(with_location(
            f"diag: a diagonal of length {n} at k={k} does not fit a {rows}x{cols} matrix"))
    r, c = _row_col(rows, cols)
    index = M.minimum(M.maximum(r if k >= 0 else c, 0), n - 1) + A.zeros_like(r + c)  # [R, C]
    on = M.equal(c - r, k)
    from . import gather_ops as G
    values = G.gather(d, index, axis=d.shape.rank - 1)  # [..., R, C]
    return A.where(on, values, A.zeros_like(values) + M.cast(convert_to_tensor(padding_value), d.dtype))


def tensor_diag(diagonal, name=None):
    """A tensor of shape D + D with `diagonal` (shape D) on its diagonal (tf.linalg.tensor_diag)."""
    d = convert_to_tensor(diagonal)
    if not d.shape.is_fully_defined():
        raise ValueError(with_location(f"tensor_diag: the shape must be known, got {list(d.shape)}"))
    dims = list(d.shape.dims)
    return A.reshape(diag(A.reshape(d, [-1])), dims + dims)


def tensor_diag_part(input, name=None):  # noqa: A002
    """The inverse of tensor_diag: shape D + D -> D."""
    x = convert_to_tensor(input)
    r = x.shape.rank
    dims = list(x.shape.dims)
    if r % 2 or not x.shape.is_fully_defined() or dims[:r // 2] != dims[r // 2:]:
        raise ValueError(with_location(f"tensor_diag_part: needs a known shape D + D, got {dims}"))
    size = 1
    for v in dims[:r // 2]:
        size *= v
    return A.reshape(diag_part(A.reshape(x, [size, size])), dims[:r // 2])


def trace(x, name=None):
    return RD.reduce_sum(diag_part(x), -1)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    a = _matrix(a, "matvec")
    b = convert_to_tensor(b)
    if b.shape.rank < 1:
        raise ValueError(with_location(f"matvec: b must have rank >= 1, got shape {list(b.shape)}"))
    prod = L.matmul(a, A.expand_dims(b, -1), transpose_a=transpose_a or adjoint_a)
    return A.squeeze(prod, -1)


# --- norms ------------------------------------------------------------------------------
_VECTOR_ORDS = ("euclidean", "fro", 1, 2, math.inf)


def _vector_norm(x, ord, axis, keepdims):  # noqa: A002
    if ord in ("euclidean", "fro", 2):
        return M.sqrt(RD.reduce_sum(x * C.conj(x), axis, keepdims))
    ax = M.abs(x)
    if ord == 1:
        return RD.reduce_sum(ax, axis, keepdims)
    if ord == math.inf:
        return RD.reduce_max(ax, axis, keepdims)
    return M.pow(RD.reduce_sum(M.pow(ax, float(ord)), axis, keepdims), 1.0 / float(ord))


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector norms (over all entries or one axis) and matrix norms (over two axes):
    'euclidean' / 'fro', 1, 2 (vectors only), inf, and any p > 0 for vectors."""
    x = convert_to_tensor(tensor)
    if not (x.dtype.is_floating or (x.dtype.is_complex and ord in ("euclidean", "fro"))):
        raise TypeError(with_location(f"norm expects a floating-point tensor, got {x.dtype.name}{list(x.shape)}"))
    keepdims = bool(keepdims)
    rank = x.shape.rank
    if isinstance(axis, (list, tuple)) and len(axis) == 1:
        axis = axis[0]
    if isinstance(axis, (list, tuple)):
        if len(axis) != 2:
            raise ValueError(with_location(f"norm: axis must be None, an int or a pair of ints, got {axis!r}"))
        rows, cols = (A.static_axis(a, rank, "norm") for a in axis)
        if rows == cols:
            raise ValueError(with_location(f"norm: the two axes must differ, got {axis!r}"))
        if ord in ("euclidean", "fro"):
            return M.sqrt(RD.reduce_sum(x * C.conj(x), [rows, cols], keepdims))
        if ord in (1, math.inf):
            summed, other = (rows, cols) if ord == 1 else (cols, rows)  # 1: max column sum; inf: max row sum
            sums = RD.reduce_sum(M.abs(x), summed, keepdims=True)
            out = RD.reduce_max(sums, other, keepdims=True)
            return out if keepdims else A.squeeze(out, sorted([rows, cols]))
        raise ValueError(with_location(
            f"norm: ord must be 'euclidean', 'fro', 1 or inf for a matrix norm, got {ord!r}"))
    if ord == "fro" and axis is not None:
        raise ValueError(with_location("norm: ord='fro' needs a pair of axes"))
    ok = ord in _VECTOR_ORDS or (isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord > 0)
    if not ok:
        raise ValueError(with_location(f"norm: ord must be a supported vector norm, got {ord!r}"))
    if axis is not None:
        axis = A.static_axis(axis, rank, "norm")
    return _vector_norm(x, ord, axis, keepdims)


def global_norm(t_list, name=None):
    """sqrt of the sum of squares of every entry of every tensor in the list (None skipped)."""
    if isinstance(t_list, (str, bytes)) or not hasattr(t_list, "__iter__"):
        raise TypeError(with_location(f"global_norm: expects a list of tensors, got {type(t_list).__name__}"))
    total = None
    for t in t_list:
        if t is None:
            continue
        t = convert_to_tensor(_slice_values(t))  # IndexedSlices: their values, as TensorFlow
        term = RD.reduce_sum(t * t)
        total = term if total is None else M.add(total, M.cast(term, total.dtype))
    if total is None:
        return convert_to_tensor(0.0)
    return M.sqrt(total)


def _slice_values(t):
    return t.values if getattr(type(t), "_is_indexed_slices", False) else t


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(l2norm(t), clip_norm): the L2 norm over `axes` is at most clip_norm
    (of IndexedSlices: over their values, and the result is slices, as TensorFlow)."""
    if getattr(type(t), "_is_indexed_slices", False):
        return t.with_values(clip_by_norm(t.values, clip_norm, axes))
    t = convert_to_tensor(t)
    if not t.dtype.is_floating:
        raise TypeError(with_location(f"clip_by_norm expects a floating-point tensor, got {t.dtype.name}"))
    clip_norm = M.cast(convert_to_tensor(clip_norm), t.dtype)
    l2sum = RD.reduce_sum(t * t, axes, keepdims=True)
    positive = M.greater(l2sum, 0)
    # sqrt'(0) is infinite: take it only of positive sums (the gradient of t at 0 stays finite).
    l2norm = A.where(positive, M.sqrt(A.where(positive, l2sum, A.ones_like(l2sum))), l2sum)
    return t * clip_norm / M.maximum(l2norm, clip_norm)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale every tensor by clip_norm / max(global_norm, clip_norm); returns (list, global_norm).
    An infinite or NaN global norm makes every entry NaN, as TensorFlow."""
    t_list = list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list)
    use_norm = convert_to_tensor(use_norm)
    clip = M.cast(convert_to_tensor(clip_norm), use_norm.dtype)
    scale = clip * M.minimum(1.0 / use_norm, 1.0 / clip)
    finite = M.is_finite(use_norm)
    scale = A.where(finite, scale, M.cast(convert_to_tensor(float("nan")), use_norm.dtype))
    out = []
    for t in t_list:
        if t is None:
            out.append(None)
        elif getattr(type(t), "_is_indexed_slices", False):
            out.append(t.with_values(t.values * M.cast(scale, t.dtype)))
        else:
            t = convert_to_tensor(t)
            out.append(t * M.cast(scale, t.dtype))
    return out, use_norm


def cross(a, b, name=None):
    """The cross product of 3-vectors along the last axis (broadcast over the rest)."""
    u, v = convert_to_tensor(a), convert_to_tensor(b)
    for t in (u, v):
        if t.shape.rank is not None and (t.shape.rank == 0 or t.shape[-1] not in (None, 3)):
            raise ValueError(with_location(f"cross: the last axis must have size 3, got shapes {list(u.shape)} "
                                           f"and {list(v.shape)}"))
    u0, u1, u2 = u[..., 0], u[..., 1], u[..., 2]
    v0, v1, v2 = v[..., 0], v[..., 1], v[..., 2]
    return J.stack([u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0], axis=-1)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """Least squares (TF's fast path): the regularized normal equations solved by
    Cholesky -- (A^T A + l2 I) x = A^T b when rows >= cols, else x = A^T (A A^T + l2 I)^-1 b."""
    from . import decomp_ops as D
    a = _matrix(matrix, "lstsq")
    b = convert_to_tensor(rhs, dtype=a.dtype)
    m, n = a.shape[-2], a.shape[-1]
    if m is None or n is None:
        raise ValueError(with_location(f"lstsq: the matrix dims must be known, got shape {list(a.shape)}"))
    reg = M.cast(convert_to_tensor(l2_regularizer), a.dtype)
    if m >= n:
        gram = L.matmul(a, a, transpose_a=True) + reg * A.eye(n, dtype=a.dtype)
        return D.cholesky_solve(D.cholesky(gram), L.matmul(a, b, transpose_a=True))
    gram = L.matmul(a, a, transpose_b=True) + reg * A.eye(m, dtype=a.dtype)
    return L.matmul(a, D.cholesky_solve(D.cholesky(gram), b), transpose_a=True)


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """A tridiagonal matrix times rhs [..., M, N].  `diagonals`: "compact" [..., 3, M] (super-,
    main and subdiagonal; superdiag[..., M-1] and subdiag[..., 0] are ignored), "sequence" (those
    three [..., M] tensors) or "matrix" [..., M, M] (a plain matmul)."""
    rhs = convert_to_tensor(rhs)
    if diagonals_format == "matrix":
        return L.matmul(convert_to_tensor(diagonals, rhs.dtype), rhs)
    if diagonals_format == "compact":
        d = convert_to_tensor(diagonals, rhs.dtype)
        sup, main, sub = d[..., 0, :], d[..., 1, :], d[..., 2, :]
    elif diagonals_format == "sequence":
        sup, main, sub = (convert_to_tensor(t, rhs.dtype) for t in diagonals)
    else:
        raise ValueError(with_location(f"Unrecognized diagonals_format: {diagonals_format}"))
    zero = A.zeros_like(rhs[..., :1, :])
    above = J.concat([A.expand_dims(sup[..., :-1], -1) * rhs[..., 1:, :], zero], -2)
    below = J.concat([zero, A.expand_dims(sub[..., 1:], -1) * rhs[..., :-1, :]], -2)
    return A.expand_dims(main, -1) * rhs + above + below

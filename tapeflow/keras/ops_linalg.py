"""keras.ops linear algebra (also as keras.ops.linalg), segment reductions and erfc / erfinv,
over tapeflow's tf.linalg and tf.math, with Keras 3's conventions: svd gives (u, s, vh),
lu_factor the pivots as a permutation's inverse, solve / solve_triangular take a vector b,
the unsorted segment reductions count the segments from the ids when num_segments is None."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.errors import with_location

__all__ = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "lu_factor", "qr", "solve",
           "solve_triangular", "svd", "lstsq", "matrix_rank", "pinv", "logdet", "slogdet", "segment_sum",
           "segment_max", "segment_min", "segment_prod", "erfc", "erfinv", "norm", "jvp"]
LINALG_NAMES = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "lu_factor", "qr", "solve",
                "solve_triangular", "svd", "lstsq", "matrix_rank", "pinv", "norm", "jvp"]


def _t(x):
    return tf.convert_to_tensor(x)


def _matrix(x, square=True):
    """x as a tensor of matrices (rank >= 2; square ones unless told), Keras 3's checks."""
    x = _t(x)
    if x.shape.rank < 2:
        raise ValueError(with_location(f"Expected input to have rank >= 2. Received input with shape {x.shape}."))
    if square and x.shape[-2] != x.shape[-1]:
        raise ValueError(with_location(f"Expected a square matrix. Received non-square input with shape {x.shape}"))
    return x


def _failing_as(what, fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - Keras 3 turns any failure into this ValueError
        raise ValueError(with_location(f"{what} failed: {e}")) from e


def _cholesky(a, upper):
    out = tf.debugging.check_numerics(tf.linalg.cholesky(a), "Cholesky")  # TF gives NaNs, Keras raises
    return tf.linalg.adjoint(out) if upper else out


def cholesky(a, upper=False):
    return _failing_as("Cholesky decomposition", _cholesky, _matrix(a), upper)


def _cholesky_inverse(a, upper):
    inv_chol = tf.linalg.triangular_solve(a, tf.eye(a.shape[-1], dtype=a.dtype), lower=not upper)
    if upper:
        return tf.matmul(inv_chol, inv_chol, transpose_b=True)
    return tf.matmul(inv_chol, inv_chol, transpose_a=True)


def cholesky_inverse(a, upper=False):
    return _failing_as("Cholesky inverse", _cholesky_inverse, _matrix(a), upper)


def det(a):
    return tf.linalg.det(_matrix(a))


def eig(a):
    return tf.linalg.eig(_matrix(a))


def eigh(a):
    return tf.linalg.eigh(_matrix(a))


def inv(a):
    return tf.linalg.inv(_matrix(a))


def lu_factor(a):
    a = _matrix(a, square=False)
    if a.shape[-2] != a.shape[-1]:
        raise ValueError(with_location(
            f"LU decomposition failed: Expected a square matrix. Received non-square input with shape {a.shape}. "
            f"LU decomposition is only supported for square matrices in Tensorflow."))
    lu, p = tf.linalg.lu(a)
    return lu, tf.math.invert_permutation(p)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(with_location(f"`mode` argument value not supported. Expected one of {{'reduced', "
                                       f"'complete'}}. Received: mode={mode}"))
    return tf.linalg.qr(_t(x), full_matrices=mode == "complete")


def _vector_rhs(solver, a, b, **kw):
    a, b = _matrix(a), _t(b)
    if b.shape.rank < 1:
        raise ValueError(with_location(f"Expected input to have rank >= 1. Received scalar input {b}."))
    axis = -2 if a.shape.rank == b.shape.rank else -1  # Keras checks these two cases (a vector b: the kernel)
    if b.shape.rank - a.shape.rank in (0, 1) and a.shape[axis] != b.shape[axis]:
        raise ValueError(with_location(f"Incompatible shapes between `a` and `b`. Expected `a.shape[{axis}] == "
                                       f"b.shape[{axis}]`. Received: a.shape={a.shape}, b.shape={b.shape}"))
    if b.shape.rank == a.shape.rank - 1:  # b a vector (batch): solved as one column
        return tf.squeeze(solver(a, tf.expand_dims(b, -1), **kw), -1)
    return solver(a, b, **kw)


def solve(a, b):
    return _vector_rhs(tf.linalg.solve, a, b)


def solve_triangular(a, b, lower=False):
    return _vector_rhs(tf.linalg.triangular_solve, a, b, lower=lower)


def svd(x, full_matrices=True, compute_uv=True):
    x = _matrix(x, square=False)
    if not compute_uv:
        return tf.linalg.svd(x, full_matrices=full_matrices, compute_uv=False)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return u, s, tf.linalg.adjoint(v)


def lstsq(a, b, rcond=None):
    """The least-squares x of a @ x = b through the SVD, singular values under rcond * s[0] dropped."""
    a, b = _t(a), _t(b)
    if a.shape[0] != b.shape[0]:
        raise ValueError(with_location("Leading dimensions of input arrays must match"))
    vector = b.shape.rank == 1
    b = b[:, None] if vector else b
    if a.shape.rank != 2:
        raise TypeError(with_location(f"{a.shape.rank}-dimensional array given. Array must be two-dimensional"))
    if b.shape.rank != 2:
        raise TypeError(with_location(f"{b.shape.rank}-dimensional array given. Array must be one or "
                                      f"two-dimensional"))
    m, n = a.shape
    eps = float(np.finfo(a.dtype.as_numpy_dtype).eps)
    rcond = eps * max(n, m) if rcond is None else (eps if rcond < 0 else rcond)
    u, s, vt = svd(a, full_matrices=False)
    keep = s >= tf.cast(rcond, s.dtype) * s[0]
    s_inv = tf.where(keep, 1 / tf.where(keep, s, tf.ones_like(s)), tf.zeros_like(s))[:, None]
    x = tf.matmul(tf.transpose(u), b) * s_inv
    x = tf.matmul(tf.transpose(vt), x)
    return tf.reshape(x, [-1]) if vector else x


def matrix_rank(x, tol=None):
    return tf.linalg.matrix_rank(_matrix(x, square=False), tol=tol)


def pinv(x, rcond=None):
    return tf.linalg.pinv(_matrix(x, square=False), rcond=rcond)


def logdet(x):
    return tf.linalg.logdet(_t(x))


def slogdet(x):
    return tuple(tf.linalg.slogdet(_t(x)))


def _segment(sorted_fn, unsorted_fn, count_unique=False):
    def reduce(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
        if sorted:
            if num_segments is not None:
                raise ValueError(with_location(
                    f"Argument `num_segments` cannot be set when sorted is True when using the tensorflow "
                    f"backend.Received: num_segments={num_segments}, sorted={sorted}."))
            return sorted_fn(data, segment_ids)
        ids = _t(segment_ids)
        if num_segments is None:  # Keras: sum counts the distinct ids, the others max id + 1
            num_segments = (tf.shape(tf.unique(ids)[0])[0] if count_unique
                            else tf.cast(tf.reduce_max(ids) + 1, "int32"))
        return unsorted_fn(data, ids, num_segments)
    return reduce


segment_sum = _segment(tf.math.segment_sum, tf.math.unsorted_segment_sum, count_unique=True)
segment_max = _segment(tf.math.segment_max, tf.math.unsorted_segment_max)
segment_min = _segment(tf.math.segment_min, tf.math.unsorted_segment_min)
segment_prod = _segment(tf.math.segment_prod, tf.math.unsorted_segment_prod)


def erfc(x):
    return tf.math.erfc(_t(x))


def erfinv(x):
    x = _t(x)
    if x.dtype in (tf.float16, tf.bfloat16):  # computed in float32, as Keras
        return tf.cast(tf.math.erfinv(tf.cast(x, "float32")), x.dtype)
    return tf.math.erfinv(x)


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - Keras's name
    x = _t(x)
    if ord in (None, 2, "fro", "euclidean") and (axis is None or isinstance(axis, int) or ord != 2):
        return tf.sqrt(tf.reduce_sum(tf.square(x), axis=list(axis) if isinstance(axis, (tuple, list)) else axis, keepdims=keepdims))
    if ord == 1 and isinstance(axis, int):
        return tf.reduce_sum(tf.abs(x), axis=axis, keepdims=keepdims)
    if ord in (np.inf, "inf") and isinstance(axis, int):
        return tf.reduce_max(tf.abs(x), axis=axis, keepdims=keepdims)
    return tf.norm(x, ord=ord, axis=axis, keepdims=bool(keepdims))


def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), its Jacobian times tangents) by tf.autodiff.ForwardAccumulator, as Keras 3's
    TensorFlow backend (tangents cast to their primals' dtypes); with has_aux fun returns
    (out, aux) and aux comes third."""
    primal_flat = [_t(p) for p in tf.nest.flatten(primals)]
    tangent_flat = [tf.cast(t, p.dtype) for t, p in zip(tf.nest.flatten(tangents), primal_flat)]
    primals = tf.nest.pack_sequence_as(primals, primal_flat)
    with tf.autodiff.ForwardAccumulator(primal_flat, tangent_flat) as acc:
        out = fun(*primals)
        out, aux = out if has_aux else (out, None)
        tangents_out = tf.nest.pack_sequence_as(out, [acc.jvp(o) for o in tf.nest.flatten(out)])
    return (out, tangents_out, aux) if has_aux else (out, tangents_out)

"""More of keras.ops' NumPy-like surface, as compositions of tapeflow's ops
(Keras 3's names and argument names; floating results for float inputs).

Trap: Keras computes the transcendental functions of integer inputs in float32
(`ops.sqrt(4)` is 2.0): `_float` casts integers and bools first, as Keras does."""
import builtins

import numpy as np

import tapeflow as tf
from tapeflow.runtime.errors import with_location


def _t(x, dtype=None):
    return tf.convert_to_tensor(x, dtype=dtype)


def _float(x):
    x = _t(x)
    return x if x.dtype.is_floating else tf.cast(x, "float32")


def _unary(tf_op):
    def op(x):
        return tf_op(_float(x))
    op.__name__ = op.__qualname__ = tf_op.__name__
    return op


arcsin, arccos, arctan = _unary(tf.math.asin), _unary(tf.math.acos), _unary(tf.math.atan)
arcsinh, arccosh, arctanh = _unary(tf.math.asinh), _unary(tf.math.acosh), _unary(tf.math.atanh)
sinh, cosh, tan = _unary(tf.math.sinh), _unary(tf.math.cosh), _unary(tf.math.tan)
erf = _unary(tf.math.erf)


def rsqrt(x):  # Keras does not cast integers here: TF's error for them
    return tf.math.rsqrt(x)


def reciprocal(x):
    return tf.math.reciprocal(x)


def arctan2(x1, x2):
    return tf.math.atan2(_float(x1), _float(x2))


def log2(x):
    x = _float(x)
    return tf.math.log(x) / tf.math.log(tf.constant(2.0, x.dtype))


def log10(x):
    x = _float(x)
    return tf.math.log(x) / tf.math.log(tf.constant(10.0, x.dtype))


def exp2(x):
    x = _float(x)
    return tf.pow(tf.constant(2.0, x.dtype), x)


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)) without overflow."""
    a, b = _float(x1), _float(x2)
    big = tf.maximum(a, b)
    return big + tf.math.log1p(tf.exp(-tf.abs(a - b)))


def fabs(x):
    return tf.abs(_float(x))


def trunc(x):
    x = _t(x)
    return tf.where(x < 0, tf.math.ceil(x), tf.floor(x)) if x.dtype.is_floating else x


def signbit(x):
    x = _t(x)
    if not x.dtype.is_floating:
        return x < 0
    # -0.0 has the sign bit too: 1 / -0.0 is -inf
    safe = tf.where(tf.equal(x, 0), x, tf.ones_like(x))
    return tf.logical_or(x < 0, tf.logical_and(tf.equal(x, 0), tf.equal(1.0 / safe, -np.inf)))


def cbrt(x):
    x = _float(x)
    return tf.sign(x) * tf.pow(tf.abs(x), 1.0 / 3.0)


def hypot(x1, x2):
    a, b = _float(x1), _float(x2)
    return tf.sqrt(a * a + b * b)


def deg2rad(x):
    x = _float(x)
    return x * (np.pi / 180.0)


def rad2deg(x):
    x = _float(x)
    return x * (180.0 / np.pi)


def isnan(x):
    x = _t(x)
    return tf.math.is_nan(x) if x.dtype.is_floating else tf.zeros_like(x, dtype="bool")


def isinf(x):
    x = _t(x)
    return tf.math.is_inf(x) if x.dtype.is_floating else tf.zeros_like(x, dtype="bool")


def isfinite(x):
    x = _t(x)
    return tf.math.is_finite(x) if x.dtype.is_floating else tf.ones_like(x, dtype="bool")


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    a, b = _float(x1), _float(x2)
    close = tf.abs(a - b) <= atol + rtol * tf.abs(b)
    if equal_nan:
        close = tf.logical_or(close, tf.logical_and(tf.math.is_nan(a), tf.math.is_nan(b)))
    return close


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    return tf.reduce_all(isclose(x1, x2, rtol, atol, equal_nan))


# Keras casts the operands of the logical ops to bool (nonzero is True).
def logical_xor(x1, x2):
    return tf.math.logical_xor(tf.cast(x1, "bool"), tf.cast(x2, "bool"))


def logical_and(x1, x2):
    return tf.logical_and(tf.cast(x1, "bool"), tf.cast(x2, "bool"))


def logical_or(x1, x2):
    return tf.logical_or(tf.cast(x1, "bool"), tf.cast(x2, "bool"))


def logical_not(x):
    return tf.logical_not(tf.cast(x, "bool"))


def floor_divide(x1, x2):
    return tf.math.floordiv(x1, x2)


def mod(x1, x2):
    return tf.math.floormod(x1, x2)


def divide_no_nan(x1, x2):
    return tf.math.divide_no_nan(_float(x1), _float(x2))


def broadcast_to(x, shape):
    return tf.broadcast_to(x, shape)


def nonzero(x):
    """The indices of the nonzero elements, one int32 tensor per axis (NumPy's tuple), as Keras 3."""
    x = _t(x)
    where = tf.where(tf.cast(x, "bool"))
    return tuple(tf.cast(where[:, i], "int32") for i in range(x.shape.rank))


def count_nonzero(x, axis=None):
    return tf.math.count_nonzero(x, axis=axis, dtype="int32")


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None or (axisa, axisb, axisc) != (-1, -1, -1):
        raise NotImplementedError(with_location("keras.ops.cross: only the last axis is supported here"))
    return tf.linalg.cross(x1, x2)


def _diag_part(x, k):
    """The k-th diagonal: the main diagonal of x with |k| leading rows (k < 0) or columns cut."""
    return tf.linalg.diag_part(x[..., -k:, :] if k < 0 else x[..., :, k:])


def diag(x, k=0):
    x = _t(x)
    if x.shape.rank == 1:
        square = tf.linalg.diag(x)
        if k == 0:
            return square
        pad = [[0, k], [k, 0]] if k > 0 else [[-k, 0], [0, -k]]  # shift the diagonal off the main one
        return tf.pad(square, pad)
    return _diag_part(x, k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    x = _t(x)
    rank = x.shape.rank
    a1, a2 = axis1 % rank, axis2 % rank
    rest = [a for a in range(rank) if a not in (a1, a2)]
    return _diag_part(tf.transpose(x, rest + [a1, a2]), offset)


def diff(a, n=1, axis=-1):
    x = _t(a)
    for _ in range(n):
        rank = x.shape.rank
        ax = axis % rank
        hi = [builtins.slice(None)] * rank
        lo = [builtins.slice(None)] * rank
        hi[ax], lo[ax] = builtins.slice(1, None), builtins.slice(None, -1)
        x = x[tuple(hi)] - x[tuple(lo)]
    return x


def hstack(xs):
    xs = [_t(x) for x in xs]
    return tf.concat(xs, axis=0 if xs[0].shape.rank == 1 else 1)


def vstack(xs):  # Keras: a concat along axis 0 (1-D inputs stay 1-D, unlike NumPy)
    return tf.concat([_t(x) for x in xs], axis=0)


def dstack(xs):
    out = []
    for x in xs:
        x = _t(x)
        if x.shape.rank == 1:
            x = tf.reshape(x, [1, -1, 1])
        elif x.shape.rank == 2:
            x = x[:, :, None]
        out.append(x)
    return tf.concat(out, axis=2)


def fliplr(x):
    return tf.reverse(x, [1])


def flipud(x):
    return tf.reverse(x, [0])


def rot90(array, k=1, axes=(0, 1)):
    x = _t(array)
    a, b = (ax % x.shape.rank for ax in axes)
    k = k % 4
    for _ in range(k):  # one quarter turn: flip along the second axis, then swap the two
        x = tf.reverse(x, [b])
        perm = list(range(x.shape.rank))
        perm[a], perm[b] = perm[b], perm[a]
        x = tf.transpose(x, perm)
    return x


def tri(N, M=None, k=0, dtype="float32"):
    M = N if M is None else M
    return tf.constant(np.tri(N, M, k, dtype=tf.as_dtype(dtype).as_numpy_dtype))


def tril(x, k=0):
    x = _t(x)
    n, m = x.shape[-2], x.shape[-1]
    mask = tf.constant(np.tri(n, m, k, dtype=bool))
    return tf.where(mask, x, tf.zeros_like(x))


def triu(x, k=0):
    x = _t(x)
    n, m = x.shape[-2], x.shape[-1]
    mask = tf.constant(~np.tri(n, m, k - 1, dtype=bool))
    return tf.where(mask, x, tf.zeros_like(x))


def trace(x, offset=0, axis1=0, axis2=1):
    return tf.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)


def outer(x1, x2):
    a, b = tf.reshape(_t(x1), [-1]), tf.reshape(_t(x2), [-1])
    return a[:, None] * b[None, :]


def inner(x1, x2):
    a, b = _t(x1), _t(x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return tf.tensordot(a, b, axes=[[-1], [-1]])


def vdot(x1, x2):
    return tf.reduce_sum(tf.reshape(_t(x1), [-1]) * tf.reshape(_t(x2), [-1]))


def kron(x1, x2):
    a, b = _t(x1), _t(x2)
    if a.shape.rank != 2 or b.shape.rank != 2:
        raise NotImplementedError(with_location("keras.ops.kron: 2-D inputs only here"))
    (m, n), (p, q) = a.shape.as_list(), b.shape.as_list()
    return tf.reshape(a[:, None, :, None] * b[None, :, None, :], [m * p, n * q])


def moveaxis(x, source, destination):
    x = _t(x)
    rank = x.shape.rank
    src = [s % rank for s in (source if isinstance(source, (list, tuple)) else [source])]
    dst = [d % rank for d in (destination if isinstance(destination, (list, tuple)) else [destination])]
    order = [a for a in range(rank) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return tf.transpose(x, order)


def swapaxes(x, axis1, axis2):
    x = _t(x)
    perm = list(range(x.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return tf.transpose(x, perm)


def ravel(x):
    return tf.reshape(x, [-1])


def ndim(x):
    return _t(x).shape.rank


def size(x):
    return tf.size(x)


def unstack(x, num=None, axis=0):
    return tf.unstack(x, num=num, axis=axis)


def copy(x):
    return tf.identity(x)


def identity(n, dtype=None):
    return tf.eye(n, dtype=dtype or "float32")


def array(x, dtype=None):
    return _t(x, dtype)


def empty(shape, dtype=None):
    return tf.zeros(shape, dtype=dtype or "float32")


def empty_like(x, dtype=None):
    return tf.zeros_like(x, dtype=dtype)


def average(x, axis=None, weights=None):
    x = _float(x)
    if weights is None:
        return tf.reduce_mean(x, axis=axis)
    w = tf.cast(_t(weights), x.dtype)
    if axis is not None and w.shape.rank == 1 and x.shape.rank > 1:
        shape = [1] * x.shape.rank
        shape[axis] = -1
        w = tf.reshape(w, shape)
    return tf.reduce_sum(x * w, axis=axis) / tf.reduce_sum(w * tf.ones_like(x), axis=axis)


def ptp(x, axis=None, keepdims=False):
    return tf.reduce_max(x, axis=axis, keepdims=keepdims) - tf.reduce_min(x, axis=axis, keepdims=keepdims)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = _t(x)
    if not x.dtype.is_floating:
        return x
    big = x.dtype.max
    x = tf.where(tf.math.is_nan(x), tf.cast(nan, x.dtype) * tf.ones_like(x), x)
    x = tf.where(tf.equal(x, np.inf), tf.cast(big if posinf is None else posinf, x.dtype) * tf.ones_like(x), x)
    return tf.where(tf.equal(x, -np.inf), tf.cast(-big if neginf is None else neginf, x.dtype) * tf.ones_like(x), x)


def select(condlist, choicelist, default=0):
    out = tf.cast(_t(default), _t(choicelist[0]).dtype) * tf.ones_like(choicelist[0])
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        out = tf.where(cond, choice, out)
    return out


def heaviside(x1, x2):
    a = _float(x1)
    b = tf.cast(_t(x2), a.dtype)
    return tf.where(a < 0, tf.zeros_like(a), tf.where(a > 0, tf.ones_like(a), b * tf.ones_like(a)))


def sinc(x):
    x = _float(x)
    px = np.pi * x
    safe = tf.where(tf.equal(x, 0), tf.ones_like(x), px)
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(safe) / safe)


def slice(inputs, start_indices, shape):  # noqa: A001 - Keras's name
    return tf.slice(inputs, start_indices, shape)


def slice_update(inputs, start_indices, updates):
    x, u = _t(inputs), _t(updates)
    starts = [int(s) for s in start_indices]
    grids = np.meshgrid(*[np.arange(s, s + d) for s, d in zip(starts, u.shape.as_list())], indexing="ij")
    idx = np.stack([g.reshape(-1) for g in grids], axis=-1)
    return tf.tensor_scatter_nd_update(x, idx, tf.reshape(u, [-1]))


def scatter(indices, values, shape):
    return tf.scatter_nd(indices, values, shape)


def scatter_update(inputs, indices, updates, reduction=None):
    """tensor_scatter_nd_update, or with `reduction` "add" / "max" / "min" / "mul" (Keras 3.15) the
    updates combined with what is there; "mul" multiplies in turn, so repeated indices compound."""
    if reduction is None:
        return tf.tensor_scatter_nd_update(inputs, indices, updates)
    if reduction in ("add", "max", "min"):
        combine = {"add": tf.tensor_scatter_nd_add, "max": tf.tensor_scatter_nd_max,
                   "min": tf.tensor_scatter_nd_min}[reduction]
        return combine(inputs, indices, updates)
    if reduction == "mul":
        inputs, updates = tf.convert_to_tensor(inputs), tf.convert_to_tensor(updates)
        indices = tf.convert_to_tensor(indices)
        factors = tf.ones_like(inputs)
        for i in range(int(indices.shape[0])):
            row = indices[i:i + 1]
            factors = tf.tensor_scatter_nd_update(factors, row, tf.gather_nd(factors, row) * updates[i:i + 1])
        return inputs * factors
    raise ValueError(f"Unsupported reduction: {reduction}")


def searchsorted(sorted_sequence, values, side="left"):
    return tf.searchsorted(sorted_sequence, values, side=side)


def in_top_k(targets, predictions, k):
    return tf.math.in_top_k(targets, predictions, k)


def saturate_cast(x, dtype):
    return tf.saturate_cast(x, dtype)


def unravel_index(indices, shape):
    out = tf.unravel_index(indices, shape)
    return tuple(tf.unstack(out, axis=0))


def is_tensor(x):
    return tf.is_tensor(x)


def switch(index, branches, *operands):
    return tf.switch_case(index, [lambda b=b: b(*operands) for b in branches])


def map(f, xs):  # noqa: A001 - Keras's name
    from tapeflow.tracer.functional_ops import map_rows
    return map_rows(f, xs)  # Keras gives map_fn fn's own output signature: any structure


__all__ = ["allclose", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "array", "average", "broadcast_to", "cbrt", "copy", "cosh", "count_nonzero", "nonzero", "cross", "deg2rad", "diag", "diagonal", "diff", "divide_no_nan", "dstack", "empty", "empty_like", "erf", "exp2", "fabs", "fliplr", "flipud", "floor_divide", "heaviside", "hstack", "hypot", "identity", "in_top_k", "inner", "is_tensor", "isclose", "isfinite", "isinf", "isnan", "kron", "log10", "log2", "logaddexp", "logical_and", "logical_not", "logical_or", "logical_xor", "map", "mod", "moveaxis", "nan_to_num", "ndim", "outer", "ptp", "rad2deg", "ravel", "reciprocal", "rot90", "rsqrt", "saturate_cast", "scatter", "scatter_update", "searchsorted", "select", "signbit", "sinc", "sinh", "size", "slice", "slice_update", "swapaxes", "switch", "tan", "trace", "tri", "tril", "triu", "trunc", "unravel_index", "unstack", "vdot", "vstack"]

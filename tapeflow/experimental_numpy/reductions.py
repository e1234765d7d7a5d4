"""tnp reductions and comparisons of whole arrays: sum, mean, std, argmax, cumsum, allclose, ..."""
import numpy as np

import tapeflow as tf
from tapeflow.experimental_numpy.dtypes import asarray, as_float, promote, np_dtype


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _sum_dtype(a, dtype):
    if dtype is not None:
        return tf.as_dtype(np_dtype(dtype))
    if a.dtype == tf.bool or (a.dtype.is_integer and a.dtype.size < 8):
        return tf.int64 if not a.dtype.is_unsigned else tf.uint64   # NumPy sums small ints in int64
    return a.dtype


def sum(a, axis=None, dtype=None, keepdims=False):  # noqa: A001
    a = asarray(a)
    target = _sum_dtype(a, dtype)
    if target == tf.bool:  # a bool sum is a logical or (TF 2.21, measured)
        return tf.reduce_any(tf.cast(a, tf.bool), _axis(axis), keepdims)
    return tf.reduce_sum(tf.cast(a, target), _axis(axis), keepdims)


def prod(a, axis=None, dtype=None, keepdims=False):
    a = asarray(a)
    return tf.reduce_prod(tf.cast(a, _sum_dtype(a, dtype)), _axis(axis), keepdims)


def mean(a, axis=None, dtype=None, keepdims=False):
    a = as_float(a) if dtype is None else tf.cast(asarray(a), tf.as_dtype(np_dtype(dtype)))
    return tf.reduce_mean(a, _axis(axis), keepdims)


def var(a, axis=None, dtype=None, ddof=0, keepdims=False):
    a = as_float(a) if dtype is None else tf.cast(asarray(a), tf.as_dtype(np_dtype(dtype)))
    centered = a - tf.reduce_mean(a, _axis(axis), keepdims=True)
    sq = tf.math.real(centered * tf.math.conj(centered)) if a.dtype.is_complex else tf.square(centered)
    total = tf.reduce_sum(sq, _axis(axis), keepdims)
    count = tf.cast(tf.size(a), sq.dtype) / tf.cast(tf.size(total) if not keepdims else tf.size(total), sq.dtype)
    return total / (count - ddof)


def std(a, axis=None, keepdims=False):
    return tf.sqrt(var(a, axis=axis, keepdims=keepdims))


def amax(a, axis=None, keepdims=False):
    return tf.reduce_max(asarray(a), _axis(axis), keepdims)


def amin(a, axis=None, keepdims=False):
    return tf.reduce_min(asarray(a), _axis(axis), keepdims)


max, min = amax, amin  # noqa: A001


def ptp(a, axis=None, keepdims=None):
    return amax(a, axis, bool(keepdims)) - amin(a, axis, bool(keepdims))


def all(a, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_all(tf.cast(asarray(a), tf.bool), _axis(axis), keepdims)


def any(a, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_any(tf.cast(asarray(a), tf.bool), _axis(axis), keepdims)


def count_nonzero(a, axis=None):
    return tf.math.count_nonzero(asarray(a), _axis(axis), dtype=tf.int64)


def _flat_or(a, axis):
    a = asarray(a)
    return (tf.reshape(a, [-1]), 0) if axis is None else (a, axis)


def argmax(a, axis=None):
    a, axis = _flat_or(a, axis)
    return tf.argmax(a, axis, output_type=tf.int64)


def argmin(a, axis=None):
    a, axis = _flat_or(a, axis)
    return tf.argmin(a, axis, output_type=tf.int64)


def no_bool_kernel(name, a):
    """TF 2.21 has no bool kernel for cumsum/cumprod/sort/argsort/trace (measured)."""
    if a.dtype == tf.bool:
        raise tf.errors.InvalidArgumentError(None, None, f"tnp.{name}: no kernel for dtype bool")


def cumsum(a, axis=None, dtype=None):
    a, axis = _flat_or(a, axis)
    if dtype is None:  # with a dtype, bools are cast first
        no_bool_kernel("cumsum", a)
    return tf.cumsum(tf.cast(a, _sum_dtype(a, dtype)), axis)


def cumprod(a, axis=None, dtype=None):
    a, axis = _flat_or(a, axis)
    if dtype is None:
        no_bool_kernel("cumprod", a)
    return tf.math.cumprod(tf.cast(a, _sum_dtype(a, dtype)), axis)


def average(a, axis=None, weights=None, returned=False):
    if weights is None:
        out = mean(a, axis)
        count = tf.cast(tf.size(asarray(a)) // tf.maximum(tf.size(out), 1), out.dtype)
        weight_sum = tf.broadcast_to(count, tf.shape(out))
    else:
        a, w = promote(as_float(a), weights)
        if axis is not None and len(w.shape) == 1 and len(a.shape) > 1:
            w = tf.reshape(w, [-1 if i == axis % len(a.shape) else 1 for i in range(len(a.shape))])
        weight_sum = tf.reduce_sum(tf.broadcast_to(w, tf.shape(a)), axis)
        out = tf.reduce_sum(a * w, axis) / weight_sum
    return (out, weight_sum) if returned else out


def nansum(a, axis=None, dtype=None, keepdims=False):
    a = asarray(a)
    if a.dtype.is_floating:
        a = tf.where(tf.math.is_nan(a), tf.zeros_like(a), a)
    return sum(a, axis, dtype, keepdims)


def nanprod(a, axis=None, dtype=None, keepdims=False):
    a = asarray(a)
    if a.dtype.is_floating:
        a = tf.where(tf.math.is_nan(a), tf.ones_like(a), a)
    return prod(a, axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    a = as_float(a)
    keep = tf.logical_not(tf.math.is_nan(a))
    total = tf.reduce_sum(tf.where(keep, a, tf.zeros_like(a)), _axis(axis), keepdims)
    return total / tf.reduce_sum(tf.cast(keep, a.dtype), _axis(axis), keepdims)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = promote(as_float(a), b)
    close = tf.abs(a - b) <= atol + rtol * tf.abs(b)
    close = tf.logical_or(tf.equal(a, b), close)
    if equal_nan:
        close = tf.logical_or(close, tf.logical_and(tf.math.is_nan(a), tf.math.is_nan(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return tf.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2):
    a, b = promote(a1, a2)
    if a.shape.as_list() != b.shape.as_list():
        return tf.constant(False)
    return tf.reduce_all(tf.equal(a, b))


def diff(a, n=1, axis=-1):
    a = asarray(a)
    if n < 0:
        raise ValueError(f"tnp.diff: order must be non-negative, got {n}")
    for _ in range(n):
        head = tf.gather(a, tf.range(1, a.shape[axis]), axis=axis)
        tail = tf.gather(a, tf.range(0, a.shape[axis] - 1), axis=axis)
        a = tf.math.logical_xor(head, tail) if a.dtype == tf.bool else head - tail
    return a

"""tnp indexing helpers and ordering: take, take_along_axis, where, nonzero, sort, tril, ..."""
import numpy as np

import tapeflow as tf
from tapeflow.experimental_numpy.dtypes import asarray, promote, np_dtype
from tapeflow.experimental_numpy.reductions import no_bool_kernel


def take(a, indices, axis=None, mode="clip"):
    a, indices = asarray(a), asarray(indices)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    if not -len(a.shape) <= axis < len(a.shape):
        raise tf.errors.InvalidArgumentError(
            None, None, f"tnp.take: axis {axis} is out of range for an array of shape {a.shape}")
    n = a.shape[axis]
    if mode == "clip":
        indices = tf.clip_by_value(indices, 0, n - 1)
    elif mode == "wrap":
        indices = tf.math.floormod(indices, n)
    elif mode != "raise":
        raise ValueError(f"tnp.take: invalid mode {mode!r}")
    return tf.gather(a, indices, axis=axis)


def take_along_axis(arr, indices, axis):
    arr, indices = asarray(arr), asarray(indices)
    if axis is None:
        return tf.gather(tf.reshape(arr, [-1]), tf.reshape(indices, [-1]))
    axis %= len(arr.shape)
    indices = tf.where(indices < 0, indices + arr.shape[axis], indices)
    arr_b = tf.broadcast_to(arr, [arr.shape[i] if i == axis else max(arr.shape[i], indices.shape[i])
                                  for i in range(len(arr.shape))])
    idx_b = tf.broadcast_to(indices, [indices.shape[i] if i == axis else arr_b.shape[i]
                                      for i in range(len(arr.shape))])
    perm = [i for i in range(len(arr.shape)) if i != axis] + [axis]
    inv = np.argsort(perm).tolist()
    out = tf.gather(tf.transpose(arr_b, perm), tf.transpose(idx_b, perm), batch_dims=len(perm) - 1)
    return tf.transpose(out, inv)


def where(condition, x=None, y=None):
    condition = tf.cast(asarray(condition), tf.bool)
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("tnp.where: either both or neither of x and y should be given")
    x, y = promote(x, y)
    return tf.where(condition, x, y)


def nonzero(a):
    a = asarray(a)
    found = tf.where(tf.cast(a, tf.bool))
    return [found[:, i] for i in range(len(a.shape))]  # a list, as TF's (NumPy: a tuple)


def compress(condition, a, axis=None):
    condition = tf.cast(asarray(condition), tf.bool)
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    n = a.shape[axis]
    keep = condition[:n] if condition.shape[0] >= n else tf.concat(
        [condition, tf.zeros([n - condition.shape[0]], tf.bool)], 0)
    return tf.boolean_mask(a, keep, axis=axis)


def select(condlist, choicelist, default=0):
    out = asarray(default)
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        choice, out = promote(choice, out)
        out = tf.where(tf.cast(asarray(cond), tf.bool), choice, out)
    return out


def diag_indices(n, ndim=2):
    return (tf.range(n, dtype=tf.int32),) * ndim


def ix_(*args):
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if a.dtype == tf.bool:
            a = tf.where(a)[:, 0]
        out.append(tf.reshape(a, [1] * i + [-1] + [1] * (len(args) - i - 1)))
    return out


def sort(a, axis=-1, kind="quicksort", order=None):
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    no_bool_kernel("sort", a)
    return tf.sort(a, axis)


def argsort(a, axis=-1, kind="quicksort", order=None):
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    no_bool_kernel("argsort", a)
    return tf.cast(tf.argsort(a, axis, stable=True), tf.int64)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = asarray(a)
    n = len(a.shape)
    rest = [i for i in range(n) if i not in (axis1 % n, axis2 % n)]
    a = tf.transpose(a, rest + [axis1 % n, axis2 % n])
    rows, cols = a.shape[-2], a.shape[-1]
    # Diagonal `offset` of the last two axes: flat positions i * cols + i + offset.
    flat = [i * cols + i + offset for i in range(max(0, -offset), min(rows, cols - offset))]
    return tf.gather(tf.reshape(a, a.shape.as_list()[:-2] + [rows * cols]), tf.constant(flat, tf.int32), axis=-1)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    diag = diagonal(a, offset, axis1, axis2)
    no_bool_kernel("trace", diag)
    if dtype is not None:  # unlike sum, trace keeps small ints (measured)
        diag = tf.cast(diag, tf.as_dtype(np_dtype(dtype)))
    return tf.reduce_sum(diag, -1)


def _band(m, k, lower):
    m = asarray(m)
    if m.dtype == tf.bool:
        raise TypeError(f"tnp.{'tril' if lower else 'triu'}: bool arrays are not supported (as in TF 2.21)")
    rows, cols = m.shape[-2], m.shape[-1]
    offsets = tf.range(cols)[None, :] - tf.range(rows)[:, None]
    keep = offsets <= k if lower else offsets >= k
    return tf.where(keep, m, tf.zeros_like(m))


def tril(m, k=0):
    return _band(m, k, True)


def triu(m, k=0):
    return _band(m, k, False)

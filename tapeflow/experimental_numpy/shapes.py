"""tnp shape manipulation: reshape, transpose, stacking, splitting, flips, padding, ..."""
import numpy as np

import tapeflow as tf
from tapeflow.experimental_numpy.dtypes import asarray, promote


def shape(a):
    return asarray(a).shape  # a TensorShape, as TF's


def ndim(a):
    return len(asarray(a).shape)


def size(x, axis=None):
    if axis is not None:
        raise NotImplementedError("tnp.size: the axis argument is not supported (as in TF 2.21)")
    return np.int64(np.prod(asarray(x).shape.as_list()))


def isscalar(num):
    return np.isscalar(num) or (hasattr(num, "shape") and len(num.shape) == 0 and not isinstance(num, np.ndarray))


def reshape(a, newshape, order="C"):
    if order != "C":
        raise ValueError(f"tnp.reshape: only order='C' is supported, got {order!r}")
    return tf.reshape(asarray(a), [newshape] if isinstance(newshape, int) else newshape)


def ravel(a):
    return tf.reshape(asarray(a), [-1])


def flatten(a, order="C"):
    return reshape(a, [-1], order)


def transpose(a, axes=None):
    return tf.transpose(asarray(a), axes)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    perm = list(range(len(a.shape)))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return tf.transpose(a, perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    n = len(a.shape)
    src = [s % n for s in ([source] if isinstance(source, int) else source)]
    dst = [d % n for d in ([destination] if isinstance(destination, int) else destination)]
    perm = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return tf.transpose(a, perm)


def squeeze(a, axis=None):
    return tf.squeeze(asarray(a), axis)


def expand_dims(a, axis):
    return tf.expand_dims(asarray(a), axis)


def broadcast_to(array, shape):
    return tf.broadcast_to(asarray(array), shape)


def broadcast_arrays(*args, **kwargs):
    args = [asarray(a) for a in args]
    target = np.broadcast_shapes(*[tuple(a.shape.as_list()) for a in args])
    return [tf.broadcast_to(a, target) for a in args]


def atleast_1d(*arys):
    out = [tf.reshape(a, [1]) if len(a.shape) == 0 else a for a in map(asarray, arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = [tf.reshape(a, [1] * (2 - len(a.shape)) + a.shape.as_list()) if len(a.shape) < 2 else a
           for a in map(asarray, arys)]
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    def lift(a):
        n = len(a.shape)
        if n == 0:
            return tf.reshape(a, [1, 1, 1])
        if n == 1:
            return a[None, :, None]
        return a[..., None] if n == 2 else a
    out = [lift(a) for a in map(asarray, arys)]
    return out[0] if len(out) == 1 else out


def concatenate(arys, axis=0):
    if axis is None:
        raise ValueError("tnp.concatenate: axis=None is not supported (as in TF 2.21)")
    return tf.concat(promote(*arys), axis)


def append(arr, values, axis=None):
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def stack(arrays, axis=0):
    return tf.stack(promote(*arrays), axis)


def hstack(tup):
    arys = atleast_1d(*tup) if len(tup) > 1 else [atleast_1d(*tup)]
    return concatenate(arys, 0 if len(arys[0].shape) == 1 else 1)


def vstack(tup):
    arys = atleast_2d(*tup) if len(tup) > 1 else [atleast_2d(*tup)]
    return concatenate(arys, 0)


def dstack(tup):
    arys = atleast_3d(*tup) if len(tup) > 1 else [atleast_3d(*tup)]
    return concatenate(arys, 2)


def split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, int):  # tf.split raises InvalidArgumentError on unequal parts
        return tf.split(ary, indices_or_sections, axis)
    bounds = [0] + [min(i, n) for i in indices_or_sections] + [n]
    return tf.split(ary, [max(b - a, 0) for a, b in zip(bounds, bounds[1:])], axis)


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if ndim(ary) > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 2)


def tile(a, reps):
    a = asarray(a)
    reps = [reps] if isinstance(reps, int) else list(reps)
    n = max(len(reps), len(a.shape))
    a = tf.reshape(a, [1] * (n - len(a.shape)) + a.shape.as_list())
    return tf.tile(a, [1] * (n - len(reps)) + reps)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.repeat(a, repeats, axis)


def flip(m, axis=None):
    m = asarray(m)
    axes = list(range(len(m.shape))) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    return tf.reverse(m, axes)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(a, [-1]), shift, 0), tf.shape(a))
    return tf.roll(a, shift, axis)


def rot90(m, k=1, axes=(0, 1)):
    m = asarray(m)
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(m, axes)
    if k == 1:
        return swapaxes(flip(m, axes[1]), axes[0], axes[1])
    return flip(swapaxes(m, axes[0], axes[1]), axes[1])


def pad(array, pad_width, mode, constant_values=0):
    array = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width), (len(array.shape), 2)).tolist()
    if mode == "constant":
        return tf.pad(array, widths, "CONSTANT", constant_values)
    if mode in ("reflect", "symmetric"):
        return tf.pad(array, widths, mode.upper())
    raise ValueError(f"tnp.pad: unsupported padding mode {mode!r}")

"""tnp array creation: array, zeros/ones/full (and *_like), eye, arange, linspace, ..."""
import numpy as np

import tapeflow as tf
from tapeflow.experimental_numpy.dtypes import asarray, result_type, default_float, np_dtype


def _dtype(dtype, fallback):
    return tf.as_dtype(np_dtype(dtype)) if dtype is not None else fallback


def _shape(shape):
    return [shape] if isinstance(shape, int) else list(shape)


def array(val, dtype=None, copy=True, ndmin=0):
    out = asarray(val, dtype)
    if copy:
        out = tf.identity(out)
    missing = ndmin - len(out.shape)
    return tf.reshape(out, [1] * missing + out.shape.as_list()) if missing > 0 else out


def asanyarray(a, dtype=None):
    return asarray(a, dtype)


ascontiguousarray = asanyarray


def copy(a):
    return array(a, copy=True)


def zeros(shape, dtype=float):
    return tf.zeros(_shape(shape), _dtype(dtype, default_float()))


def ones(shape, dtype=float):
    return tf.ones(_shape(shape), _dtype(dtype, default_float()))


empty = zeros


def full(shape, fill_value, dtype=None):
    fill = asarray(fill_value, dtype)
    return tf.broadcast_to(fill, _shape(shape) if not hasattr(shape, "dtype") else shape)


def zeros_like(a, dtype=None):
    a = asarray(a)
    return tf.zeros(tf.shape(a), _dtype(dtype, a.dtype))


def ones_like(a, dtype=None):
    a = asarray(a)
    return tf.ones(tf.shape(a), _dtype(dtype, a.dtype))


empty_like = zeros_like


def full_like(a, fill_value, dtype=None):
    a = asarray(a)
    return tf.broadcast_to(asarray(fill_value, _dtype(dtype, a.dtype)), tf.shape(a))


def eye(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return tf.cast(tf.equal(cols - rows, k), _dtype(dtype, default_float()))


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    M = N if M is None else M
    below = tf.range(M)[None, :] - tf.range(N)[:, None] <= k
    return tf.cast(below, _dtype(dtype, default_float()))


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    dtype = _dtype(dtype, result_type(start, stop, step))
    if step == 0:
        raise ValueError("tnp.arange: step must be nonzero")
    count = max(int(np.ceil((stop - start) / step)), 0)
    work = dtype if dtype.is_floating else tf.float64
    out = tf.cast(start, work) + tf.cast(tf.range(count), work) * tf.cast(step, work)
    return tf.cast(out, dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    if num < 0:
        raise ValueError(f"tnp.linspace: num (the number of samples) must be non-negative, got {num}")
    # TF (NumPy 2): a given dtype is replaced by the float type of start and stop (int dtypes too).
    work = result_type(start * 1.0, stop * 1.0) if dtype else None
    start, stop = asarray(start, work), asarray(stop, work)
    div = (num - 1) if endpoint else num
    step = (stop - start) / max(div, 1)
    steps = tf.reshape(tf.cast(tf.range(num), step.dtype), [num] + [1] * len(start.shape))
    out = tf.cast(start, step.dtype)[None] + steps * step[None]
    if endpoint and num > 1:
        out = tf.concat([out[:-1], tf.cast(stop, step.dtype)[None]], 0)
    if axis != 0:
        out = tf.experimental.numpy.moveaxis(out, 0, axis)
    if div < 1:
        step = tf.constant(float("nan"), step.dtype)
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    exps = linspace(start, stop, num, endpoint, axis=axis)
    return tf.pow(tf.cast(base, exps.dtype), exps)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    dtype = _dtype(dtype, result_type(start, stop, float(num), tf.float64))
    work = tf.as_dtype(np.promote_types(dtype.as_numpy_dtype, np.float32))
    # Through base-10 logs, as TF: int dtypes then truncate its rounding (geomspace(1, 4, 3) of
    # int32 is [1, 1, 3] there, measured).
    # tnp's log10 widens float32 to float64 under numpy behavior, as TF's does.
    from tapeflow.experimental_numpy.math_ops import log10
    lo, hi = log10(asarray(start, work)), log10(asarray(stop, work))
    exps = linspace(lo, hi, num, endpoint, axis=axis)
    out = tf.pow(tf.constant(10.0, exps.dtype), exps)
    return tf.cast(out, dtype)


def diag(v, k=0):
    v = asarray(v)
    if len(v.shape) == 1:  # the main-diagonal matrix, padded out to put it on diagonal k
        return tf.pad(tf.linalg.diag(v), [[0, k], [k, 0]] if k >= 0 else [[-k, 0], [0, -k]])
    if len(v.shape) == 2:
        rows, cols = v.shape.as_list()
        picks = [[i, i + k] for i in range(max(0, -k), min(rows, cols - k))]
        return tf.gather_nd(v, tf.constant(picks, tf.int64)) if picks else tf.zeros([0], v.dtype)
    raise ValueError(f"tnp.diag: input must be 1- or 2-d, got shape {v.shape}")


def diagflat(v, k=0):
    return diag(tf.reshape(asarray(v), [-1]), k)


def meshgrid(*xi, **kwargs):
    return tf.meshgrid(*[asarray(x) for x in xi], indexing=kwargs.get("indexing", "xy"))


def vander(x, N=None, increasing=False):
    x = asarray(x)
    N = x.shape[0] if N is None else N
    powers = tf.range(N) if increasing else tf.range(N - 1, -1, -1)
    return tf.pow(x[:, None], tf.cast(powers, x.dtype)[None, :])

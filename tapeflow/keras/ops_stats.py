"""keras.ops statistics over tapeflow ops: the NaN-ignoring reductions, quantile / percentile /
median (Keras 3's TensorFlow algorithm: sort along the flattened axes, gather by method, NaN
rows stay NaN, a vector q's axis first; nanquantile / nanpercentile / nanmedian), and fmod / fmax / fmin, isin, digitize,
corrcoef and correlate (a 1-D convolution, as Keras's); nanargmax / nanargmin (-1 where all are NaN),
nancumsum / nancumprod."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.errors import with_location

__all__ = ["nanmean", "nansum", "nanmax", "nanmin", "nanprod", "nanvar", "nanstd", "quantile", "percentile",
           "median", "fmod", "fmax", "fmin", "isin", "digitize", "corrcoef", "correlate",
           "nanargmax", "nanargmin", "nancumsum", "nancumprod", "nanquantile", "nanpercentile", "nanmedian"]


def _t(x):
    return tf.convert_to_tensor(x)


def _float(x):
    """x in a float dtype (an integer or bool one becomes float32, Keras's floatx)."""
    x = _t(x)
    return x if x.dtype.is_floating else tf.cast(x, "float32")


def _axes(axis):
    return list(axis) if isinstance(axis, (tuple, list)) else axis


def nansum(x, axis=None, keepdims=False):
    x = _t(x)
    if x.dtype.is_floating:
        x = tf.where(tf.math.is_nan(x), tf.zeros_like(x), x)
    elif x.dtype in (tf.bool, tf.int8, tf.int16):
        x = tf.cast(x, "int32")
    return tf.reduce_sum(x, axis=_axes(axis), keepdims=keepdims)


def nanmean(x, axis=None, keepdims=False):
    x = _t(x)
    if axis in ((), []):
        return x
    if not x.dtype.is_floating:
        return tf.reduce_mean(tf.cast(x, "float32"), axis=_axes(axis), keepdims=keepdims)
    count = tf.reduce_sum(tf.cast(~tf.math.is_nan(x), x.dtype), axis=_axes(axis), keepdims=keepdims)
    return nansum(x, axis, keepdims) / count


def _nan_extreme(reduce, fill, bool_reduce):
    def op(x, axis=None, keepdims=False):
        x = _t(x)
        if x.dtype == tf.bool:
            return bool_reduce(x, axis=_axes(axis), keepdims=keepdims)
        if not x.dtype.is_floating:
            return reduce(x, axis=_axes(axis), keepdims=keepdims)
        nan = tf.math.is_nan(x)
        best = reduce(tf.where(nan, tf.fill(tf.shape(x), tf.cast(fill, x.dtype)), x), axis=_axes(axis),
                      keepdims=keepdims)
        all_nan = tf.reduce_all(nan, axis=_axes(axis), keepdims=keepdims)
        return tf.where(all_nan, tf.fill(tf.shape(best), tf.cast(float("nan"), x.dtype)), best)
    return op


nanmax = _nan_extreme(tf.reduce_max, float("-inf"), tf.reduce_any)
nanmin = _nan_extreme(tf.reduce_min, float("inf"), tf.reduce_all)


def nanprod(x, axis=None, keepdims=False):
    x = _t(x)
    if x.dtype.is_floating:
        x = tf.where(tf.math.is_nan(x), tf.ones_like(x), x)
    return tf.reduce_prod(x, axis=_axes(axis), keepdims=keepdims)


def nanvar(x, axis=None, keepdims=False):
    x = _float(x)
    valid = ~tf.math.is_nan(x)
    centered = tf.where(valid, x - nanmean(x, axis, keepdims=True), tf.zeros_like(x))
    count = tf.reduce_sum(tf.cast(valid, x.dtype), axis=_axes(axis), keepdims=keepdims)
    return tf.reduce_sum(tf.square(centered), axis=_axes(axis), keepdims=keepdims) / count


def nanstd(x, axis=None, keepdims=False):
    return tf.sqrt(nanvar(x, axis, keepdims))


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile(x, q, axis, method, keepdims, "keras.ops.quantile", skip_nan=False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """quantile of the values that are not NaN (NaN where a slice has none)."""
    return _quantile(x, q, axis, method, keepdims, "keras.ops.nanquantile", skip_nan=True)


def _quantile(x, q, axis, method, keepdims, op, skip_nan):
    if method not in _METHODS:
        raise ValueError(with_location(f"{op}: method must be one of {_METHODS}, got {method!r}"))
    x = _float(x)
    q = tf.cast(_t(q), "float64")
    rank = x.shape.rank
    axes = None if axis is None else sorted(a % rank for a in (axis if isinstance(axis, (tuple, list)) else [axis]))
    if axes is None:
        y = tf.reshape(x, [-1])
    else:  # the reduced axes moved last and flattened into one
        others = [a for a in range(rank) if a not in axes]
        y = tf.transpose(x, others + axes)
        y = tf.reshape(y, [x.shape[a] if x.shape[a] is not None else -1 for a in others] + [-1])
    size = tf.shape(y)[-1]
    if skip_nan:
        # NaNs sorted last (as +inf: a real +inf is the same value), each row its own count;
        # one index per row and quantile, gathered row by row (batch_dims)
        nan = tf.math.is_nan(y)
        y = tf.sort(tf.where(nan, tf.fill(tf.shape(y), tf.cast(float("inf"), y.dtype)), y), axis=-1)
        count = tf.reduce_sum(tf.cast(~nan, "int32"), axis=-1, keepdims=True)
        d = tf.cast(count, "float64")
        fractions = tf.reshape(q, [1] * (y.shape.rank - 1) + [-1])
        last = tf.maximum(count - 1, 0)
    else:
        y = tf.sort(y, axis=-1)
        d = tf.cast(size, "float64")
        fractions = q
        last = size - 1

    def take(i):
        if not skip_nan:
            return tf.gather(y, i, axis=-1)
        picked = tf.gather(y, i, axis=-1, batch_dims=y.shape.rank - 1)
        return picked if q.shape.rank else tf.squeeze(picked, -1)

    def index(how):
        i = {"lower": tf.math.floor, "higher": tf.math.ceil, "nearest": tf.round}[how]((d - 1) * fractions)
        return tf.clip_by_value(tf.cast(i, "int32"), 0, last)

    if method in ("lower", "higher", "nearest"):
        out = take(index(method))
    elif method == "midpoint":
        out = 0.5 * (take(index("lower")) + take(index("higher")))
    else:
        low = tf.maximum(index("higher") - 1, 0)
        high = tf.minimum(low + 1, last)
        fraction = tf.cast(tf.cast(high, "float64") - (d - 1) * fractions, y.dtype)
        if skip_nan and not q.shape.rank:
            fraction = tf.squeeze(fraction, -1)
        out = take(high) * (1 - fraction) + take(low) * fraction
    if skip_nan:
        nan_rows = tf.equal(tf.squeeze(count, -1), 0)
    else:
        nan_rows = tf.reduce_any(tf.math.is_nan(x), axis=axes)
    nan_rows = tf.reshape(nan_rows, tf.concat([tf.shape(nan_rows), tf.ones([q.shape.rank], "int32")], 0))
    out = tf.where(nan_rows, tf.fill(tf.shape(out), tf.cast(float("nan"), out.dtype)), out)
    if keepdims:
        if axes is None:
            out = tf.reshape(out, [1] * rank + ([-1] if q.shape.rank else []))
        else:
            for a in axes:
                out = tf.expand_dims(out, a)
    if q.shape.rank and out.shape.rank >= 2:  # the quantiles' axis first, as Keras (NumPy) gives it
        out = tf.transpose(out, [out.shape.rank - 1] + list(range(out.shape.rank - 1)))
    return out


def percentile(x, q, axis=None, method="linear", keepdims=False):
    return quantile(x, tf.cast(_t(q), "float32") / 100.0, axis=axis, method=method, keepdims=keepdims)


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    return nanquantile(x, tf.cast(_t(q), "float32") / 100.0, axis=axis, method=method, keepdims=keepdims)


def nanmedian(x, axis=None, keepdims=False):
    if axis == () or axis == []:
        return _t(x)
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def fmod(x1, x2):
    """C's fmod: the remainder with x1's sign."""
    x1, x2 = _t(x1), _t(x2)
    return tf.sign(x1) * tf.math.floormod(tf.abs(x1), tf.abs(x2))


def _nan_aware(pick):
    def op(x1, x2):
        x1, x2 = _t(x1), _t(x2)
        out = pick(x1, x2)
        if not out.dtype.is_floating:
            return out
        out = tf.where(tf.math.is_nan(x1) & ~tf.math.is_nan(x2), x2 + tf.zeros_like(out), out)
        return tf.where(tf.math.is_nan(x2) & ~tf.math.is_nan(x1), x1 + tf.zeros_like(out), out)
    return op


fmax = _nan_aware(tf.maximum)  # NaN only where both are NaN
fmin = _nan_aware(tf.minimum)


def isin(x1, x2, assume_unique=False, invert=False):
    x1, x2 = _t(x1), _t(x2)
    flat = tf.reshape(x1, [-1, 1]) == tf.reshape(tf.cast(x2, x1.dtype), [1, -1])
    found = tf.reduce_any(flat, axis=1) if int(np.prod(x2.shape)) else tf.zeros_like(flat[:, 0])
    return tf.reshape(tf.logical_not(found) if invert else found, tf.shape(x1))


def digitize(x, bins):
    """The bin of each value: how many of the (increasing) bins are <= it, as int32."""
    x = _t(x)
    bounds = tf.constant(np.asarray([float(b) for b in bins], x.dtype.name if x.dtype.is_floating else "float64"))
    values = x if x.dtype.is_floating else tf.cast(x, bounds.dtype)
    return tf.reduce_sum(tf.cast(tf.expand_dims(values, -1) >= bounds, "int32"), axis=-1)


def corrcoef(x):
    """Rows are variables; Keras computes in floatx for small integers, clips to [-1, 1]."""
    x = tf.convert_to_tensor(x)
    if x.dtype in (tf.bool, tf.int8, tf.int16, tf.int32, tf.uint8, tf.uint16, tf.uint32):
        x = tf.cast(x, "float32")
    if x.shape.rank == 0:
        return tf.constant(float("nan"), "float32")
    centered = x - tf.reduce_mean(x, axis=-1, keepdims=True)
    count = tf.cast(tf.shape(x)[-1], x.dtype)
    cov = tf.matmul(centered, centered, adjoint_b=True) / (count - 1)
    stddev = tf.sqrt(tf.math.real(tf.linalg.diag_part(cov)))
    return tf.clip_by_value(cov / tf.tensordot(stddev, stddev, axes=0), -1.0, 1.0)


def correlate(x1, x2, mode="valid"):
    """NumPy's 1-D cross-correlation; int64 computes in float64, other non-half dtypes in float32."""
    if mode not in ("valid", "same", "full"):
        raise ValueError(with_location(f"keras.ops.correlate: invalid mode {mode!r}; mode must be one of "
                                       f"'full', 'same', 'valid'"))
    from tapeflow.keras.ops import _result_dtype
    dtype = _result_dtype(x1, x2)
    dtype = "float64" if dtype == "int64" else dtype if dtype in ("bfloat16", "float16", "float64") else "float32"
    x1, x2 = tf.cast(x1, dtype), tf.cast(x2, dtype)
    n, m = x1.shape[0], x2.shape[0]
    if mode != "valid":
        x1 = tf.pad(x1, [[m - 1, m - 1]])
    out = tf.squeeze(tf.nn.conv1d(tf.reshape(x1, [1, -1, 1]), tf.reshape(x2, [-1, 1, 1]), 1, "VALID"), [0, 2])
    if mode == "same":
        start = (n + m - 1 - max(n, m)) // 2
        out = out[start:start + max(n, m)]
    return out


def _nan_arg(pick, fill):
    """nanargmax / nanargmin: NaNs replaced by -inf / inf; an all-NaN slice gives -1 (Keras's)."""
    def nan_arg(x, axis=None, keepdims=False):
        from tapeflow.keras import ops
        x = _t(x)
        if not x.dtype.is_floating:
            return getattr(ops, pick)(x, axis=axis, keepdims=keepdims)
        nan = tf.math.is_nan(x)
        found = getattr(ops, pick)(tf.where(nan, tf.constant(fill, x.dtype), x), axis=axis, keepdims=keepdims)
        return tf.where(tf.reduce_all(nan, axis=axis, keepdims=keepdims), tf.constant(-1, "int32"), found)
    nan_arg.__name__ = "nan" + pick
    return nan_arg


nanargmax = _nan_arg("argmax", float("-inf"))
nanargmin = _nan_arg("argmin", float("inf"))


def nancumsum(x, axis=None, dtype=None):
    from tapeflow.keras import ops
    return ops.cumsum(ops.nan_to_num(x), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    from tapeflow.keras import ops
    return ops.cumprod(ops.nan_to_num(x, nan=1.0), axis=axis, dtype=dtype)

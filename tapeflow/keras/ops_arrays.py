"""keras.ops array and bit functions over tapeflow ops, as Keras 3's TensorFlow backend gives
them: append, array_split, h/v/dsplit, diagflat, vander, meshgrid, trapezoid, the bitwise ops
and shifts (operands promoted as Keras does), logaddexp2, isneginf / isposinf and the
hamming / hanning / blackman / bartlett windows (float32), bincount, gcd / lcm, ldexp, i0 and
custom_gradient (tf.custom_gradient, as the TensorFlow backend's); kaiser, nextafter (computed
in float64, as Keras), unique (NumPy's options)."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.errors import with_location

__all__ = ["append", "array_split", "hsplit", "vsplit", "dsplit", "diagflat", "vander", "meshgrid", "trapezoid",
           "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_not", "bitwise_left_shift",
           "bitwise_right_shift", "left_shift", "right_shift", "logaddexp2", "isneginf", "isposinf", "hamming",
           "hanning", "blackman", "bartlett", "bincount", "gcd", "lcm", "ldexp", "i0", "custom_gradient",
           "cdist", "nextafter", "associative_scan", "linspace", "logspace", "geomspace", "get_item"]


def _t(x):
    return tf.convert_to_tensor(x)


def _ops():
    from tapeflow.keras import ops  # keras.ops imports this module: its promotion rule, looked up late
    return ops


def _promoted(*xs):
    xs = [_t(x) for x in xs]
    dtype = xs[0].dtype
    for x in xs[1:]:
        dtype = _ops()._result_dtype(tf.zeros([], dtype), x)
    return [x if x.dtype == dtype else tf.cast(x, dtype) for x in xs]


def append(x1, x2, axis=None):
    x1, x2 = _promoted(x1, x2)
    if axis is None:
        return tf.concat([tf.reshape(x1, [-1]), tf.reshape(x2, [-1])], 0)
    return tf.concat([x1, x2], axis)


def array_split(x, indices_or_sections, axis=0):
    """indices_or_sections parts, the first (size % parts) one longer, as NumPy's."""
    x = _t(x)
    total, parts = x.shape[axis], int(indices_or_sections)
    sizes = [total // parts + 1] * (total % parts) + [total // parts] * (parts - total % parts)
    return tf.split(x, sizes, axis=axis)


def hsplit(x, indices_or_sections):
    x = _t(x)
    return _ops().split(x, indices_or_sections, axis=0 if x.shape.rank == 1 else 1)


def vsplit(x, indices_or_sections):
    return _ops().split(x, indices_or_sections, axis=0)


def dsplit(x, indices_or_sections):
    return _ops().split(x, indices_or_sections, axis=2)


def diagflat(x, k=0):
    return _ops().diag(tf.reshape(_t(x), [-1]), k)


def vander(x, N=None, increasing=False):  # noqa: N803 - NumPy's name
    x = _t(x)
    n = x.shape[0] if N is None else N
    powers = tf.range(n) if increasing else tf.range(n - 1, -1, -1)
    wide = x.dtype if x.dtype in (tf.float64,) else tf.float32
    out = tf.pow(tf.cast(tf.expand_dims(x, -1), wide), tf.cast(powers, wide))
    return tf.cast(out, x.dtype)


def meshgrid(*x, indexing="xy"):
    return tf.meshgrid(*x, indexing=indexing)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = _t(y)
    y = y if y.dtype.is_floating else tf.cast(y, "float32")
    axis = axis % y.shape.rank
    last = [a for a in range(y.shape.rank) if a != axis] + [axis]
    y = tf.transpose(y, last)
    if x is None:
        width = tf.cast(dx, y.dtype)
    else:
        x = tf.cast(_t(x), y.dtype)
        width = _ops().diff(x, axis=axis if x.shape.rank > 1 else -1)
        width = tf.transpose(width, last) if width.shape.rank > 1 else width
    return tf.reduce_sum(0.5 * (y[..., 1:] + y[..., :-1]) * width, axis=-1)


def _bitwise(fn):
    def op(x, y):
        x, y = _promoted(x, y)
        return fn(x, y)
    return op


bitwise_and = _bitwise(tf.bitwise.bitwise_and)
bitwise_or = _bitwise(tf.bitwise.bitwise_or)
bitwise_xor = _bitwise(tf.bitwise.bitwise_xor)


def bitwise_invert(x):
    return tf.bitwise.invert(_t(x))


bitwise_not = bitwise_invert


def _shift(fn):
    def op(x, y):
        x = _t(x)
        if isinstance(y, int):
            return fn(x, tf.constant(y, x.dtype))
        x, y = _promoted(x, y)
        return fn(x, y)
    return op


bitwise_left_shift = left_shift = _shift(tf.bitwise.left_shift)
bitwise_right_shift = right_shift = _shift(tf.bitwise.right_shift)


def logaddexp2(x1, x2):
    x1, x2 = _promoted(x1, x2)
    if not x1.dtype.is_floating:
        x1, x2 = tf.cast(x1, "float32"), tf.cast(x2, "float32")
    delta = x1 - x2
    log2 = tf.cast(np.log(2.0), x1.dtype)
    return tf.where(tf.math.is_nan(delta), x1 + x2,
                    tf.maximum(x1, x2) + tf.math.log1p(tf.exp(-tf.abs(delta) * log2)) / log2)


def _is_inf(sign):
    def op(x):
        x = _t(x)
        if not x.dtype.is_floating:
            return tf.zeros_like(x, dtype="bool")
        return tf.equal(x, tf.cast(sign * np.inf, x.dtype))
    return op


isneginf, isposinf = _is_inf(-1.0), _is_inf(1.0)


def hamming(x):
    return tf.signal.hamming_window(int(x), periodic=False)


def hanning(x):
    return tf.signal.hann_window(int(x), periodic=False)


def blackman(x):
    n = tf.range(int(x), dtype="float32")
    span = max(int(x) - 1, 1)
    window = 0.42 - 0.5 * tf.cos(2 * np.pi * n / span) + 0.08 * tf.cos(4 * np.pi * n / span)
    return window if int(x) != 1 else tf.ones_like(window)


def bartlett(x):
    x = int(x)
    if x <= 1:
        return tf.ones([x], "float32")
    n = tf.range(x, dtype="float32")
    return tf.where(n <= (x - 1) / 2, 2.0 * n / (x - 1), 2.0 - 2.0 * n / (x - 1))


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts (int32) or summed weights (their promoted dtype) per value, along the last axis."""
    x = _t(x)
    x = x if x.dtype in (tf.int32, tf.int64) else tf.cast(x, "int32")
    dtype = "int32" if weights is None else _ops()._result_dtype(x, _t(weights))
    if weights is not None:
        w = _t(weights)
        weights = w if w.dtype in (tf.int32, tf.int64, tf.float32, tf.float64) else tf.cast(
            w, "int32" if w.dtype.is_integer else "float32")
    return tf.cast(tf.math.bincount(x, weights=weights, minlength=minlength, axis=-1), dtype)


def _integers(name, x1, x2):
    x1, x2 = _promoted(x1, x2)
    if not x1.dtype.is_integer:
        raise TypeError(f"Arguments to {name} must be integers. Received: x1.dtype={x1.dtype.name}, "
                        f"x2.dtype={x2.dtype.name}")
    return (x1, x2) if x1.dtype.is_unsigned else (tf.abs(x1), tf.abs(x2))


def gcd(x1, x2):
    a, b = _integers("gcd", x1, x2)
    a, b = tf.broadcast_to(a, tf.broadcast_static_shape(a.shape, b.shape)), b + tf.zeros_like(a)
    while bool(tf.reduce_any(b != 0)):  # Euclid's steps, every element at once
        safe = tf.where(b == 0, tf.ones_like(b), b)
        a, b = tf.where(b != 0, b, a), tf.where(b != 0, tf.math.floormod(a, safe), tf.zeros_like(b))
    return a


def lcm(x1, x2):
    a, b = _integers("lcm", x1, x2)
    divisor = gcd(a, b)
    out = a * (b // tf.where(divisor == 0, tf.ones_like(divisor), divisor))
    return tf.where(divisor == 0, tf.zeros_like(out), out)


def ldexp(x1, x2):
    """x1 * 2 ** x2 (x2 integers), in x1's float dtype (float32 for integers)."""
    x1, x2 = _t(x1), _t(x2)
    if not x2.dtype.is_integer:
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 dtype={x2.dtype}")
    x1 = x1 if x1.dtype.is_floating else tf.cast(x1, "float32")
    out = x1 * tf.pow(tf.constant(2.0, x1.dtype), tf.cast(x2, x1.dtype))
    return tf.where(tf.math.is_inf(x1) | (x1 == 0), x1, out)


def i0(x):
    x = _t(x)
    dtype = "float64" if x.dtype in (tf.int64, tf.float64) else x.dtype if x.dtype in (tf.float16, tf.bfloat16) \
        else "float32"
    return tf.math.bessel_i0(tf.cast(x, dtype))


custom_gradient = tf.custom_gradient


def cdist(x, y):
    """Euclidean distances between the rows of x and of y (batched over leading axes)."""
    x, y = _t(x), _t(y)
    if x.shape.rank < 2 or y.shape.rank < 2:
        raise ValueError(with_location(f"keras.ops.cdist: inputs must have rank >= 2; received shapes {x.shape} "
                                       f"and {y.shape}"))
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(with_location(f"keras.ops.cdist: the last dimensions of the inputs must match; received "
                                       f"shapes {x.shape} and {y.shape}"))
    diff = tf.expand_dims(x, -2) - tf.expand_dims(y, -3)
    return tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1))


def nextafter(x1, x2):
    """Computed in float64, answered in the operands' promoted float dtype (Keras's)."""
    dtype = _ops()._result_dtype(x1, x2, floating=True)
    return tf.cast(tf.math.nextafter(tf.cast(x1, "float64"), tf.cast(x2, "float64")), dtype)


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of an associative f over `axis` (elems: a tensor or a nest of them):
    out[i] = f(out[i - 1], elems[i]), or from the end with reverse=True.  Run step by step (f gets
    slices keeping the axis, of size 1), so a float f may round otherwise than Keras's tree."""
    flat = [_t(e) for e in tf.nest.flatten(elems)]
    n = int(flat[0].shape[axis])
    if any(int(e.shape[axis]) != n for e in flat):
        raise ValueError(f"Array inputs to associative_scan must have the same first dimension. (saw: "
                         f"{[tuple(e.shape) for e in flat]})")
    order = range(n - 1, -1, -1) if reverse else range(n)
    steps, carry = [], None
    for i in order:
        piece = [tf.gather(e, [i], axis=axis) for e in flat]
        carry = piece if carry is None else tf.nest.flatten(
            f(tf.nest.pack_sequence_as(elems, carry), tf.nest.pack_sequence_as(elems, piece)))
        steps.append(carry)
    if reverse:
        steps.reverse()
    outs = [tf.concat([step[k] for step in steps], axis=axis) for k in range(len(flat))]
    return tf.nest.pack_sequence_as(elems, outs)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """Keras 3's TensorFlow linspace: dtype = result_type(start, stop, float) unless given;
    endpoint=False spaces num steps over [start, stop); integer dtypes floor; retstep adds
    the step (NaN for fewer than two points)."""
    if num < 0:
        raise ValueError(f"`num` must be a non-negative integer. Received: num={num}")
    if dtype is None:
        kinds = [_ops()._kind(v) for v in (start, stop)]
        dtype = _ops()._promote(_ops()._promote(kinds[0], kinds[1]), float) or "float32"
    dtype = tf.as_dtype(dtype)
    work = dtype if dtype.is_floating else tf.float64  # (TF's linspace has float kernels only)
    start, stop = tf.cast(_t(start), work), tf.cast(_t(stop), work)
    step = tf.constant(float("nan"), work)
    if endpoint:
        result = tf.linspace(start, stop, num, axis=axis)
        step = (stop - start) / tf.cast(num - 1, work) if num > 1 else step
    else:
        step = (stop - start) / tf.cast(num, work) if num > 0 else step
        result = tf.linspace(start, stop - step if num > 1 else stop, num, axis=axis)
    if not dtype.is_floating:
        result = tf.floor(result)
    result = tf.cast(result, dtype)
    return (result, step) if retstep else result


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    result = linspace(start, stop, num=num, endpoint=endpoint, dtype=dtype, axis=axis)
    return tf.pow(tf.cast(base, result.dtype), result)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """logspace between log10|start| and log10|stop|, with start's sign (Keras's TF backend)."""
    start, stop = _t(start), _t(stop)
    work = dtype or "float32"
    log_start, log_stop = tf.math.log(tf.cast(tf.abs(start), work)), tf.math.log(tf.cast(tf.abs(stop), work))
    log_base = tf.math.log(tf.constant(10.0, log_start.dtype))
    result = logspace(log_start / log_base, log_stop / log_base, num=num, endpoint=endpoint, base=10,
                      dtype=dtype, axis=axis)
    return result * tf.cast(tf.sign(tf.cast(start, log_start.dtype)), result.dtype)


def get_item(x, key):
    return x[key]  # Keras 3: x's own indexing (a NumPy array gives NumPy)



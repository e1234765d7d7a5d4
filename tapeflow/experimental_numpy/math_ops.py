"""tnp elementwise math: NumPy ufuncs on tapeflow ops (NumPy promotion; ints go to float
where NumPy's ufunc would)."""
import math

import numpy as np

import tapeflow as tf
from tapeflow.experimental_numpy.dtypes import asarray, promote, as_float, result_type, settings

pi, e, inf = math.pi, math.e, float("inf")


def _float_unary(op):
    def unary(x):
        return op(as_float(x))
    return unary


def _binary(op):
    def binary(x1, x2):
        return op(*promote(x1, x2))
    return binary


def _float_binary(op):
    def binary(x1, x2):
        a, b = promote(x1, x2)
        if not (a.dtype.is_floating or a.dtype.is_complex):
            a, b = as_float(a), as_float(b)
        return op(a, b)
    return binary


sqrt, exp, expm1, log, log1p = (_float_unary(f) for f in (tf.sqrt, tf.exp, tf.math.expm1, tf.math.log, tf.math.log1p))
sin, cos, tan, sinh, cosh, tanh = (_float_unary(f) for f in (tf.sin, tf.cos, tf.tan, tf.sinh, tf.cosh, tf.tanh))
arcsin, arccos, arctan = (_float_unary(f) for f in (tf.asin, tf.acos, tf.atan))
arcsinh, arccosh, arctanh = (_float_unary(f) for f in (tf.asinh, tf.acosh, tf.atanh))


def _over_log(base):
    """x / log(base), as TF 2.21 computes it: a NumPy float64 log(base), so once numpy behavior's
    promotion is on in the operators the quotient of a float32 x is float64 (measured)."""
    def divide_by_log(x):
        if settings.get("numpy_operators"):
            x = tf.cast(x, result_type(x.dtype, np.float64))
        return x / tf.constant(math.log(base), x.dtype)
    return divide_by_log


def log2(x):
    return _over_log(2)(tf.math.log(as_float(x)))


def log10(x):
    return _over_log(10)(tf.math.log(as_float(x)))
exp2 = _float_unary(lambda x: tf.pow(tf.constant(2, x.dtype), x))
cbrt = _float_unary(lambda x: tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype)))
deg2rad = _float_unary(lambda x: x * tf.constant(math.pi / 180, x.dtype))
rad2deg = _float_unary(lambda x: x * tf.constant(180 / math.pi, x.dtype))


def fabs(x):
    return tf.abs(asarray(x))  # ints stay ints in TF 2.21 (measured)


def _no_int_kernel(name, x):
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise tf.errors.NotFoundError(None, None, f"tnp.{name}: no kernel for dtype {x.dtype.name} (as in TF 2.21)")


def reciprocal(x):
    x = asarray(x)
    _no_int_kernel("reciprocal", x)
    return tf.math.reciprocal(x)


def sinc(x):
    x = as_float(x)
    safe = tf.where(tf.equal(x, 0), tf.ones_like(x), x * math.pi)
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(safe) / safe)


def abs(x):  # noqa: A001 (NumPy's name)
    return tf.abs(asarray(x))


absolute = abs


def negative(x):
    return tf.negative(asarray(x))


def positive(x):
    return asarray(x)


def sign(x):
    return tf.sign(asarray(x))


def square(x):
    return tf.square(asarray(x))


# TF 2.21 rounds ints to the default float too (measured: floor of int32 is float64).
floor, ceil = _float_unary(tf.floor), _float_unary(tf.math.ceil)
fix = _float_unary(lambda x: tf.sign(x) * tf.floor(tf.abs(x)))


def around(a, decimals=0):
    a = asarray(a)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        return a  # ints round to themselves, keeping their dtype (measured)
    scale = tf.constant(10.0 ** decimals, a.dtype)
    return tf.round(a * scale) / scale


round = around  # noqa: A001


def real(val):
    return tf.math.real(asarray(val))


def imag(val):
    val = asarray(val)
    return tf.math.imag(val) if val.dtype.is_complex else tf.zeros_like(val)


def conj(x):
    return tf.math.conj(asarray(x))


conjugate = conj


def angle(z, deg=False):
    z = asarray(z)
    # TF 2.21: the angle of a real array is float32 whatever its dtype (measured).
    out = tf.math.angle(z) if z.dtype.is_complex else tf.where(
        z < 0, tf.constant(math.pi, tf.float32), tf.constant(0.0, tf.float32))
    return out * tf.constant(180 / math.pi, out.dtype) if deg else out


def isfinite(x):
    return tf.math.is_finite(as_float(x))


# TF 2.21 answers a plain Python False for the infinity tests of integer arrays (measured).
def _int_false(x):
    x = asarray(x)
    return x.dtype.is_integer or x.dtype == tf.bool


def isinf(x):
    if _int_false(x):
        return False
    return tf.math.is_inf(as_float(x))


def isnan(x):
    return tf.math.is_nan(as_float(x))


def isposinf(x):
    if _int_false(x):
        return False
    x = as_float(x)
    return tf.logical_and(tf.math.is_inf(x), x > 0)


def isneginf(x):
    if _int_false(x):
        return False
    x = as_float(x)
    return tf.logical_and(tf.math.is_inf(x), x < 0)


def signbit(x):
    x = asarray(x)
    if x.dtype == tf.bool:
        return tf.zeros_like(x)
    return x < 0  # TF 2.21: signbit(-0.0) is False (measured), unlike NumPy


def iscomplex(x):
    x = asarray(x)
    return tf.not_equal(tf.math.imag(x), 0) if x.dtype.is_complex else tf.zeros(tf.shape(x), tf.bool)


def isreal(x):
    return tf.logical_not(iscomplex(x))


add, subtract, multiply = _binary(tf.add), _binary(tf.subtract), _binary(tf.multiply)
maximum, minimum = _binary(tf.maximum), _binary(tf.minimum)
equal, not_equal = _binary(tf.equal), _binary(tf.not_equal)
less, less_equal, greater, greater_equal = (_binary(f) for f in (tf.less, tf.less_equal, tf.greater, tf.greater_equal))
floor_divide, remainder = _binary(tf.math.floordiv), _binary(tf.math.floormod)
mod = remainder


def _bitwise(name, op):
    def binary(x1, x2):
        a, b = promote(x1, x2)
        if not (a.dtype.is_integer or a.dtype == tf.bool):
            raise tf.errors.InvalidArgumentError(None, None, f"tnp.{name}: no kernel for dtype {a.dtype.name}")
        if a.dtype == tf.bool:
            return {"bitwise_and": tf.logical_and, "bitwise_or": tf.logical_or, "bitwise_xor": tf.math.logical_xor}[name](a, b)
        return op(a, b)
    return binary


bitwise_and = _bitwise("bitwise_and", tf.bitwise.bitwise_and)
bitwise_or = _bitwise("bitwise_or", tf.bitwise.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", tf.bitwise.bitwise_xor)
true_divide = divide = _float_binary(tf.divide)
hypot = _float_binary(lambda a, b: tf.sqrt(a * a + b * b))


def _float_kernel(name, op):
    """A binary op TF 2.21 runs without casting ints: those are InvalidArgumentError there."""
    def binary(x1, x2):
        a, b = promote(x1, x2)
        if not (a.dtype.is_floating or a.dtype.is_complex):
            raise tf.errors.InvalidArgumentError(None, None, f"tnp.{name}: no kernel for dtype {a.dtype.name}")
        return op(a, b)
    return binary


arctan2, nextafter = _float_kernel("arctan2", tf.atan2), _float_kernel("nextafter", tf.math.nextafter)
logaddexp = _float_binary(lambda a, b: tf.maximum(a, b) + tf.math.log1p(tf.exp(-tf.abs(a - b))))
logaddexp2 = _float_binary(lambda a, b: tf.maximum(a, b) + _over_log(2)(
    tf.math.log1p(tf.pow(tf.constant(2, a.dtype), -tf.abs(a - b)))))


def power(x1, x2):
    a, b = promote(x1, x2)
    return tf.pow(a, b)


float_power = power  # TF 2.21: ints stay ints (measured), unlike NumPy's float64


def divmod(x1, x2):  # noqa: A001
    return floor_divide(x1, x2), remainder(x1, x2)


def heaviside(x1, x2):
    a, b = promote(x1, x2)
    a, b = as_float(a), as_float(b)  # ints give the default float (measured)
    return tf.where(a < 0, tf.zeros_like(a), tf.where(tf.equal(a, 0), b, tf.ones_like(a)))


def _ints_only(name, a):
    if not a.dtype.is_integer:
        raise ValueError(f"tnp.{name}: arguments must be integer arrays, got {a.dtype.name}")


def gcd(x1, x2):
    a, b = promote(x1, x2)
    _ints_only("gcd", a)
    a, b = tf.abs(a), tf.abs(b)
    a, b = tf.broadcast_to(a, tf.shape(a + b)), tf.broadcast_to(b, tf.shape(a + b))
    cond = lambda a, b: tf.reduce_any(tf.not_equal(b, 0))  # noqa: E731
    step = lambda a, b: (tf.where(tf.equal(b, 0), a, b),  # noqa: E731
                         tf.where(tf.equal(b, 0), b, tf.math.floormod(a, tf.where(tf.equal(b, 0), tf.ones_like(b), b))))
    return tf.while_loop(cond, step, (a, b))[0]


def lcm(x1, x2):
    a, b = promote(x1, x2)
    _ints_only("lcm", a)
    g = gcd(a, b)
    safe = tf.where(tf.equal(g, 0), tf.ones_like(g), g)
    return tf.where(tf.equal(g, 0), tf.zeros_like(g), tf.abs(a // safe * b))


def bitwise_not(x):
    x = asarray(x)
    if not (x.dtype.is_integer or x.dtype == tf.bool):
        raise tf.errors.InvalidArgumentError(None, None, f"tnp.bitwise_not: no kernel for dtype {x.dtype.name}")
    return tf.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


def _logical(op):
    def logical(*xs):
        return op(*[tf.cast(asarray(x), tf.bool) for x in xs])
    return logical


logical_and, logical_or, logical_xor = _logical(tf.logical_and), _logical(tf.logical_or), _logical(tf.math.logical_xor)
logical_not = _logical(tf.logical_not)


def clip(a, a_min, a_max):
    a = asarray(a)
    if a_min is None and a_max is None:
        raise ValueError("tnp.clip: one of a_min and a_max must be given")
    if a_min is not None:
        a, low = promote(a, a_min)
        a = tf.maximum(a, low)
    if a_max is not None:
        a, high = promote(a, a_max)
        a = tf.minimum(a, high)
    return a


def iscomplexobj(x):
    return asarray(x).dtype.is_complex


def isrealobj(x):
    return not iscomplexobj(x)

"""tf.math.special: Bessel functions J0 J1 Y0 Y1 K0 K1 (and exp-scaled K0e K1e), Dawson's
integral, the exponential integral Ei, Fresnel's integrals and Spence's function.

One host primitive, `special_function`, whose `function` attr names an entry of FUNCTIONS:
(its float64 NumPy evaluation in special_numerics.py, its derivative in tapeflow ops).  Half
and float32 inputs are evaluated in float64 and rounded once.  Gradients are TensorFlow's
rules (d/dx j1 = j0 - j1 / x, 1/2 at 0; d/dx spence = ln x / (1 - x), -1 at 1; ...)."""
import numpy as np

import tapeflow as tf
from tapeflow import special_numerics as N
from tapeflow.runtime.errors import NotFoundError, dtype_not_supported, with_location
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import convert_to_tensor


def _over_x(y, x, at_zero):
    """y / x, `at_zero` where x == 0 (the limit of the rules below)."""
    safe = tf.where(tf.equal(x, 0), tf.ones_like(x), x)
    return tf.where(tf.equal(x, 0), tf.fill(tf.shape(x), tf.constant(at_zero, x.dtype)), y / safe)


def _spence_slope(x):
    safe = tf.where(tf.equal(x, 1), tf.zeros_like(x), x)
    return tf.where(tf.equal(x, 1), -tf.ones_like(x), tf.math.log(safe) / (1 - safe))


def _k(n, x):
    return N.bessel_ke(x, n) * np.exp(-x)


FUNCTIONS = {   # name: (float64 evaluation, derivative at x given the output y)
    "bessel_j0": (lambda x: N.bessel_j(x, 0), lambda x, y: -bessel_j1(x)),
    "bessel_j1": (lambda x: N.bessel_j(x, 1), lambda x, y: bessel_j0(x) - _over_x(y, x, 0.5)),
    "bessel_y0": (lambda x: N.bessel_y(x, 0), lambda x, y: -bessel_y1(x)),
    "bessel_y1": (lambda x: N.bessel_y(x, 1), lambda x, y: bessel_y0(x) - y / x),
    "bessel_k0": (lambda x: _k(0, x), lambda x, y: -bessel_k1(x)),
    "bessel_k1": (lambda x: _k(1, x), lambda x, y: -bessel_k0(x) - y / x),
    "bessel_k0e": (lambda x: N.bessel_ke(x, 0), lambda x, y: y - bessel_k1e(x)),
    "bessel_k1e": (lambda x: N.bessel_ke(x, 1), lambda x, y: -bessel_k0e(x) + y - y / x),
    "dawsn": (N.dawsn, lambda x, y: 1 - 2 * x * y),
    "expint": (N.expint, lambda x, y: tf.exp(x) / x),
    "fresnel_cos": (lambda x: N.fresnel(x, True), lambda x, y: tf.cos(np.pi / 2 * x * x)),
    "fresnel_sin": (lambda x: N.fresnel(x, False), lambda x, y: tf.sin(np.pi / 2 * x * x)),
    "spence": (N.spence, lambda x, y: _spence_slope(x)),
}


def _impl(xp, x, function):
    host = np.asarray(x if xp is np else x.get())
    with np.errstate(all="ignore"):
        out = FUNCTIONS[function][0](host.astype(np.float64)).astype(host.dtype)
    return out if xp is np else xp.asarray(out)


SPECIAL_FUNCTION = defprim("special_function", _impl, lambda x, function: Aval(x.shape, x.dtype),
                           lambda g, out, x, function: g * FUNCTIONS[function][1](x, out))


def _apply(function, x):
    x = convert_to_tensor(x)
    if x.dtype not in (tf.float16, tf.float32, tf.float64):
        raise dtype_not_supported(function, x)
    # TF's ops accept float16, but only the Bessel functions have a float16 kernel.
    if x.dtype == tf.float16 and not function.startswith("bessel"):
        raise NotFoundError(with_location(f"{function}: no kernel for float16 (TensorFlow has float32, float64)"))
    return bind(SPECIAL_FUNCTION, (x,), {"function": function})


def bessel_j0(x, name=None):
    """The Bessel function of the first kind J0."""
    return _apply("bessel_j0", x)


def bessel_j1(x, name=None):
    """The Bessel function of the first kind J1."""
    return _apply("bessel_j1", x)


def bessel_y0(x, name=None):
    """The Bessel function of the second kind Y0 (-inf for x <= 0)."""
    return _apply("bessel_y0", x)


def bessel_y1(x, name=None):
    """The Bessel function of the second kind Y1 (-inf for x <= 0)."""
    return _apply("bessel_y1", x)


def bessel_k0(x, name=None):
    """The modified Bessel function of the second kind K0 (inf for x <= 0)."""
    return _apply("bessel_k0", x)


def bessel_k1(x, name=None):
    """The modified Bessel function of the second kind K1 (inf for x <= 0)."""
    return _apply("bessel_k1", x)


def bessel_k0e(x, name=None):
    """K0(x) exp(x)."""
    return _apply("bessel_k0e", x)


def bessel_k1e(x, name=None):
    """K1(x) exp(x)."""
    return _apply("bessel_k1e", x)


def dawsn(x, name=None):
    """Dawson's integral exp(-x^2) int_0^x exp(t^2) dt."""
    return _apply("dawsn", x)


def expint(x, name=None):
    """The exponential integral Ei(x) (nan for x < 0)."""
    return _apply("expint", x)


def fresnel_cos(x, name=None):
    """int_0^x cos(pi t^2 / 2) dt."""
    return _apply("fresnel_cos", x)


def fresnel_sin(x, name=None):
    """int_0^x sin(pi t^2 / 2) dt."""
    return _apply("fresnel_sin", x)


def spence(x, name=None):
    """Spence's function int_1^x ln t / (1 - t) dt (nan for x < 0)."""
    return _apply("spence", x)

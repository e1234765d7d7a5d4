"""Modified Bessel functions of the first kind: tf.math.bessel_i0e / bessel_i1e (scaled
by exp(-|x|)) as primitives, bessel_i0 / bessel_i1 on top (i_n = i_ne * exp(|x|)).

Both are evaluated in float64: the power series sum_k (x^2/4)^k / (k! (k + n)!) up to
|x| = 30, and beyond it the large-argument expansion of I_n(x) exp(-x) sqrt(2 pi x)
(whose terms shrink while k < 2|x|); both reach ~1e-15 relative error.  i0e is even,
i1e odd.  Gradients are TensorFlow's rules:
  i0e' = i1e - sign(x) i0e          i1e' = i0e - i1e (sign(x) + 1/x)   (0.5 at x = 0)
"""
import numpy as np

from .. import shape_rules as R
from ..registry import defprim
from . import array_ops as A
from . import math_ops as M

_SERIES_TERMS = 90
_ASYMPTOTIC_TERMS = 30
_SWITCH = 30.0


def _scaled(xp, x, order):
    ax = xp.abs(x.astype(np.float64))
    small = ax <= _SWITCH
    # Power series (as I_n(x) exp(-x)); only where |x| <= 30, so nothing overflows.
    s = xp.where(small, ax, 0.0)
    q = s * s / 4
    term = xp.ones_like(s)
    total = xp.ones_like(s)
    for k in range(1, _SERIES_TERMS):
        term = term * q / (k * (k + order))
        total = total + term
    series = total * (s / 2) ** order * xp.exp(-s)
    # Large |x|: exp(-x) I_n(x) ~ (2 pi x)^-1/2 sum_k (-1)^k prod_j (4n^2 - (2j - 1)^2) / (k! (8x)^k)
    big = xp.where(small, _SWITCH + 1, ax)
    mu = 4.0 * order * order
    term = xp.ones_like(big)
    total = xp.ones_like(big)
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * big)
        total = total + term
    asymptotic = total / xp.sqrt(2 * np.pi * big)
    out = xp.where(small, series, asymptotic)
    if order == 1:
        out = xp.where(x < 0, -out, out)
    return out.astype(x.dtype)


def _i1e_vjp(g, out, x):
    eps = float(np.finfo(x.dtype.np).eps)
    not_tiny = M.greater(M.abs(x), eps)
    safe = A.where(not_tiny, x, A.zeros_like(x) + eps)
    slope = bessel_i0e(safe) - out * (M.sign(safe) + M.reciprocal(safe))
    return g * A.where(not_tiny, slope, A.zeros_like(x) + 0.5)


BESSEL_I0E = defprim("bessel_i0e", lambda xp, x: _scaled(xp, x, 0), R.floating,
                     lambda g, out, x: g * (bessel_i1e(x) - M.sign(x) * out), kind="unary")
BESSEL_I1E = defprim("bessel_i1e", lambda xp, x: _scaled(xp, x, 1), R.floating, _i1e_vjp, kind="unary")


def bessel_i0e(x, name=None):
    """exp(-|x|) I0(x)."""
    return M.float_unary(BESSEL_I0E, x)


def bessel_i1e(x, name=None):
    """exp(-|x|) I1(x)."""
    return M.float_unary(BESSEL_I1E, x)


def bessel_i0(x, name=None):
    """The modified Bessel function I0(x)."""
    scaled = bessel_i0e(x)
    return scaled * M.exp(M.abs(M.cast(x, scaled.dtype)))


def bessel_i1(x, name=None):
    """The modified Bessel function I1(x)."""
    scaled = bessel_i1e(x)
    return scaled * M.exp(M.abs(M.cast(x, scaled.dtype)))


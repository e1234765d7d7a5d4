"""Hurwitz zeta, the regularized incomplete gamma (igamma, igammac) and beta (betainc)
functions, and polygamma of any order on zeta.  Evaluated in float64 with NumPy:

- zeta(x, q) = sum_k (q + k)^-x: terms summed until q + k >= 10, then the Euler-Maclaurin
  tail with Bernoulli numbers B_2..B_24 (x < 1: NaN; x = 1 or q a non-positive integer: inf).
- igamma(a, x) = P(a, x): the series of x^a e^-x / Gamma(a + 1) for x < a + 1, otherwise
  1 - Q from the continued fraction of Q (modified Lentz); igammac = 1 - igamma likewise.
- betainc(a, b, x): the continued fraction of I_x(a, b) (Lentz), with the symmetry
  I_x(a, b) = 1 - I_(1-x)(b, a) where x > (a + 1) / (a + b + 2).
The loops run until every element has converged (to ~1e-15 relative).

Gradients are TensorFlow's: zeta w.r.t. q (-x zeta(x + 1, q)), igamma / igammac and
betainc w.r.t. x (their densities), igamma / igammac w.r.t. `a` (the derivative of the
series or of the continued fraction, by the complex step; its own derivative raises).
"""
import math

import numpy as np

from .. import shape_rules as R
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import Tensor
from . import array_ops as A
from . import math_ops as M
from . import special_ops as SP

_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798,
              -174611 / 330, 854513 / 138, -236364091 / 2730)  # B_2, B_4, ..., B_24
_EPS = 1e-16
_MAX_ITERATIONS = 100000
_lgamma64 = np.frompyfunc(lambda v: math.lgamma(v) if v > 0 or v != math.floor(v) else math.inf, 1, 1)


def _lgamma(v):
    return np.asarray(_lgamma64(v), np.float64)


def _binary_rule(a, b, **_):
    if a.dtype is not b.dtype or not a.dtype.is_floating:
        raise TypeError(f"expects two floating-point tensors of one dtype, got {a.dtype.name} and {b.dtype.name}")
    return Aval(R.broadcast_shapes(a.shape, b.shape), a.dtype)


def _ternary_rule(a, b, x, **_):
    _binary_rule(a, b)
    _binary_rule(a, x)
    return Aval(R.broadcast_shapes(R.broadcast_shapes(a.shape, b.shape), x.shape), a.dtype)


def _float64(*arrays):
    out = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in arrays])
    return [np.array(v) for v in out]


# --- zeta ----------------------------------------------------------------------------------
def _zeta64(x, q):
    with np.errstate(all="ignore"):
        total = np.zeros_like(q)
        z = q.copy()
        steps = int(np.clip(np.ceil(10 - np.nanmin(q, initial=10.0)), 0, _MAX_ITERATIONS))
        for _ in range(steps):
            low = z < 10
            total = total + np.where(low, z ** -x, 0.0)
            z = np.where(low, z + 1, z)
        tail = z ** (1 - x) / (x - 1) + 0.5 * z ** -x
        rising = x.copy()  # x (x + 1) ... (x + 2j - 2)
        power = z ** (-x - 1)
        fact = 2.0
        for j, b in enumerate(_BERNOULLI, start=1):
            tail = tail + b / fact * rising * power
            rising = rising * (x + 2 * j - 1) * (x + 2 * j)
            power = power / (z * z)
            fact = fact * (2 * j + 1) * (2 * j + 2)
        out = total + tail
        out = np.where(x == 1, np.inf, out)
        out = np.where(x < 1, np.nan, out)
        pole = (q <= 0) & (q == np.floor(q))
        out = np.where(pole, np.inf, out)
        return np.where((q < 0) & ~pole & (x != np.floor(x)), np.nan, out)


def _zeta_impl(xp, x, q):
    return _zeta64(*_float64(x, q)).astype(x.dtype)


ZETA = defprim("zeta", _zeta_impl, _binary_rule,
               lambda g, out, x, q: (None, g * -x * zeta(x + 1, q)))


def zeta(x, q, name=None):
    """The Hurwitz zeta function sum_k (q + k)^-x."""
    x, q = M.binary_args(x, q, "zeta")
    return bind(ZETA, (x, q), {})


def polygamma(a, x, name=None):
    """The a-th derivative of digamma: (-1)^(a+1) a! zeta(a + 1, x); NaN for a non-integer or negative a."""
    known = a if isinstance(a, (int, float, np.number)) else \
        a.numpy() if isinstance(a, Tensor) and a.shape.rank == 0 else None
    if known is not None and float(known) in (0.0, 1.0):  # digamma / trigamma's own series
        return SP.polygamma(int(known), x)
    a, x = M.binary_args(a, x, "polygamma")
    bad = M.logical_or(M.not_equal(a, M.floor(a)), M.less(a, 0))
    n1 = A.where(M.logical_or(bad, M.equal(a, 0)), A.ones_like(a) + 1.0, a + 1)  # (no warnings where unused)
    sign = 1.0 - 2.0 * (n1 - 2.0 * M.floor(n1 / 2.0))  # (-1)^(a + 1) for integer a
    higher = sign * M.exp(SP.lgamma(n1)) * zeta(n1, x)
    out = A.where(M.equal(a, 0), SP.digamma(x), higher)
    return A.where(bad, A.zeros_like(out) + float("nan"), out)


# --- igamma / igammac ----------------------------------------------------------------------
def _log_prefactor(a, x):
    return a * np.log(x) - x - _lgamma(a)


def _small(step, total):
    """|step| <= eps |total|, for a complex step (the complex-step derivative) in both parts: the
    imaginary part carries the derivative, and must converge too."""
    if not np.iscomplexobj(step):
        return np.abs(step) <= np.abs(total) * _EPS
    return (np.abs(step.real) <= np.abs(total.real) * _EPS) & (
        np.abs(step.imag) <= np.abs(np.asarray(total).imag) * _EPS + _STEP * _EPS)


def _gamma_series(a, x):
    """P(a, x) by its series (used where x < a + 1)."""
    return _series_sum(a, x) * np.exp(_log_prefactor(a, x))


def _series_sum(a, x):
    """S(a, x) = sum_n x^n / (a (a + 1) ... (a + n)), P = x^a e^-x S / Gamma(a); `a` may be complex."""
    term = 1.0 / a
    total = term.copy()
    n = a.copy()
    for _ in range(_MAX_ITERATIONS):
        n = n + 1
        term = term * x / n
        total = total + term
        if np.all(_small(term, total) | ~np.isfinite(total)):
            break
    return total


def _lentz(a_n, b_n, b0):
    """The continued fraction b0 + a_1 / (b_1 + a_2 / (b_2 + ...)) by the modified Lentz method."""
    tiny = 1e-300
    f = np.where(b0 == 0, tiny, b0)
    c, d = f.copy(), np.zeros_like(f)
    for i in range(1, _MAX_ITERATIONS):
        an, bn = a_n(i), b_n(i)
        d = bn + an * d
        d = np.where(d == 0, tiny, d)
        c = bn + an / c
        c = np.where(c == 0, tiny, c)
        d = 1 / d
        delta = c * d
        f = f * delta
        if np.all(_small(delta - 1, f / f.real if np.iscomplexobj(f) else 1.0) | ~np.isfinite(f)):
            break
    return f


def _fraction(a, x):
    """F(a, x), Q = x^a e^-x / (Gamma(a) F); `a` may be complex."""
    return _lentz(lambda i: -i * (i - a), lambda i: x + 2 * i + 1 - a, x + 1 - a)


def _gamma_fraction(a, x):
    """Q(a, x) by its continued fraction (used where x >= a + 1)."""
    return np.exp(_log_prefactor(a, x)) / _fraction(a, x)


_STEP = 1e-30  # the complex step: d f(a) / da = Im f(a + i h) / h, exact to rounding (no cancellation)


def _igamma_da64(a, x):
    """dP(a, x) / da (dQ / da is its negative): d ln P / da = ln x - psi(a) + S' / S below
    x = a + 1, d ln Q / da = ln x - psi(a) - F' / F above, S' and F' by the complex step."""
    with np.errstate(all="ignore"):
        use_series = x < a + 1
        good_a, good_x = np.where(a > 0, a, 1.0), np.where(x > 0, x, 1.0)
        a_s, x_s = np.where(use_series, good_a, 1.0), np.where(use_series, good_x, 0.5)
        total = _series_sum(a_s + 1j * _STEP, x_s)
        p = total.real * np.exp(_log_prefactor(a_s, x_s))
        d_series = p * (np.log(x_s) - SP._digamma(np, a_s) + total.imag / (_STEP * total.real))  # noqa: SLF001
        a_f, x_f = np.where(use_series, 1.0, good_a), np.where(use_series | ~np.isfinite(x), 3.0, good_x)
        frac = _fraction(a_f + 1j * _STEP, x_f)
        q = np.exp(_log_prefactor(a_f, x_f)) / frac.real
        d_fraction = -q * (np.log(x_f) - SP._digamma(np, a_f) - frac.imag / (_STEP * frac.real))  # noqa: SLF001
        out = np.where(use_series, d_series, d_fraction)
        out = np.where((x == 0) | (np.isinf(x) & (x > 0)), 0.0, out)
        return np.where((a <= 0) | (x < 0) | np.isnan(a) | np.isnan(x), np.nan, out)


def _igamma_impl(xp, a, x, upper, wrt_a=False):
    a64, x64 = _float64(a, x)
    out = (-1 if upper else 1) * _igamma_da64(a64, x64) if wrt_a else _igamma64(a64, x64, upper)
    return out.astype(a.dtype)


def _igamma_vjp(g, out, a, x, upper, wrt_a=False):
    if wrt_a:
        raise NotImplementedError(with_location("igamma: the second derivative with respect to a is not implemented"))
    sign = -1 if upper else 1
    return (g * bind(IGAMMAC if upper else IGAMMA, (a, x), {"wrt_a": True}), sign * g * _density(a, x))


def _igamma64(a, x, upper):
    with np.errstate(all="ignore"):
        use_series = x < a + 1
        xs, as_ = np.where(use_series, x, 1.0), np.where(use_series, a, 1.0)
        xf, af = np.where(use_series | ~np.isfinite(x), 3.0, x), np.where(use_series, 1.0, a)
        p = _gamma_series(np.where(as_ > 0, as_, 1.0), np.where(xs > 0, xs, 1.0))
        q = _gamma_fraction(np.where(af > 0, af, 1.0), np.where(xf > 0, xf, 1.0))
        out = np.where(use_series, 1 - p if upper else p, q if upper else 1 - q)
        out = np.where(x == 0, 1.0 if upper else 0.0, out)
        out = np.where(np.isinf(x) & (x > 0), 0.0 if upper else 1.0, out)
        return np.where((a <= 0) | (x < 0) | np.isnan(a) | np.isnan(x), np.nan, out)


def _density(a, x):
    """d P(a, x) / dx = x^(a-1) e^-x / Gamma(a)."""
    return M.exp((a - 1) * M.log(x) - x - SP.lgamma(a))


# wrt_a=True: the node of d/da (P's or Q's), the a-gradient of the plain node.
IGAMMA = defprim("igamma", lambda xp, a, x, wrt_a=False: _igamma_impl(xp, a, x, False, wrt_a), _binary_rule,
                 lambda g, out, a, x, wrt_a=False: _igamma_vjp(g, out, a, x, False, wrt_a))
IGAMMAC = defprim("igammac", lambda xp, a, x, wrt_a=False: _igamma_impl(xp, a, x, True, wrt_a), _binary_rule,
                  lambda g, out, a, x, wrt_a=False: _igamma_vjp(g, out, a, x, True, wrt_a))


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function P(a, x)."""
    a, x = M.binary_args(a, x, "igamma")
    return bind(IGAMMA, (a, x), {})


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    a, x = M.binary_args(a, x, "igammac")
    return bind(IGAMMAC, (a, x), {})


# --- betainc -------------------------------------------------------------------------------
def _beta_fraction(a, b, x):
    """I_x(a, b) by its continued fraction (accurate where x < (a + 1) / (a + b + 2))."""
    def a_n(i):
        m = i // 2
        if i % 2:
            return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
    frac = _lentz(a_n, lambda i: np.ones_like(x), np.ones_like(x))
    log_front = a * np.log(x) + b * np.log1p(-x) - (_lgamma(a) + _lgamma(b) - _lgamma(a + b)) - np.log(a)
    return np.exp(log_front) / frac


def _betainc64(a, b, x):
    with np.errstate(all="ignore"):
        flip = x > (a + 1) / (a + b + 2)
        inner = np.clip(np.where(flip, 1 - x, x), 1e-300, 1.0)
        aa, bb = np.where(flip, b, a), np.where(flip, a, b)
        ok = (aa > 0) & (bb > 0)
        value = _beta_fraction(np.where(ok, aa, 1.0), np.where(ok, bb, 1.0), np.where(inner < 1, inner, 0.5))
        out = np.where(flip, 1 - value, value)
        out = np.where(x == 0, 0.0, np.where(x == 1, 1.0, out))
        return np.where((a <= 0) | (b <= 0) | (x < 0) | (x > 1) | np.isnan(a + b + x), np.nan, out)


def _betainc_vjp(g, out, a, b, x):
    # d I_x(a, b) / dx = x^(a-1) (1 - x)^(b-1) / B(a, b); TensorFlow gives no gradient for a and b.
    log_beta = SP.lgamma(a) + SP.lgamma(b) - SP.lgamma(a + b)
    return None, None, g * M.exp((a - 1) * M.log(x) + (b - 1) * M.log1p(-x) - log_beta)


BETAINC = defprim("betainc", lambda xp, a, b, x: _betainc64(*_float64(a, b, x)).astype(a.dtype),
                  _ternary_rule, _betainc_vjp)


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b)."""
    a, b = M.binary_args(a, b, "betainc")
    a, x = M.binary_args(a, x, "betainc")
    return bind(BETAINC, (a, b, x), {})

"""NumPy float64 evaluations of tf.math.special's functions (our own methods, no SciPy):

  bessel_j0/j1, y0/y1   power series for |x| <= 8; Gauss-Legendre quadrature of Bessel's
                        integrals for 8 < |x| <= 25; Hankel's expansion beyond (terms summed
                        while they shrink)
  bessel_k0/k1(e)       power series for x <= 2; the trapezoidal rule on
                        K_n(x) e^x = int_0^inf exp(-x (cosh t - 1)) cosh(n t) dt for 2 < x <= 20
                        (exponentially accurate: an even analytic integrand); expansion beyond
  dawsn                 Gauss-Legendre on int_0^x exp(-u (2x - u)) du for |x| <= 8; expansion beyond
  expint                Ei(x) = gamma + ln x + sum x^k / (k k!) for 0 < x <= 40; the expansion beyond
  fresnel_cos/sin       power series for |x| <= 2.5; Gauss-Legendre for |x| <= 8; the auxiliary
                        functions' expansions beyond
  spence                Li2(1 - x) by its power series where |1 - x| <= 1/2, else by reflection
                        (x < 1/2) or Landen's identity with reflection (x > 3/2)
Each reaches ~1e-13 absolute (relative where the value is small only near the switch-overs'
far side of zeros).  Inputs are float64 arrays; callers cast.
"""
import math

import numpy as np

_EULER = 0.5772156649015329
_CHUNK = 8192


def _gauss_legendre(fn, lo, hi, nodes):
    """int_lo^hi fn(t) dt per element (lo, hi arrays; fn takes t of shape [n, nodes])."""
    t, w = np.polynomial.legendre.leggauss(nodes)
    out = np.empty(lo.shape)
    for s in range(0, lo.size, _CHUNK):            # bounded memory: [chunk, nodes] at a time
        a, b = lo.reshape(-1)[s:s + _CHUNK, None], hi.reshape(-1)[s:s + _CHUNK, None]
        half = (b - a) / 2
        out.reshape(-1)[s:s + _CHUNK] = (fn(a + half * (t + 1), s) * w).sum(1) * half[:, 0]
    return out


def _series(start, ratio, count):
    """sum_k term_k with term_0 = start and term_{k} = term_{k-1} * ratio(k)."""
    term, total = start, start.copy()
    for k in range(1, count):
        term = term * ratio(k)
        total = total + term
    return total


def _asymptotic(x, coef, count=60):
    """sum_k c_k / x^k with c_k = c_{k-1} * coef(k), stopping per element when terms grow."""
    term, total, live = np.ones_like(x), np.ones_like(x), np.ones(x.shape, bool)
    for k in range(1, count):
        nxt = term * coef(k) / x
        live &= np.abs(nxt) < np.abs(term)
        term = np.where(live, nxt, 0.0)
        total = total + term
    return total


def _by_region(x, regions):
    """out[mask] = fn(x[mask]) for (mask, fn) in order; the first mask that holds wins."""
    out, done = np.full(x.shape, np.nan), np.zeros(x.shape, bool)
    for mask, fn in regions:
        pick = mask & ~done
        if pick.any():
            out[pick] = fn(x[pick])
        done |= pick
    return out


# ---- Bessel functions of the first and second kind ------------------------------------
def _j_series(x, n):
    q = -x * x / 4
    return _series((x / 2) ** n / math.factorial(n), lambda k: q / (k * (k + n)), 60)


def _y_series(x, n):
    """Y_n by its log-plus-power series (n = 0, 1; x > 0)."""
    q = -x * x / 4
    log_part = 2 / np.pi * np.log(x / 2) * _j_series(x, n)
    term, harmonic_k, harmonic_kn = (x / 2) ** n / math.factorial(n), 0.0, sum(1 / j for j in range(1, n + 1))
    total = term * (harmonic_k + harmonic_kn - 2 * _EULER)
    for k in range(1, 60):
        term = term * q / (k * (k + n))
        harmonic_k += 1 / k
        harmonic_kn += 1 / (k + n)
        total = total + term * (harmonic_k + harmonic_kn - 2 * _EULER)
    tail = -1 / (np.pi * x / 2) if n == 1 else 0.0
    return log_part - total / np.pi + tail


def _jy_quadrature(x, n, second):
    """(1/pi) int_0^pi cos(n t - x sin t) dt, and for Y the sine form minus the decaying tail."""
    zero, pi = np.zeros_like(x), np.full_like(x, np.pi)
    if not second:
        return _gauss_legendre(lambda t, s: np.cos(n * t - x.reshape(-1)[s:s + _CHUNK, None] * np.sin(t)),
                               zero, pi, 96) / np.pi
    ring = _gauss_legendre(lambda t, s: np.sin(x.reshape(-1)[s:s + _CHUNK, None] * np.sin(t) - n * t), zero, pi, 96)
    top = np.arcsinh(45 / x)                       # exp(-x sinh t) < e^-45 beyond
    tail = _gauss_legendre(lambda t, s: (np.exp(n * t) + (-1) ** n * np.exp(-n * t))
                           * np.exp(-x.reshape(-1)[s:s + _CHUNK, None] * np.sinh(t)), zero, top, 64)
    return (ring - tail) / np.pi


def _jy_hankel(x, n, second):
    mu = 4.0 * n * n
    p = _asymptotic(x * x, lambda k: -(mu - (4 * k - 3) ** 2) * (mu - (4 * k - 1) ** 2) / (64.0 * (2 * k - 1) * 2 * k))
    q = _asymptotic(x * x, lambda k: -(mu - (4 * k - 1) ** 2) * (mu - (4 * k + 1) ** 2) / (64.0 * 2 * k * (2 * k + 1)))
    q = q * (mu - 1) / (8 * x)
    phase = x - (n / 2 + 0.25) * np.pi
    amp = np.sqrt(2 / (np.pi * x))
    if second:
        return amp * (p * np.sin(phase) + q * np.cos(phase))
    return amp * (p * np.cos(phase) - q * np.sin(phase))


def bessel_j(x, n):
    ax = np.abs(x)
    out = _by_region(ax, [(ax <= 8, lambda v: _j_series(v, n)), (ax <= 25, lambda v: _jy_quadrature(v, n, False)),
                          (np.isfinite(ax), lambda v: _jy_hankel(v, n, False))])   # nan at +-inf, as TF
    return np.where(x < 0, -out, out) if n == 1 else out


def bessel_y(x, n):
    # TensorFlow's conventions outside the domain: -inf for x <= 0, nan at +inf.
    return _by_region(x, [(x <= 0, lambda v: np.full_like(v, -np.inf)), (x <= 8, lambda v: _y_series(v, n)),
                          (x <= 25, lambda v: _jy_quadrature(v, n, True)),
                          (x < np.inf, lambda v: _jy_hankel(v, n, True))])


# ---- modified Bessel functions of the second kind, scaled by e^x ------------------------
def _i_series(x, n):
    q = x * x / 4
    return _series((x / 2) ** n / math.factorial(n), lambda k: q / (k * (k + n)), 40)


def _k_series(x, n):
    """K_n(x) e^x for 0 < x <= 2."""
    q = x * x / 4
    log_part = -np.log(x / 2) * _i_series(x, n) * (-1) ** n
    term, harmonic_k, harmonic_kn = (x / 2) ** n / math.factorial(n), 0.0, sum(1 / j for j in range(1, n + 1))
    total = term * (harmonic_k + harmonic_kn - 2 * _EULER)
    for k in range(1, 40):
        term = term * q / (k * (k + n))
        harmonic_k += 1 / k
        harmonic_kn += 1 / (k + n)
        total = total + term * (harmonic_k + harmonic_kn - 2 * _EULER)
    value = log_part + total / 2 if n == 0 else log_part - total / 2 + 1 / x
    return value * np.exp(x)


def _k_trapezoid(x, n, step=0.05):
    t = np.arange(0.0, 4.6, step)                 # x (cosh t - 1) > 45 by t = 4.6 for x > 2
    out = np.empty(x.shape)
    for s in range(0, x.size, _CHUNK):
        v = x[s:s + _CHUNK, None]
        f = np.exp(-v * (np.cosh(t) - 1)) * np.cosh(n * t)
        out[s:s + _CHUNK] = step * (f.sum(1) - f[:, 0] / 2)
    return out


def _k_asymptotic(x, n):
    mu = 4.0 * n * n
    return np.sqrt(np.pi / (2 * x)) * _asymptotic(x, lambda k: (mu - (2 * k - 1) ** 2) / (8.0 * k))


def bessel_ke(x, n):
    """K_n(x) e^x (inf for x <= 0, as TensorFlow)."""
    return _by_region(x, [(x <= 0, lambda v: np.full_like(v, np.inf)), (x <= 2, lambda v: _k_series(v, n)),
                          (x <= 20, lambda v: _k_trapezoid(v, n)), (x < np.inf, lambda v: _k_asymptotic(v, n)),
                          (x == np.inf, np.zeros_like)])


# ---- Dawson's integral, the exponential integral, Fresnel integrals, Spence ----------------
def dawsn(x):
    ax = np.abs(x)

    def inner(v):
        top = np.minimum(v, 40 / v)                # the integrand is below e^-40 beyond
        return _gauss_legendre(lambda u, s: np.exp(-u * (2 * v.reshape(-1)[s:s + _CHUNK, None] - u)),
                               np.zeros_like(v), top, 64)
    out = _by_region(ax, [(ax == 0, np.zeros_like), (ax <= 8, inner),
                          (ax < np.inf, lambda v: _asymptotic(2 * v * v, lambda k: 2 * k - 1.0) / (2 * v)),
                          (ax == np.inf, np.zeros_like)])
    return np.where(x < 0, -out, out)


def expint(x):
    """Ei(x) for x > 0 (TensorFlow: nan for x < 0 and at +inf, -inf at 0)."""
    def series(v):
        return _EULER + np.log(np.abs(v)) + _series(v, lambda k: v * k / ((k + 1) ** 2), 120)

    return _by_region(x, [(x < 0, lambda v: v * np.nan), (x == 0, lambda v: np.full_like(v, -np.inf)),
                          (x <= 40, series), (x < np.inf, lambda v: np.exp(v) / v * _asymptotic(v, lambda k: float(k)))])


def _fresnel_series(x, cosine):
    q = -(np.pi * x * x / 2) ** 2
    if cosine:
        return _series(x, lambda k: q * (4 * k - 3) / ((2 * k - 1) * 2 * k * (4 * k + 1)), 60)
    start = np.pi / 6 * x ** 3
    return _series(start, lambda k: q * (4 * k - 1) / (2 * k * (2 * k + 1) * (4 * k + 3)), 60)


def _fresnel_aux(x, cosine):
    z = np.pi * x * x
    f = _asymptotic(z * z, lambda k: -(4 * k - 1.0) * (4 * k - 3.0)) / (np.pi * x)
    g = _asymptotic(z * z, lambda k: -(4 * k + 1.0) * (4 * k - 1.0)) / (np.pi * z * x)
    s, c = np.sin(z / 2), np.cos(z / 2)
    return 0.5 + f * s - g * c if cosine else 0.5 - f * c - g * s


def fresnel(x, cosine):
    ax = np.abs(x)
    trig = np.cos if cosine else np.sin

    def quadrature(v):
        return _gauss_legendre(lambda t, s: trig(np.pi / 2 * t * t), np.zeros_like(v), v, 192)
    out = _by_region(ax, [(ax <= 2.5, lambda v: _fresnel_series(v, cosine)), (ax <= 8, quadrature),
                          (ax < np.inf, lambda v: _fresnel_aux(v, cosine)), (ax == np.inf, lambda v: np.full_like(v, 0.5))])
    return np.where(x < 0, -out, out)


def _dilog_series(z):
    return _series(z, lambda k: z * k * k / ((k + 1) ** 2), 70)


def spence(x):
    """int_1^x ln t / (1 - t) dt = Li2(1 - x), x >= 0 (nan below)."""
    pi2_6 = np.pi ** 2 / 6

    def reflected(v):                              # Li2(z) = pi^2/6 - ln z ln(1 - z) - Li2(1 - z), z = 1 - v
        log_product = np.where(v == 0, 0.0, np.log1p(-v) * np.log(np.where(v == 0, 1.0, v)))
        return pi2_6 - log_product - _dilog_series(v)

    def landen(v):                                 # Li2(z) = -Li2(z / (z - 1)) - ln^2(1 - z) / 2
        w = (v - 1) / v
        inner = np.where(w <= 0.5, _dilog_series(w), reflected(1 / v)) if w.size else w
        return -inner - np.log(v) ** 2 / 2
    return _by_region(x, [(x < 0, lambda v: v * np.nan), (x < 0.5, reflected), (x <= 1.5, lambda v: _dilog_series(1 - v)),
                          (x < np.inf, landen)])

"""The error-function family beyond erf: erfc, and the inverses erfinv, ndtri, erfcinv.

erfc is its own primitive because 1 - erf(x) loses every digit once erf(x) rounds to 1
(erfc(5) = 1.5e-12 is below float32's ulp of 1); it maps math.erfc over the array.

The inverses share one primitive, `inverse_normal` (attribute `of`: "ndtri" or "erfinv"):
both solve a normal-distribution equation, evaluated in float64 and rounded to the input's
dtype.  The start is Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4) and three Halley steps
on Phi(x) = q make it exact to float64 rounding (Halley's step triples the digits).  The
tail side is always solved (q = min(p, 1 - p), x <= 0) so that Phi is computed through
erfc without cancellation.  erfinv(y) near 0 is refined by Newton steps on erf itself:
going through p = (1 + y) / 2 would keep only an absolute, not a relative, precision.
Outside the domain the result is NaN; at its ends +-inf (TensorFlow's values).
"""
import math

import numpy as np

from .. import shape_rules as R
from ..errors import with_location
from ..registry import bind, defprim
from ..tensor import convert_to_tensor
from . import math_ops as M

_SQRT2 = math.sqrt(2.0)
_erfc64 = np.frompyfunc(math.erfc, 1, 1)
_erf64 = np.frompyfunc(math.erf, 1, 1)


def _as64(fn, x):
    return np.asarray(fn(x), dtype=np.float64)


def _erfc_impl(xp, x):
    if xp is np:
        return _as64(_erfc64, x.astype(np.float64)).astype(x.dtype)
    import cupyx.scipy.special
    return cupyx.scipy.special.erfc(x)


def _erfc_vjp(g, out, x):
    return g * (-2 / math.sqrt(math.pi)) * M.exp(-(x * x))


ERFC = defprim("erfc", _erfc_impl, R.floating, _erfc_vjp, kind="unary")


def _lower_tail(q):
    """x <= 0 with Phi(x) = q for 0 < q <= 1/2 (float64 arrays)."""
    t = np.sqrt(-2.0 * np.log(q))
    x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))))
    for _ in range(3):
        phi = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        u = (0.5 * _as64(_erfc64, -x / _SQRT2) - q) / phi
        x = x - u / (1 + 0.5 * x * u)
    return x


def _ndtri64(p):
    q = np.minimum(p, 1 - p)
    inside = q > 0
    x = np.zeros_like(p)
    x[inside] = _lower_tail(q[inside])
    x = np.where(p > 0.5, -x, np.where(p == 0.5, 0.0, x))
    x = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, x))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, x)


def _erfinv64(y):
    a = np.abs(y)
    # |y| >= 1/2: 1 - |y| is exact (Sterbenz), and erfinv(y) = -ndtri((1 - |y|) / 2) / sqrt(2)
    x = -_ndtri64((1 - a) / 2) / _SQRT2
    near = a < 0.5
    z = _ndtri64((1 + a[near]) / 2) / _SQRT2
    for _ in range(2):
        z = z - (_as64(_erf64, z) - a[near]) / (2 / math.sqrt(math.pi) * np.exp(-z * z))
    x[near] = z
    return np.copysign(x, y)


def _inverse_normal_impl(xp, x, of):
    if xp is not np:
        raise NotImplementedError(f"{of}: runs on the CPU only (NumPy arrays)")
    x64 = x.astype(np.float64).reshape(-1)  # 1-d: a 0-d array's arithmetic gives NumPy scalars
    with np.errstate(divide="ignore", invalid="ignore"):
        out = _ndtri64(x64) if of == "ndtri" else _erfinv64(x64)
    return out.astype(x.dtype).reshape(x.shape)


def _inverse_normal_vjp(g, out, x, of):
    # ndtri' = sqrt(2 pi) exp(ndtri^2 / 2);  erfinv' = sqrt(pi) / 2 exp(erfinv^2)
    if of == "ndtri":
        return g * math.sqrt(2 * math.pi) * M.exp(out * out / 2)
    return g * (math.sqrt(math.pi) / 2) * M.exp(out * out)


INVERSE_NORMAL = defprim("inverse_normal", _inverse_normal_impl, lambda x, of: R.floating(x), _inverse_normal_vjp)


def erfc(x, name=None):
    """1 - erf(x), accurate where erf(x) is near 1."""
    return M.float_unary(ERFC, x)


def _inverse(x, of):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise TypeError(with_location(f"{of} expects a floating-point tensor, got {x.dtype.name} {list(x.shape)}"))
    return bind(INVERSE_NORMAL, (x,), {"of": of})


def ndtri(x, name=None):
    """The inverse of the standard normal CDF (the probit): NaN outside [0, 1], -+inf at 0 and 1."""
    return _inverse(x, "ndtri")


def erfinv(x, name=None):
    """The inverse of erf: NaN outside [-1, 1], -+inf at -1 and 1."""
    return _inverse(x, "erfinv")


def erfcinv(x, name=None):
    """The inverse of erfc on [0, 2]: erfcinv(x) = -ndtri(x / 2) / sqrt(2)."""
    return M.multiply(ndtri(M.multiply(x, 0.5)), -1 / _SQRT2)

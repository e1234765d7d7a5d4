"""Special functions and less common elementwise math: lgamma, digamma (and the
trigamma that is digamma's derivative), cumprod; composites xlogy, xlog1py,
xdivy, truncatediv, truncatemod, polyval, reciprocal_no_nan and in_top_k.

NumPy has no gamma-family functions, so lgamma maps math.lgamma over the
array and digamma / trigamma use recurrence up to x >= 10 plus their asymptotic
series (reflection for x < 1/2); both are accurate to ~1e-14 in float64.
"""
import math

import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import with_location
from ..registry import bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import math_ops as M
from . import reduce_ops as RD
from . import sort_ops

_NO_ATTRS = {}


def _lgamma_scalar(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole: 0, -1, -2, ...
        return math.inf


def _lgamma_impl(xp, x):
    if xp is np:
        return np.asarray(np.frompyfunc(_lgamma_scalar, 1, 1)(x), dtype=x.dtype)
    import cupyx.scipy.special
    return cupyx.scipy.special.gammaln(x)


def _shift_up(xp, x, term):
    """Recurrence: sum of term(x + k) for the k that bring x to >= 10, and the shifted x."""
    acc = xp.zeros_like(x)
    for _ in range(10):
        small = x < 10
        acc = acc + xp.where(small, term(x), 0)
        x = xp.where(small, x + 1, x)
    return acc, x


def _digamma_impl(xp, x):
    with np.errstate(divide="ignore", invalid="ignore"):  # the poles give inf / NaN by design
        return _digamma(xp, x)


def _digamma(xp, x):
    x64 = x.astype(np.float64)
    reflect = x64 < 0.5
    z = xp.where(reflect, 1 - x64, x64)
    acc, z = _shift_up(xp, z, lambda v: 1 / v)
    inv2 = 1 / (z * z)
    series = xp.log(z) - 0.5 / z - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (
        1 / 240 - inv2 * (1 / 132)))))
    out = series - acc
    # psi(x) = psi(1 - x) - pi / tan(pi x)
    out = xp.where(reflect, out - math.pi / xp.tan(math.pi * x64), out)
    out = xp.where((x64 <= 0) & (x64 == xp.floor(x64)), np.nan, out)
    return out.astype(x.dtype)


def _trigamma_impl(xp, x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return _trigamma(xp, x)


def _trigamma(xp, x):
    x64 = x.astype(np.float64)
    reflect = x64 < 0.5
    z = xp.where(reflect, 1 - x64, x64)
    acc, z = _shift_up(xp, z, lambda v: 1 / (v * v))
    inv = 1 / z
    inv2 = inv * inv
    series = inv + inv2 / 2 + inv * inv2 * (1 / 6 - inv2 * (1 / 30 - inv2 * (1 / 42 - inv2 * (1 / 30))))
    out = series + acc
    # psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x)
    out = xp.where(reflect, (math.pi / xp.sin(math.pi * x64)) ** 2 - out, out)
    out = xp.where((x64 <= 0) & (x64 == xp.floor(x64)), np.inf, out)
    return out.astype(x.dtype)


LGAMMA = defprim("lgamma", _lgamma_impl, R.floating, lambda g, out, x: g * digamma(x), kind="unary")
DIGAMMA = defprim("digamma", _digamma_impl, R.floating, lambda g, out, x: g * bind(TRIGAMMA, (x,), _NO_ATTRS),
                  kind="unary")
# polygamma(1, x); no gradient of its own (digamma is differentiable once).
TRIGAMMA = defprim("trigamma", _trigamma_impl, R.floating, None, kind="unary")


def lgamma(x, name=None):
    """log |Gamma(x)| (+inf at the poles 0, -1, -2, ...)."""
    return M.float_unary(LGAMMA, x)


def digamma(x, name=None):
    """The derivative of lgamma (NaN at the poles)."""
    return M.float_unary(DIGAMMA, x)


def polygamma(a, x, name=None):
    """polygamma(0, x) = digamma, polygamma(1, x) = trigamma (higher orders are not supported)."""
    order = int(a.numpy() if hasattr(a, "numpy") else a)
    if order == 0:
        return digamma(x)
    if order == 1:
        return M.float_unary(TRIGAMMA, x)
    raise NotImplementedError(with_location(f"polygamma: only orders 0 and 1 are supported, got {order}"))


# --- cumprod -----------------------------------------------------------------------------
def _cumprod_impl(xp, x, axis, exclusive, reverse):
    return sort_ops.scan_impl(xp, x, axis, exclusive, reverse, xp.cumprod, xp.ones_like)


def _cumprod_vjp(g, out, x, axis, exclusive, reverse):
    # TensorFlow's rule: a reversed cumsum of out * g, divided by x with div_no_nan (so 0
    # where x == 0, TF's value there, though the derivative itself is not 0)
    from . import sort_ops
    return M.div_no_nan(sort_ops.cumsum(out * g, axis, exclusive=exclusive, reverse=not reverse), x)


CUMPROD = defprim("cumprod", _cumprod_impl, lambda x, axis, exclusive, reverse: R.same(x), _cumprod_vjp)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    x = convert_to_tensor(x)
    if x.dtype.is_bool:
        raise TypeError(with_location("cumprod: bool tensors cannot be multiplied; cast them first"))
    attrs = {"axis": A.static_axis(axis, x.shape.rank, "cumprod"), "exclusive": bool(exclusive),
             "reverse": bool(reverse)}
    return bind(CUMPROD, (x,), attrs)


# --- nextafter ------------------------------------------------------------------------------
# The next representable value after x toward y; piecewise constant, so no gradient (TF's too).
NEXTAFTER = defprim("nextafter", lambda xp, x, y: xp.nextafter(x, y), R.broadcast, None, kind="binary")


def nextafter(x1, x2, name=None):
    x, y = M.binary_args(x1, x2, "nextafter")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(with_location(f"nextafter expects float32 or float64 tensors, got {x.dtype.name}"))
    return bind(NEXTAFTER, (x, y), _NO_ATTRS)


# --- composites ------------------------------------------------------------------------------
def _x_times(fn, x, y, op):
    """x * fn(y), and 0 where x == 0 (even where fn(y) is inf or NaN)."""
    x, y = M.binary_args(x, y, op)
    if not x.dtype.is_floating:
        raise TypeError(with_location(f"{op} expects floating-point tensors, got {x.dtype.name}"))
    zero_x = M.equal(x, 0)
    safe_y = A.where(zero_x, A.ones_like(y * x), y)  # fn of a harmless value where x == 0
    return A.where(zero_x, A.zeros_like(x * y), x * fn(safe_y))


def xlogy(x, y, name=None):
    return _x_times(M.log, x, y, "xlogy")


def xlog1py(x, y, name=None):
    return _x_times(M.log1p, x, y, "xlog1py")


def xdivy(x, y, name=None):
    return _x_times(M.reciprocal, x, y, "xdivy")


def reciprocal_no_nan(x, name=None):
    x = convert_to_tensor(x)
    return M.div_no_nan(A.ones_like(x), x)


def truncatediv(x, y, name=None):
    """x / y rounded toward zero (C's integer division)."""
    x, y = M.binary_args(x, y, "truncatediv")
    if x.dtype.is_bool:
        raise TypeError(with_location("truncatediv: bool tensors cannot be divided"))
    if x.dtype.is_unsigned:
        return M.floordiv(x, y)
    # floor division moved up by one where the quotient is negative and inexact (no abs():
    # abs(INT_MIN) overflows and gave a wrong quotient)
    q = M.floordiv(x, y)
    inexact = M.logical_and(M.not_equal(M.mod(x, y), 0), M.not_equal(M.less(x, 0), M.less(y, 0)))
    return q + M.cast(inexact, q.dtype)


def truncatemod(x, y, name=None):
    """The remainder of truncatediv: it has the sign of x (C's fmod)."""
    x, y = M.binary_args(x, y, "truncatemod")
    return x - truncatediv(x, y) * y


def polyval(coeffs, x, name=None):
    """coeffs[0] * x^(n-1) + ... + coeffs[n-1], by Horner's rule."""
    x = convert_to_tensor(x)
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(with_location(f"polyval: coeffs must be a list, got {type(coeffs).__name__}"))
    if not coeffs:
        return A.zeros_like(x)
    p = M.add(A.zeros_like(x), coeffs[0])
    for c in coeffs[1:]:
        p = M.add(p * x, c)
    return p


def in_top_k(targets, predictions, k, name=None):
    """Whether each row's target class is among its k highest predictions (ties count as in;
    an out-of-range target or a non-finite prediction gives False)."""
    preds = convert_to_tensor(predictions)
    t = convert_to_tensor(targets)
    if preds.dtype is not dtypes.float32:    # TF converts predictions to float32 (a ValueError otherwise)
        raise ValueError(with_location(f"in_top_k: predictions must be float32, got {preds.dtype.name}"))
    if preds.shape.rank != 2 or t.shape.rank != 1 or not t.dtype.is_integer:
        raise ValueError(with_location(
            f"in_top_k: predictions must be [batch, classes] and targets [batch] integers, got "
            f"{preds.dtype.name}{list(preds.shape)} and {t.dtype.name}{list(t.shape)}"))
    n = preds.shape[1] if preds.shape[1] is not None else A.shape(preds, t.dtype)[1]
    valid = M.logical_and(M.greater_equal(t, 0), M.less(t, n))
    picked = G.gather(preds, A.expand_dims(A.where(valid, t, A.zeros_like(t)), -1), axis=1, batch_dims=1)
    above = RD.reduce_sum(M.cast(M.greater(preds, picked), dtypes.int32), -1)
    finite = RD.reduce_all(M.is_finite(preds), -1)
    return M.logical_and(M.logical_and(valid, finite), M.less(above, int(k)))

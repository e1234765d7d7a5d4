"""Inverse trigonometric and hyperbolic functions: sinh, asin, acos, atan, asinh,
acosh, atanh.  Elementwise primitives (floating inputs), fused in compiled code
through their C templates; gradients written in tapeflow ops, as TF defines them."""
from .. import shape_rules as R
from ..registry import defprim
from . import math_ops as M


def _u(name, impl, vjp):
    return defprim(name, impl, R.floating, vjp, kind="unary")


def _one_minus_square(x):
    return 1 - x * x


SINH = _u("sinh", lambda xp, x: xp.sinh(x), lambda g, out, x: g * M.cosh(x))
ASIN = _u("asin", lambda xp, x: xp.arcsin(x), lambda g, out, x: g * M.rsqrt(_one_minus_square(x)))
ACOS = _u("acos", lambda xp, x: xp.arccos(x), lambda g, out, x: -(g * M.rsqrt(_one_minus_square(x))))
ATAN = _u("atan", lambda xp, x: xp.arctan(x), lambda g, out, x: g / (1 + x * x))
# TF writes these through the output: d asinh = 1 / cosh(y), d acosh = 1 / sinh(y).
ASINH = _u("asinh", lambda xp, x: xp.arcsinh(x), lambda g, out, x: g / M.cosh(out))
ACOSH = _u("acosh", lambda xp, x: xp.arccosh(x), lambda g, out, x: g / sinh(out))
ATANH = _u("atanh", lambda xp, x: xp.arctanh(x), lambda g, out, x: g / _one_minus_square(x))


def _public(prim):
    """The tf.math function of a floating unary primitive: refuses non-floating input."""
    def op(x, name=None):
        return M.float_unary(prim, x)
    op.__name__ = op.__qualname__ = prim.name
    return op


sinh, asin, acos, atan = _public(SINH), _public(ASIN), _public(ACOS), _public(ATAN)
asinh, acosh, atanh = _public(ASINH), _public(ACOSH), _public(ATANH)

"""Elementwise primitives and their composites.

Each `defprim` row: name, eager impl over `xp`, shape/dtype rule and VJP in
tapeflow ops.  The fused-kernel template of each lives in the compiler's kernel
table (compiler/c_templates.py), keyed by the primitive's name.
"""
import math

import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import UnimplementedError, arg_error, dtype_not_supported, with_location
from ..registry import bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from .division import floordiv_impl, mod_impl
from . import complex_ops as C
from . import erf_numpy
# binary_args, dtype_mismatch and float_unary are also reached as M.<name> by the other op modules.
from .elementwise_args import apply_binary, apply_unary, binary_args, dtype_mismatch, float_unary, \
    tensor_dtypes_match  # noqa: F401

_NO_ATTRS = {}


def _erf_impl(xp, x):
    if xp is np:
        return erf_numpy.erf(x)
    import cupyx.scipy.special  # CuPy keeps erf there (cupy.special does not exist)
    return cupyx.scipy.special.erf(x)


def _u(name, impl, vjp, rule=R.same, **kw):
    return defprim(name, impl, rule, vjp, kind="unary", **kw)


def _b(name, impl, vjp, rule=R.broadcast, **kw):
    return defprim(name, impl, rule, vjp, kind="binary", **kw)


# --- unary --------------------------------------------------------------------
# `rejects`: dtype kinds TF has no kernel for (b bool, u unsigned) -- measured against TF 2.21.
NEG = _u("neg", lambda xp, x: xp.negative(x), lambda g, out, x: negative(g), rejects="bu")
ABS = _u("abs", lambda xp, x: xp.abs(x), lambda g, out, x: _abs_vjp(g, out, x),  # complex: its real dtype
         lambda x: R.Aval(x.shape, x.dtype.real_dtype), rejects="bu")
# TensorFlow's sign has a zero gradient (not None), so gradient() returns zeros.
SIGN = _u("sign", lambda xp, x: xp.sign(x), lambda g, out, x: A.zeros_like(g), rejects="bu")
# Complex inputs too (R.inexact); the gradient is g * conj(f'(x)) (see complex_ops).
EXP = _u("exp", lambda xp, x: xp.exp(x), lambda g, out, x: g * C.conj(out), R.inexact)
EXPM1 = _u("expm1", lambda xp, x: xp.expm1(x), lambda g, out, x: g * C.conj(out + 1), R.inexact)
LOG = _u("log", lambda xp, x: xp.log(x), lambda g, out, x: g / C.conj(x), R.inexact)
LOG1P = _u("log1p", lambda xp, x: xp.log1p(x), lambda g, out, x: g / C.conj(x + 1), R.inexact)
SQRT = _u("sqrt", lambda xp, x: xp.sqrt(x), lambda g, out, x: g / C.conj(out * 2), R.inexact)
RSQRT = _u("rsqrt", lambda xp, x: 1 / xp.sqrt(x), lambda g, out, x: g * C.conj(out * out * out * -0.5),
           R.inexact)
SIN = _u("sin", lambda xp, x: xp.sin(x), lambda g, out, x: g * C.conj(cos(x)), R.inexact)
COS = _u("cos", lambda xp, x: xp.cos(x), lambda g, out, x: -(g * C.conj(sin(x))), R.inexact)
TAN = _u("tan", lambda xp, x: xp.tan(x), lambda g, out, x: g * C.conj(out * out + 1), R.inexact)
COSH = _u("cosh", lambda xp, x: xp.cosh(x),
          lambda g, out, x: g * C.conj((exp(x) - exp(negative(x))) * 0.5), R.inexact)
# The VJP binds TANH_GRAD itself: out and g are tensors of one dtype and shape already
# (tanh_grad()'s argument checks are a good part of an RNN step's backward).
TANH = _u("tanh", lambda xp, x: xp.tanh(x), lambda g, out, x: bind(TANH_GRAD, (out, g), _NO_ATTRS), R.inexact)
# sigmoid is a primitive, not exp-based composite, because 1/(1+exp(-x))
# overflows to a NaN gradient for large |x| and the fused kernel wants one node.
SIGMOID = _u("sigmoid", lambda xp, x: _sigmoid_impl(xp, x), lambda g, out, x: g * C.conj(out * (1 - out)), R.inexact)
ERF = _u("erf", _erf_impl, lambda g, out, x: g * (2 / math.sqrt(math.pi)) * exp(-(x * x)), R.floating)
FLOOR = _u("floor", lambda xp, x: xp.floor(x), None, R.floating)
CEIL = _u("ceil", lambda xp, x: xp.ceil(x), None, R.floating)
ROUND = _u("round", lambda xp, x: xp.round(x), None)  # half to even
# relu is a primitive so that its gradient at 0 is 0 (TensorFlow's choice).
# The VJP binds RELU_GRAD itself (out and g: one dtype and shape).
RELU = _u("relu", lambda xp, x: xp.maximum(x, 0).astype(x.dtype, copy=False),
          lambda g, out, x: bind(RELU_GRAD, (out, g), _NO_ATTRS))


def _abs_vjp(g, out, x):
    if not x.dtype.is_complex:
        return g * sign(x)
    # d|z| = re(conj(z/|z|) dz): TensorFlow's z/|z|, 0 at z = 0
    return div_no_nan(C.complex(g, A.zeros_like(g)) * x, C.complex(out, A.zeros_like(out)))


def _sigmoid_impl(xp, x):
    # Stable in both tails: exp only of non-positive numbers (complex: the plain formula).
    # bfloat16: in float32, rounded once (TF's one kernel; ml_dtypes would round each step)
    if x.dtype.kind == "c":
        return 1 / (1 + xp.exp(-x))
    v = x.astype(np.float32) if dtypes.accumulator(x.dtype) else x
    e = xp.exp(-xp.abs(v))
    return xp.where(v >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


LOGICAL_NOT = _u("logical_not", lambda xp, x: xp.logical_not(x), None)  # bools only: logical_not checks
INVERT = _u("invert", lambda xp, x: xp.invert(x), None)


# --- binary -------------------------------------------------------------------
def _pow_vjp(g, out, x, y, needs=(True, True)):
    # `needs` (vjp_needs): x ** 2 of a constant exponent skips the exponent's log and selects.
    if x.dtype.is_complex:  # no ordering: the principal branch, as TensorFlow's
        return (g * C.conj(y * pow(x, y - 1)) if needs[0] else None), (g * C.conj(out * log(x)) if needs[1] else None)
    gx = g * y * pow(x, y - 1) if needs[0] else None
    if not needs[1]:
        return gx, None
    safe_x = A.where(x > 0, x, A.ones_like(x))
    return gx, g * out * A.where(x > 0, log(safe_x), A.zeros_like(x))


ADD = _b("add", lambda xp, x, y: xp.add(x, y), lambda g, out, x, y: (g, g), rejects="b")
SUB = _b("sub", lambda xp, x, y: xp.subtract(x, y), lambda g, out, x, y: (g, negative(g)), rejects="b")
def _mul_vjp(g, out, x, y, needs=(True, True)):
    return (g * C.conj(y) if needs[0] else None), (g * C.conj(x) if needs[1] else None)


def _div_vjp(g, out, x, y, needs=(True, True)):
    return (g / C.conj(y) if needs[0] else None), (-(g * C.conj(out)) / C.conj(y) if needs[1] else None)


MUL = _b("mul", lambda xp, x, y: xp.multiply(x, y), _mul_vjp, vjp_needs=True)  # bool: logical and
DIV = _b("div", lambda xp, x, y: xp.true_divide(x, y), _div_vjp, rejects="b", vjp_needs=True)
FLOORDIV = _b("floordiv", floordiv_impl, None, rejects="b")
MOD = _b("mod", mod_impl, lambda g, out, x, y: (g, -(g * floor(x / y))), rejects="b")
POW = _b("pow", lambda xp, x, y: xp.power(x, y), _pow_vjp, rejects="b", vjp_needs=True)
MAXIMUM = _b("maximum", lambda xp, x, y: xp.maximum(x, y),
             lambda g, out, x, y: (A.where(x >= y, g, A.zeros_like(g)), A.where(x >= y, A.zeros_like(g), g)),
             rejects="b")
MINIMUM = _b("minimum", lambda xp, x, y: xp.minimum(x, y),
             lambda g, out, x, y: (A.where(x <= y, g, A.zeros_like(g)), A.where(x <= y, A.zeros_like(g), g)),
             rejects="b")
def _tanh_grad_impl(xp, y, dy):
    d = 1 - y * y
    return dy * (xp.conj(d) if d.dtype.kind == "c" else d)


def _tanh_grad_vjp(g, out, y, dy):
    # The second derivative, as the tape of the three ops dy * conj(1 - y*y) gives it.
    gy = C.conj(g * C.conj(dy)) * C.conj(y)
    return -(gy + gy), g * (1 - y * y)


# tanh's gradient dy * conj(1 - y*y) from its output y (TensorFlow's TanhGrad), one primitive
# rather than three ops: an eager RNN's backward pass runs it every step, where each op is a
# dispatch of its own.  The values are those of the three ops (the same NumPy expression).
TANH_GRAD = _b("tanh_grad", _tanh_grad_impl, _tanh_grad_vjp)
# relu's gradient from its output y (TF's ReluGrad, a product: inf/NaN dy at y <= 0 gives NaN, NaN y
# gives 0; ~8x quicker than xp.where on NumPy), in one dispatch.  Linear in dy; y carries none.
RELU_GRAD = _b("relu_grad", lambda xp, y, dy: dy * (y > 0),
               lambda g, out, y, dy: (None, bind(RELU_GRAD, (y, g), _NO_ATTRS)))


ATAN2 = _b("atan2", lambda xp, x, y: xp.arctan2(x, y),
           lambda g, out, x, y: (g * y / (x * x + y * y), -(g * x) / (x * x + y * y)))
EQUAL = _b("equal", lambda xp, x, y: xp.equal(x, y), None, R.compare)
NOT_EQUAL = _b("not_equal", lambda xp, x, y: xp.not_equal(x, y), None, R.compare)
LESS = _b("less", lambda xp, x, y: xp.less(x, y), None, R.order, rejects="b")
LESS_EQUAL = _b("less_equal", lambda xp, x, y: xp.less_equal(x, y), None, R.order, rejects="b")
GREATER = _b("greater", lambda xp, x, y: xp.greater(x, y), None, R.order, rejects="b")
GREATER_EQUAL = _b("greater_equal", lambda xp, x, y: xp.greater_equal(x, y), None, R.order, rejects="b")
LOGICAL_AND = _b("logical_and", lambda xp, x, y: xp.logical_and(x, y), None)
LOGICAL_OR = _b("logical_or", lambda xp, x, y: xp.logical_or(x, y), None)
LOGICAL_XOR = _b("logical_xor", lambda xp, x, y: xp.logical_xor(x, y), None)
BITWISE_AND = _b("bitwise_and", lambda xp, x, y: xp.bitwise_and(x, y), None)
BITWISE_OR = _b("bitwise_or", lambda xp, x, y: xp.bitwise_or(x, y), None)
BITWISE_XOR = _b("bitwise_xor", lambda xp, x, y: xp.bitwise_xor(x, y), None)
LEFT_SHIFT = _b("left_shift", lambda xp, x, y: xp.left_shift(x, y), None)
RIGHT_SHIFT = _b("right_shift", lambda xp, x, y: xp.right_shift(x, y), None)


def _cast_rule(x, dtype, **_):
    return R.Aval(x.shape, dtype)


def _cast_vjp(g, out, x, dtype):
    if x.dtype.is_inexact and dtype.is_inexact:
        return cast(g, x.dtype)  # complex to real drops the imaginary part, as TensorFlow's
    return None


def _cast_impl(xp, x, dtype):
    if x.dtype.kind == "c" and dtype.np.kind != "c":  # TensorFlow: the real part (bool: nonzero)
        return (x != 0) if dtype.is_bool else xp.real(x).astype(dtype.np)
    return x.astype(dtype.np)


CAST = defprim("cast", _cast_impl, _cast_rule, _cast_vjp, kind="unary")


# --- wrappers -----------------------------------------------------------------
def add(x, y, name=None):
    return apply_binary(ADD, x, y)


def subtract(x, y, name=None):
    return apply_binary(SUB, x, y)


def multiply(x, y, name=None):
    return apply_binary(MUL, x, y)


def truediv(x, y, name=None):
    """x / y: integers as float64 (int8/16 as float32); tensors of two dtypes: TF's TypeError, both modes."""
    tensor_dtypes_match(x, y)
    x, y = binary_args(x, y, "truediv")
    if x.dtype.is_bool:  # TF refuses before any kernel: TypeError in both modes
        raise TypeError(with_location(f"truediv: x and y must not be bool, got {x.dtype.name} and {y.dtype.name}"))
    if not x.dtype.is_inexact:
        target = dtypes.float32 if x.dtype.size <= 2 else dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return bind(DIV, (x, y), _NO_ATTRS)


def divide(x, y, name=None):
    return truediv(x, y)


def div_no_nan(x, y, name=None):
    x, y = binary_args(x, y, "div_no_nan")
    safe = A.where(equal(y, 0), A.ones_like(y), y)
    return A.where(equal(y, 0), A.zeros_like(x * y), x / safe)


def floordiv(x, y, name=None):
    return apply_binary(FLOORDIV, x, y)


floor_div = floordiv


def mod(x, y, name=None):
    return apply_binary(MOD, x, y)


floormod = mod


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    return apply_binary(POW, x, y)


def maximum(x, y, name=None):
    return apply_binary(MAXIMUM, x, y)


def minimum(x, y, name=None):
    return apply_binary(MINIMUM, x, y)


def atan2(y, x, name=None):
    return apply_binary(ATAN2, y, x)


def squared_difference(x, y, name=None):
    d = subtract(x, y)
    return d * C.conj(d)  # complex: TensorFlow's |x - y|^2


def equal(x, y, name=None):
    return apply_binary(EQUAL, x, y)


def not_equal(x, y, name=None):
    return apply_binary(NOT_EQUAL, x, y)


def less(x, y, name=None):
    return apply_binary(LESS, x, y)


def less_equal(x, y, name=None):
    return apply_binary(LESS_EQUAL, x, y)


def greater(x, y, name=None):
    return apply_binary(GREATER, x, y)


def greater_equal(x, y, name=None):
    return apply_binary(GREATER_EQUAL, x, y)


def _logical(prim, x, y):
    x, y = binary_args(x, y, prim.name)
    if not x.dtype.is_bool:  # TF: the kernel's InvalidArgumentError eagerly, TypeError while tracing
        raise dtype_not_supported(prim.name, x)
    return bind(prim, (x, y), _NO_ATTRS)


def logical_and(x, y, name=None):
    return _logical(LOGICAL_AND, x, y)


def logical_or(x, y, name=None):
    return _logical(LOGICAL_OR, x, y)


def logical_xor(x, y, name=None):
    return _logical(LOGICAL_XOR, x, y)


def logical_not(x, name=None):
    x = convert_to_tensor(x)
    if not x.dtype.is_bool:
        raise dtype_not_supported("logical_not", x)
    return apply_unary(LOGICAL_NOT, x)


def _bitwise(prim, x, *y):
    args = binary_args(x, y[0], prim.name) if y else (convert_to_tensor(x),)
    kind = args[0].dtype
    if not (kind.is_integer or kind.is_bool):  # TF: the kernel's error eagerly, a TypeError when traced
        raise arg_error(TypeError, with_location(f"{prim.name} expects integer or bool tensors, got {kind.name}"))
    return bind(prim, args, _NO_ATTRS)


def bitwise_and(x, y, name=None):
    return _bitwise(LOGICAL_AND if _both_bool(x, y) else BITWISE_AND, x, y)


def bitwise_or(x, y, name=None):
    return _bitwise(LOGICAL_OR if _both_bool(x, y) else BITWISE_OR, x, y)


def bitwise_xor(x, y, name=None):
    return _bitwise(LOGICAL_XOR if _both_bool(x, y) else BITWISE_XOR, x, y)


def left_shift(x, y, name=None):
    return _bitwise(LEFT_SHIFT, x, y)


def right_shift(x, y, name=None):
    return _bitwise(RIGHT_SHIFT, x, y)


def invert(x, name=None):
    x = convert_to_tensor(x)
    return _bitwise(LOGICAL_NOT if x.dtype.is_bool else INVERT, x)


def _both_bool(x, y):
    return getattr(x, "dtype", None) == dtypes.bool_ or getattr(y, "dtype", None) == dtypes.bool_


def negative(x, name=None):
    return apply_unary(NEG, x)


def abs(x, name=None):  # noqa: A001
    return apply_unary(ABS, x)


def sign(x, name=None):
    return apply_unary(SIGN, x)


def square(x, name=None):
    x = convert_to_tensor(x)
    if x.dtype.is_bool:  # x * x is defined for bool (logical and); TF's Square is not
        raise dtype_not_supported("square", x)
    return multiply(x, x)


def reciprocal(x, name=None):
    x = convert_to_tensor(x)
    return truediv(A.ones_like(x), x)


def exp(x, name=None):
    return float_unary(EXP, x)


def expm1(x, name=None):
    return float_unary(EXPM1, x)


def log(x, name=None):
    return float_unary(LOG, x)


def log1p(x, name=None):
    return float_unary(LOG1P, x)


def sqrt(x, name=None):
    return float_unary(SQRT, x)


def rsqrt(x, name=None):
    return float_unary(RSQRT, x)


def sin(x, name=None):
    return float_unary(SIN, x)


def cos(x, name=None):
    return float_unary(COS, x)


def tan(x, name=None):
    return float_unary(TAN, x)


def tanh(x, name=None):
    return float_unary(TANH, x)


def tanh_grad(y, dy):
    """dy * conj(1 - y*y): the gradient of tanh from its output y."""
    y, dy = binary_args(y, dy, "tanh_grad")
    return bind(TANH_GRAD, (y, dy), _NO_ATTRS)


def relu_grad(y, dy):
    """dy * (y > 0): the gradient of relu from its output y."""
    y, dy = binary_args(y, dy, "relu_grad")
    return bind(RELU_GRAD, (y, dy), _NO_ATTRS)


def cosh(x, name=None):
    return float_unary(COSH, x)


def sigmoid(x, name=None):
    return float_unary(SIGMOID, x)


def erf(x, name=None):
    return float_unary(ERF, x)


def floor(x, name=None):
    return float_unary(FLOOR, x)


def ceil(x, name=None):
    return float_unary(CEIL, x)


def round(x, name=None):  # noqa: A001 - half to even, as TensorFlow
    x = convert_to_tensor(x)
    C.no_complex("round", x)
    return x if x.dtype.is_integer else bind(ROUND, (x,), _NO_ATTRS)


def relu(x, name=None):
    return apply_unary(RELU, x)


def cast(x, dtype, name=None):
    if getattr(type(x), "_is_indexed_slices", False):  # TensorFlow casts the values
        return x.with_values(cast(x.values, dtype))
    x = convert_to_tensor(x)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype is dtype:
        return x
    if x.dtype is dtypes.string or dtype is dtypes.string:
        raise UnimplementedError(with_location(
            f"Cast {x.dtype.name} to {dtype.name} is not supported (tf.strings.to_number / "
            f"tf.strings.as_string convert between text and numbers)"))
    if not dtypes.has_cast_kernel(x.dtype, dtype):
        raise UnimplementedError(with_location(f"Cast {x.dtype.name} to {dtype.name} is not supported"))
    return bind(CAST, (x,), {"dtype": dtype})




def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    if getattr(type(t), "_is_indexed_slices", False):  # TensorFlow clips each slice
        return t.with_values(clip_by_value(t.values, clip_value_min, clip_value_max))
    t = convert_to_tensor(t)
    return minimum(maximum(t, clip_value_min), clip_value_max)


def _float_only(x, op):
    """TF defines is_nan / is_inf / is_finite for floating types only."""
    x = convert_to_tensor(x)
    C.no_complex(op, x)
    if not x.dtype.is_floating:
        raise dtype_not_supported(op, x)
    return x


def is_nan(x, name=None):
    x = _float_only(x, "is_nan")
    return not_equal(x, x)


def is_finite(x, name=None):
    x = _float_only(x, "is_finite")
    return logical_and(equal(x, x), less(abs(x), float("inf")))


def is_inf(x, name=None):
    x = _float_only(x, "is_inf")
    return equal(abs(x), float("inf"))


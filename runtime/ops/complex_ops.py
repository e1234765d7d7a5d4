"""Complex numbers: tf.complex, tf.math.real / imag / conj / angle.

TensorFlow's gradient convention for complex tensors, which every VJP here and in the
other op modules follows: the gradient of a real loss L with respect to z = x + iy is
dL/dx + i dL/dy, so a holomorphic f(z) passes back g * conj(f'(z)) (`conj` below,
which returns a real tensor as it is, so real programs gain no node).  The C code generator has no complex
type: compiled functions run complex nodes through NumPy (compiler/c_templates CTYPES).
"""
from .. import dtypes
from ..errors import arg_error, with_location
from ..registry import Aval, bind, defprim
from ..tensor import Tensor, convert_to_tensor
from . import array_ops as A
from . import math_ops as M

_NO_ATTRS = {}
# Ops TensorFlow has no complex kernel for, whose NumPy kernels would order complex numbers
# (lexicographically) or answer: refused before they run.
_NO_COMPLEX = frozenset("""less less_equal greater greater_equal maximum minimum floordiv mod atan2 relu round
    reduce_max reduce_min argmax argmin sort argsort top_k max min is_nan is_finite is_inf""".split())
COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _complex_rule(x, y):
    if x.dtype is not y.dtype or x.dtype not in COMPLEX_OF:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {x.dtype.name} "
                        f"{y.dtype.name}. They must be consistent, and one of [tf.float32, tf.float64]")
    from ..shape_rules import broadcast_shapes
    return Aval(broadcast_shapes(x.shape, y.shape), COMPLEX_OF[x.dtype])


def _unary_rule(z, real=True):
    if not z.dtype.is_complex:
        raise TypeError(f"expects a complex tensor, got {z.dtype.name}")
    return Aval(z.shape, z.dtype.real_dtype if real else z.dtype)


COMPLEX = defprim("complex", lambda xp, x, y: (x + 1j * y).astype(x.dtype.char.upper()), _complex_rule,
                  lambda g, out, x, y: (real(g), imag(g)), kind="binary")
REAL = defprim("real", lambda xp, z: xp.real(z).copy(), _unary_rule,
               lambda g, out, z: complex(g, A.zeros_like(g)), kind="unary")
IMAG = defprim("imag", lambda xp, z: xp.imag(z).copy(), _unary_rule,
               lambda g, out, z: complex(A.zeros_like(g), g), kind="unary")
CONJ = defprim("conj", lambda xp, z: xp.conj(z), lambda z: _unary_rule(z, real=False),
               lambda g, out, z: conj(g), kind="unary")


def no_complex(name, x):
    if x.dtype.is_complex and name in _NO_COMPLEX:
        raise arg_error(TypeError, with_location(
            f"{name}: {x.dtype.name}{list(x.shape)} is not supported (TensorFlow has no complex kernel)"))


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's name
    """real + i imag; both float32 (complex64) or both float64 (complex128)."""
    x, y = convert_to_tensor(real), convert_to_tensor(imag)
    try:
        _complex_rule(Aval(x.shape.dims, x.dtype), Aval(y.shape.dims, y.dtype))
    except TypeError as exc:
        raise TypeError(with_location(f"tf.complex: {exc}")) from None
    return bind(COMPLEX, (x, y), _NO_ATTRS)


def real(input, name=None):  # noqa: A002
    """The real part; a real tensor is its own real part (TensorFlow returns it as is)."""
    z = convert_to_tensor(input)
    return bind(REAL, (z,), _NO_ATTRS) if z.dtype.is_complex else z


def imag(input, name=None):  # noqa: A002
    """The imaginary part; zeros for a real tensor."""
    z = convert_to_tensor(input)
    return bind(IMAG, (z,), _NO_ATTRS) if z.dtype.is_complex else A.zeros_like(z)


def conj(x, name=None):
    """The complex conjugate; a real tensor is returned as is."""
    if type(x) is Tensor and x._value.dtype.kind != "c":  # every real VJP passes here
        return x
    z = convert_to_tensor(x)
    return bind(CONJ, (z,), _NO_ATTRS) if z.dtype.is_complex else z


def angle(input, name=None):  # noqa: A002
    """The argument atan2(imag, real): 0 or pi for a real tensor."""
    z = convert_to_tensor(input)
    if not (z.dtype.is_complex or z.dtype.is_floating):
        raise TypeError(with_location(f"tf.math.angle expects a floating or complex tensor, got {z.dtype.name}"))
    return M.atan2(imag(z), real(z))

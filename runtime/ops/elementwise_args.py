"""How elementwise ops take their arguments: Python scalars adopt the tensor
operand's dtype, two tensors must agree (TypeError, no silent promotion), strings
and complex values are refused where the op has no kernel for them.
"""
from .. import dtypes
from .. import shape_rules as R
from ..errors import arg_error, dtype_not_supported, no_strings, with_location
from ..registry import bind
from ..tensor import Tensor, TensorBase, convert_to_tensor
from . import complex_ops as C

_NO_ATTRS = {}


def binary_args(x, y, op):
    """Convert both operands; a Python scalar adopts the tensor operand's dtype.
    Two tensors of different dtypes are a TypeError (no silent promotion)."""
    # Fast paths first: every eager `x * 2.0` comes through here.
    tx = type(x)
    ty = type(y)
    if tx is Tensor:
        if ty is Tensor:
            if x._value.dtype != y._value.dtype:
                dtype_mismatch(op, x, y)
            return x, y
        if ty is float or ty is int:
            try:
                return x, _scalar_like(y, x)
            except TypeError:
                if op != "add":
                    raise
                # int tensor + Python float: TensorFlow converts the float on its own and its
                # AddV2 kernel rejects the pair (InvalidArgumentError eagerly).
                dtype_mismatch(op, x, convert_to_tensor(y))
    elif ty is Tensor and (tx is float or tx is int):
        return _scalar_like(x, y), y
    if isinstance(x, TensorBase):
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, x.dtype) if not isinstance(y, TensorBase) else convert_to_tensor(y)
    elif isinstance(y, TensorBase):
        y = convert_to_tensor(y)
        x = convert_to_tensor(x, y.dtype)
    else:
        # Neither is a tensor: like TF, the second converts to the first's dtype when it
        # is Python data (tf.maximum(0.0, [1, -1]) is float32), NumPy keeps its own.
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, x.dtype) if _is_python_data(y) else convert_to_tensor(y)
    if x.dtype is not y.dtype:
        dtype_mismatch(op, x, y)
    return x, y


_scalars = {}  # (type, value, NumPy dtype) -> Tensor: Python scalars met in eager arithmetic


def _scalar_like(value, other):
    """The Python scalar `value` as an eager tensor of `other`'s dtype (cached)."""
    np_dtype = other._value.dtype
    key = (type(value), value, np_dtype)
    t = _scalars.get(key)
    if t is None:
        t = convert_to_tensor(value, dtypes.from_numpy(np_dtype))
        # Not cached: NaN (its key never matches) and float zeros (0.0 == -0.0 as keys).
        if len(_scalars) < 4096 and value == value and (value or type(value) is int):
            _scalars[key] = t
    return t


def _is_python_scalar(v):
    return type(v) in (int, float, bool)


def _is_python_data(v):
    """A Python scalar, or a (nested) list/tuple of them."""
    if isinstance(v, (list, tuple)):
        return all(_is_python_data(e) for e in v)
    return _is_python_scalar(v)


def tensor_dtypes_match(x, y):
    """TF's truediv checks in Python: a TypeError in both modes (others: the kernel's error)."""
    dx, dy = getattr(x, "dtype", None), getattr(y, "dtype", None)
    if isinstance(dx, dtypes.DType) and isinstance(dy, dtypes.DType) and dx is not dy:
        raise TypeError(with_location(f"`x` and `y` must have the same dtype, got {dx!r} != {dy!r}."))


def dtype_mismatch(op, x, y):
    raise arg_error(TypeError, with_location(
        f"{op}: the operands have different dtypes, {x.dtype.name}{list(x.shape)} and "
        f"{y.dtype.name}{list(y.shape)}; cast one with tf.cast first"))


# The only binary primitives with a string kernel (add concatenates, as in TensorFlow).
STRING_BINARY = frozenset(("add", "equal", "not_equal"))


def apply_binary(prim, x, y):
    if type(x) is Tensor and type(y) is Tensor:
        dx, dy = x._value.dtype, y._value.dtype
        if (dx is dy or dx == dy) and dx.kind in "fiu":  # the checks below cannot fail
            return bind(prim, (x, y), _NO_ATTRS)
    x, y = binary_args(x, y, prim.name)
    dtype = x.dtype
    if dtype is dtypes.string and prim.name not in STRING_BINARY:
        raise no_strings(prim.name, x)
    if dtype.is_complex:
        C.no_complex(prim.name, x)
    return bind(prim, (x, y), _NO_ATTRS)


def apply_unary(prim, x):
    if type(x) is not Tensor:
        x = convert_to_tensor(x)
    if x.dtype is dtypes.string:
        raise no_strings(prim.name, x)
    if x.dtype.is_complex:
        C.no_complex(prim.name, x)
    return bind(prim, (x,), _NO_ATTRS)


def float_unary(prim, x):
    if type(x) is Tensor and x._value.dtype.kind == "f":
        return bind(prim, (x,), _NO_ATTRS)
    x = convert_to_tensor(x)
    if not (x.dtype.is_floating or (x.dtype.is_complex and prim.shape_rule is R.inexact)):
        if x.dtype.is_complex:  # TF: no complex kernel
            raise arg_error(TypeError, with_location(
                f"{prim.name} expects a floating-point tensor, got {x.dtype.name} {list(x.shape)}"))
        raise dtype_not_supported(prim.name, x)
    return bind(prim, (x,), _NO_ATTRS)

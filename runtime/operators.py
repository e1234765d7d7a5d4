"""Python operators of tensors and variables, bound to tapeflow ops in one place."""
from .ops import array_ops as A
from .ops import indexing
from .ops import linalg_ops as L
from .ops import math_ops as M
from .tensor import Tensor, TensorBase


def _flip(fn):
    return lambda self, other: fn(other, self)


def _eq(self, other):
    if other is None:
        return False
    return M.equal(self, other)


def _ne(self, other):
    if other is None:
        return True
    return M.not_equal(self, other)


def _matmul(self, other):
    # An operand that does its own products (tf.linalg.LinearOperator sets the flag) takes
    # `tensor @ operand` through its __rmatmul__, as TensorFlow's dispatch of matmul.
    if type(other) is not Tensor and getattr(type(other), "_defines_tensor_matmul", False):
        return NotImplemented
    return L.matmul(self, other)


_BINARY = {
    "add": M.add, "sub": M.subtract, "mul": M.multiply, "truediv": M.truediv,
    "floordiv": M.floordiv, "mod": M.mod, "pow": M.pow, "matmul": _matmul,
    "and": M.bitwise_and, "or": M.bitwise_or, "xor": M.bitwise_xor,
    "lshift": M.left_shift, "rshift": M.right_shift,
}

for _name, _fn in _BINARY.items():
    setattr(TensorBase, f"__{_name}__", _fn)
    setattr(TensorBase, f"__r{_name}__", _flip(_fn))

TensorBase.__lt__ = M.less
TensorBase.__le__ = M.less_equal
TensorBase.__gt__ = M.greater
TensorBase.__ge__ = M.greater_equal
TensorBase.__eq__ = _eq
TensorBase.__ne__ = _ne
TensorBase.__neg__ = M.negative
TensorBase.__pos__ = lambda self: self
TensorBase.__abs__ = M.abs
TensorBase.__invert__ = M.invert
TensorBase.__getitem__ = indexing.getitem
TensorBase.T = property(lambda self: A.transpose(self))

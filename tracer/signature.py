"""Call signatures of tf.function: TensorSpec, the cache key of a call, and the
tensor leaves of the arguments (what a traced graph takes as inputs)."""
import numpy as np

from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.variables import Variable


class TensorSpec:
    """The shape (None for unknown dims) and dtype of a tensor argument."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, x):
        if isinstance(x, TensorSpec):
            return self.dtype is x.dtype and self.shape.is_compatible_with(x.shape)
        t = convert_to_tensor(x)
        return self.dtype is t.dtype and self.shape.is_compatible_with(t.shape)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self.shape.dims, self.dtype, self.name) == \
            (other.shape.dims, other.dtype, other.name)

    def __hash__(self):
        return hash((self.shape.dims, self.dtype, self.name))

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={self.name!r})"


# ------------------------------------------------------------------ signature keys

def _arg_key(a):
    t = type(a)
    if t is Tensor:
        v = a._value
        return (v.shape, v.dtype)
    if t is int or t is float or t is bool or t is str or a is None:
        return (t, a)
    return _slow_key(a)


def _slow_key(a):
    if isinstance(a, np.ndarray):
        return (a.shape, a.dtype)
    if isinstance(a, Variable):
        return ("V", id(a))
    if isinstance(a, TensorSpec):
        dims = a.shape.dims
        if dims is not None and None not in dims:  # the same trace as a tensor of that shape
            return (tuple(dims), a.dtype.np)
        return ("S", dims, a.dtype.np)
    if isinstance(a, TensorBase):
        t = convert_to_tensor(a)
        return (tuple(t.shape.dims), t.dtype.np)
    if isinstance(a, np.generic):
        return ((), a.dtype)
    if isinstance(a, (list, tuple)):
        return ("L", type(a), tuple(_arg_key(x) for x in a))
    if isinstance(a, dict):
        return ("D", type(a), tuple((k, _arg_key(a[k])) for k in sorted(a, key=nest._sort_key)))
    try:
        hash(a)
        return ("O", a)
    except TypeError:
        return ("I", id(a))


def _is_tensor_leaf(a):
    return type(a) is Tensor or isinstance(a, (np.ndarray, np.generic, TensorSpec)) or (
        isinstance(a, TensorBase) and not isinstance(a, Variable))


def _leaves(args, kwargs):
    """Argument leaves in a fixed order: positional, then keywords by name."""
    leaves = nest.flatten(list(args))
    if kwargs:
        for k in sorted(kwargs):
            leaves.extend(nest.flatten(kwargs[k]))
    return leaves


def flat_tensor_arrays(args, kwargs):
    """The arrays fed to a traced graph: the tensor leaves of the arguments."""
    out = []
    for a in _leaves(args, kwargs):
        if type(a) is Tensor:
            out.append(a._value)
        elif _is_tensor_leaf(a):
            out.append(convert_to_tensor(a)._value)
    return out


def _generalize(k):
    """With reduce_retracing, a tensor's key keeps only rank and dtype."""
    if isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], tuple) and isinstance(k[1], np.dtype):
        return (len(k[0]), k[1])
    return k

"""The conversions of a user's value the public API makes (tf.constant, tf.convert_to_tensor,
tf.Variable and its assign), with TF's checks that tapeflow's own code does not want:
convert_to_tensor converts 0 / 1 to bool for the library's internal uses."""
import numpy as np

from . import dtypes
from .errors import with_location
from .ops import array_ops
from .tensor import TensorBase, convert_to_tensor


def _holds_python_number(value):
    """A Python int / float / complex (not a bool, not a NumPy scalar), or a list holding one."""
    if isinstance(value, (list, tuple)):
        return any(_holds_python_number(v) for v in value)
    return isinstance(value, (int, float, complex)) and not isinstance(value, (bool, np.generic))


def refuse_numbers_as_bool(value, dtype):
    """TF's TypeError for Python numbers given as bools (tf.constant(1, tf.bool)); NumPy values
    and Python bools convert."""
    if dtype is None or dtypes.as_dtype(dtype) is not dtypes.bool_ or isinstance(value, TensorBase):
        return
    if _holds_python_number(value):
        raise TypeError(with_location(f"Cannot convert {value!r} to EagerTensor of dtype bool"))


def public_convert_to_tensor(value, dtype=None, dtype_hint=None, name=None, preferred_dtype=None):
    """tf.convert_to_tensor: convert_to_tensor with TF's checks of a user's value; `dtype_hint`
    is tried first and dropped when the value does not convert to it."""
    dtype_hint = dtype_hint if dtype_hint is not None else preferred_dtype
    if dtype is None and dtype_hint is not None:
        try:
            return public_convert_to_tensor(value, dtypes.as_dtype(dtype_hint))
        except (TypeError, ValueError):
            pass
    refuse_numbers_as_bool(value, dtype)
    return convert_to_tensor(value, dtype, name)


def constant(value, dtype=None, shape=None, name=None):
    """tf.constant."""
    refuse_numbers_as_bool(value, dtype)
    return array_ops.constant(value, dtype, shape, name)

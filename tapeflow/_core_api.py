"""Public names of the runtime: dtypes, tensors, variables, tapes and ops."""
from tapeflow.runtime import dtypes as _dtypes
from tapeflow.runtime.dtypes import (  # noqa: F401  (bool shadows the builtin only in this namespace)
    DType, as_dtype, bool_ as bool, float16, float32, float64, half, double,
    int8, int16, int32, int64, uint8, uint16, uint32, uint64,
)
from tapeflow.runtime.shape import TensorShape  # noqa: F401
from tapeflow.runtime.tensor import Tensor, convert_to_tensor, is_tensor  # noqa: F401
from tapeflow.runtime.variables import Variable  # noqa: F401
from tapeflow.runtime.backprop import GradientTape, UnconnectedGradients  # noqa: F401
from tapeflow.runtime.custom_gradient import custom_gradient  # noqa: F401
from tapeflow.runtime.errors import InvalidArgumentError  # noqa: F401
from tapeflow.runtime.ops.math_ops import *  # noqa: F401,F403
from tapeflow.runtime.ops.reduce_ops import *  # noqa: F401,F403
from tapeflow.runtime.ops.array_ops import *  # noqa: F401,F403
from tapeflow.runtime.ops.linalg_ops import matmul  # noqa: F401

newaxis = None

__all__ = [n for n in dir() if not n.startswith("_")]

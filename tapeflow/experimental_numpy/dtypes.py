"""tnp's dtypes and type promotion: NumPy's rules on tapeflow dtypes.

The dtypes are NumPy's scalar types (tnp.float32 is np.float32), as in TF.  Promotion is
NumPy's `result_type`, with Python scalars taking part as values (so int32 + 2.5 is
float64, float32 + 2.0 stays float32).  `prefer_float32` (set by
experimental_enable_numpy_behavior) makes the default float of Python floats float32."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.tensor import TensorBase

bool_, object_, string_, unicode_ = np.bool_, np.object_, np.bytes_, np.str_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
int_, float_, complex_, inexact = np.int64, np.float64, np.complex128, np.inexact
finfo, iinfo, issubdtype = np.finfo, np.iinfo, np.issubdtype

# Process-wide, as TF's: flipped by experimental_enable_numpy_behavior(prefer_float32=True).
settings = {"prefer_float32": False}


def np_dtype(dtype):
    if isinstance(dtype, tf.DType):
        return np.dtype(dtype.as_numpy_dtype)
    return np.dtype(dtype)


def _operand(x):
    """What one argument of result_type contributes: a dtype, or a Python scalar's value."""
    if isinstance(x, (TensorBase, tf.Variable)):
        return np_dtype(x.dtype)
    if isinstance(x, (bool, int, float, complex)):
        if settings["prefer_float32"] and isinstance(x, float):
            return np.float32(x)
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, (tf.DType, np.dtype, type, str)):
        return np_dtype(x)
    arr = np.asarray(x)
    if arr.dtype == np.float64 and settings["prefer_float32"]:
        return np.dtype(np.float32)
    return arr.dtype


def np_result_type(*arrays_and_dtypes):
    dt = np.result_type(*[_operand(x) for x in arrays_and_dtypes])
    if dt == np.float64 and settings["prefer_float32"] and all(
            isinstance(x, float) for x in arrays_and_dtypes):
        dt = np.dtype(np.float32)
    return dt


def result_type(*arrays_and_dtypes):
    """The tf.DType NumPy's promotion gives these arrays, dtypes and scalars."""
    return tf.as_dtype(np_result_type(*arrays_and_dtypes))


def promote_types(type1, type2):
    """NumPy's promote_types of two dtypes (a NumPy dtype, as TF returns)."""
    return np.promote_types(np_dtype(type1), np_dtype(type2))


def default_float():
    """The dtype of `float` as a dtype argument: float64 even under prefer_float32 (measured:
    prefer_float32 changes only what Python float values promote to)."""
    return tf.float64


def asarray(a, dtype=None):
    """a as a tensor: tensors keep their dtype, everything else takes NumPy's dtype."""
    if dtype is not None:
        dtype = tf.as_dtype(np_dtype(dtype))
    if isinstance(a, (TensorBase, tf.Variable)):
        return a if dtype is None or a.dtype == dtype else tf.cast(a, dtype)
    if isinstance(a, (list, tuple)) and any(isinstance(e, (TensorBase, tf.Variable)) for e in tf.nest.flatten(a)):
        # Tensors among the elements: their dtypes and the Python values promote together.
        dtype = dtype or result_type(*tf.nest.flatten(a))
        return tf.stack([asarray(e, dtype) for e in a])
    if dtype is None:
        dtype = result_type(a)
    if isinstance(a, (np.ndarray, np.generic)) or not isinstance(a, (list, tuple)):
        if dtype == tf.bool:  # NumPy's truth of a number (tf.constant refuses Python numbers as bools)
            return tf.constant(np.asarray(a, np.bool_))
        return tf.constant(np.asarray(a), dtype) if not isinstance(a, (bool, int, float, complex)) else tf.constant(a, dtype)
    return tf.constant(np.asarray(a, dtype.as_numpy_dtype), dtype)


def promote(*args):
    """The args as tensors of their common NumPy result type."""
    dtype = result_type(*args)
    return [asarray(a, dtype) for a in args]


def as_float(x):
    """x as a tensor, ints and bools cast to the default float (what NumPy's ufuncs do)."""
    x = asarray(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = tf.cast(x, result_type(x.dtype, float))
    return x

"""experimental_enable_numpy_behavior: NumPy-style methods on tensors, process-wide.

As in TF it cannot be undone (there is no disable); tests run it in a subprocess.  It also
switches the arithmetic and comparison operators to NumPy promotion (int32 + 2.5 is float64,
int32 + float32 is float64), as TF's 'legacy' dtype_conversion_mode does; 'off' leaves the
operators as they are (measured).  Known gap: the 'safe' and 'all' modes (TF's weak-type
promotion: int32 + 2.5 is float32 there) are accepted but behave as 'legacy'."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.tensor import TensorBase
from tapeflow.experimental_numpy import dtypes

_MODES = ("legacy", "all", "safe", "off")


def _astype(self, dtype):
    return tf.cast(self, tf.as_dtype(dtypes.np_dtype(dtype)))


def _reshape(self, *shape, order="C"):
    from tapeflow.experimental_numpy.shapes import reshape
    return reshape(self, shape[0] if len(shape) == 1 else list(shape), order)


def _transpose(self, axes=None):  # one argument, as TF's (NumPy also takes t.transpose(1, 0))
    return tf.transpose(self, axes)


def _clip(self, a_min, a_max):
    low = self.dtype.min if a_min is None else a_min
    high = self.dtype.max if a_max is None else a_max
    return tf.clip_by_value(self, tf.cast(low, self.dtype), tf.cast(high, self.dtype))


_PROMOTED_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor")
_COMPARISONS = ("lt", "le", "gt", "ge")


def _promoting(operator):
    """operator(self, other) on the NumPy result type of both; other kinds (ragged, sparse, ...)
    go to the operator unchanged."""
    def promoted(self, other):
        if isinstance(other, (TensorBase, bool, int, float, complex, np.ndarray, np.generic, list, tuple)):
            self, other = dtypes.promote(self, other)
        return operator(self, other)
    promoted.__name__ = getattr(operator, "__name__", "operator")
    return promoted


def _promote_operators():
    for name in _PROMOTED_OPERATORS:
        for dunder in (f"__{name}__", f"__r{name}__"):
            setattr(TensorBase, dunder, _promoting(getattr(TensorBase, dunder)))
    for name in _COMPARISONS:
        dunder = f"__{name}__"
        setattr(TensorBase, dunder, _promoting(getattr(TensorBase, dunder)))


def _methods():
    from tapeflow.experimental_numpy import reductions, shapes
    return {
        "astype": _astype, "reshape": _reshape, "transpose": _transpose, "clip": _clip,
        "ravel": lambda self: shapes.ravel(self), "flatten": lambda self, order="C": shapes.flatten(self, order),
        "max": lambda self, axis=None, keepdims=False: reductions.amax(self, axis, keepdims),
        "min": lambda self, axis=None, keepdims=False: reductions.amin(self, axis, keepdims),
        "mean": lambda self, axis=None, dtype=None, keepdims=False: reductions.mean(self, axis, dtype, keepdims),
        "tolist": lambda self: self.numpy().tolist(),
        "size": property(lambda self: np.int64(np.prod(self.shape.as_list()))),
    }


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Give every tensor NumPy's methods (astype, reshape, ravel, T, ...); prefer_float32 makes
    tnp's default float float32."""
    if dtype_conversion_mode not in _MODES:
        raise ValueError(f"experimental_enable_numpy_behavior: dtype_conversion_mode must be one "
                         f"of {_MODES}, got {dtype_conversion_mode!r}")
    dtypes.settings["prefer_float32"] = bool(prefer_float32)
    if dtype_conversion_mode != "off" and not dtypes.settings.get("numpy_operators"):  # wrap once
        dtypes.settings["numpy_operators"] = True
        _promote_operators()
        from tapeflow.experimental_numpy.numpy_indexing import numpy_getitem
        TensorBase.__getitem__ = numpy_getitem(TensorBase.__getitem__)
    for name, method in _methods().items():
        setattr(TensorBase, name, method)
        setattr(tf.Variable, name, method)

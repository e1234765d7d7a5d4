"""keras.Variable: a layer weight as Keras 3 names and prints it.

`.name` is the weight's own name ("kernel"), `.path` the names of the layers
being built around it when it was made ("sequential/dense/kernel"); repr is
Keras's `<Variable path=..., shape=..., dtype=..., value=...>`.  Everything
else is a tf.Variable (the tape, tf.function, checkpoints and optimizers see
no difference)."""
import contextlib
import threading

import numpy as np

from tapeflow.keras import backend
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import math_ops
from tapeflow.runtime.variables import Variable as _TFVariable

_autocast = threading.local()  # .dtype: the compute dtype of the mixed layer being called


@contextlib.contextmanager
def autocast(dtype):
    """While a mixed-precision layer's call runs, its (and its sublayers') float variables read
    as `dtype` (None: as themselves; a plain layer inside a mixed one reads its own dtype)."""
    previous = getattr(_autocast, "dtype", None)
    _autocast.dtype = None if dtype is None else dtypes.as_dtype(dtype)
    try:
        yield
    finally:
        _autocast.dtype = previous


class Variable(_TFVariable):
    def __init__(self, initial_value, trainable=True, name=None, dtype=None, path=None):
        name = name or "variable"
        path = path or name
        super().__init__(initial_value, trainable=trainable, name=path, dtype=dtype)
        self.__dict__["_keras_name"] = name
        self.__dict__["_keras_path"] = path

    def read_value(self):
        t = super().read_value()
        want = getattr(_autocast, "dtype", None)
        if want is not None and t.dtype is not want and t.dtype.is_floating:
            return math_ops.cast(t, want)  # taped: the float32 variable gets a float32 gradient
        return t

    @property
    def value(self):
        """The current value as a tensor: a property in Keras 3 (`v.value`), not tf.Variable's method."""
        return self.read_value()

    @property
    def dtype(self):
        return backend.dtype_name(self._dtype)

    @property
    def trainable(self):
        return self.__dict__.get("_keras_trainable", True)

    @trainable.setter
    def trainable(self, value):
        # The first assignment (tf.Variable's constructor) is also the tapes' flag (_auto_watch).
        self.__dict__.setdefault("_created_trainable", bool(value))
        self.__dict__["_keras_trainable"] = bool(value)

    @property
    def _auto_watch(self):
        return self.__dict__.get("_created_trainable", True)

    @property
    def name(self):
        return self.__dict__["_keras_name"]

    @property
    def path(self):
        return self.__dict__["_keras_path"]

    def __repr__(self):
        return (f"<Variable path={self.path}, shape={tuple(self.shape.dims)}, dtype={self.dtype}, "
                f"value={np.asarray(self.numpy())}>")

    # Keras 3 returns the new value (a tensor in the variable's dtype), not the variable.
    def assign(self, value, use_locking=None, name=None, read_value=True):
        super().assign(value, read_value=False)
        return _TFVariable.read_value(self) if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        super().assign_add(delta, read_value=False)
        return _TFVariable.read_value(self) if read_value else None

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        super().assign_sub(delta, read_value=False)
        return _TFVariable.read_value(self) if read_value else None

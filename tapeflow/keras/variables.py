"""keras.Variable: a layer weight as Keras 3 names and prints it.

`.name` is the weight's own name ("kernel"), `.path` the names of the layers
being built around it when it was made ("sequential/dense/kernel"); repr is
Keras's `<Variable path=..., shape=..., dtype=..., value=...>`.  Everything
else is a tf.Variable (the tape, tf.function, checkpoints and optimizers see
no difference)."""
import numpy as np

from tapeflow.runtime.variables import Variable as _TFVariable


class Variable(_TFVariable):
    def __init__(self, initial_value, trainable=True, name=None, dtype=None, path=None):
        name = name or "variable"
        path = path or name
        super().__init__(initial_value, trainable=trainable, name=path, dtype=dtype)
        self.__dict__["_keras_name"] = name
        self.__dict__["_keras_path"] = path

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
        return (f"<Variable path={self.path}, shape={tuple(self.shape.dims)}, dtype={self.dtype.name}, "
                f"value={np.asarray(self.numpy())}>")

"""Metric, the base of every stateful metric, and the reductions Mean and Sum.
State lives in non-trainable variables updated with assign_add, so `update_state`
works eagerly and inside a compiled train step."""

import numpy as np

from tapeflow.keras import losses
from tapeflow.keras.variables import Variable as KerasVariable
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.train.trackable import Trackable


class Metric(Trackable):
    def __init__(self, name=None, dtype="float32"):
        if name is None:  # Keras's auto_name: "true_positives", "true_positives_1", ...
            from tapeflow.keras.layers.base import unique_name
            name = unique_name(losses._snake(type(self).__name__))
        self.name = name
        self.dtype = dtypes.as_dtype(dtype)
        self._variables = {}

    def add_variable(self, shape=(), initializer=0.0, dtype=None, aggregation="sum", name=None):
        # Keras 3 order: (shape, initializer, dtype, aggregation, name).
        if name is None:
            name = f"variable_{len(self._variables)}"
        shape = () if shape is None else tuple(int(d) for d in shape)
        dtype = dtypes.as_dtype(dtype or self.dtype)
        var = KerasVariable(self._initial_value(shape, initializer, dtype), trainable=False, name=name,
                            dtype=dtype, path=f"{self.name}/{name}")
        self._variables[name] = (var, initializer)
        self._take_deferred(name, var)
        return var

    add_weight = add_variable

    def get_config(self):
        from tapeflow.keras import saving
        return saving.builtin_config(self, {"name": self.name, "dtype": self.dtype.name})

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @staticmethod
    def _initial_value(shape, initializer, dtype):
        """A numpy array for a number, an initializer name ("zeros") or an initializer object."""
        if isinstance(initializer, (int, float, np.number)):
            return np.full(shape, initializer, dtype.np)
        from tapeflow.keras import initializers
        value = initializers.get(initializer)(shape, dtype)
        return np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype.np)

    @property
    def variables(self):
        return [v for v, _ in self._variables.values()]

    def reset_state(self):
        for var, init in self._variables.values():
            var.assign(self._initial_value(tuple(var.shape.as_list()), init, var.dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define update_state")

    def result(self):
        raise NotImplementedError(f"{type(self).__name__} must define result")

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def _trackable_children(self):
        return {name: var for name, (var, _) in self._variables.items()}

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class Mean(Metric):
    """The (weighted) mean of all values seen."""

    def __init__(self, name="mean", dtype="float32"):
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        values = M.cast(convert_to_tensor(values), self.dtype)
        if sample_weight is None:
            self.total.assign_add(R.reduce_sum(values))
            self.count.assign_add(M.cast(A.size(values), self.dtype))
            return
        w = M.cast(convert_to_tensor(sample_weight), self.dtype)
        while w.shape.rank > values.shape.rank and w.shape[-1] == 1:
            w = A.squeeze(w, -1)
        w = A.broadcast_like(w, values) if w.shape.rank <= values.shape.rank else w
        self.total.assign_add(R.reduce_sum(values * w))
        self.count.assign_add(R.reduce_sum(w))

    def result(self):
        return M.div_no_nan(self.total.read_value(), self.count.read_value())


class Sum(Metric):
    def __init__(self, name="sum", dtype="float32"):
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values = M.cast(convert_to_tensor(values), self.dtype)
        if sample_weight is not None:
            values = values * M.cast(convert_to_tensor(sample_weight), self.dtype)
        self.total.assign_add(R.reduce_sum(values))

    def result(self):
        return self.total.read_value()


class MeanMetricWrapper(Mean):
    """The mean of fn(y_true, y_pred) over all examples seen."""

    def __init__(self, fn, name=None, dtype="float32", **fn_kwargs):
        super().__init__(name or fn.__name__, dtype)
        self.fn = fn
        self.fn_kwargs = fn_kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        # Keras 3: the mask of the predictions (Embedding(mask_zero), Masking) weighs the values.
        mask = getattr(y_pred, "_keras_mask", None)
        values = self.fn(y_true, y_pred, **self.fn_kwargs)
        if mask is not None:
            weight = M.cast(mask, self.dtype)
            if sample_weight is not None:
                sample_weight = M.cast(convert_to_tensor(sample_weight), self.dtype)
                while sample_weight.shape.rank < weight.shape.rank:
                    sample_weight = A.expand_dims(sample_weight, -1)
                weight = weight * sample_weight
            sample_weight = weight
        super().update_state(values, sample_weight)



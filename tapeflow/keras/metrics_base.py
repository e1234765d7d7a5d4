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


def samplewise_values(values, sample_weight, reduce_fn, dtype):
    """Keras 3's reduce_to_samplewise_values: the weights' rank matched to the values' (a
    trailing 1 squeezed or added), the values reduced to the weights' rank and weighted,
    then both reduced to one value per sample (axis 0), so `count` adds one weight per sample."""
    values = M.cast(convert_to_tensor(values), dtype)
    if sample_weight is not None:
        sample_weight = M.cast(convert_to_tensor(sample_weight), dtype)
        values, sample_weight = losses.same_rank(values, sample_weight)
        w_rank, v_rank = sample_weight.shape.rank, values.shape.rank
        if v_rank > w_rank:
            values = reduce_fn(values, axis=list(range(w_rank, v_rank)))
        sample_weight = A.broadcast_like(sample_weight, values)
        values = values * sample_weight
        if w_rank > 1:
            sample_weight = reduce_fn(sample_weight, axis=list(range(1, w_rank)))
    if values.shape.rank > 1:
        values = reduce_fn(values, axis=list(range(1, values.shape.rank)))
    return values, sample_weight


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
        values, sample_weight = samplewise_values(values, sample_weight, R.reduce_mean, self.dtype)
        self.total.assign_add(R.reduce_sum(values))
        count = A.size(values) if sample_weight is None else R.reduce_sum(sample_weight)
        self.count.assign_add(M.cast(count, self.dtype))

    def result(self):
        return M.div_no_nan(self.total.read_value(), self.count.read_value())


class Sum(Metric):
    def __init__(self, name="sum", dtype="float32"):
        super().__init__(name, dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = samplewise_values(values, sample_weight, R.reduce_sum, self.dtype)
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



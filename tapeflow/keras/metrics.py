"""Stateful metrics.  State lives in non-trainable variables updated with
assign_add, so `update_state` works eagerly and inside a compiled train step."""
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
        self.name = name or losses._snake(type(self).__name__)
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
        return M.div_no_nan(self.total.value(), self.count.value())


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
        return self.total.value()


class MeanMetricWrapper(Mean):
    """The mean of fn(y_true, y_pred) over all examples seen."""

    def __init__(self, fn, name=None, dtype="float32", **fn_kwargs):
        super().__init__(name or fn.__name__, dtype)
        self.fn = fn
        self.fn_kwargs = fn_kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self.fn(y_true, y_pred, **self.fn_kwargs), sample_weight)


def accuracy(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true, y_pred = losses.same_rank(M.cast(convert_to_tensor(y_true), y_pred.dtype), y_pred)
    return M.cast(M.equal(y_true, y_pred), dtypes.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = convert_to_tensor(y_pred)
    y_true, y_pred = losses.same_rank(convert_to_tensor(y_true), y_pred)
    predicted = M.cast(M.greater(y_pred, M.cast(convert_to_tensor(threshold), y_pred.dtype)), y_true.dtype)
    return R.reduce_mean(M.cast(M.equal(y_true, predicted), dtypes.float32), axis=-1)


def categorical_accuracy(y_true, y_pred):
    return M.cast(M.equal(R.argmax(y_true, axis=-1), R.argmax(y_pred, axis=-1)), dtypes.float32)


def sparse_categorical_accuracy(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    labels = M.cast(losses._sparse_labels(y_true, y_pred), dtypes.int64)
    return M.cast(M.equal(labels, R.argmax(y_pred, axis=-1)), dtypes.float32)


class Accuracy(MeanMetricWrapper):
    def __init__(self, name="accuracy", dtype="float32"):
        super().__init__(accuracy, name, dtype)


class BinaryAccuracy(MeanMetricWrapper):
    def __init__(self, name="binary_accuracy", dtype="float32", threshold=0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="categorical_accuracy", dtype="float32"):
        super().__init__(categorical_accuracy, name, dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="sparse_categorical_accuracy", dtype="float32"):
        super().__init__(sparse_categorical_accuracy, name, dtype)


class MeanSquaredError(MeanMetricWrapper):
    def __init__(self, name="mean_squared_error", dtype="float32"):
        super().__init__(losses.mean_squared_error, name, dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_error", dtype="float32"):
        super().__init__(losses.mean_absolute_error, name, dtype)


class RootMeanSquaredError(Mean):
    def __init__(self, name="root_mean_squared_error", dtype="float32"):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = losses._prepare(y_true, y_pred)
        super().update_state(M.square(y_pred - y_true), sample_weight)

    def result(self):
        return M.sqrt(super().result())


def _in_top_k(target_scores, y_pred, k):
    """1.0 where fewer than k classes score strictly higher than the target (ties count as in)."""
    higher = R.reduce_sum(M.cast(M.greater(y_pred, A.expand_dims(target_scores, -1)), dtypes.float32), axis=-1)
    return M.cast(M.less(higher, float(k)), dtypes.float32)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    y_pred = convert_to_tensor(y_pred)
    y_true = M.cast(convert_to_tensor(y_true), y_pred.dtype)
    labels = R.argmax(y_true, axis=-1)
    target = R.reduce_sum(losses.one_hot_labels(labels, y_pred.shape[-1], y_pred.dtype) * y_pred, axis=-1)
    return _in_top_k(target, y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    y_pred = convert_to_tensor(y_pred)
    labels = losses._sparse_labels(y_true, y_pred)
    target = R.reduce_sum(losses.one_hot_labels(labels, y_pred.shape[-1], y_pred.dtype) * y_pred, axis=-1)
    return _in_top_k(target, y_pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype="float32"):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype="float32"):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype, k=k)


class _Confusion(Metric):
    """Counts of true/false positives/negatives of `y_pred > threshold`, per threshold."""

    def __init__(self, thresholds, name, dtype="float32"):
        super().__init__(name, dtype)
        self.thresholds = [float(t) for t in thresholds]
        n = len(self.thresholds)
        self.true_positives = self.add_variable((n,), name="true_positives")
        self.false_positives = self.add_variable((n,), name="false_positives")
        self.true_negatives = self.add_variable((n,), name="true_negatives")
        self.false_negatives = self.add_variable((n,), name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = M.cast(convert_to_tensor(y_pred), dtypes.float32)
        y_true = M.cast(convert_to_tensor(y_true), dtypes.float32)
        t = convert_to_tensor(np.asarray(self.thresholds, np.float32))
        pred = M.cast(M.greater(A.expand_dims(A.reshape(y_pred, [-1]), -1), t), dtypes.float32)  # (N, T)
        true = A.expand_dims(M.cast(M.greater(A.reshape(y_true, [-1]), 0.5), dtypes.float32), -1)  # (N, 1)
        w = 1.0
        if sample_weight is not None:
            sw = M.cast(convert_to_tensor(sample_weight), dtypes.float32)
            while sw.shape.rank < y_true.shape.rank:
                sw = A.expand_dims(sw, -1)  # (batch,) weights over (batch, 1) targets
            w = A.expand_dims(A.reshape(sw * A.ones_like(y_true), [-1]), -1)
        self.true_positives.assign_add(R.reduce_sum(pred * true * w, axis=0))
        self.false_positives.assign_add(R.reduce_sum(pred * (1.0 - true) * w, axis=0))
        self.true_negatives.assign_add(R.reduce_sum((1.0 - pred) * (1.0 - true) * w, axis=0))
        self.false_negatives.assign_add(R.reduce_sum((1.0 - pred) * true * w, axis=0))


class Precision(_Confusion):
    """tp / (tp + fp) of predictions above `thresholds` (default 0.5)."""

    def __init__(self, thresholds=None, name="precision", dtype="float32"):
        self._single = not isinstance(thresholds, (list, tuple))
        super().__init__([0.5 if thresholds is None else thresholds] if self._single else thresholds, name, dtype)

    def result(self):
        tp = self.true_positives.value()
        r = M.div_no_nan(tp, tp + self.false_positives.value())
        return r[0] if self._single else r


class Recall(_Confusion):
    """tp / (tp + fn) of predictions above `thresholds` (default 0.5)."""

    def __init__(self, thresholds=None, name="recall", dtype="float32"):
        self._single = not isinstance(thresholds, (list, tuple))
        super().__init__([0.5 if thresholds is None else thresholds] if self._single else thresholds, name, dtype)

    def result(self):
        tp = self.true_positives.value()
        r = M.div_no_nan(tp, tp + self.false_negatives.value())
        return r[0] if self._single else r


class AUC(_Confusion):
    """Area under the ROC curve by the trapezoid rule over `num_thresholds` evenly
    spaced thresholds (with -eps and 1 + eps at the ends), as Keras."""

    def __init__(self, num_thresholds=200, curve="ROC", name="auc", dtype="float32", **unused):
        if curve != "ROC":
            raise ValueError(f"AUC: only curve='ROC' is supported, got {curve!r}")
        inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        super().__init__([-1e-7] + inner + [1.0 + 1e-7], name, dtype)

    def result(self):
        tp, fp = self.true_positives.value(), self.false_positives.value()
        tn, fn = self.true_negatives.value(), self.false_negatives.value()
        tpr = M.div_no_nan(tp, tp + fn)
        fpr = M.div_no_nan(fp, fp + tn)
        return R.reduce_sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2.0)


_BY_NAME = {
    "accuracy": Accuracy, "acc": Accuracy, "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy, "sparse_categorical_accuracy": SparseCategoricalAccuracy,
    "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
    "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
    "top_k_categorical_accuracy": TopKCategoricalAccuracy,
    "sparse_top_k_categorical_accuracy": SparseTopKCategoricalAccuracy,
    "precision": Precision, "recall": Recall, "auc": AUC,
    "root_mean_squared_error": RootMeanSquaredError, "rmse": RootMeanSquaredError,
}


def get(identifier, loss=None, y_true_shape=None, y_pred_shape=None):
    """A metric object.  "accuracy" means the accuracy that fits the loss and the
    shapes, as in Keras: binary, categorical or sparse categorical."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if identifier in ("accuracy", "acc"):
        cls = _accuracy_for(loss, y_true_shape, y_pred_shape)
        return cls(name=identifier)
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown metric {identifier!r}; known: {sorted(_BY_NAME)}")
        # Keras logs a metric under the string the user gave ("mae", not "mean_absolute_error").
        return _BY_NAME[identifier](name=identifier)
    if callable(identifier):
        return MeanMetricWrapper(identifier, name=getattr(identifier, "__name__", "metric"))
    raise ValueError(f"Could not interpret metric {identifier!r}")


def _accuracy_for(loss, y_true_shape, y_pred_shape):
    if isinstance(loss, losses.SparseCategoricalCrossentropy):
        return SparseCategoricalAccuracy
    if isinstance(loss, losses.CategoricalCrossentropy):
        return CategoricalAccuracy
    if isinstance(loss, losses.BinaryCrossentropy):
        return BinaryAccuracy
    if y_true_shape is None or y_pred_shape is None:
        return Accuracy
    pred_last = y_pred_shape[-1] if len(y_pred_shape) else 1
    if pred_last == 1:
        return BinaryAccuracy
    if len(y_true_shape) == len(y_pred_shape) and y_true_shape[-1] == pred_last:
        return CategoricalAccuracy
    return SparseCategoricalAccuracy

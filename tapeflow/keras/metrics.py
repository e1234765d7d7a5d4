"""keras.metrics: the accuracy family, the metric forms of the losses, and the one
table of metric names `compile(metrics=[...])` accepts.  The base classes live in
metrics_base, the confusion-count metrics in metrics_confusion, the per-class scores
(F-beta, R^2, IoU) in metrics_scores."""
from tapeflow.keras import losses
from tapeflow.keras.metrics_base import Mean, MeanMetricWrapper, Metric, Sum  # noqa: F401
from tapeflow.keras.metrics_confusion import (  # noqa: F401
    AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall, Recall, RecallAtPrecision,
    SensitivityAtSpecificity, SpecificityAtSensitivity, TrueNegatives, TruePositives)
from tapeflow.keras.metrics_scores import (  # noqa: F401
    BinaryIoU, F1Score, FBetaScore, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU, R2Score)
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor


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


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    """1.0 where the label is in the top k scores; with `from_sorted_ids`, y_pred holds category
    ids sorted by score (highest first) and the label is looked for among its first k."""
    y_pred = convert_to_tensor(y_pred)
    if from_sorted_ids:
        y_true = M.cast(convert_to_tensor(y_true), y_pred.dtype)
        shape = A.shape(y_true)
        ids = A.reshape(y_pred, [-1, y_pred.shape[-1]])[:, :k]
        hit = R.reduce_any(M.equal(A.expand_dims(A.reshape(y_true, [-1]), 1), ids), axis=1)
        return A.reshape(M.cast(hit, dtypes.float32), shape)
    labels = losses._sparse_labels(y_true, y_pred)
    target = R.reduce_sum(losses.one_hot_labels(labels, y_pred.shape[-1], y_pred.dtype) * y_pred, axis=-1)
    return _in_top_k(target, y_pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype="float32"):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype="float32", from_sorted_ids=False):
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype, k=k, from_sorted_ids=from_sorted_ids)

    def get_config(self):
        config = super().get_config()
        config.pop("from_sorted_ids", None)  # Keras 3.15's config leaves it out too
        return config


def cosine_similarity(y_true, y_pred, axis=-1):
    """cos(y_true, y_pred) along `axis` (the metric: 1 means the same direction)."""
    return -losses.cosine_similarity(y_true, y_pred, axis=axis)


def pearson_correlation(y_true, y_pred, axis=-1):
    y_true, y_pred = losses._prepare(y_true, y_pred)
    t = y_true - R.reduce_mean(y_true, axis=axis, keepdims=True)
    p = y_pred - R.reduce_mean(y_pred, axis=axis, keepdims=True)
    t = t / R.reduce_std(t, axis=axis, keepdims=True)
    p = p / R.reduce_std(p, axis=axis, keepdims=True)
    return R.reduce_mean(t * p, axis=axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    y_true, y_pred = losses._prepare(y_true, y_pred)
    t_mean = R.reduce_mean(y_true, axis=axis, keepdims=True)
    p_mean = R.reduce_mean(y_pred, axis=axis, keepdims=True)
    t_var = R.reduce_variance(y_true - t_mean, axis=axis, keepdims=True)
    p_var = R.reduce_variance(y_pred - p_mean, axis=axis, keepdims=True)
    # Keras 3.15 centres y_true on y_pred's mean here (not its own); kept for parity.
    covar = (y_true - p_mean) * (y_pred - p_mean)
    norm = t_var + p_var + M.square(t_mean - p_mean)
    return R.reduce_mean(2.0 * covar / (norm + losses.EPSILON), axis=axis)


def _wrapper_class(class_name, fn, default_name, **defaults):
    """A MeanMetricWrapper class: the mean of fn(y_true, y_pred, **options)."""
    def __init__(self, name=default_name, dtype="float32", **options):
        unknown = set(options) - set(defaults)
        if unknown:
            raise TypeError(f"{class_name}: unexpected arguments {sorted(unknown)}")
        MeanMetricWrapper.__init__(self, fn, name, dtype, **{**defaults, **options})
    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": fn.__doc__})


MeanSquaredError = _wrapper_class("MeanSquaredError", losses.mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper_class("MeanAbsoluteError", losses.mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper_class("MeanAbsolutePercentageError", losses.mean_absolute_percentage_error,
                                             "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper_class("MeanSquaredLogarithmicError", losses.mean_squared_logarithmic_error,
                                             "mean_squared_logarithmic_error")
LogCoshError = _wrapper_class("LogCoshError", losses.log_cosh, "logcosh")
CosineSimilarity = _wrapper_class("CosineSimilarity", cosine_similarity, "cosine_similarity", axis=-1)
PearsonCorrelation = _wrapper_class("PearsonCorrelation", pearson_correlation, "pearson_correlation", axis=-1)
ConcordanceCorrelation = _wrapper_class("ConcordanceCorrelation", concordance_correlation,
                                        "concordance_correlation", axis=-1)
BinaryCrossentropy = _wrapper_class("BinaryCrossentropy", losses.binary_crossentropy, "binary_crossentropy",
                                    from_logits=False, label_smoothing=0.0)
CategoricalCrossentropy = _wrapper_class("CategoricalCrossentropy", losses.categorical_crossentropy,
                                         "categorical_crossentropy", from_logits=False, label_smoothing=0.0)
SparseCategoricalCrossentropy = _wrapper_class("SparseCategoricalCrossentropy",
                                               losses.sparse_categorical_crossentropy,
                                               "sparse_categorical_crossentropy", from_logits=False)
KLDivergence = _wrapper_class("KLDivergence", losses.kl_divergence, "kl_divergence")
Poisson = _wrapper_class("Poisson", losses.poisson, "poisson")
Hinge = _wrapper_class("Hinge", losses.hinge, "hinge")
SquaredHinge = _wrapper_class("SquaredHinge", losses.squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper_class("CategoricalHinge", losses.categorical_hinge, "categorical_hinge")


class RootMeanSquaredError(Mean):
    def __init__(self, name="root_mean_squared_error", dtype="float32"):
        super().__init__(name, dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = losses._prepare(y_true, y_pred)
        super().update_state(M.square(y_pred - y_true), sample_weight)

    def result(self):
        return M.sqrt(super().result())


# ---- keras.metrics function names (one per line; the losses' per-example forms) ----
mean_squared_error = mse = MSE = losses.mean_squared_error
mean_absolute_error = mae = MAE = losses.mean_absolute_error
mean_absolute_percentage_error = mape = MAPE = losses.mean_absolute_percentage_error
mean_squared_logarithmic_error = msle = MSLE = losses.mean_squared_logarithmic_error
kl_divergence = kld = KLD = kullback_leibler_divergence = losses.kl_divergence
logcosh = log_cosh = losses.log_cosh
binary_crossentropy = losses.binary_crossentropy
binary_focal_crossentropy = losses.binary_focal_crossentropy  # Keras 3 exports the loss functions here too
categorical_focal_crossentropy = losses.categorical_focal_crossentropy
categorical_crossentropy = losses.categorical_crossentropy
sparse_categorical_crossentropy = losses.sparse_categorical_crossentropy
poisson = losses.poisson
hinge = losses.hinge
squared_hinge = losses.squared_hinge
categorical_hinge = losses.categorical_hinge
huber = losses.huber
# ---- end of keras.metrics function names ----


_BY_NAME = {
    "accuracy": Accuracy, "acc": Accuracy, "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy, "sparse_categorical_accuracy": SparseCategoricalAccuracy,
    "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
    "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
    "top_k_categorical_accuracy": TopKCategoricalAccuracy,
    "sparse_top_k_categorical_accuracy": SparseTopKCategoricalAccuracy,
    "precision": Precision, "recall": Recall, "auc": AUC,
    "root_mean_squared_error": RootMeanSquaredError, "rmse": RootMeanSquaredError,
    "mape": MeanAbsolutePercentageError, "mean_absolute_percentage_error": MeanAbsolutePercentageError,
    "msle": MeanSquaredLogarithmicError, "mean_squared_logarithmic_error": MeanSquaredLogarithmicError,
    "logcosh": LogCoshError, "log_cosh": LogCoshError, "cosine_similarity": CosineSimilarity,
    "binary_crossentropy": BinaryCrossentropy, "categorical_crossentropy": CategoricalCrossentropy,
    "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
    "kld": KLDivergence, "kl_divergence": KLDivergence, "kullback_leibler_divergence": KLDivergence,
    "poisson": Poisson, "hinge": Hinge, "squared_hinge": SquaredHinge, "categorical_hinge": CategoricalHinge,
    "pearson_correlation": PearsonCorrelation, "concordance_correlation": ConcordanceCorrelation,
    "r2_score": R2Score, "f1_score": F1Score, "fbeta_score": FBetaScore,
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



def serialize(metric):
    """A metric object as Keras's {"module", "class_name", "config", "registered_name"}."""
    from tapeflow.keras import saving
    return saving.serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """The metric a serialize() dict (or a metric name) describes."""
    import sys

    from tapeflow.keras import saving
    return saving.deserialize_from(config, sys.modules[__name__], Metric, custom_objects)

"""Metrics that keep per-class sums: F-beta, R^2 and intersection-over-union.
F-beta and R^2 size their variables from the first batch's class count, as Keras."""
import numpy as np

from tapeflow.keras.metrics_base import Metric
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor

EPSILON = 1e-7


def _check_2d(metric, y_true, y_pred):
    if y_pred.shape.rank != 2 or y_true.shape.rank != 2:
        raise ValueError(f"{metric} expects 2D inputs with shape (batch_size, output_dim). Received input "
                         f"shapes: y_pred.shape={tuple(y_pred.shape.dims)} and y_true.shape={tuple(y_true.shape.dims)}.")
    if y_pred.shape[-1] is None or y_true.shape[-1] is None:
        raise ValueError(f"{metric} expects 2D inputs with shape (batch_size, output_dim), with output_dim "
                         f"fully defined (not None).")
    return int(y_pred.shape[-1])


class FBetaScore(Metric):
    """(1 + beta^2) * precision * recall / (beta^2 * precision + recall) per class, or
    averaged ("micro": over all cells, "macro": over classes, "weighted": by support).
    Without a threshold, each row's largest (nonzero) score is the predicted class."""

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype="float32"):
        super().__init__(name, dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: "
                             f"{{None, 'micro', 'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(f"Invalid `threshold` argument value. It should be a Python float. "
                                 f"Received: threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError(f"Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                 f"Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, y_true, y_pred):
        n = _check_2d("FBetaScore", y_true, y_pred)
        shape = () if self.average == "micro" else (n,)
        for name in ("true_positives", "false_positives", "false_negatives", "intermediate_weights"):
            setattr(self, name, self.add_variable(shape, name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = M.cast(convert_to_tensor(y_true), self.dtype)
        y_pred = M.cast(convert_to_tensor(y_pred), self.dtype)
        if not self._built:
            self._build(y_true, y_pred)
        if self.threshold is None:
            top = R.reduce_max(y_pred, axis=-1, keepdims=True)
            hit = M.logical_and(M.greater_equal(y_pred, top), M.greater(M.abs(y_pred), 1e-9))
        else:
            hit = M.greater(y_pred, self.threshold)
        y_pred = M.cast(hit, self.dtype)
        w = None if sample_weight is None else A.expand_dims(M.cast(convert_to_tensor(sample_weight), self.dtype), 1)

        def weighted_sum(v):
            return R.reduce_sum(v if w is None else v * w, axis=self.axis)
        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1.0 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1.0 - y_pred) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        tp = self.true_positives.read_value()
        precision = tp / (tp + self.false_positives.read_value() + EPSILON)
        recall = tp / (tp + self.false_negatives.read_value() + EPSILON)
        b2 = self.beta ** 2
        score = precision * recall / (b2 * precision + recall + EPSILON) * (1.0 + b2)
        if self.average == "weighted":
            iw = self.intermediate_weights.read_value()
            return R.reduce_sum(score * (iw / (R.reduce_sum(iw) + EPSILON)))
        if self.average is not None:
            return R.reduce_mean(score)
        return score


class F1Score(FBetaScore):
    def __init__(self, average=None, threshold=None, name="f1_score", dtype="float32"):
        super().__init__(average, 1.0, threshold, name, dtype)


class R2Score(Metric):
    """The coefficient of determination 1 - SS_res / SS_tot per output column, averaged
    uniformly or by variance, optionally adjusted for `num_regressors`."""

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype="float32"):
        super().__init__(name, dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of {valid}. "
                             f"Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError(f"Invalid value for argument `num_regressors`. Expected a value >= 0. "
                             f"Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable((), name="num_samples")
        self._built = False

    def update_state(self, y_true, y_pred, sample_weight=None):
        from tapeflow.keras.losses import same_rank
        y_true, y_pred = same_rank(M.cast(convert_to_tensor(y_true), self.dtype),
                                   M.cast(convert_to_tensor(y_pred), self.dtype))
        if not self._built:
            n = _check_2d("R2Score", y_true, y_pred)
            for name in ("squared_sum", "sum", "residual", "count"):
                setattr(self, name, self.add_variable((n,), name=name))
            self._built = True
        w = M.cast(convert_to_tensor(1.0 if sample_weight is None else sample_weight), self.dtype)
        if w.shape.rank == 1:
            w = A.expand_dims(w, 1)
        w = A.broadcast_like(w, y_true)
        self.sum.assign_add(R.reduce_sum(y_true * w, axis=0))
        self.squared_sum.assign_add(R.reduce_sum(y_true * y_true * w, axis=0))
        self.residual.assign_add(R.reduce_sum(M.square(y_true - y_pred) * w, axis=0))
        self.count.assign_add(R.reduce_sum(w, axis=0))
        self.num_samples.assign_add(M.cast(A.size(y_true), self.dtype))

    def result(self):
        s = self.sum.read_value()
        total = self.squared_sum.read_value() - s * (s / self.count.read_value())
        raw = 1.0 - self.residual.read_value() / total
        raw = A.where(M.is_inf(raw), A.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = R.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = R.reduce_sum(total * raw) / R.reduce_sum(total)
        else:
            score = raw
        if self.num_regressors:
            # Adjusted R^2; Keras falls back to the plain score (with a warning) when
            # num_regressors >= num_samples - 1.
            n, p = self.num_samples.read_value(), float(self.num_regressors)
            adjusted = 1.0 - (1.0 - score) * (n - 1.0) / M.maximum(n - p - 1.0, 1.0)
            score = A.where(M.less(p, n - 1.0), adjusted, score)
        return score


class IoU(Metric):
    """Intersection over union, |pred & true| / |pred | true|, of the classes
    `target_class_ids`, from a confusion matrix accumulated over all batches; classes
    that never occur are left out of the mean."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        # Keras's default dtype is "int": counts and weights are integers (a weight of 0.7
        # counts 0).  The counts are kept in float32 here, the weights truncated as Keras.
        self._int_weights = dtype is None or dtypes.as_dtype(dtype).is_integer
        super().__init__(name, "float32" if self._int_weights else dtype)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is [0, {num_classes}).")
        self.num_classes, self.target_class_ids = num_classes, list(target_class_ids)
        self.ignore_class, self.axis = ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.total_cm = self.add_variable((num_classes, num_classes), name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.sparse_y_true:
            y_true = R.argmax(convert_to_tensor(y_true), axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = R.argmax(convert_to_tensor(y_pred), axis=self.axis)
        # Keras casts to the metric's dtype (int by default) first: truncation, not rounding.
        y_true = A.reshape(M.cast(M.cast(convert_to_tensor(y_true), dtypes.float32), dtypes.int64), [-1])
        y_pred = A.reshape(M.cast(M.cast(convert_to_tensor(y_pred), dtypes.float32), dtypes.int64), [-1])
        w = convert_to_tensor(1.0 if sample_weight is None else sample_weight)
        w = M.cast(M.cast(w, dtypes.int64) if self._int_weights else w, self.dtype)
        w = A.broadcast_like(A.reshape(w, [-1]) if w.shape.rank > 1 else w, M.cast(y_true, self.dtype))
        n = self.num_classes
        valid = M.logical_and(M.logical_and(y_true >= 0, y_true < n), M.logical_and(y_pred >= 0, y_pred < n))
        if self.ignore_class is not None:
            valid = M.logical_and(valid, M.not_equal(y_true, int(self.ignore_class)))
        w = A.where(valid, w, A.zeros_like(w))
        classes = convert_to_tensor(np.arange(n, dtype=np.int64))
        rows = M.cast(M.equal(A.expand_dims(y_true, -1), classes), self.dtype) * A.expand_dims(w, -1)  # (N, n)
        cols = M.cast(M.equal(A.expand_dims(y_pred, -1), classes), self.dtype)
        self.total_cm.assign_add(R.reduce_sum(A.expand_dims(rows, -1) * A.expand_dims(cols, 1), axis=0))
        # Keras returns the updated matrix, in its dtype (int64 by default)
        return M.cast(self.total_cm.read_value(), dtypes.int64 if self._int_weights else self.dtype)

    def result(self):
        cm = self.total_cm.read_value()
        tp = R.reduce_sum(cm * convert_to_tensor(np.eye(self.num_classes, dtype=self.dtype.np)), axis=1)
        denominator = R.reduce_sum(cm, axis=0) + R.reduce_sum(cm, axis=1) - tp
        pick = convert_to_tensor(np.eye(self.num_classes, dtype=self.dtype.np)[self.target_class_ids])
        tp = R.reduce_sum(pick * tp, axis=-1)
        denominator = R.reduce_sum(pick * denominator, axis=-1)
        valid = M.greater(denominator, 1e-9)
        iou = A.where(valid, tp / (denominator + EPSILON), A.zeros_like(tp))
        return R.reduce_sum(iou, axis=self.axis) / (R.reduce_sum(M.cast(valid, self.dtype)) + EPSILON)


class BinaryIoU(IoU):
    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name, dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = M.cast(M.greater_equal(M.cast(convert_to_tensor(y_pred), dtypes.float32), self.threshold),
                        dtypes.int64)
        return super().update_state(y_true, y_pred, sample_weight)


class MeanIoU(IoU):
    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name, dtype, ignore_class,
                         sparse_y_true, sparse_y_pred, axis)


class OneHotIoU(IoU):
    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name, dtype, ignore_class, False, sparse_y_pred, axis)


class OneHotMeanIoU(MeanIoU):
    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name, dtype, ignore_class, False, sparse_y_pred, axis)

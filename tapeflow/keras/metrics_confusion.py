"""Metrics over confusion counts: true/false positives/negatives of `y_pred > threshold`
per threshold, and what Keras derives from them (precision, recall, the counts
themselves, the best value of one rate under a constraint on another, AUC)."""
import numpy as np

from tapeflow.keras.metrics_base import Metric
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor

_COUNTS = ("true_positives", "false_positives", "true_negatives", "false_negatives")


def _even_thresholds(num_thresholds, low, high):
    """Keras's grid: `low`, the num_thresholds - 2 inner points i / (num_thresholds - 1), `high`."""
    inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [low] + inner + [high]


def _threshold_list(thresholds, default=0.5):
    """(thresholds as a list, whether a single number was given: then results are scalars)."""
    if thresholds is None:
        return [default], True
    if isinstance(thresholds, (list, tuple, np.ndarray)):
        values = [float(t) for t in thresholds]
    else:
        values = [float(thresholds)]
    for t in values:
        if not 0.0 <= t <= 1.0:
            raise ValueError(f"Threshold values must be in [0, 1]. Received: {t}")
    return values, len(values) == 1


class _Confusion(Metric):
    """Counts of true/false positives/negatives of `y_pred > threshold`, per threshold.
    y_true counts as positive where it is nonzero (Keras casts it to bool)."""

    _counts = _COUNTS

    def __init__(self, thresholds, name, dtype="float32", class_id=None, top_k=None, num_labels=1):
        super().__init__(name, dtype)
        self.thresholds = [float(t) for t in thresholds]
        self.class_id, self.top_k = class_id, top_k
        if num_labels is not None:
            self._build_counts(num_labels)

    def _build_counts(self, num_labels):
        """Counts per threshold, or (thresholds, labels) for a multi-label AUC (num_labels > 1)."""
        n = len(self.thresholds)
        shape = (n,) if num_labels == 1 and not getattr(self, "multi_label", False) else (n, num_labels)
        for count in self._counts:
            setattr(self, count, self.add_variable(shape, name=count))

    def _prepare(self, y_true, y_pred):
        y_pred = M.cast(convert_to_tensor(y_pred), dtypes.float32)
        y_true = M.cast(convert_to_tensor(y_true), dtypes.float32)
        if self.top_k is not None:
            # Keras's _filter_top_k: keep the scores at the k indices top_k picks (on ties, the
            # first ones: a score equal to the k-th but further right is dropped), the others
            # become -1e10 and pass no threshold.
            keep = _top_k_mask(y_pred, self.top_k)
            y_pred = y_pred * keep + (-1e10) * (1.0 - keep)
        if self.class_id is not None:
            y_true, y_pred = y_true[..., self.class_id], y_pred[..., self.class_id]
        return y_true, y_pred

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = self._prepare(y_true, y_pred)
        if y_true.shape.rank is not None and y_pred.shape.rank is not None and \
                y_true.shape.num_elements() != y_pred.shape.num_elements():
            raise ValueError(f"{type(self).__name__}: y_true of shape {list(y_true.shape)} and y_pred of "
                             f"shape {list(y_pred.shape)} have different sizes")
        t = convert_to_tensor(np.asarray(self.thresholds, np.float32))
        # One row per entry (N, T), or per example and label (N, L, T) for a multi-label AUC.
        flat = [-1, y_pred.shape.dims[-1]] if getattr(self, "multi_label", False) else [-1]
        pred = M.cast(M.greater(A.expand_dims(A.reshape(y_pred, flat), -1), t), dtypes.float32)
        true = A.expand_dims(M.cast(M.not_equal(A.reshape(y_true, flat), 0.0), dtypes.float32), -1)
        w = 1.0
        if sample_weight is not None:
            sw = M.cast(convert_to_tensor(sample_weight), dtypes.float32)
            while sw.shape.rank < y_pred.shape.rank:
                sw = A.expand_dims(sw, -1)  # (batch,) weights over (batch, 1) targets
            w = sw
        entry_weights = self._entry_weights(y_pred)
        if entry_weights is not None:
            w = w * entry_weights
        if sample_weight is not None or entry_weights is not None:
            w = A.expand_dims(A.reshape(w * A.ones_like(y_pred), flat), -1)
        cells = {"true_positives": pred * true, "false_positives": pred * (1.0 - true),
                 "true_negatives": (1.0 - pred) * (1.0 - true), "false_negatives": (1.0 - pred) * true}
        for count in self._counts:
            total = R.reduce_sum(cells[count] * w, axis=0)  # (T,), or (L, T): stored (T, L) as Keras
            getattr(self, count).assign_add(A.transpose(total) if total.shape.rank == 2 else total)

    def _entry_weights(self, y_pred):
        return None

    def _counts_now(self):
        return [getattr(self, c).read_value() for c in _COUNTS]


def _top_k_mask(x, k):
    """1.0 at the k entries of each row that top_k selects, else 0.0 (x's shape)."""
    from tapeflow.runtime.ops import sort_ops
    indices = sort_ops.top_k(x, k)[1]
    columns = convert_to_tensor(np.arange(x.shape[-1], dtype=np.int32))
    hits = M.cast(M.equal(A.expand_dims(indices, -1), columns), x.dtype)  # (..., k, n)
    return R.reduce_sum(hits, axis=-2)


class _Single(_Confusion):
    """One count (e.g. true positives) per threshold; a scalar for a single threshold."""

    _count = None

    def __init__(self, thresholds=None, name=None, dtype="float32"):
        self._init_args = {"thresholds": thresholds}
        self._counts = (self._count,)
        thresholds, self._single = _threshold_list(thresholds)
        super().__init__(thresholds, name, dtype)

    def result(self):
        value = getattr(self, self._count).read_value()
        return value[0] if self._single else value


class TruePositives(_Single):
    _count = "true_positives"


class FalsePositives(_Single):
    _count = "false_positives"


class TrueNegatives(_Single):
    _count = "true_negatives"


class FalseNegatives(_Single):
    _count = "false_negatives"


class _Ratio(_Confusion):
    """tp / (tp + other) of predictions above `thresholds` (default 0.5); `_counts` names the two."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype="float32"):
        self._init_args = {"thresholds": thresholds}
        thresholds, self._single = _threshold_list(thresholds, 0.5 if top_k is None else -1e-7)
        super().__init__(thresholds, name, dtype, class_id, top_k)

    def result(self):
        tp = self.true_positives.read_value()
        r = M.div_no_nan(tp, tp + getattr(self, self._counts[1]).read_value())
        return r[0] if self._single else r


class Precision(_Ratio):
    """tp / (tp + fp) of predictions above `thresholds` (default 0.5)."""

    _counts = ("true_positives", "false_positives")


class Recall(_Ratio):
    """tp / (tp + fn) of predictions above `thresholds` (default 0.5)."""

    _counts = ("true_positives", "false_negatives")


class _AtConstraint(_Confusion):
    """The largest `dependent` rate over the thresholds whose `constrained` rate is >= value
    (0 when none is): Keras's SensitivitySpecificityBase, thresholds 0, ..., 1."""

    _arg = None

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype="float32"):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"Argument `{self._arg}` must be in the range [0, 1]. Received: {self._arg}={value}")
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        setattr(self, self._arg, value)
        self.value, self.num_thresholds = float(value), num_thresholds
        thresholds = [0.5] if num_thresholds == 1 else _even_thresholds(num_thresholds, 0.0, 1.0)
        super().__init__(thresholds, name, dtype, class_id)

    def _rates(self):
        tp, fp, tn, fn = self._counts_now()
        return {"recall": M.div_no_nan(tp, tp + fn), "precision": M.div_no_nan(tp, tp + fp),
                "specificity": M.div_no_nan(tn, tn + fp)}

    def result(self):
        return self._best(*self._pair)

    def _best(self, constrained, dependent):
        rates = self._rates()
        feasible = M.greater_equal(rates[constrained], self.value)
        return R.reduce_max(M.maximum(A.where(feasible, rates[dependent], A.zeros_like(rates[dependent])), 0.0))


# Each: the argument it takes and (the constrained rate, the rate maximised under it).
class SensitivityAtSpecificity(_AtConstraint):
    _arg, _pair = "specificity", ("specificity", "recall")


class SpecificityAtSensitivity(_AtConstraint):
    _arg, _pair = "sensitivity", ("recall", "specificity")


class PrecisionAtRecall(_AtConstraint):
    _arg, _pair = "recall", ("recall", "precision")


class RecallAtPrecision(_AtConstraint):
    _arg, _pair = "precision", ("precision", "recall")


class AUC(_Confusion):
    """Area under the ROC or precision-recall curve over `num_thresholds` evenly spaced
    thresholds (with -eps and 1 + eps at the ends), or the given `thresholds`, as Keras:
    trapezoids for ROC, Davis & Goadrich's interpolation for PR, or Riemann sums of the
    smaller ("minoring") or larger ("majoring") end of each interval."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None,
                 dtype="float32", thresholds=None, multi_label=False, num_labels=None, label_weights=None,
                 from_logits=False):
        curve, summation_method = str(curve).upper(), str(summation_method).lower()
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid `curve` argument value "{curve}". Expected one of: ROC, PR')
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid `summation_method` argument value "{summation_method}". '
                             f"Expected one of: interpolation, minoring, majoring")
        self._init_args = {"thresholds": thresholds}
        if thresholds is not None:
            inner = sorted(_threshold_list(thresholds)[0])
            thresholds = [-1e-7] + inner + [1.0 + 1e-7]
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            thresholds = _even_thresholds(num_thresholds, -1e-7, 1.0 + 1e-7)
        self.num_thresholds = len(thresholds)
        self.curve, self.summation_method = curve, summation_method
        self.multi_label, self.from_logits = multi_label, from_logits
        self.label_weights = None if label_weights is None else \
            convert_to_tensor(np.asarray(label_weights, np.float32))
        # Multi-label: counts per (threshold, label), made on the first batch when num_labels is None.
        super().__init__(thresholds, name, dtype, num_labels=num_labels if multi_label else 1)


    def get_config(self):
        config = super().get_config()
        if self._init_args["thresholds"] is None:  # Keras lists thresholds only when they were given
            config.pop("thresholds", None)
        return config
    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = convert_to_tensor(y_pred)
        if self.from_logits:
            y_pred = M.sigmoid(y_pred)
        if self.multi_label:
            if y_pred.shape.rank != 2:
                raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank "
                                 f"{y_pred.shape.rank}. Full shape received for `y_pred`: {tuple(y_pred.shape)}")
            if not hasattr(self, _COUNTS[0]):
                self._build_counts(y_pred.shape.dims[-1])
        super().update_state(y_true, y_pred, sample_weight)

    def _entry_weights(self, y_pred):
        # Keras: label weights weigh each label's entries in the counts, unless multi-label
        # (then they weigh the labels' AUCs in result()).
        return None if self.label_weights is None or self.multi_label else self.label_weights

    def _by_label(self, terms):
        """The AUC from its terms over thresholds: their sum, or for multi-label the mean
        (or label_weights-weighted mean) of the per-label sums."""
        if not self.multi_label:
            return R.reduce_sum(terms)
        by_label = R.reduce_sum(terms, axis=0)
        if self.label_weights is None:
            return R.reduce_mean(by_label)
        return M.div_no_nan(R.reduce_sum(by_label * self.label_weights), R.reduce_sum(self.label_weights))

    def _interpolate_pr_auc(self):
        tp, fp, _, fn = self._counts_now()
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = M.div_no_nan(dtp, M.maximum(dp, 0.0))
        intercept = tp[1:] - slope * p[1:]
        both = M.logical_and(M.greater(p[:-1], 0.0), M.greater(p[1:], 0.0))
        ratio = A.where(both, M.div_no_nan(p[:-1], M.maximum(p[1:], 0.0)), A.ones_like(p[1:]))
        increments = M.div_no_nan(slope * (dtp + intercept * M.log(ratio)), M.maximum(tp[1:] + fn[1:], 0.0))
        return self._by_label(increments)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc()
        tp, fp, tn, fn = self._counts_now()
        recall = M.div_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = M.div_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, M.div_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = M.minimum(y[:-1], y[1:])
        else:
            heights = M.maximum(y[:-1], y[1:])
        return self._by_label((x[:-1] - x[1:]) * heights)

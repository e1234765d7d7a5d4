"""Losses for imbalanced classes and segmentation masks (Keras 3's formulas): focal
cross-entropies, which down-weight well-classified examples, the overlap losses Dice
and Tversky, and the noise-robust generalized cross-entropy."""
from tapeflow.keras.losses import EPSILON, _wrapper_class, one_hot_labels, prepare_same_rank
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor


def _cast_like(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    return M.cast(convert_to_tensor(y_true), y_pred.dtype), y_pred


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    """(1 - p_t)^gamma * bce, weighted alpha / (1 - alpha) by class when balancing."""
    y_true, y_pred = prepare_same_rank(y_true, y_pred, "binary_focal_crossentropy")
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = M.sigmoid(y_pred)
    p = M.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
    bce = -(y_true * M.log(p) + (1.0 - y_true) * M.log(1.0 - p))
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = M.pow(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return R.reduce_mean(focal, axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """sum over classes of alpha * (1 - p)^gamma * -y log p."""
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")
    y_true, y_pred = _cast_like(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true.shape[-1]
    if from_logits:
        y_pred = M.exp(y_pred - R.reduce_logsumexp(y_pred, axis=axis, keepdims=True))
    out = M.clip_by_value(y_pred / R.reduce_sum(y_pred, axis=axis, keepdims=True), EPSILON, 1.0 - EPSILON)
    return R.reduce_sum(M.pow(1.0 - out, gamma) * alpha * (-y_true * M.log(out)), axis=axis)


def dice(y_true, y_pred, axis=None):
    """1 - 2 |t p| / (|t| + |p|), summed over `axis` (all axes: one number for the batch)."""
    y_true, y_pred = _cast_like(y_true, y_pred)
    inter = R.reduce_sum(y_true * y_pred, axis=axis)
    return 1.0 - 2.0 * inter / (R.reduce_sum(y_true, axis=axis) + R.reduce_sum(y_pred, axis=axis) + EPSILON)


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """1 - tp / (tp + alpha fp + beta fn); alpha = beta = 0.5 is Dice."""
    y_true, y_pred = _cast_like(y_true, y_pred)
    inter = R.reduce_sum(y_true * y_pred, axis=axis)
    fp = R.reduce_sum((1.0 - y_pred) * y_true, axis=axis)
    fn = R.reduce_sum(y_pred * (1.0 - y_true), axis=axis)
    return 1.0 - inter / (inter + fp * alpha + fn * beta + EPSILON)


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """(1 - p_label^q) / q for integer labels: cross-entropy as q -> 0, MAE at q = 1."""
    y_pred = convert_to_tensor(y_pred)
    labels = M.cast(convert_to_tensor(y_true), dtypes.int64)
    p = R.reduce_sum(y_pred * one_hot_labels(labels, y_pred.shape[-1], y_pred.dtype), axis=-1)
    return (1.0 - M.pow(p, q)) / q


BinaryFocalCrossentropy = _wrapper_class(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)
CategoricalFocalCrossentropy = _wrapper_class(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy, "categorical_focal_crossentropy",
    alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)
Dice = _wrapper_class("Dice", dice, "dice", order=["reduction", "name", "axis"], axis=None)
Tversky = _wrapper_class("Tversky", tversky, "tversky", order=["alpha", "beta", "reduction", "name", "axis"],
                         alpha=0.5, beta=0.5, axis=None)
_GCE = _wrapper_class("CategoricalGeneralizedCrossEntropy", categorical_generalized_cross_entropy,
                      "categorical_generalized_cross_entropy", q=0.5)


class CategoricalGeneralizedCrossEntropy(_GCE):
    def __init__(self, q=0.5, reduction="sum_over_batch_size", name="categorical_generalized_cross_entropy"):
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(q=q, reduction=reduction, name=name)

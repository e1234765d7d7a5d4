"""Losses, Keras 3 formulas: a per-example value (reduced over the last axis),
then "sum_over_batch_size": the weighted sum divided by the number of values."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor

EPSILON = 1e-7


def same_rank(y_true, y_pred):
    """Keras' squeeze-or-expand: when the ranks differ by one and the longer side ends in a
    size-1 axis, labels (batch,) against predictions (batch, 1) become (batch, 1) (and
    rank > 1 the other way round is squeezed).  Without it the difference would
    broadcast to (batch, batch): a silently wrong loss."""
    t_rank, p_rank = y_true.shape.rank, y_pred.shape.rank
    if t_rank is None or p_rank is None or abs(t_rank - p_rank) != 1:
        return y_true, y_pred
    if p_rank == t_rank + 1 and y_pred.shape[-1] == 1:
        return (A.expand_dims(y_true, -1), y_pred) if t_rank == 1 else (y_true, A.squeeze(y_pred, -1))
    if t_rank == p_rank + 1 and y_true.shape[-1] == 1:
        return (y_true, A.expand_dims(y_pred, -1)) if p_rank == 1 else (A.squeeze(y_true, -1), y_pred)
    return y_true, y_pred


def _prepare(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.dtype is not y_pred.dtype:
        y_true = M.cast(y_true, y_pred.dtype)
    return same_rank(y_true, y_pred)


def prepare_same_rank(y_true, y_pred, op):
    """As _prepare, but unequal ranks are an error (Keras 3's binary and categorical
    crossentropy functions; the loss classes make the ranks equal first)."""
    y_pred = convert_to_tensor(y_pred)
    y_true = M.cast(convert_to_tensor(y_true), y_pred.dtype)
    if None not in (y_true.shape.rank, y_pred.shape.rank) and y_true.shape.rank != y_pred.shape.rank:
        raise ValueError(with_location(
            f"{op}: arguments `target` and `output` must have the same rank (ndim). Received: "
            f"target.shape={tuple(y_true.shape.dims)}, output.shape={tuple(y_pred.shape.dims)}"))
    return y_true, y_pred


def one_hot_labels(labels, depth, dtype):
    """Integer labels (any shape) -> one-hot rows of `depth` in `dtype`."""
    classes = convert_to_tensor(np.arange(depth, dtype=labels.dtype.np))
    return M.cast(M.equal(A.expand_dims(labels, -1), classes), dtype)


def _sparse_labels(y_true, y_pred):
    """Integer labels shaped like y_pred without its class axis ((batch, 1) is squeezed)."""
    y_true = convert_to_tensor(y_true)
    if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
        y_true = A.squeeze(y_true, -1)
    if not y_true.dtype.is_integer:
        y_true = M.cast(y_true, dtypes.int64)
    if y_true.shape.rank != y_pred.shape.rank - 1:
        raise ValueError(with_location(
            f"sparse categorical loss: labels of shape {list(y_true.shape)} do not match "
            f"predictions of shape {list(y_pred.shape)} (expected the predictions' shape "
            f"without its last axis)"))
    return y_true


def _log_softmax(logits, axis=-1):
    return logits - R.reduce_logsumexp(logits, axis=axis, keepdims=True)


def _ops_mean(x, axis=-1):
    """keras.ops.mean: integer and bool values are averaged in float32 (R.reduce_mean keeps ints)."""
    if x.dtype.is_integer or x.dtype.is_bool:
        x = M.cast(x, dtypes.float32)
    return R.reduce_mean(x, axis=axis)


def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    return _ops_mean(M.square(y_pred - y_true))


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    return _ops_mean(M.abs(y_pred - y_true))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = prepare_same_rank(y_true, y_pred, "binary_crossentropy")
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        # max(x, 0) - x * z + log(1 + exp(-|x|)): no overflow for large |x|.
        per = M.relu(y_pred) - y_pred * y_true + M.log1p(M.exp(-M.abs(y_pred)))
    else:
        p = M.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        per = -(y_true * M.log(p) + (1.0 - y_true) * M.log(1.0 - p))
    return R.reduce_mean(per, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = prepare_same_rank(y_true, y_pred, "categorical_crossentropy")
    if label_smoothing:
        n = y_pred.shape[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / n
    if from_logits:
        return -R.reduce_sum(y_true * _log_softmax(y_pred, axis), axis=axis)
    p = y_pred / R.reduce_sum(y_pred, axis=axis, keepdims=True)
    p = M.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return -R.reduce_sum(y_true * M.log(p), axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None):
    y_pred = convert_to_tensor(y_pred)
    labels = _sparse_labels(y_true, y_pred)
    if ignore_class is not None:  # Keras 3: those labels give 0 and are masked out of the mean
        valid = M.not_equal(labels, M.cast(ignore_class, labels.dtype))
        loss = sparse_categorical_crossentropy(A.where(valid, labels, A.zeros_like(labels)), y_pred, from_logits)
        loss = A.where(valid, loss, A.zeros_like(loss))
        loss._keras_mask = valid
        return loss
    target = one_hot_labels(labels, y_pred.shape[-1], y_pred.dtype)
    if from_logits:
        loss = R.reduce_logsumexp(y_pred, axis=-1) - R.reduce_sum(target * y_pred, axis=-1)
    else:
        p = y_pred / R.reduce_sum(y_pred, axis=-1, keepdims=True)
        p = M.clip_by_value(p, EPSILON, 1.0 - EPSILON)
        loss = -R.reduce_sum(target * M.log(p), axis=-1)
    # A label outside [0, classes) has an all-zero one-hot row, which would give a finite,
    # wrong loss. TensorFlow raises on CPU and gives NaN on GPU; NaN here (eager and compiled
    # alike, no data-dependent check in the graph) so the bad label can never train silently.
    in_range = M.equal(R.reduce_sum(target, axis=-1), 1.0)
    return A.where(in_range, loss, A.zeros_like(loss) + float("nan"))


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    # As Keras 3: epsilon in y_pred's dtype (0 for integers, so int / 0 gives inf or nan), and
    # `/` is TF's (int32 / int32 is float64).
    epsilon = M.cast(convert_to_tensor(EPSILON), y_pred.dtype)
    diff = M.abs((y_true - y_pred) / M.maximum(M.abs(y_true), epsilon))
    return 100.0 * _ops_mean(diff)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    if not y_pred.dtype.is_floating:  # keras.ops.maximum(int, float32 epsilon) is float32
        y_true, y_pred = M.cast(y_true, dtypes.float32), M.cast(y_pred, dtypes.float32)
    first = M.log(M.maximum(y_pred, EPSILON) + 1.0)
    second = M.log(M.maximum(y_true, EPSILON) + 1.0)
    return R.reduce_mean(M.square(first - second), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """0.5 e^2 where |e| <= delta, else delta * (|e| - 0.5 delta); mean over the last axis."""
    y_true, y_pred = _prepare(y_true, y_pred)
    err = M.abs(y_pred - y_true)
    quad = 0.5 * M.square(err)
    lin = delta * err - 0.5 * delta * delta
    return R.reduce_mean(A.where(err <= delta, quad, lin), axis=-1)


def log_cosh(y_true, y_pred):
    """log(cosh(e)) = |e| + log(1 + exp(-2|e|)) - log 2 (no overflow for large |e|)."""
    y_true, y_pred = _prepare(y_true, y_pred)
    e = y_pred - y_true
    a = M.abs(e)
    return R.reduce_mean(a + M.log1p(M.exp(-2.0 * a)) - float(np.log(2.0)), axis=-1)


def kl_divergence(y_true, y_pred):
    """sum(t * log(t / p)) with both clipped to [eps, 1]."""
    y_true, y_pred = _prepare(y_true, y_pred)
    t = M.clip_by_value(y_true, EPSILON, 1.0)
    p = M.clip_by_value(y_pred, EPSILON, 1.0)
    return R.reduce_sum(t * M.log(t / p), axis=-1)


def poisson(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    return R.reduce_mean(y_pred - y_true * M.log(y_pred + EPSILON), axis=-1)


def _signed_labels(y_true):
    """0/1 labels become -1/+1 (labels already in {-1, 1} are kept)."""
    is_binary = R.reduce_all(M.logical_or(M.equal(y_true, 0.0), M.equal(y_true, 1.0)))
    return A.where(is_binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    return R.reduce_mean(M.relu(1.0 - _signed_labels(y_true) * y_pred), axis=-1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    return R.reduce_mean(M.square(M.relu(1.0 - _signed_labels(y_true) * y_pred)), axis=-1)


def categorical_hinge(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    pos = R.reduce_sum(y_true * y_pred, axis=-1)
    neg = R.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return M.relu(neg - pos + 1.0)


def _l2_normalize(x, axis):
    return x * M.rsqrt(M.maximum(R.reduce_sum(M.square(x), axis=axis, keepdims=True), 1e-12))


def cosine_similarity(y_true, y_pred, axis=-1):
    """-cos(y_true, y_pred) along `axis` (a loss: -1 means the same direction)."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return -R.reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


class Loss:
    """Callable loss object: loss(y_true, y_pred, sample_weight=None) -> scalar."""

    def __init__(self, reduction="sum_over_batch_size", name=None, dtype=None):
        if reduction not in REDUCTIONS:
            raise ValueError(f"{type(self).__name__}: invalid value for argument `reduction`: {reduction!r}; "
                             f"expected one of {sorted(map(str, REDUCTIONS))}")
        self.reduction = reduction
        self.name = name or _snake(type(self).__name__)
        self._dtype = None if dtype is None else dtypes.as_dtype(getattr(dtype, "compute_dtype", dtype))

    @property
    def dtype(self):
        """Keras 3: the given dtype (a policy's compute dtype), else floatx() when the loss is used."""
        if self._dtype is not None:
            return self._dtype.name
        from tapeflow.keras.backend import floatx
        return floatx()

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__} must define call(y_true, y_pred)")

    def __call__(self, y_true, y_pred, sample_weight=None):
        # As Keras 3: the Keras mask of y_pred (a masked sequence model's output) and the one
        # the loss puts on its values (ignore_class) leave those entries out of the mean.
        in_mask = getattr(y_pred, "_keras_mask", None)
        # Keras 3 converts both to the loss's dtype first: integer or float64 inputs give float32.
        from tapeflow.keras import ops, tree
        y_pred = tree.map_structure(lambda x: ops.convert_to_tensor(x, self.dtype), y_pred)
        y_true = tree.map_structure(lambda x: ops.convert_to_tensor(x, self.dtype), y_true)
        per = self.call(y_true, y_pred)
        out_mask = getattr(per, "_keras_mask", None)
        mask = in_mask if out_mask is None else (out_mask if in_mask is None else M.logical_and(
            M.cast(in_mask, dtypes.bool), M.cast(out_mask, dtypes.bool)))
        return reduce_weighted(per, sample_weight, mask, self.reduction)

    def get_config(self):
        from tapeflow.keras import saving
        return saving.builtin_config(self, {"name": self.name, "reduction": self.reduction})

    @classmethod
    def from_config(cls, config):
        return cls(**config)


REDUCTIONS = ("sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None)


def _like(w, values):
    while w.shape.rank > values.shape.rank and w.shape[-1] == 1:
        w = A.squeeze(w, -1)
    return w


def reduce_weighted(per, sample_weight, mask, reduction):
    """Keras 3's reduce_weighted_values: weights (times a mask, rescaled by total/valid for the
    means so the masked entries do not count), then the reduction; a scalar stays as it is."""
    w = None if sample_weight is None else M.cast(convert_to_tensor(sample_weight), per.dtype)
    if mask is not None:
        m = _like(M.cast(mask, per.dtype), per)
        if reduction in ("mean", "sum_over_batch_size"):
            m = m * (M.cast(A.size(m), per.dtype) / (R.reduce_sum(m) + EPSILON))
        w = m if w is None else _like(w, m) * m
    if w is not None:
        per = per * _like(w, per)
    if reduction in ("none", None) or per.shape.rank == 0:
        return per
    total = R.reduce_sum(per)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and w is not None:
        return M.div_no_nan(total, R.reduce_sum(w))
    return M.div_no_nan(total, M.cast(A.size(per), per.dtype))


def _snake(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


class LossFunctionWrapper(Loss):
    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **fn_kwargs):
        super().__init__(reduction, name, dtype)
        self.fn = fn
        self.fn_kwargs = fn_kwargs

    def call(self, y_true, y_pred):
        if hasattr(y_true, "shape") and hasattr(y_pred, "shape"):  # Keras 3 does it for any function
            y_true, y_pred = same_rank(convert_to_tensor(y_true), convert_to_tensor(y_pred))
        return self.fn(y_true, y_pred, **self.fn_kwargs)


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction, name, dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, reduction, name, dtype)


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, reduction, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, reduction, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction, name, dtype, from_logits=from_logits,
                         ignore_class=ignore_class)
        self.from_logits, self.ignore_class = from_logits, ignore_class


def _wrapper_class(class_name, fn, default_name, order=None, **defaults):
    """A Loss class whose call is fn(y_true, y_pred, **options); `order` is Keras's order of
    the positional arguments where it is not the options, then reduction and name."""
    # Keras's order: the options first (Huber(2.0) is delta=2.0), then reduction and name.
    order = order or [*defaults, "reduction", "name", "dtype"]

    def __init__(self, *args, **kwargs):
        if len(args) > len(order):
            raise TypeError(f"{class_name}: takes at most {len(order)} positional arguments")
        given = dict(zip(order, args))
        twice = set(given) & set(kwargs)
        unknown = set(kwargs) - set(order) - {"dtype"}
        if twice or unknown:
            raise TypeError(f"{class_name}: unexpected or repeated arguments {sorted(twice | unknown)}")
        options = {**defaults, **given, **kwargs}
        reduction = options.pop("reduction", "sum_over_batch_size")
        name = options.pop("name", default_name)
        dtype = options.pop("dtype", None)
        LossFunctionWrapper.__init__(self, fn, reduction, name, dtype, **options)
    return type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": fn.__doc__})


MeanAbsolutePercentageError = _wrapper_class("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                             "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                             "mean_squared_logarithmic_error")
Huber = _wrapper_class("Huber", huber, "huber_loss", delta=1.0)
LogCosh = _wrapper_class("LogCosh", log_cosh, "log_cosh")
KLDivergence = _wrapper_class("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _wrapper_class("Poisson", poisson, "poisson")
Hinge = _wrapper_class("Hinge", hinge, "hinge")
SquaredHinge = _wrapper_class("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
CosineSimilarity = _wrapper_class("CosineSimilarity", cosine_similarity, "cosine_similarity", axis=-1)

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

# ---- keras.losses names defined in losses_imbalanced (one per line) ----
# Imported here, after the helpers that module takes from this one are defined.
from tapeflow.keras.losses_imbalanced import BinaryFocalCrossentropy  # noqa: E402
from tapeflow.keras.losses_imbalanced import CategoricalFocalCrossentropy  # noqa: E402
from tapeflow.keras.losses_imbalanced import CategoricalGeneralizedCrossEntropy  # noqa: E402
from tapeflow.keras.losses_imbalanced import Dice  # noqa: E402
from tapeflow.keras.losses_imbalanced import Tversky  # noqa: E402
from tapeflow.keras.losses_imbalanced import binary_focal_crossentropy  # noqa: E402
from tapeflow.keras.losses_imbalanced import categorical_focal_crossentropy  # noqa: E402
from tapeflow.keras.losses_imbalanced import categorical_generalized_cross_entropy  # noqa: E402
from tapeflow.keras.losses_imbalanced import dice  # noqa: E402
from tapeflow.keras.losses_imbalanced import tversky  # noqa: E402
# ---- end of keras.losses names from losses_imbalanced ----
from tapeflow.keras.losses_structured import CTC, Circle, circle, ctc  # noqa: E402

_BY_NAME = {
    "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
    "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
    "binary_crossentropy": BinaryCrossentropy,
    "categorical_crossentropy": CategoricalCrossentropy,
    "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
    "mape": MeanAbsolutePercentageError, "mean_absolute_percentage_error": MeanAbsolutePercentageError,
    "msle": MeanSquaredLogarithmicError, "mean_squared_logarithmic_error": MeanSquaredLogarithmicError,
    "huber": Huber, "huber_loss": Huber, "log_cosh": LogCosh, "logcosh": LogCosh,
    "kl_divergence": KLDivergence, "kld": KLDivergence, "poisson": Poisson, "hinge": Hinge,
    "squared_hinge": SquaredHinge, "categorical_hinge": CategoricalHinge, "cosine_similarity": CosineSimilarity,
    "binary_focal_crossentropy": BinaryFocalCrossentropy,
    "categorical_focal_crossentropy": CategoricalFocalCrossentropy, "dice": Dice, "tversky": Tversky,
    "ctc": CTC, "circle": Circle,
}


def get(identifier):
    """keras.losses.get, as Keras 3: a function's name ("mse") gives the per-example function,
    a class name ("MeanSquaredError") an instance; objects and functions pass through."""
    if isinstance(identifier, str):
        cls = globals().get(identifier)
        if isinstance(cls, type) and issubclass(cls, Loss):
            return cls()
        obj = loss_object(identifier)
        return obj.fn if isinstance(obj, LossFunctionWrapper) else obj
    if isinstance(identifier, Loss) or callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss {identifier!r}")


def loss_object(identifier):
    """A Loss object (what compile uses) from a name, a Loss instance or class, or a
    function(y_true, y_pred)."""
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown loss {identifier!r}; known: {sorted(_BY_NAME)}")
        return _BY_NAME[identifier]()
    if isinstance(identifier, Loss):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Loss):
        return identifier()
    if callable(identifier):
        return LossFunctionWrapper(identifier, name=getattr(identifier, "__name__", "loss"))
    raise ValueError(f"Could not interpret loss {identifier!r}")



def serialize(loss):
    """A loss object as Keras's {"module", "class_name", "config", "registered_name"}."""
    from tapeflow.keras import saving
    return saving.serialize_keras_object(loss)


def deserialize(config, custom_objects=None):
    """The loss a serialize() dict (or a loss name) describes."""
    import sys

    from tapeflow.keras import saving
    return saving.deserialize_from(config, sys.modules[__name__], Loss, custom_objects)

"""TensorFlow 1 names that eager-era programs use, each mapped onto its TF2
equivalent: tf.log, tf.random_normal, tf.layers, tf.enable_eager_execution, ..."""
import types

import tapeflow
from tapeflow.keras import layers  # noqa: F401  (tf.layers.Dense is keras's Dense)
from tapeflow.runtime.ops.math_ops import log  # noqa: F401
from tapeflow.runtime.registry import state


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Eager execution is always on in tapeflow; kept so TF1 programs run unchanged."""


def executing_eagerly():
    """False only while a tf.function is being traced."""
    return state.graph is None


def random_normal(shape, mean=0.0, stddev=1.0, dtype="float32", seed=None, name=None):
    return tapeflow.random.normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=seed)


def random_uniform(shape, minval=0, maxval=None, dtype="float32", seed=None, name=None):
    return tapeflow.random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype="float32", seed=None, name=None):
    return tapeflow.random.truncated_normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=seed)


def set_random_seed(seed):
    tapeflow.random.set_seed(seed)


def div(x, y, name=None):
    """TF1 tf.div: Python 2 division — floor division for integers, true division for floats."""
    x = tapeflow.convert_to_tensor(x)
    y = tapeflow.convert_to_tensor(y, dtype=x.dtype) if not hasattr(y, "dtype") else y
    if x.dtype.is_integer:
        return tapeflow.math.floordiv(x, y)
    return tapeflow.math.divide(x, y)


def to_float(x, name=None):
    return tapeflow.cast(x, tapeflow.float32)


def to_double(x, name=None):
    return tapeflow.cast(x, tapeflow.float64)


def to_int32(x, name=None):
    return tapeflow.cast(x, tapeflow.int32)


def to_int64(x, name=None):
    return tapeflow.cast(x, tapeflow.int64)


def arg_max(input, dimension, output_type=None, name=None):  # noqa: A002 - TF's argument name
    return tapeflow.math.argmax(input, axis=dimension, output_type=output_type or tapeflow.int64)


def arg_min(input, dimension, output_type=None, name=None):  # noqa: A002 - TF's argument name
    return tapeflow.math.argmin(input, axis=dimension, output_type=output_type or tapeflow.int64)


def random_shuffle(value, seed=None, name=None):
    return tapeflow.random.shuffle(value, seed=seed)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    return tapeflow.random.categorical(logits, num_samples, dtype=output_dtype, seed=seed)


def assign(ref, value, name=None):
    return ref.assign(value)


def assign_add(ref, value, name=None):
    return ref.assign_add(value)


def assign_sub(ref, value, name=None):
    return ref.assign_sub(value)


def softmax_cross_entropy_with_logits_v2(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF 1.5+ name of tf.nn.softmax_cross_entropy_with_logits (gradient flows into labels too)."""
    return tapeflow.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                         axis=dim if axis is None else axis)


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype="int64", name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002 - TF's argument name
    """TF1 tf.count_nonzero: also accepts the old reduction_indices= / keep_dims= spellings."""
    x = input_tensor if input is None else input
    if x is None:
        raise ValueError(tapeflow.runtime.errors.with_location("tf.count_nonzero: no input tensor given"))
    axis = reduction_indices if axis is None else axis
    keepdims = bool(keep_dims if keepdims is None else keepdims)
    return tapeflow.math.count_nonzero(x, axis=axis, keepdims=keepdims, dtype=dtype)


def _v1_reduction(reduce):
    """TF1's reduce_*: axis may be spelled reduction_indices=, keepdims keep_dims= (not both)."""
    def v1_reduce(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        if axis is not None and reduction_indices is not None:
            raise ValueError(tapeflow.runtime.errors.with_location(
                f"tf.compat.v1.{reduce.__name__}: cannot specify both 'axis' and 'reduction_indices'"))
        if keepdims is not None and keep_dims is not None:
            raise ValueError(tapeflow.runtime.errors.with_location(
                f"tf.compat.v1.{reduce.__name__}: cannot specify both 'keepdims' and 'keep_dims'"))
        axis = reduction_indices if axis is None else axis
        keepdims = bool(keep_dims if keepdims is None else keepdims)
        return reduce(input_tensor, axis=axis, keepdims=keepdims)
    v1_reduce.__name__ = reduce.__name__
    return v1_reduce


def _v1_arg(arg):
    """TF1's argmax / argmin: the axis may be spelled dimension=."""
    def v1_arg(input, axis=None, name=None, dimension=None, output_type="int64"):  # noqa: A002 - TF's name
        if axis is not None and dimension is not None:
            raise ValueError(tapeflow.runtime.errors.with_location(
                f"tf.compat.v1.{arg.__name__}: cannot specify both 'axis' and 'dimension'"))
        axis = dimension if axis is None else axis
        return arg(input, axis=0 if axis is None else axis, output_type=output_type)
    v1_arg.__name__ = arg.__name__
    return v1_arg


def v1_reductions():
    """{name: TF1-signature function} for tf.compat.v1's reduce_* / argmax / argmin."""
    names = ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all",
             "reduce_any", "reduce_logsumexp")
    out = {n: _v1_reduction(getattr(tapeflow.math, n)) for n in names}
    out.update(argmax=_v1_arg(tapeflow.math.argmax), argmin=_v1_arg(tapeflow.math.argmin))
    return out


class GraphKeys:
    """TF1 collection names.  Collections are plain named lists here (compat_v1_eager), as TF 2
    keeps them eagerly; nothing fills the graph-mode ones (GLOBAL_VARIABLES stays empty)."""
    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"


def _graph_mode_name(name, advice):
    def unsupported(*args, **kwargs):
        raise NotImplementedError(tapeflow.runtime.errors.with_location(
            f"tf.{name}: TensorFlow 1 graph-mode {advice}"))
    unsupported.__name__ = name.rsplit(".", 1)[-1]
    return unsupported


_SESSION_ADVICE = ("(placeholders, Session) is not supported by tapeflow; run eagerly and put the "
                   "computation in a @tf.function")
Session, InteractiveSession, placeholder, global_variables_initializer = (
    _graph_mode_name(n, _SESSION_ADVICE)
    for n in ("Session", "InteractiveSession", "placeholder", "global_variables_initializer"))


# ---- tf.losses as TensorFlow 1 wrote it: (labels, predictions/logits, weights=1.0, ..., reduction=)
# returning a scalar by default.  Trap: TF2's tf.losses is keras.losses, whose mean_squared_error
# returns one value per sample; only tf.compat.v1.losses has the TF1 mean_squared_error.
class Reduction:
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_BY_NONZERO_WEIGHTS)


def _check_weights(values, weights):
    """TF1's rule: weights are a scalar or have the values' rank, each dim 1 or the values' dim."""
    v, w = values.shape, weights.shape
    if w.rank is None or v.rank is None or w.rank == 0:
        return
    if w.rank != v.rank or any(a is not None and b is not None and b not in (1, a)
                               for a, b in zip(v.as_list(), w.as_list())):
        raise ValueError(tapeflow.runtime.errors.with_location(
            f"weights can not be broadcast to values. values.rank={v.rank}. weights.rank={w.rank}. "
            f"values.shape={v}. weights.shape={w}."))


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=None,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    if reduction not in Reduction.all():
        raise ValueError(tapeflow.runtime.errors.with_location(
            f"tf.losses: unknown reduction {reduction!r}; expected one of {Reduction.all()}"))
    losses = tapeflow.convert_to_tensor(losses)
    weights = tapeflow.cast(tapeflow.convert_to_tensor(weights), losses.dtype)
    _check_weights(losses, weights)
    weights = weights * tapeflow.ones_like(losses)  # broadcast the weights to the losses' shape
    weighted = losses * weights
    if reduction == Reduction.NONE:
        return weighted
    total = tapeflow.reduce_sum(weighted)
    if reduction == Reduction.SUM:
        return total
    if reduction == Reduction.MEAN:
        denom = tapeflow.reduce_sum(weights)
    elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
        denom = tapeflow.cast(tapeflow.size(losses), losses.dtype)
    else:
        denom = tapeflow.cast(tapeflow.math.count_nonzero(weights), losses.dtype)
    return tapeflow.math.divide_no_nan(total, denom)


def _check_shapes(op, labels, predictions):
    if labels.shape.rank is not None and predictions.shape.rank is not None:
        if not labels.shape.is_compatible_with(predictions.shape):
            raise ValueError(tapeflow.runtime.errors.with_location(
                f"tf.losses.{op}: labels shape {labels.shape} is incompatible with predictions "
                f"shape {predictions.shape}"))


def _pair(op, labels, predictions):
    predictions = tapeflow.convert_to_tensor(predictions)
    labels = tapeflow.cast(tapeflow.convert_to_tensor(labels), predictions.dtype)
    _check_shapes(op, labels, predictions)
    return labels, predictions


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=None,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, predictions = _pair("mean_squared_error", labels, predictions)
    return compute_weighted_loss(tapeflow.square(predictions - labels), weights, reduction=reduction)


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=None,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, predictions = _pair("absolute_difference", labels, predictions)
    return compute_weighted_loss(tapeflow.abs(predictions - labels), weights, reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=None, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, logits = _pair("softmax_cross_entropy", onehot_labels, logits)
    if label_smoothing > 0:
        num_classes = tapeflow.cast(tapeflow.shape(labels)[-1], logits.dtype)
        labels = labels * (1.0 - label_smoothing) + label_smoothing / num_classes
    losses = tapeflow.nn.softmax_cross_entropy_with_logits(labels=tapeflow.stop_gradient(labels), logits=logits)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection=None,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    losses = tapeflow.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=None, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, logits = _pair("sigmoid_cross_entropy", multi_class_labels, logits)
    if label_smoothing > 0:
        labels = labels * (1.0 - label_smoothing) + 0.5 * label_smoothing
    losses = tapeflow.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=None,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, predictions = _pair("huber_loss", labels, predictions)
    error = tapeflow.abs(predictions - labels)
    quadratic = tapeflow.minimum(error, delta)
    losses = 0.5 * tapeflow.square(quadratic) + delta * (error - quadratic)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=None,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    labels, predictions = _pair("log_loss", labels, predictions)
    losses = (-labels * tapeflow.math.log(predictions + epsilon)
              - (1.0 - labels) * tapeflow.math.log(1.0 - predictions + epsilon))
    return compute_weighted_loss(losses, weights, reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=None,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Labels are 0/1, mapped to -1/+1."""
    labels, logits = _pair("hinge_loss", labels, logits)
    losses = tapeflow.nn.relu(1.0 - (2.0 * labels - 1.0) * logits)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection=None,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """1 - <labels, predictions> along `axis`; both are expected unit-normalized, as in TF."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError(tapeflow.runtime.errors.with_location("tf.losses.cosine_distance: You must specify 'axis'."))
    labels, predictions = _pair("cosine_distance", labels, predictions)
    losses = 1.0 - tapeflow.reduce_sum(labels * predictions, axis=axis, keepdims=True)
    return compute_weighted_loss(losses, weights, reduction=reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=None):
    """Per sample: the mean over pairs of elements (i, j) of ((p_i - p_j) - (l_i - l_j))^2, as
    2 * (sum d^2 / (n - 1) - (sum d)^2 / (n (n - 1))) over the n present (weight != 0) elements."""
    labels, predictions = _pair("mean_pairwise_squared_error", labels, predictions)
    diffs = predictions - labels
    axes = list(range(1, diffs.shape.rank))
    weights = tapeflow.cast(tapeflow.convert_to_tensor(weights), diffs.dtype)
    _check_weights(diffs, weights)
    present = tapeflow.cast(tapeflow.not_equal(weights * tapeflow.ones_like(diffs), 0), diffs.dtype)
    if weights.shape.rank == 0:
        # TensorFlow's eager count for a nonzero scalar weight: every element of the batch, not per sample
        n = tapeflow.reduce_sum(present)
    else:
        n = tapeflow.reduce_sum(present, axis=axes, keepdims=True)
    div = tapeflow.math.divide_no_nan
    term1 = 2.0 * div(tapeflow.reduce_sum(tapeflow.square(diffs), axis=axes, keepdims=True),
                      tapeflow.maximum(n - 1, 0))
    term2 = 2.0 * div(tapeflow.square(tapeflow.reduce_sum(diffs, axis=axes, keepdims=True)),
                      tapeflow.maximum(n * (n - 1), 0))
    loss = tapeflow.reduce_sum((term1 - term2) * weights)
    return tapeflow.where(tapeflow.reduce_sum(n) > 0, loss, tapeflow.zeros_like(loss))


def _no_losses(scope=None, loss_collection=None):
    """Eagerly TensorFlow collects no losses: tf.compat.v1.losses.get_losses() is []."""
    return []


_TF1_LOSSES = dict(
    Reduction=Reduction, compute_weighted_loss=compute_weighted_loss, mean_squared_error=mean_squared_error,
    absolute_difference=absolute_difference, softmax_cross_entropy=softmax_cross_entropy,
    sparse_softmax_cross_entropy=sparse_softmax_cross_entropy, sigmoid_cross_entropy=sigmoid_cross_entropy,
    huber_loss=huber_loss, log_loss=log_loss, hinge_loss=hinge_loss, cosine_distance=cosine_distance,
    mean_pairwise_squared_error=mean_pairwise_squared_error, get_losses=_no_losses,
    get_regularization_losses=_no_losses)


class _LossesModule(types.ModuleType):
    """A losses namespace: its own names first, then keras.losses's."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(tapeflow.keras.losses, name)


def losses_namespace(module_name, tf1_mse):
    """tf.losses (tf1_mse=False: keras's mean_squared_error stays, TF1-only names are added) or
    tf.compat.v1.losses (tf1_mse=True: every name has its TF1 signature and reduction)."""
    mod = _LossesModule(module_name, "TensorFlow 1 losses over keras.losses.")
    own = dict(_TF1_LOSSES)
    if not tf1_mse:
        for name in ("mean_squared_error", "absolute_difference", "huber_loss", "log_loss", "hinge_loss",
                     "cosine_distance", "mean_pairwise_squared_error", "get_losses", "get_regularization_losses"):
            own.pop(name)
    mod.__dict__.update(own)
    return mod


# tf.losses: keras.losses plus the TF1-only names (softmax_cross_entropy, Reduction, ...) that do
# not collide with a Keras name; TF1's own mean_squared_error lives in tf.compat.v1.losses.
tf2_losses = losses_namespace("tapeflow.losses", tf1_mse=False)

"""Activation functions by name, for layers' `activation=` arguments (Keras 3's set)."""
import tapeflow as tf
from tapeflow.runtime.ops import math_ops


def linear(x):
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Keras 3's ReLU.static_call, step by step: x itself only where x > threshold (strictly: x
    equal to a nonzero threshold gives 0), clipped to [0, max_value], minus negative_slope *
    relu(threshold - x).  Lists are converted (Keras takes them)."""
    x = tf.convert_to_tensor(x)
    if negative_slope == 0 and max_value is None and threshold == 0:
        return math_ops.relu(x)
    if negative_slope != 0 and max_value is None and threshold == 0:
        return tf.nn.leaky_relu(x, alpha=negative_slope)
    negative_part = tf.nn.relu(threshold - x) if negative_slope != 0 else None
    if threshold != 0:
        x = tf.where(tf.greater(x, tf.cast(threshold, x.dtype)), x, tf.zeros_like(x))
    elif max_value == 6:
        x = tf.nn.relu6(x)
    else:
        x = math_ops.relu(x)
    if max_value is not None:
        x = tf.clip_by_value(x, tf.cast(0, x.dtype), tf.cast(max_value, x.dtype))
    return x if negative_part is None else x - negative_slope * negative_part


def relu6(x):
    return tf.nn.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return tf.nn.leaky_relu(x, alpha=negative_slope)


def sigmoid(x):
    return tf.sigmoid(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6 (Keras 3)."""
    return tf.nn.relu6(x + 3.0) / 6.0


def hard_silu(x):
    return x * hard_sigmoid(x)


def tanh(x):
    return tf.tanh(x)


def softmax(x, axis=-1):
    return tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return tf.nn.log_softmax(x, axis=axis)


def elu(x, alpha=1.0):
    y = tf.nn.elu(x)
    return y if alpha == 1.0 else tf.where(x > 0, y, y * alpha)


def selu(x):
    return tf.nn.selu(x)


def gelu(x, approximate=False):
    return tf.nn.gelu(x, approximate=approximate)


def softplus(x):
    return tf.nn.softplus(x)


def softsign(x):
    return tf.nn.softsign(x)


def silu(x):
    return tf.nn.silu(x)


def mish(x):
    return x * tf.tanh(tf.nn.softplus(x))


def log_sigmoid(x):
    return tf.math.log_sigmoid(x)


def exponential(x):
    return tf.exp(x)


def celu(x, alpha=1.0):
    """max(x, 0) + min(alpha * (exp(x / alpha) - 1), 0)."""
    return tf.maximum(x, 0.0) + tf.minimum(alpha * (tf.exp(x / alpha) - 1.0), 0.0)


def glu(x, axis=-1):
    """a * sigmoid(b) of the two halves a, b of `x` along `axis`."""
    if x.shape[axis] is not None and x.shape[axis] % 2:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(x.shape)} with axis={axis}")
    a, b = tf.split(x, 2, axis=axis)
    return a * tf.sigmoid(b)


def hard_shrink(x, threshold=0.5):
    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))


def hard_tanh(x):
    return tf.clip_by_value(x, -1.0, 1.0)


def soft_shrink(x, threshold=0.5):
    return tf.where(x > threshold, x - threshold, tf.where(x < -threshold, x + threshold, tf.zeros_like(x)))


def sparse_plus(x):
    """0 for x <= -1, x for x >= 1, (x + 1)^2 / 4 between."""
    return tf.where(x <= -1.0, tf.zeros_like(x), tf.where(x >= 1.0, x, tf.square(x + 1.0) / 4.0))


def sparse_sigmoid(x):
    return tf.where(x <= -1.0, tf.zeros_like(x), tf.where(x >= 1.0, tf.ones_like(x), 0.5 * (x + 1.0)))


def squareplus(x, b=4):
    return (x + tf.sqrt(tf.square(x) + b)) / 2.0


def tanh_shrink(x):
    return x - tf.tanh(x)


def threshold(x, threshold, default_value):  # noqa: A002 - Keras's argument names
    return tf.where(x > threshold, x, tf.cast(default_value, x.dtype) * tf.ones_like(x))


def sparsemax(x, axis=-1):
    """Keras 3.15's sparsemax: max(x - tau, 0) over the support {j : z_j > (cumsum_j - 1) / j}
    of the sorted z.  Trap: Keras's tau is (sum over the support of the cumulative sums
    - 1) / k, not Martins & Astudillo's (cumsum_k - 1) / k, so rows need not sum to 1;
    TF decides the values here, so its formula is kept."""
    z = tf.sort(x, axis=axis, direction="DESCENDING")
    cum = tf.cumsum(z, axis=axis)
    support = z - (cum - 1.0) / tf.cumsum(tf.ones_like(z), axis=axis) > 0
    k = tf.reduce_sum(tf.cast(support, x.dtype), axis=axis, keepdims=True)
    tau = (tf.reduce_sum(tf.where(support, cum, tf.zeros_like(cum)), axis=axis, keepdims=True) - 1.0) / k
    return tf.maximum(x - tau, 0.0)


swish = silu
hard_swish = hard_silu

_BY_NAME = {f.__name__: f for f in (linear, relu, relu6, leaky_relu, sigmoid, hard_sigmoid, hard_silu, tanh,
                                    softmax, log_softmax, elu, selu, gelu, softplus, softsign, silu, mish,
                                    log_sigmoid, exponential, celu, glu, hard_shrink, hard_tanh, soft_shrink,
                                    sparse_plus, sparse_sigmoid, squareplus, tanh_shrink, threshold, sparsemax)}
_BY_NAME.update(swish=silu, hard_swish=hard_silu)


def get(identifier):
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        from tapeflow.keras import saving  # late: saving imports the layers, which import this module
        custom = saving.custom_object(identifier)  # custom_objects of load_model, or a registered function
        if custom is not None:
            return custom
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown activation {identifier!r}; known: {sorted(_BY_NAME)}")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation {identifier!r}")


def serialize(fn):
    return getattr(fn, "__name__", repr(fn))


def deserialize(name):
    return get(name)

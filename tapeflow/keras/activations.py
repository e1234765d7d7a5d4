"""Activation functions by name, for layers' `activation=` arguments (Keras 3's set)."""
import tapeflow as tf
from tapeflow.runtime.ops import math_ops


def linear(x):
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    if negative_slope == 0 and max_value is None and threshold == 0:
        return math_ops.relu(x)
    below = (x - threshold) * negative_slope if negative_slope else tf.zeros_like(x)
    y = tf.where(x >= threshold, x, below)
    return y if max_value is None else tf.minimum(y, tf.cast(max_value, y.dtype))


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


swish = silu
hard_swish = hard_silu

_BY_NAME = {f.__name__: f for f in (linear, relu, relu6, leaky_relu, sigmoid, hard_sigmoid, hard_silu, tanh,
                                    softmax, log_softmax, elu, selu, gelu, softplus, softsign, silu, mish,
                                    log_sigmoid, exponential)}
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

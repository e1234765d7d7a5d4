"""Activation functions by name, for layers' `activation=` arguments."""
import tapeflow as tf
from tapeflow.runtime.ops import math_ops


def linear(x):
    return x


def relu(x):
    return math_ops.relu(x)


def sigmoid(x):
    return tf.sigmoid(x)


def tanh(x):
    return tf.tanh(x)


def softmax(x, axis=-1):
    return tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return tf.nn.log_softmax(x, axis=axis)


def elu(x):
    return tf.nn.elu(x)


def selu(x):
    return tf.nn.selu(x)


def gelu(x, approximate=False):
    return tf.nn.gelu(x, approximate=approximate)


def softplus(x):
    return tf.nn.softplus(x)


def exponential(x):
    return tf.exp(x)


_BY_NAME = {f.__name__: f for f in (linear, relu, sigmoid, tanh, softmax, log_softmax, elu, selu,
                                    gelu, softplus, exponential)}


def get(identifier):
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown activation {identifier!r}; known: {sorted(_BY_NAME)}")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation {identifier!r}")


def serialize(fn):
    return getattr(fn, "__name__", repr(fn))

"""TensorFlow 1 names that eager-era programs use, each mapped onto its TF2
equivalent: tf.log, tf.random_normal, tf.layers, tf.enable_eager_execution, ..."""
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

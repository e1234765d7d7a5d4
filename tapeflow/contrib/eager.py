"""tf.contrib.eager (`tfe`): the function-style gradient helpers and classes of
the TensorFlow 1.5-1.7 eager era, each a thin layer over GradientTape, Variable
and keras.Model."""
import functools
import types

from tapeflow.keras import metrics as _keras_metrics
from tapeflow.keras.models import Model
from tapeflow.runtime.devices import list_physical_devices
from tapeflow.runtime.backprop import GradientTape
from tapeflow.runtime.custom_gradient import custom_gradient  # noqa: F401
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import state
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.runtime.variables import Variable  # noqa: F401
from tapeflow.tracer import function as defun  # noqa: F401  (tfe.defun is TF1's name for tf.function)
from tapeflow.tracer.py_function import py_function as py_func  # noqa: F401  (eager py_func)
from tapeflow.train.v1_saver import VariableSaver
from tapeflow.train.checkpoint_classes import Checkpoint  # noqa: F401

__all__ = [
    "gradients_function", "value_and_gradients_function", "implicit_gradients",
    "implicit_value_and_gradients", "custom_gradient", "Variable", "Network", "Iterator",
    "enable_eager_execution", "executing_eagerly", "defun", "py_func", "Checkpoint", "num_gpus", "metrics", "Saver",
]



class _ContribAccuracy(_keras_metrics.Accuracy):
    """tfe.metrics.Accuracy: called as (labels, predictions, weights=None), keywords included."""

    def __call__(self, labels, predictions, weights=None):
        return super().__call__(labels, predictions, sample_weight=weights)


class _ContribMean(_keras_metrics.Mean):
    """tfe.metrics.Mean: called as (values, weights=None)."""

    def __call__(self, values, weights=None):
        return super().__call__(values, sample_weight=weights)


# tfe.metrics: the contrib metrics were called with the batch values and read with result(),
# as the Keras metrics are; only the argument names differ.
metrics = types.SimpleNamespace(Mean=_ContribMean, Accuracy=_ContribAccuracy)


def num_gpus():
    """How many GPUs tapeflow can run on (0 without CuPy and a CUDA device)."""
    return len(list_physical_devices("GPU"))


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Eager execution is always on in tapeflow; kept so TF1 programs run unchanged."""


def executing_eagerly():
    """False only while a tf.function is being traced."""
    return state.graph is None


def _value_and_grads(f, params, args, kwargs):
    args = [a if isinstance(a, TensorBase) else convert_to_tensor(a) for a in args]
    positions = range(len(args)) if params is None else params
    for p in positions:
        if not 0 <= p < len(args):
            raise ValueError(with_location(
                f"gradients_function: parameter index {p} is out of range for {len(args)} arguments"))
    with GradientTape() as tape:
        for p in positions:
            tape.watch(args[p])
        value = f(*args, **kwargs)
    if value is None:
        raise ValueError(with_location(
            f"gradients_function: {getattr(f, '__name__', f)!r} returned None; it must return a tensor"))
    grads = tape.gradient(value, [args[p] for p in positions])
    return value, grads


def gradients_function(f, params=None):
    """g = gradients_function(f); g(*args) is the list of d f / d args[i]
    (only the positions in `params` when given)."""

    @functools.wraps(f)
    def grad_fn(*args, **kwargs):
        return _value_and_grads(f, params, args, kwargs)[1]

    return grad_fn


def value_and_gradients_function(f, params=None):
    """Like gradients_function, returning (f(*args), gradients)."""

    @functools.wraps(f)
    def value_and_grad_fn(*args, **kwargs):
        return _value_and_grads(f, params, args, kwargs)

    return value_and_grad_fn


def _implicit(f, args, kwargs):
    with GradientTape() as tape:
        value = f(*args, **kwargs)
    variables = list(tape.watched_variables())
    if not variables:
        raise ValueError(with_location(
            f"implicit_gradients: {getattr(f, '__name__', f)!r} read no trainable variables"))
    grads = tape.gradient(value, variables)
    return value, list(zip(grads, variables))


def implicit_gradients(f):
    """g = implicit_gradients(f); g(*args) is [(gradient, variable)] for every
    trainable variable that f read."""

    @functools.wraps(f)
    def grad_fn(*args, **kwargs):
        return _implicit(f, args, kwargs)[1]

    return grad_fn


def implicit_value_and_gradients(f):
    """Like implicit_gradients, returning (f(*args), [(gradient, variable)])."""

    @functools.wraps(f)
    def value_and_grad_fn(*args, **kwargs):
        return _implicit(f, args, kwargs)

    return value_and_grad_fn


class Network(Model):
    """A keras.Model whose layers may also be registered with `track_layer`."""

    def track_layer(self, layer):
        from tapeflow.keras.layers.base import Layer
        if not isinstance(layer, Layer):
            raise TypeError(with_location(
                f"Network.track_layer: expected a layer, got {type(layer).__name__}"))
        self._track_child(f"layer-{len(self._layers)}", layer)
        return layer


def Iterator(dataset):  # noqa: N802 - TensorFlow's name for what is now iter(dataset)
    """An iterator over a tf.data.Dataset (tfe.Iterator)."""
    return iter(dataset)


class Saver(VariableSaver):
    """tfe.Saver(var_list): saves and restores a list (or {name: variable} dict) of variables,
    each keyed by its name without the ':0' suffix, as TF 1.x eager's Saver did."""

    def __init__(self, var_list):
        super().__init__(var_list, "tfe.Saver")

    def save(self, file_prefix, global_step=None):
        """Writes the variables; returns the path (file_prefix-<step> when global_step is given)."""
        return self._write(file_prefix, global_step)

    def restore(self, file_prefix):
        """Assigns every saved value to its variable; a variable missing from the file is an error."""
        self._read(file_prefix)

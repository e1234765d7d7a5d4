"""Wrappers that change how a function is differentiated (tf.grad_pass_through,
tf.recompute_grad), and the graph-aware small ops tf.timestamp and tf.inside_function.

Both wrappers are tf.custom_gradient functions, so they work eagerly and traced alike.
recompute_grad's backward pass runs f again under a fresh tape and differentiates that
run (TensorFlow's rule, so gradients of stateful or random f follow the re-run).  The
forward run is still taped by the outer tapes in tapeflow, so it saves no memory: the
values and gradients are TensorFlow's, the memory profile is not.
"""
import time

import numpy as np

from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.backprop import GradientTape
from tapeflow.runtime.custom_gradient import custom_gradient
from tapeflow.runtime.registry import state
from tapeflow.runtime.tensor import convert_to_tensor


def grad_pass_through(f):
    """f(*args) forward; backward, each argument receives the upstream gradient unchanged
    (a straight-through estimator).  f must return one value per argument's gradient."""
    @custom_gradient
    def wrapped(*args):
        def grad(*dys):
            return dys if len(dys) > 1 else dys[0]
        return f(*args), grad
    return wrapped


def recompute_grad(f):
    """f with a backward pass that re-runs f and differentiates the re-run."""
    @custom_gradient
    def wrapped(*args):
        result = f(*args)

        def grad(*dys, variables=None):
            xs = [convert_to_tensor(a) for a in args]
            with GradientTape() as tape:
                tape.watch(xs)
                again = f(*xs)
            sources = xs + list(variables or [])
            grads = tape.gradient(nest.flatten(again), sources, output_gradients=list(dys))
            if variables:
                return grads[:len(xs)], grads[len(xs):]
            return grads
        return result, grad
    wrapped.__wrapped__ = f  # TF's decorator: recompute_grad(model).__wrapped__ is the model
    return wrapped


def inside_function():
    """True while a tf.function is being traced."""
    return state.graph is not None


def timestamp(name=None):
    """Seconds since the epoch as a float64 scalar, read when the op runs (each call of a
    traced function reads the clock anew)."""
    if state.graph is None:
        return convert_to_tensor(np.float64(time.time()))
    from .py_function import numpy_function
    return numpy_function(lambda: np.float64(time.time()), [], dtypes.float64)

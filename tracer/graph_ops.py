"""Small graph-aware utilities: tf.ensure_shape, tf.control_dependencies,
tf.no_op, tf.group, tf.identity_n, tf.tuple, tf.get_static_value,
tf.is_symbolic_tensor, tf.executing_eagerly, tf.init_scope.

Ordering in tapeflow graphs: stateful ops (variable reads and writes, tf.print,
assertions, random draws, py_function) always run in program order and are never
dropped, so `tf.control_dependencies` has nothing left to enforce: it is a
context manager that checks its arguments and otherwise does nothing.  Pure ops
run when their values are needed, which gives the same results.
"""
import contextlib

import numpy as np

from tapeflow.runtime.errors import with_location
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import bind, state
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops
from tapeflow.runtime.ops.static_shape_ops import ENSURE_SHAPE


# ------------------------------------------------------------------ ensure_shape

def ensure_shape(x, shape, name=None):
    """x, checked to have `shape` (None dims match anything): statically while
    tracing (ValueError), on the value when it runs (InvalidArgumentError)."""
    x = convert_to_tensor(x.read_value() if isinstance(x, TensorBase) and hasattr(x, "read_value") else x)
    shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    if shape.rank is None:
        return x
    # The error names the user's line: eagerly through the op's error, in a graph
    # through the node's location.
    return bind(ENSURE_SHAPE, (x,), {"dims": tuple(shape.dims)})


# ------------------------------------------------------------------ ordering and grouping

@contextlib.contextmanager
def control_dependencies(control_inputs):
    """Accepted for TensorFlow programs; tapeflow already runs stateful ops in
    program order (see the module docstring), so there is nothing to add."""
    if control_inputs is not None:
        for c in control_inputs:
            if not (c is None or isinstance(c, (TensorBase, TensorShape)) or callable(c) or hasattr(c, "op")):
                raise TypeError(with_location(
                    f"control_dependencies: expected tensors or operations, got {type(c).__name__}"))
    yield


def no_op(name=None):
    """Does nothing; returns None (TensorFlow's Operation has no value)."""
    return None


def group(*inputs, name=None):
    """Groups ops for control dependencies; tapeflow runs them anyway: None."""
    return None


def identity_n(input, name=None):
    """Identities of each tensor of a list."""
    return [array_ops.identity(x) for x in input]


def tuple_(tensors, name=None, control_inputs=None):
    """The tensors, each through an identity (the grouping is implicit here)."""
    return [None if t is None else array_ops.identity(t) for t in tensors]


# ------------------------------------------------------------------ static values and modes

def get_static_value(tensor, partial=False):
    """The value as a NumPy array when known without running a graph: eager
    tensors, Python/NumPy values, graph constants (tf.shape of a fully known shape is one).
    None otherwise, and for a variable even eagerly (its value may change: TF's answer)."""
    if isinstance(tensor, TensorBase) and hasattr(tensor, "read_value"):
        return None
    if isinstance(tensor, Tensor):
        return tensor.numpy()
    if isinstance(tensor, SymbolicTensor):
        node = _node_of(tensor)
        if node is None:
            return None
        if node.op == "const":
            return np.asarray(node.attr["value"].obj.numpy())
        return None
    if isinstance(tensor, TensorShape):
        return None if tensor.rank is None or None in tensor.dims else np.asarray(tensor.dims, np.int32)
    if tensor is None:
        return None
    try:
        a = np.asarray(tensor)
    except Exception:  # a structure NumPy cannot hold, or one with symbolic tensors
        return None
    return None if a.dtype == object else a


def _node_of(t):
    nodes = t.graph.nodes
    if t.node < len(nodes) and nodes[t.node].id == t.node:
        return nodes[t.node]
    return next((n for n in nodes if n.id == t.node), None)


def is_symbolic_tensor(tensor):
    """True for a tensor of a graph being traced (no value yet)."""
    return isinstance(tensor, SymbolicTensor)


def executing_eagerly():
    """False only while a tf.function is being traced."""
    return state.graph is None


@contextlib.contextmanager
def init_scope():
    """Runs the body eagerly even inside tf.function tracing, outside any tape
    (TensorFlow's init_scope lifts to the outermost eager context)."""
    with graph_context(None, hide_tapes=True):
        yield

"""`assert` statements: a Python assert on known values, a graph assertion
(raising InvalidArgumentError, also an AssertionError, when the graph runs, as TensorFlow) on a symbolic test."""
from tapeflow.runtime.tensor import SymbolicTensor

from .. import logging_ops, staging


def assert_stmt(test, message_fn):
    t = staging.as_tensor(test)
    if isinstance(t, SymbolicTensor):
        return logging_ops.check(t, str(message_fn()), error="AssertionError")
    if not t:
        raise AssertionError(message_fn())
    return None

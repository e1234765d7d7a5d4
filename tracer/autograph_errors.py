"""The exceptions AutoGraph raises while tracing, in TensorFlow's hierarchy (none of them is
public in TensorFlow: `except Exception` catches them, `except RecursionError` does not)."""


class PyCTError(Exception):
    """Base of the errors of source conversion and staging."""


class AutoGraphError(PyCTError):
    """An error of AutoGraph's conversion or staging of user code."""


class StagingError(AutoGraphError):
    """User code cannot be staged into a graph: a tf.function that calls itself with the
    signature it is being traced for."""

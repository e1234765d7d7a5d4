"""The ensure_shape primitive: an identity whose output has the more specific of
its input's static shape and the given one.  tf.ensure_shape (tracer/graph_ops.py)
binds it with the run-time check; Tensor.set_shape (runtime/tensor.py) binds it
without, as TensorFlow's set_shape only refines the static shape."""
from ..errors import InvalidArgumentError
from ..registry import Aval, defprim


def _matches(dims, shape):
    return len(dims) == len(shape) and all(d is None or d == s for d, s in zip(dims, shape))


def _ensure_shape_impl(xp, x, dims, checked=True):
    if checked and not _matches(dims, x.shape):
        raise InvalidArgumentError(
            f"ensure_shape: the tensor has shape {list(x.shape)}, expected {list(dims)}")
    return x


def _ensure_shape_rule(x, dims, checked=True):
    if x.shape is None:                 # an unknown rank (parse_tensor's result) takes the given shape
        return Aval(tuple(dims), x.dtype)
    if len(x.shape) != len(dims) or any(a is not None and b is not None and a != b
                                        for a, b in zip(x.shape, dims)):
        raise ValueError(f"ensure_shape: the tensor has shape {list(x.shape)}, expected {list(dims)}")
    # The more specific of the two static shapes.
    return Aval(tuple(b if a is None else a for a, b in zip(x.shape, dims)), x.dtype)


ENSURE_SHAPE = defprim("ensure_shape", _ensure_shape_impl, _ensure_shape_rule,
                       lambda g, out, x, dims, checked=True: (g,))

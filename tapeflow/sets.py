"""tf.sets: intersection, union, difference and size of the sets in the last axis of
dense tensors or SparseTensors (one set per row), as TensorFlow computes them."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops, math_ops
from tapeflow.runtime.ops.set_ops import SET_DTYPES, SET_OPERATION, SET_SIZE
from tapeflow.runtime.registry import bind
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.sparse import SparseTensor

__all__ = ["difference", "intersection", "size", "union"]


def _operand(x, name):
    """(indices, values, dense_shape) of a set operand; a dense one lists every element."""
    if isinstance(x, SparseTensor):
        parts = (x.indices, x.values, x.dense_shape)
    else:
        x = convert_to_tensor(x)
        everything = array_ops.fill(array_ops.shape(x), True)
        parts = (array_ops.where(everything), array_ops.reshape(x, [-1]),
                 array_ops.shape(x, out_type=dtypes.int64))
    if parts[1].dtype not in SET_DTYPES:
        raise TypeError(with_location(
            f"'{name}' has invalid dtype `{parts[1].dtype!r}` not in supported dtypes: "
            f"`{sorted(d.name for d in SET_DTYPES)}`."))
    return parts


def _set_operation(a, b, op):
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        raise ValueError(with_location("sets: a SparseTensor a with a dense b is not supported; "
                                       "pass the dense operand first"))
    pa, pb = _operand(a, "a"), _operand(b, "b")
    if pa[1].dtype is not pb[1].dtype:
        raise TypeError(with_location(f"sets: a is {pa[1].dtype.name} but b is {pb[1].dtype.name}"))
    indices, values, shape = bind(SET_OPERATION, pa + pb, {"op": op})
    return SparseTensor(indices, values, shape)


def _dense_first(a, b):
    return (b, a) if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor) else (a, b)


def intersection(a, b, validate_indices=True):
    return _set_operation(*_dense_first(a, b), "intersection")


def union(a, b, validate_indices=True):
    return _set_operation(*_dense_first(a, b), "union")


def difference(a, b, aminusb=True, validate_indices=True):
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        a, b, aminusb = b, a, not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a")


def size(a, validate_indices=True):
    """The number of distinct values in each set of the SparseTensor a (int32)."""
    if not isinstance(a, SparseTensor):
        raise TypeError(with_location(f"sets.size expects a SparseTensor, got {type(a).__name__}"))
    _operand(a, "a")
    out = bind(SET_SIZE, (a.indices, a.values, a.dense_shape), {})
    static = a.shape.as_list()[:-1] if a.shape.rank else None
    if static is not None and None not in static and out.shape.rank is not None:
        out = array_ops.reshape(out, static)
    return math_ops.cast(out, dtypes.int32)

"""tf.range: a primitive when its bounds are only known at run time, else a
constant -- also when tracing finds the bounds from graph constants, so that a
loop over `tf.range(tf.shape(x)[0])` of a static x has a static length."""
import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, with_location
from ..registry import PRIMITIVES, Aval, bind, defprim
from ..tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from . import math_ops as M


def _range_rule(start, limit, delta, dtype):
    for a in (start, limit, delta):
        if a.shape != ():
            raise R.ShapeError(f"start, limit and delta must be scalars, got shape {list(a.shape)}")
    return Aval((None,), dtype)


def range_values(xp, start, limit, delta, dtype):
    """TensorFlow's Range kernel: start <= limit for a positive delta (>= for a negative one),
    else InvalidArgumentError; float elements are start + i * delta with each step rounded
    in the dtype (float32's 3 * 0.3f, not float64's 0.9 cast down)."""
    start, limit, delta = (xp.asarray(v).item() if hasattr(v, "shape") else v for v in (start, limit, delta))
    if delta == 0:
        raise InvalidArgumentError("range: Requires delta != 0")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise InvalidArgumentError(f"range: Requires start {'<=' if delta > 0 else '>='} limit when delta "
                                   f"{'> 0' if delta > 0 else '< 0'}: {start}/{limit}")
    if not dtype.is_floating:
        return xp.arange(start, limit, delta, dtype=dtype.np)
    t = dtype.np.type
    n = int(np.ceil(abs((t(limit) - t(start)) / t(delta))))
    return xp.asarray(np.arange(n).astype(dtype.np) * t(delta) + t(start))


RANGE = defprim("range", lambda xp, start, limit, delta, dtype: range_values(xp, start, limit, delta, dtype),
                _range_rule, None)


# Pure ops through which a traced value is known from graph constants (traced_constant).
_CONSTANT_THROUGH = {"getitem", "cast", "add", "sub", "mul", "floordiv", "neg", "maximum", "minimum", "reshape"}


def traced_constant(graph, ref_node, ref_index, depth=4):
    """The NumPy value of a traced value that a few pure ops compute from graph
    constants (tf.shape(x)[0] of a static x), else None."""
    try:
        node = graph._node_by_id(ref_node)
    except (AttributeError, KeyError):
        return None
    if node.op == "const":
        return node.attr["value"].obj._value
    prim = PRIMITIVES.get(node.op)
    if depth == 0 or node.op not in _CONSTANT_THROUGH or prim is None or prim.multiple_results or ref_index:
        return None
    values = [traced_constant(graph, r.node, r.index, depth - 1) for r in node.inputs]
    return None if any(v is None for v in values) else np.asarray(prim.impl(np, *values, **node.attr))


def range_(start, limit=None, delta=1, dtype=None, name="range"):
    """tf.range: [start, limit) in steps of delta; the dtype follows the arguments (int32 for ints).
    Bounds known while tracing (tf.range(tf.shape(x)[0])) give a constant, of a static
    length as TensorFlow's shape inference finds: a loop over it compiles whole."""
    if limit is None:
        start, limit = 0, start
    args = [convert_to_tensor(a) if isinstance(a, TensorBase) else a for a in (start, limit, delta)]
    known = [traced_constant(a.graph, a.node, a.index) if isinstance(a, SymbolicTensor) else a for a in args]
    if all(k is not None for k in known):
        args = [Tensor(k) if isinstance(a, SymbolicTensor) else a for a, k in zip(args, known)]
    if dtype is not None:  # TF converts Python bounds to the dtype first: 1.5 for int32 is a TypeError
        for a in args:
            if not isinstance(a, TensorBase):
                convert_to_tensor(a, dtypes.as_dtype(dtype))
    if dtype is None:
        kinds = [a.dtype if isinstance(a, TensorBase) else convert_to_tensor(a).dtype for a in args]
        floats = [k for k in kinds if k.is_floating]
        dtype = max(floats, key=lambda d: d.size) if floats else max(kinds, key=lambda d: d.size)
    dtype = dtypes.as_dtype(dtype)
    if any(isinstance(a, SymbolicTensor) for a in args):
        ts = [M.cast(a, dtype) if isinstance(a, TensorBase) else convert_to_tensor(a, dtype) for a in args]
        return bind(RANGE, tuple(ts), {"dtype": dtype})
    vals = [a._value if isinstance(a, Tensor) else a for a in args]
    if vals[2] == 0:
        raise ValueError(with_location("range: delta must not be zero"))
    try:
        return Tensor(range_values(np, *vals, dtype))
    except InvalidArgumentError as exc:
        raise InvalidArgumentError(with_location(str(exc))) from None

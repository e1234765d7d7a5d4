"""Shape and layout primitives (reshape, transpose, broadcast, slice, concat, ...)
and the array-creation helpers built on them."""
import math

import numpy as np

from .. import devices, dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, arg_error, bad_shape_error, with_location
from ..registry import Aval, bind, defprim, state
from ..tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from . import complex_ops as C
from . import math_ops as M
from .select_numpy import select_impl

_NO_ATTRS = {}


def _static_shape(x):
    return x.shape.dims


# --- reshape / transpose / broadcast ------------------------------------------
def _reshape_rule(x, shape):
    known = [d for d in shape if d != -1]
    total = None if x.shape is None or None in x.shape else int(np.prod(x.shape, dtype=np.int64))
    if -1 in shape:
        rest = int(np.prod(known, dtype=np.int64)) if known else 1
        if total is None:
            fill = None
        elif rest == 0 or total % rest:
            raise R.ShapeError(f"cannot reshape a tensor of shape {list(x.shape)} ({total} elements) to {list(shape)}")
        else:
            fill = total // rest
        return Aval(tuple(fill if d == -1 else d for d in shape), x.dtype)
    if total is not None and int(np.prod(shape, dtype=np.int64)) != total:
        raise R.ShapeError(f"cannot reshape a tensor of shape {list(x.shape)} ({total} elements) to {list(shape)}")
    return Aval(tuple(shape), x.dtype)


RESHAPE = defprim("reshape", lambda xp, x, shape: xp.reshape(x, shape), _reshape_rule,
                  lambda g, out, x, shape: reshape_like(g, x))
RESHAPE_LIKE = defprim("reshape_like", lambda xp, x, like: xp.reshape(x, like.shape),
                       lambda x, like: Aval(like.shape, x.dtype),
                       lambda g, out, x, like: (reshape_like(g, x), None))


def _transpose_rule(x, perm):
    if sorted(perm) != list(range(len(x.shape))):
        raise R.ShapeError(f"perm {list(perm)} is not a permutation of the axes of a rank-{len(x.shape)} tensor")
    return Aval(tuple(x.shape[p] for p in perm), x.dtype)


TRANSPOSE = defprim("transpose", lambda xp, x, perm: xp.transpose(x, perm), _transpose_rule,
                    lambda g, out, x, perm: transpose(g, tuple(np.argsort(perm).tolist())))


def _broadcast_to_rule(x, shape):
    out = R.broadcast_shapes(x.shape, shape)
    if out != tuple(shape):
        raise R.ShapeError(f"cannot broadcast shape {list(x.shape)} to {list(shape)}")
    return Aval(tuple(shape), x.dtype)


_FILL_MAX = 4096  # elements: a broadcast up to this size is filled into a fresh array


def _broadcast_impl(xp, x, shape):
    """x broadcast to `shape`.  A small one is filled into a new array: np.broadcast_to
    costs ~6 us of Python where the fill costs ~1 us, and the VJP of every reduction
    and of each reduce_mean runs one.  Large ones stay read-only views (no memory)."""
    if xp is np and x.ndim <= len(shape):  # the fill would also drop leading 1s: broadcast_to refuses
        if math.prod(shape) <= _FILL_MAX:
            out = np.empty(shape, x.dtype)
            out[...] = x
            return out
    return xp.broadcast_to(x, shape)


BROADCAST_TO = defprim("broadcast_to", _broadcast_impl, _broadcast_to_rule,
                       lambda g, out, x, shape: sum_like(g, x))
BROADCAST_LIKE = defprim("broadcast_like", lambda xp, x, like: _broadcast_impl(xp, x, like.shape),
                         lambda x, like: Aval(R.broadcast_shapes(x.shape, like.shape), x.dtype),
                         lambda g, out, x, like: (sum_like(g, x), None))


def _sum_like_impl(xp, x, like):
    lead = x.ndim - like.ndim
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(like.shape)
                                      if d == 1 and x.shape[lead + i] != 1)
    out = xp.sum(x, axis=axes, keepdims=True, dtype=x.dtype) if axes else x
    return xp.reshape(out, like.shape)


SUM_LIKE = defprim("sum_like", _sum_like_impl, lambda x, like: Aval(like.shape, x.dtype),
                   lambda g, out, x, like: (broadcast_like(g, x), None))


def _reshape_dynamic_rule(x, shape, known):
    """`known`: each target dim as traced (an int, -1 to infer, None when known
    only at run time)."""
    if len(shape.shape) != 1 or shape.shape[0] != len(known):
        raise R.ShapeError(f"the shape must be a vector of {len(known)} sizes")
    if not shape.dtype.is_integer:
        raise TypeError(f"the shape must be integers, got {shape.dtype.name}")
    dims = list(known)
    if -1 in dims:
        rest = [d for d in dims if d != -1]
        total = None if x.shape is None or None in x.shape else int(np.prod(x.shape, dtype=np.int64))
        fill = None
        if total is not None and None not in rest:
            size = int(np.prod(rest, dtype=np.int64))
            fill = total // size if size and total % size == 0 else None
        dims[dims.index(-1)] = fill
    return Aval(tuple(dims), x.dtype)


def _reshape_dynamic_impl(xp, x, shape, known):
    return xp.reshape(x, tuple(int(d) for d in shape.tolist()))


# A reshape whose target sizes are only known when the graph runs
# (`tf.reshape(x, [tf.shape(x)[0], -1])` with an unknown batch).
RESHAPE_DYNAMIC = defprim("reshape_dynamic", _reshape_dynamic_impl, _reshape_dynamic_rule,
                          lambda g, out, x, shape, known: (reshape_like(g, x), None))


def _reshape_dynamic(x, shape):
    from .join_ops import stack
    from .. import dtypes as D
    if isinstance(shape, SymbolicTensor):
        n = shape.shape[0]
        if n is None:
            raise ValueError(with_location("reshape: the rank of the new shape must be known while tracing"))
        return bind(RESHAPE_DYNAMIC, (x, M.cast(shape, D.int32)), {"known": (None,) * n})
    graph = state.graph
    known, parts = [], []
    for d in shape:
        if isinstance(d, SymbolicTensor):
            v = graph.evaluate_constant(d) if graph is not None else None
            if v is None:
                known.append(None)
                parts.append(M.cast(d, D.int32))
                continue
            d = v
        d = int(d._value if isinstance(d, Tensor) else d)
        known.append(d)
        parts.append(d)
    if known.count(-1) > 1:
        raise ValueError(with_location(f"reshape: at most one -1 is allowed in the new shape {known}"))
    if None not in known:
        return reshape(x, known)
    return bind(RESHAPE_DYNAMIC, (x, stack(parts)), {"known": tuple(known)})


def reshape(tensor, shape, name=None):
    x = convert_to_tensor(tensor)
    if isinstance(shape, SymbolicTensor) or (
            isinstance(shape, (list, tuple)) and any(isinstance(d, SymbolicTensor) for d in shape)):
        return _reshape_dynamic(x, shape)
    shape = shape_arg(shape, "reshape")
    if list(shape).count(-1) > 1:
        raise ValueError(with_location(f"reshape: at most one -1 is allowed in the new shape {list(shape)}"))
    if x.shape.dims == shape and getattr(x, "_static_shape", None) is None:
        return x  # (a tensor whose static shape is less than its value's gets the new shape)
    check_rule(_reshape_rule, "reshape", x, shape=shape)
    return bind(RESHAPE, (x,), {"shape": shape})


def static_axis(axis, rank, op):
    """A static axis in [0, rank), or an error naming the op and the user's line."""
    if isinstance(axis, Tensor) and axis.shape.rank == 0:
        axis = axis._value.item()
    if isinstance(axis, (bool, float, np.floating)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(with_location(f"{op}: axis must be an integer, got {axis!r}"))
    axis = int(axis)
    if not -rank <= axis < rank:
        raise arg_error(ValueError, with_location(f"{op}: axis {axis} is out of range for a tensor of rank {rank}"))
    return axis % rank


def check_rule(rule, op, *xs, **attrs):
    """Run a shape rule before an eager op whose NumPy message would be unclear."""
    try:
        return rule(*[Aval(x.shape.dims, x.dtype) for x in xs], **attrs)
    except (R.ShapeError, TypeError) as exc:
        desc = ", ".join(f"{x.dtype.name}{list(x.shape)}" for x in xs)
        cls = TypeError if isinstance(exc, TypeError) and not isinstance(exc, R.ShapeError) else ValueError
        raise arg_error(cls, with_location(f"{op}({desc}): {exc}")) from None


def _static_value(t, op):
    """The value of a traced tensor that depends on no graph input (`tf.shape(x)[0]`
    for an `x` of known shape is traced as a slice of a constant), else a clear error."""
    graph = state.graph
    value = graph.evaluate_constant(t) if graph is not None else None
    if value is None:
        raise TypeError(with_location(f"{op}: the shape must be known while tracing, got the tensor {t.name} "
                                      f"computed from the function's inputs"))
    return value


def shape_arg(shape, op):
    """A static shape tuple from a list, TensorShape or constant int tensor; traced
    entries are accepted when their value is known while tracing."""
    if isinstance(shape, SymbolicTensor):
        shape = _static_value(shape, op)
    elif isinstance(shape, (list, tuple)) and any(isinstance(d, SymbolicTensor) for d in shape):
        shape = [_static_value(d, op) if isinstance(d, SymbolicTensor) else d for d in shape]
    if isinstance(shape, Tensor):
        shape = shape.numpy().tolist()
    if hasattr(shape, "dims") and not isinstance(shape, np.ndarray):
        shape = shape.dims
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    out = []
    for d in shape:
        if isinstance(d, Tensor):
            d = d._value.item()
        if isinstance(d, (float, np.floating)):
            raise TypeError(with_location(f"{op}: shape entries must be integers, got {d!r}"))
        out.append(int(d))
    return tuple(out)


def reshape_like(x, like):
    return bind(RESHAPE_LIKE, (x, like), _NO_ATTRS)


def transpose(a, perm=None, conjugate=False, name=None):
    x = convert_to_tensor(a)
    rank = x.shape.rank
    perm = tuple(range(rank))[::-1] if perm is None else tuple(int(p) % rank for p in shape_arg(perm, "transpose"))
    check_rule(_transpose_rule, "transpose", x, perm=perm)
    x = C.conj(x) if conjugate else x
    return x if perm == tuple(range(rank)) else bind(TRANSPOSE, (x,), {"perm": perm})


def broadcast_to(input, shape, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    if isinstance(shape, SymbolicTensor) or (isinstance(shape, (list, tuple))
                                             and any(isinstance(d, SymbolicTensor) for d in shape)):
        like = zeros(shape, x.dtype)  # static when the dims are known while tracing, else a fill node
        if None in like.shape.dims:
            return broadcast_like(x, like)
        shape = like.shape.dims
    shape = shape_arg(shape, "broadcast_to")
    check_rule(_broadcast_to_rule, "broadcast_to", x, shape=shape)
    return x if x.shape.dims == shape else bind(BROADCAST_TO, (x,), {"shape": shape})


def broadcast_like(x, like):
    if type(x) is Tensor and type(like) is Tensor:  # eager: the arrays' shapes (no TensorShape)
        if x._value.shape == like._value.shape:
            return x
    elif x.shape.dims == like.shape.dims and None not in like.shape.dims:
        return x
    return bind(BROADCAST_LIKE, (x, like), _NO_ATTRS)


def sum_like(x, like):
    """Sum x down to the shape of `like` (the inverse of broadcasting)."""
    if x.shape.dims == like.shape.dims and None not in like.shape.dims:
        return x
    return bind(SUM_LIKE, (x, like), _NO_ATTRS)


sum_to_shape_of = sum_like


def expand_dims(input, axis, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    dims = list(x.shape.dims)
    rank = len(dims)
    axis = int(axis)
    if not -rank - 1 <= axis <= rank:
        raise bad_shape_error()(with_location(f"expand_dims: axis {axis} is out of range for a tensor of rank {rank}"))
    axis = axis % (rank + 1)
    return reshape_keeping_unknown(x, dims[:axis] + [1] + dims[axis:])


def expand_dims_multi(x, axes, out_rank):
    """Re-insert reduced axes (sorted, in the output's numbering) as size 1."""
    eager = type(x) is Tensor  # eager (every reduction's VJP): the array's shape, nothing to check
    if eager and not axes:
        return x
    dims = list(x._value.shape if eager else x.shape.dims)
    for a in sorted(axes):
        dims.insert(a, 1)
    return bind(RESHAPE, (x,), {"shape": tuple(dims)}) if eager else reshape_keeping_unknown(x, dims)


def reshape_keeping_unknown(x, dims):
    if dims.count(None) <= 1:
        return reshape(x, [-1 if d is None else d for d in dims])
    return bind(EXPAND_SQUEEZE, (x,), {"shape": tuple(dims)})


def _expand_squeeze_impl(xp, x, shape):
    # Size-1 axes are inserted or dropped; unknown dims come from x in order.
    sizes = [d for d in x.shape if d != 1]
    if len(sizes) != sum(1 for d in shape if d != 1):
        # A dim unknown while tracing is 1 now: eager tf.squeeze would drop it too, so
        # the traced shape would be wrong -- refuse rather than answer differently.
        raise InvalidArgumentError(
            f"squeeze: the value of shape {list(x.shape)} has a size-1 dimension that was unknown when the "
            f"function was traced (traced result shape {['?' if d is None else d for d in shape]}); "
            f"give tf.squeeze an explicit axis")
    src = iter(sizes)
    real = [1 if d == 1 else next(src) for d in shape]
    return xp.reshape(x, real)


EXPAND_SQUEEZE = defprim("expand_squeeze", _expand_squeeze_impl, lambda x, shape: Aval(tuple(shape), x.dtype),
                         lambda g, out, x, shape: reshape_like(g, x))


def squeeze(input, axis=None, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    dims = list(x.shape.dims)
    rank = len(dims)
    if axis is None:
        axes = [i for i, d in enumerate(dims) if d == 1]
        if None in dims:  # checked when it runs: an unknown dim may turn out to be 1
            return bind(EXPAND_SQUEEZE, (x,), {"shape": tuple(d for i, d in enumerate(dims) if i not in axes)})
    else:
        axes = [int(a) % rank for a in (axis if isinstance(axis, (list, tuple)) else [axis])]
        for a in axes:
            if dims[a] not in (1, None):
                raise arg_error(ValueError, with_location(
                    f"squeeze: cannot squeeze axis {a} of size {dims[a]} (shape {dims})"))
    return reshape_keeping_unknown(x, [d for i, d in enumerate(dims) if i not in axes])


# --- identity, stop_gradient, where -------------------------------------------
IDENTITY = defprim("identity", lambda xp, x: x, R.same, lambda g, out, x: g, kind="unary")
STOP_GRADIENT = defprim("stop_gradient", lambda xp, x: x, R.same, None, kind="unary")


def _select_rule(c, x, y):
    if not c.dtype.is_bool:
        raise TypeError(f"the condition must be bool, got {c.dtype.name}")
    if x.dtype is not y.dtype:
        raise TypeError(f"both branches must have one dtype, got {x.dtype.name} and {y.dtype.name}")
    return Aval(R.broadcast_shapes(c.shape, x.shape, y.shape), x.dtype)


def _select_vjp(g, out, c, x, y):
    zero = zeros_like(g)
    return None, where(c, g, zero), where(c, zero, g)


SELECT = defprim("select", select_impl, _select_rule, _select_vjp, kind="ternary")
WHERE_INDICES = defprim("where_indices", lambda xp, c: xp.argwhere(c).astype(np.int64),
                        lambda c: Aval((None, len(c.shape)), dtypes.int64), None)


def identity(input, name=None):  # noqa: A002
    return bind(IDENTITY, (convert_to_tensor(input),), _NO_ATTRS)


def stop_gradient(input, name=None):  # noqa: A002
    return bind(STOP_GRADIENT, (convert_to_tensor(input),), _NO_ATTRS)


def where(condition, x=None, y=None, name=None):
    c = convert_to_tensor(condition)
    if x is None and y is None:
        return bind(WHERE_INDICES, (c,), _NO_ATTRS)
    if x is None or y is None:
        raise ValueError(with_location("where: give both x and y, or neither"))
    if isinstance(x, TensorBase) or not isinstance(y, TensorBase):
        x, y = M.binary_args(x, y, "where")
    else:
        y, x = M.binary_args(y, x, "where")
    check_rule(_select_rule, "where", c, x, y)
    return bind(SELECT, (c, x, y), _NO_ATTRS)


# --- creation -----------------------------------------------------------------
def constant(value, dtype=None, shape=None, name=None):
    t = convert_to_tensor(value, dtype)
    if shape is not None:
        shape = shape_arg(shape, "constant")
        arr = t._value
        if arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), shape).copy()
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise ValueError(with_location(f"constant: {arr.size} values do not fit shape {list(shape)}"))
        t = Tensor(arr)
    return t


def fill(dims, value, name=None):
    v = convert_to_tensor(value)
    if isinstance(dims, (list, tuple)) and any(isinstance(d, SymbolicTensor) for d in dims):
        try:
            dims = shape_arg(dims, "fill")
        except TypeError:  # a dim known only when the graph runs (a None batch dim): a dims tensor
            from .join_ops import stack
            dims = stack([M.cast(d, dtypes.int32) if isinstance(d, TensorBase) else int(d) for d in dims])
    if isinstance(dims, SymbolicTensor):
        if len(dims.shape) == 1 and dims.shape[0] is None:
            # The result's rank would be known only when the graph runs (TF: unknown rank); a
            # graph here has fixed ranks, so the function runs eagerly instead (or says why).
            from ..tensor import OperatorNotAllowedInGraphError
            raise OperatorNotAllowedInGraphError(with_location(
                "fill / zeros / ones: the shape is a tensor of unknown length, so the result's rank is known "
                "only when the graph runs; tapeflow's graphs have fixed ranks"))
        return bind(FILL, (dims, v), _NO_ATTRS)
    shape = shape_arg(dims, "fill")
    if state.graph is not None:
        return broadcast_to(v, shape)
    value = v._value
    return Tensor(devices.creation_module(value).full(shape, value.item(), dtype=value.dtype))


def _fill_rule(dims, v):
    if len(dims.shape) != 1 or dims.shape[0] is None:
        # TensorFlow gives a tensor of unknown rank here; a graph here has fixed ranks
        raise R.ShapeError(f"the shape must be a vector of known length (the result's rank), got a "
                           f"{dims.dtype.name} tensor of shape {list(dims.shape)}: tapeflow's graphs have "
                           f"fixed ranks")
    return Aval((None,) * dims.shape[0], v.dtype)


FILL = defprim("fill", lambda xp, dims, v: xp.full(tuple(int(d) for d in dims), v), _fill_rule, None)


def _zero(dtype):
    """The zero of a dtype: 0, or the empty string for tf.string (TensorFlow's choice)."""
    return convert_to_tensor(b"" if dtype is dtypes.string else 0, dtype)


def zeros(shape, dtype=dtypes.float32, name=None):
    return fill(shape, _zero(dtypes.as_dtype(dtype)))


def ones(shape, dtype=dtypes.float32, name=None):
    return fill(shape, convert_to_tensor(1, dtypes.as_dtype(dtype)))


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    z = _zero(dtypes.as_dtype(dtype) if dtype else x.dtype)
    if type(x) is Tensor and state.graph is None and z.dtype is not dtypes.string:
        return Tensor(devices.creation_module(x._value).zeros(x._value.shape, z._value.dtype))
    return broadcast_like(z, x)


def ones_like(input, dtype=None, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    o = convert_to_tensor(1, dtypes.as_dtype(dtype) if dtype else x.dtype)
    if type(x) is Tensor and state.graph is None:
        return Tensor(devices.creation_module(x._value).ones(x._value.shape, o._value.dtype))
    return broadcast_like(o, x)


def _shape_impl(xp, x, out_type):
    return np.asarray(x.shape, dtype=out_type.np)


SHAPE = defprim("shape", _shape_impl, lambda x, out_type: Aval((len(x.shape),), out_type), None)


def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    out_type = dtypes.as_dtype(out_type)
    if x.shape.is_fully_defined():
        return Tensor(np.asarray(x.shape.dims, dtype=out_type.np))
    return bind(SHAPE, (x,), {"out_type": out_type})


def size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    n = x.shape.num_elements()
    if n is not None:
        return Tensor(np.asarray(n, dtype=dtypes.as_dtype(out_type).np))
    from . import reduce_ops
    return reduce_ops.reduce_prod(shape(x, out_type))


def rank(input, name=None):  # noqa: A002
    return Tensor(np.asarray(convert_to_tensor(input).shape.rank, dtype=np.int32))


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    num_columns = num_rows if num_columns is None else num_columns
    m = np.eye(int(num_rows), int(num_columns), dtype=dtypes.as_dtype(dtype).np)
    if batch_shape is not None:
        batch = shape_arg(batch_shape, "eye")
        m = np.broadcast_to(m, batch + m.shape).copy()
    return Tensor(m)



# tf.range lives in range_ops (it folds traced constants); reached as A.range_ too.
from .range_ops import range_  # noqa: E402,F401

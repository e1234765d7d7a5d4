"""Reduction primitives (sum, max, min, prod, any, all, argmax, argmin) and the
composites on top of them (mean, logsumexp, variance, norms)."""
import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, arg_error, no_strings, with_location
from ..registry import Aval, bind, defprim, state
from ..tensor import Tensor, convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import complex_ops as C
from . import math_ops as M


def _keep_shape_grad(g, x, axis, keepdims):
    """Broadcast a reduced gradient back over the reduced axes of x."""
    if not keepdims:
        g = A.expand_dims_multi(g, axis, x.shape.rank)
    return A.broadcast_like(g, x)


def _sum_vjp(g, out, x, axis, keepdims):
    return _keep_shape_grad(g, x, axis, keepdims)


def _extreme_vjp(g, out, x, axis, keepdims):
    # The reduced value and gradient keep their axes as size 1 and broadcast in the ops
    # below (no broadcast op of their own: the same values, two dispatches fewer).
    if not keepdims:
        rank = x.shape.rank
        out = A.expand_dims_multi(out, axis, rank)
        g = A.expand_dims_multi(g, axis, rank)
    mask = M.cast(M.equal(x, out), x.dtype)
    count = reduce_sum(mask, axis=axis, keepdims=True)
    return g * mask / count


def _prod_vjp(g, out, x, axis, keepdims):
    # Exact at zeros: the product of the others, without dividing by zero.
    is_zero = M.equal(x, 0)
    nonzero = A.where(is_zero, A.ones_like(x), x)
    prod_nz = A.broadcast_like(reduce_prod(nonzero, axis=axis, keepdims=True), x)
    zeros = A.broadcast_like(reduce_sum(M.cast(is_zero, x.dtype), axis=axis, keepdims=True), x)
    zero = A.zeros_like(x)
    grad_at_nonzero = A.where(M.equal(zeros, 0), prod_nz / nonzero, zero)
    grad_at_zero = A.where(M.equal(zeros, 1), prod_nz, zero)
    return _keep_shape_grad(g, x, axis, keepdims) * C.conj(A.where(is_zero, grad_at_zero, grad_at_nonzero))


def _bool_rule(x, axis, keepdims):
    if not x.dtype.is_bool:
        raise TypeError(f"expects a bool tensor, got {x.dtype.name}")
    return R.reduce(x, axis, keepdims)


def _arg_rule(x, axis, output_type):
    return Aval(R.reduced_shape(x.shape, (axis,), False), output_type)


def _sum_impl(xp, x, axis, keepdims):
    # NumPy: np.add.reduce, which x.sum calls through a Python wrapper (a good part of a
    # small sum, as an eager bias gradient is each step); bfloat16 (kind "V") is summed
    # in float32, as TF
    if xp is np and x.dtype.kind != "V":
        out = _ADD_REDUCE(x, axis=axis, keepdims=keepdims)
    else:
        out = x.sum(axis=axis, keepdims=keepdims, dtype=dtypes.accumulator(x.dtype))
    return out.astype(x.dtype, copy=False) if out.dtype != x.dtype else out


_ADD_REDUCE = np.add.reduce


def _prod_impl(xp, x, axis, keepdims):
    out = xp.prod(x, axis=axis, keepdims=keepdims)  # bfloat16: rounded each step, as TF
    return out.astype(x.dtype, copy=False) if out.dtype != x.dtype else out


def _extreme_impl(reducer, float_identity, int_identity):
    """max/min whose reduction over zero elements gives the identity, as TensorFlow does
    (-inf/+inf for floats, the dtype's min/max for integers) instead of NumPy's error."""
    def impl(xp, x, axis, keepdims):
        if x.size:
            return getattr(xp, reducer)(x, axis=axis, keepdims=keepdims)
        shape = tuple(1 if a in axis else d for a, d in enumerate(x.shape)) if keepdims else \
            tuple(d for a, d in enumerate(x.shape) if a not in axis)
        if x.dtype.kind == "f":
            fill = float_identity
        elif x.dtype.kind == "b":
            fill = float_identity < 0  # max of no bools is False, min is True
        else:
            fill = int_identity(np.iinfo(x.dtype))
        return xp.full(shape, fill, dtype=x.dtype)
    return impl


SUM = defprim("reduce_sum", _sum_impl, R.reduce, _sum_vjp, kind="reduce", rejects="b")
MAX = defprim("reduce_max", _extreme_impl("max", -np.inf, lambda info: info.min),
              R.reduce, _extreme_vjp, kind="reduce")
MIN = defprim("reduce_min", _extreme_impl("min", np.inf, lambda info: info.max),
              R.reduce, _extreme_vjp, kind="reduce")
PROD = defprim("reduce_prod", _prod_impl, R.reduce, _prod_vjp, kind="reduce", rejects="b")
ANY = defprim("reduce_any", lambda xp, x, axis, keepdims: xp.any(x, axis=axis, keepdims=keepdims),
              _bool_rule, None, kind="reduce")
ALL = defprim("reduce_all", lambda xp, x, axis, keepdims: xp.all(x, axis=axis, keepdims=keepdims),
              _bool_rule, None, kind="reduce")
def _arg_extreme(find, side):
    """TensorFlow's CPU argmax/argmin: a running best that starts at the dtype's lowest
    (highest) value and moves only on a strictly greater (smaller) element, so NaN never
    wins and neither does -inf (+inf); all such elements give index 0.  NumPy's picks NaN."""
    def impl(xp, x, axis, output_type):
        if x.dtype.kind == "f":
            info = np.finfo(x.dtype)
            bound = info.min if side < 0 else info.max
            x = xp.where(xp.isnan(x) | (x == side * np.inf), bound, x)
        return find(xp, x, axis).astype(output_type.np)
    return impl


ARGMAX = defprim("argmax", _arg_extreme(lambda xp, x, axis: xp.argmax(x, axis=axis), -1), _arg_rule, None)
ARGMIN = defprim("argmin", _arg_extreme(lambda xp, x, axis: xp.argmin(x, axis=axis), 1), _arg_rule, None)


def normalize_axes(axis, rank, op):
    """axis (None, int, list, tuple or a constant tensor) -> sorted tuple of axes."""
    if axis is None:
        return tuple(range(rank))
    if hasattr(axis, "numpy"):
        axis = axis.numpy().tolist()
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise TypeError(with_location(f"{op}: axis must be an integer, got {a!r}"))
    out = set()
    for a in axes:
        if not -rank <= a < max(rank, 1) or (rank == 0 and a not in (0, -1)):
            raise arg_error(ValueError, with_location(
                f"{op}: axis {a} is out of range for a tensor of rank {rank}"))
        out.add(a % rank if rank else 0)
    return tuple(sorted(out)) if rank else ()


# (axis, rank, keepdims) -> the reduction's attrs, shared (bind never changes its attrs): an
# eager reduction normalizes the same few axes again and again (a softmax's axis=-1).  Only
# None, ints and tuples of ints are keys: True == 1 as a key, but is not an axis.
_ATTRS = {}


def reduce_attrs(axis, rank, keepdims, op):
    """{"axis": normalized axes, "keepdims": bool} for a reduction over `axis` of a rank-`rank` tensor."""
    keepdims = bool(keepdims)
    cached = axis is None or type(axis) is int or (type(axis) is tuple and all(type(a) is int for a in axis))
    if cached:
        attrs = _ATTRS.get((axis, rank, keepdims))
        if attrs is not None:
            return attrs
    attrs = {"axis": normalize_axes(axis, rank, op), "keepdims": keepdims}
    if cached and len(_ATTRS) < 4096:
        _ATTRS[(axis, rank, keepdims)] = attrs
    return attrs


def _reduce(prim, x, axis, keepdims):
    if type(x) is Tensor and x._value.dtype.kind in "fiub":  # eager, not a string or complex
        return bind(prim, (x,), reduce_attrs(axis, x._value.ndim, keepdims, prim.name))
    x = convert_to_tensor(x)
    dtype = x.dtype
    if dtype is dtypes.string:
        raise no_strings(prim.name, x)
    if dtype.is_complex:
        C.no_complex(prim.name, x)
    # a graph node gets attrs of its own (the shared ones are for eager dispatch)
    return bind(prim, (x,), dict(reduce_attrs(axis, x.shape.rank, keepdims, prim.name)))


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(SUM, input_tensor, axis, keepdims)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MAX, input_tensor, axis, keepdims)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MIN, input_tensor, axis, keepdims)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(PROD, input_tensor, axis, keepdims)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ANY, input_tensor, axis, keepdims)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ALL, input_tensor, axis, keepdims)


def _count(x, axes):
    """Number of elements reduced over, as a tensor of x's dtype (dynamic dims too); a Python
    int for integers, and for eager floats (the division converts it to their dtype)."""
    if type(x) is Tensor and x._value.dtype.kind == "f":
        n = 1
        for a in axes:
            n *= x._value.shape[a]
        return n
    dims = [x.shape[a] for a in axes]
    if None not in dims:
        n = 1
        for d in dims:
            n *= d
        return convert_to_tensor(n, dtype=x.dtype) if not x.dtype.is_integer else n
    shp = A.shape(x)
    n = reduce_prod(G.gather(shp, list(axes)))
    return M.cast(n, x.dtype)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    x = convert_to_tensor(input_tensor)
    if x.dtype is dtypes.bfloat16:  # TF's Mean kernel divides the float32 sum, then rounds once
        return M.cast(reduce_mean(M.cast(x, dtypes.float32), axis, keepdims), x.dtype)
    eager = type(x) is Tensor
    attrs = reduce_attrs(axis, x._value.ndim if eager else x.shape.rank, keepdims, "reduce_mean")
    attrs = attrs if eager else dict(attrs)  # a graph node gets attrs of its own
    axes = attrs["axis"]
    if x.dtype.is_integer:
        # TensorFlow sums integers in a wide accumulator (uint8 250+250+3 does not wrap) and
        # truncates the quotient toward zero, as C's integer division
        wide = dtypes.uint64 if x.dtype.is_unsigned else dtypes.int64
        total = bind(SUM, (M.cast(x, wide),), {"axis": axes, "keepdims": bool(keepdims)})
        n = M.cast(_count(x, axes), wide)
        q = M.floordiv(total, n)
        if not x.dtype.is_unsigned:
            q = q + M.cast(M.logical_and(M.less(total, 0), M.not_equal(M.mod(total, n), 0)), wide)
        return M.cast(q, x.dtype)
    total = bind(SUM, (x,), attrs)
    return total / _count(x, axes)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_inexact:
        raise TypeError(with_location(f"reduce_variance / reduce_std: the input must be floating or complex, "
                                      f"got {x.dtype.name}"))
    mean = reduce_mean(x, axis, keepdims=True)
    diff = x - mean
    if diff.dtype.is_complex:  # TF squares |x - mean|: a real variance of complex values
        diff = M.abs(diff)
    return reduce_mean(M.square(diff), axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return M.sqrt(reduce_variance(input_tensor, axis, keepdims))


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    x = convert_to_tensor(input_tensor)
    m = A.stop_gradient(reduce_max(x, axis, keepdims=True))
    m = A.where(M.is_finite(m), m, A.zeros_like(m))
    out = M.log(reduce_sum(M.exp(x - m), axis, keepdims=True)) + m
    if not keepdims:
        out = A.squeeze(out, normalize_axes(axis, x.shape.rank, "reduce_logsumexp"))
    return out


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    x = convert_to_tensor(input_tensor)
    return M.sqrt(reduce_sum(x * C.conj(x), axis, keepdims))  # complex: TF's complex sqrt(sum |x|^2)


def _arg(prim, x, axis, output_type):
    C.no_complex(prim.name, x := convert_to_tensor(x))
    if x.dtype is dtypes.string:
        raise no_strings(prim.name, x)
    rank = x.shape.rank
    axis = 0 if axis is None else axis
    if hasattr(axis, "numpy"):
        axis = int(axis.numpy())
    if not -rank <= axis < max(rank, 1):
        raise InvalidArgumentError(with_location(f"{prim.name}: axis {axis} is out of range for a tensor of rank {rank}"))
    return bind(prim, (x,), {"axis": axis % max(rank, 1), "output_type": dtypes.as_dtype(output_type)})


def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    return _arg(ARGMAX, input, axis, output_type)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    return _arg(ARGMIN, input, axis, output_type)


def count_nonzero(input, axis=None, keepdims=False, dtype=dtypes.int64, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    return reduce_sum(M.cast(M.not_equal(x, 0), dtype), axis, keepdims)


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype (no broadcasting: other
    shapes are TF's InvalidArgumentError eagerly, its ValueError while tracing)."""
    inputs = list(inputs)
    if not inputs:
        raise ValueError(with_location("add_n: needs at least one tensor"))
    total = convert_to_tensor(inputs[0])
    for x in inputs[1:]:
        x = convert_to_tensor(x)
        if not x.shape.is_compatible_with(total.shape):
            raise (InvalidArgumentError if state.graph is None else ValueError)(with_location(
                f"add_n: inputs must have one shape, got {list(total.shape)} and {list(x.shape)}"))
        total = M.add(total, x)
    return total


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """add_n with TF's checks of the optional expected `shape` and `tensor_dtype`."""
    from ..shape import TensorShape
    xs = [convert_to_tensor(x) for x in inputs]
    if not xs or any(x.dtype is not xs[0].dtype for x in xs):
        raise ValueError(with_location("accumulate_n: inputs must be a list of at least one Tensor with "
                                       "the same dtype and shape"))
    known = TensorShape(shape)
    for x in xs:
        known = known.merge_with(x.shape)  # ValueError: Shapes (2, 3) and (2, 2) are not compatible
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) is not xs[0].dtype:
        raise TypeError(with_location(
            f"accumulate_n: the `tensor_dtype` argument is {dtypes.as_dtype(tensor_dtype).name}, but the "
            f"inputs are {xs[0].dtype.name}; cast them to it"))
    return add_n(xs)

"""Indexing: `x[...]` as one strided-slice primitive with a static index spec.

An index spec is a tuple of hashable items (slice objects are not hashable
before Python 3.12, and attrs must be hashable for CSE):
  ("i", k)                 an integer; k is DYN for a scalar tensor input
  ("s", start, stop, step) a slice; each bound None, an int, or DYN
  ("n",)                   None / newaxis
  ("e",)                   Ellipsis
Bounds marked DYN are scalar integer tensors passed as extra inputs of the
primitive, in spec order: `x[i]` and `x[i:i + 2]` with a traced `i` stay one op.

One index that is an integer vector (list, array, tensor) or a bool mask is
applied after the basic items as a gather / boolean_mask along its axis, as in
NumPy (TensorFlow itself accepts only scalars there).
"""
import numpy as np

from ..errors import arg_error, with_location
from ..registry import Aval, bind, defprim
from ..tensor import Tensor, TensorBase, convert_to_tensor

DYN = "dyn"

newaxis = None  # tf.newaxis: x[newaxis] (an index item, as NumPy's)


def _to_numpy_index(spec, dyn):
    """The NumPy index of a spec, with DYN bounds taken from the scalar arrays `dyn`."""
    values = iter(dyn)

    def bound(b):
        return int(next(values)) if b == DYN else b

    out = []
    for item in spec:
        kind = item[0]
        if kind == "i":
            out.append(bound(item[1]))
        elif kind == "s":
            out.append(slice(bound(item[1]), bound(item[2]), bound(item[3])))
        elif kind == "n":
            out.append(None)
        else:
            out.append(Ellipsis)
    return tuple(out)


def _getitem_impl(xp, x, *dyn, spec):
    if len(spec) == 1 and spec[0][0] == "i" and not dyn:  # x[t], each step of a loop over time
        return x[spec[0][1]]
    return x[_to_numpy_index(spec, dyn)]


def _getitem_rule(x, *dyn, spec):
    for d in dyn:
        if d.shape != () or not d.dtype.is_integer:
            raise TypeError(f"a tensor index must be an integer scalar, got {d!r}")
    dims = list(x.shape)
    n_real = sum(1 for it in spec if it[0] in "is")
    if n_real > len(dims):
        # TensorFlow's shape inference words (ValueError while tracing, InvalidArgumentError eagerly)
        raise ValueError(f"Index out of range using input dim {len(dims)}; input has only {len(dims)} dims")
    out = []
    pos = 0
    for item in spec:
        kind = item[0]
        if kind == "e":
            skip = len(dims) - n_real
            out.extend(dims[pos:pos + skip])
            pos += skip
        elif kind == "n":
            out.append(1)
        elif kind == "i":
            d = dims[pos]
            k = item[1]
            if d is not None and k != DYN and not -d <= k < d:
                raise ValueError(f"slice index {k + d if k < 0 else k} of dimension {pos} out of bounds.")
            pos += 1
        else:
            d = dims[pos]
            if d is None or DYN in item:
                out.append(None)
            else:
                out.append(len(range(*slice(item[1], item[2], item[3]).indices(d))))
            pos += 1
    out.extend(dims[pos:])
    return Aval(tuple(out), x.dtype)


def _getitem_grad_impl(xp, g, like, *dyn, spec):
    out = xp.zeros(like.shape, dtype=g.dtype)
    out[_to_numpy_index(spec, dyn)] = g
    return out


def _getitem_vjp(g, out, x, *dyn, spec):
    return (bind(GETITEM_GRAD, (g, x) + dyn, {"spec": spec}),) + (None,) * len(dyn)


def _getitem_grad_vjp(gg, out, g, like, *dyn, spec):
    return (bind(GETITEM, (gg,) + dyn, {"spec": spec}), None) + (None,) * len(dyn)


GETITEM = defprim("getitem", _getitem_impl, _getitem_rule, _getitem_vjp)
# Scatter of a slice's gradient into zeros shaped like the sliced tensor.
GETITEM_GRAD = defprim("getitem_grad", _getitem_grad_impl,
                       lambda g, like, *dyn, spec: Aval(like.shape, g.dtype), _getitem_grad_vjp)


def strided(x, spec, dyn=()):
    """x indexed by a ready spec (used by gradients of other ops)."""
    return bind(GETITEM, (x,) + tuple(dyn), {"spec": spec})


def _bound(v, dyn):
    """A static int, or DYN after appending the scalar tensor to `dyn`."""
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(with_location(f"a bool ({v!r}) cannot be used as an index"))
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, TensorBase):
        t = convert_to_tensor(v)
        if not t.dtype.is_integer or t.shape.rank != 0:
            raise TypeError(with_location(
                f"slice bounds must be integer scalars, got a {t.dtype.name} tensor of shape {list(t.shape)}"))
        if type(t) is Tensor:
            return int(t._value)
        dyn.append(t)
        return DYN
    raise TypeError(with_location(f"slice bounds must be integers or None, got {type(v).__name__} {v!r}"))


def _is_advanced(it):
    """An index that selects many positions: an int vector or a bool mask."""
    if isinstance(it, (list, np.ndarray)):
        return True
    return isinstance(it, TensorBase) and (it.shape.rank != 0 or it.dtype.is_bool)


def getitem(x, index):
    if type(index) is int and type(x) is Tensor:
        # x[i] on an eager tensor (every step of a Python loop over time or batch):
        # the rule's one check, on the array's shape.
        shape = x._value.shape
        if shape and -shape[0] <= index < shape[0]:
            return bind(GETITEM, (x,), {"spec": (("i", index),)})
    x = convert_to_tensor(x)
    items = index if isinstance(index, tuple) else (index,)
    advanced = [i for i, it in enumerate(items) if _is_advanced(it)]
    if advanced:
        return _advanced_getitem(x, items, advanced)
    spec = []
    dyn = []
    for it in items:
        if it is None:
            spec.append(("n",))
        elif it is Ellipsis:
            if ("e",) in spec:
                raise IndexError(with_location("an index can only have a single ellipsis ('...')"))
            spec.append(("e",))
        elif isinstance(it, slice):
            bounds = [_bound(b, dyn) for b in (it.start, it.stop, it.step)]
            if bounds[2] == 0:
                raise arg_error(ValueError, with_location("slice step cannot be zero"))
            spec.append(("s", *bounds))
        elif isinstance(it, (int, np.integer, TensorBase)) and not isinstance(it, (bool, np.bool_)):
            spec.append(("i", _bound(it, dyn)))
        else:
            raise TypeError(with_location(
                f"indices must be integers, slices, ..., None (tf.newaxis) or integer tensors; "
                f"got {type(it).__name__} {it!r}"))
    spec = tuple(spec)
    try:
        _getitem_rule(Aval(x.shape.dims, x.dtype), *[Aval(d.shape.dims, d.dtype) for d in dyn], spec=spec)
    except (ValueError, TypeError) as exc:
        raise arg_error(type(exc), with_location(f"getitem on {x.dtype.name}{list(x.shape)} with {index!r}: {exc}")) from None
    return bind(GETITEM, (x,) + tuple(dyn), {"spec": spec})


def _advanced_getitem(x, items, advanced):
    """Basic items first (the advanced one kept as full slices), then a gather or
    boolean_mask along the axis where it lands."""
    if len(advanced) > 1:
        raise TypeError(with_location(
            "only one index may be a list, array or tensor with dimensions (use tf.gather_nd for more)"))
    from . import gather_ops
    k = advanced[0]
    idx = convert_to_tensor(items[k])
    if idx.dtype.is_floating:
        raise TypeError(with_location(f"indices must be integers or bools, got a {idx.dtype.name} tensor"))
    consumed = idx.shape.rank if idx.dtype.is_bool else 1
    basic = items[:k] + (slice(None),) * consumed + items[k + 1:]
    rank = x.shape.rank
    n_real = sum(1 for it in basic if it is not None and it is not Ellipsis)
    axis = 0
    for it in items[:k]:
        if it is Ellipsis:
            axis += rank - n_real
        elif it is None or isinstance(it, slice):
            axis += 1
    out = getitem(x, basic)
    if idx.dtype.is_bool:
        out = gather_ops.boolean_mask(out, idx, axis=axis)
        new_dims = 1
    else:
        out = gather_ops.gather(out, idx, axis=axis)
        new_dims = idx.shape.rank
    # NumPy counts integers as advanced indices too: when a slice, None or ...
    # separates them from the array index, the selected dims go first.
    group = [i for i, it in enumerate(items) if i == k or _is_int(it)]
    if axis and group[-1] - group[0] + 1 != len(group):
        from . import array_ops
        rank = out.shape.rank
        moved = list(range(axis, axis + new_dims))
        out = array_ops.transpose(out, moved + [d for d in range(rank) if d not in moved])
    return out


def _is_int(it):
    if isinstance(it, (bool, np.bool_)):
        return False
    return isinstance(it, (int, np.integer)) or (isinstance(it, TensorBase) and it.shape.rank == 0)


def _items_of(v, n, what):
    """begin/end/strides as a list of n ints or scalar tensors (a 1-D tensor is split)."""
    if isinstance(v, TensorBase):
        v = convert_to_tensor(v)
        v = v.numpy().tolist() if type(v) is Tensor else [v[i] for i in range(n)]
    v = list(v)
    if len(v) != n:
        raise ValueError(with_location(f"strided_slice: {what} has {len(v)} entries, begin has {n}"))
    return v


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """tf.strided_slice: bit i of a mask says how entry i of begin/end/strides is read;
    it becomes the Python index x[...] (same clamping of out-of-range bounds)."""
    n = int(convert_to_tensor(begin).shape[0]) if isinstance(begin, TensorBase) else len(begin)
    begin = _items_of(begin, n, "begin")
    end = _items_of(end, n, "end")
    strides = [1] * n if strides is None else _items_of(strides, n, "strides")
    items = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            items.append(Ellipsis)
        elif new_axis_mask & bit:
            items.append(None)
        elif shrink_axis_mask & bit:
            items.append(b)
        else:
            items.append(slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return getitem(input_, tuple(items))

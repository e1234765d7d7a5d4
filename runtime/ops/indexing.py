"""Indexing: `x[...]` as one strided-slice primitive with a static index spec,
plus gather for tensor indices."""
import numpy as np

from .. import dtypes
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor

# An index spec is a tuple of hashable items (slice objects are not hashable
# before Python 3.12, and attrs must be hashable for CSE):
#   ("i", k)  an integer, ("s", start, stop, step)  a slice,
#   ("n",)    None / newaxis, ("e",)  Ellipsis.


def _to_numpy_index(spec):
    out = []
    for item in spec:
        kind = item[0]
        if kind == "i":
            out.append(item[1])
        elif kind == "s":
            out.append(slice(item[1], item[2], item[3]))
        elif kind == "n":
            out.append(None)
        else:
            out.append(Ellipsis)
    return tuple(out)


def _getitem_rule(x, spec):
    dims = list(x.shape)
    n_real = sum(1 for it in spec if it[0] in "is")
    if n_real > len(dims):
        raise IndexError(f"too many indices ({n_real}) for a tensor of rank {len(dims)}")
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
            if d is not None and not -d <= item[1] < d:
                raise IndexError(f"index {item[1]} is out of bounds for axis {pos} with size {d}")
            pos += 1
        else:
            d = dims[pos]
            out.append(None if d is None else len(range(*slice(item[1], item[2], item[3]).indices(d))))
            pos += 1
    out.extend(dims[pos:])
    return Aval(tuple(out), x.dtype)


def _getitem_grad_impl(xp, g, like, spec):
    out = xp.zeros(like.shape, dtype=g.dtype)
    out[_to_numpy_index(spec)] = g
    return out


GETITEM = defprim("getitem", lambda xp, x, spec: x[_to_numpy_index(spec)], _getitem_rule,
                  lambda g, out, x, spec: getitem_grad(g, x, spec))
GETITEM_GRAD = defprim("getitem_grad", _getitem_grad_impl, lambda g, like, spec: Aval(like.shape, g.dtype),
                       lambda gg, out, g, like, spec: (bind(GETITEM, (gg,), {"spec": spec}), None))


def getitem_grad(g, like, spec):
    return bind(GETITEM_GRAD, (g, like), {"spec": spec})


def _static_int(v):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(with_location(f"a bool ({v!r}) cannot be used as an index"))
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, Tensor) and v.shape.rank == 0:
        if not v.dtype.is_integer:
            raise TypeError(with_location(f"only integer tensors can index, got {v.dtype.name}"))
        return int(v._value)
    if isinstance(v, float):
        raise TypeError(with_location(f"indices must be integers, slices, ..., None or tensors; got float {v!r}"))
    return None


def getitem(x, index):
    x = convert_to_tensor(x)
    items = index if isinstance(index, tuple) else (index,)
    spec = []
    for pos, it in enumerate(items):
        if it is None:
            spec.append(("n",))
        elif it is Ellipsis:
            spec.append(("e",))
        elif isinstance(it, slice):
            bounds = []
            for b in (it.start, it.stop, it.step):
                if b is None:
                    bounds.append(None)
                    continue
                v = _static_int(b)
                if v is None:
                    return _dynamic_getitem(x, items)
                bounds.append(v)
            if bounds[2] == 0:
                raise ValueError(with_location("slice step cannot be zero"))
            spec.append(("s", *bounds))
        else:
            v = _static_int(it)
            if v is None:
                if isinstance(it, (TensorBase, list, np.ndarray)):
                    return _dynamic_getitem(x, items)
                raise TypeError(with_location(
                    f"indices must be integers, slices, ..., None or tensors; got {type(it).__name__} {it!r}"))
            spec.append(("i", v))
    spec = tuple(spec)
    try:
        _getitem_rule(Aval(x.shape.dims, x.dtype), spec)
    except IndexError as exc:
        raise IndexError(with_location(f"getitem on {x.dtype.name}{list(x.shape)}: {exc}")) from None
    return bind(GETITEM, (x,), {"spec": spec})


def _dynamic_getitem(x, items):
    """Indices that are tensors (or lists): one leading tensor index is a gather
    along axis 0; further static items apply to the result."""
    from . import array_ops as A
    first, rest = items[0], items[1:]
    if isinstance(first, (TensorBase, list, np.ndarray)):
        idx = convert_to_tensor(first)
        if idx.dtype.is_floating:
            raise TypeError(with_location(f"only integer tensors can index, got {idx.dtype.name}"))
        if idx.dtype.is_bool:
            return A.boolean_mask(x, idx) if not rest else getitem(A.boolean_mask(x, idx), (slice(None),) + rest)
        out = A.gather(x, idx, axis=0)
        if not rest:
            return out
        lead = (slice(None),) * max(idx.shape.rank, 0)
        return getitem(out, lead + tuple(rest))
    if isinstance(first, slice) or first is Ellipsis or first is None or isinstance(first, int):
        # A tensor-valued bound inside a slice, or a tensor index after other items.
        if isinstance(first, slice) and any(isinstance(b, SymbolicTensor) for b in (first.start, first.stop, first.step)):
            return A.dynamic_slice(x, first, 0) if not rest else getitem(A.dynamic_slice(x, first, 0), (slice(None),) + rest)
        head = getitem(x, (first,))
        if isinstance(first, int):
            return getitem(head, rest) if rest else head
        return getitem_after_first(head, rest)
    raise TypeError(with_location(f"unsupported index {items!r}"))


def getitem_after_first(x, rest):
    from . import array_ops as A
    perm = list(range(x.shape.rank))
    perm = perm[1:] + perm[:1]
    moved = A.transpose(x, perm)
    out = getitem(moved, rest)
    r = out.shape.rank
    return A.transpose(out, [r - 1] + list(range(r - 1)))


__all__ = ["getitem", "dtypes"]

"""tf.sets: set operations along the last dimension of dense tensors or SparseTensors.

Each row (all dims but the last) is a set of its values; results are SparseTensors
whose rows hold the sorted members, dense_shape [..., largest set].  The sets are
computed from the values (eagerly: the results' shapes depend on them)."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import Tensor, convert_to_tensor
from tapeflow.sparse import SparseTensor


def _rows(x, op):
    """(leading shape, [set of each row]) of a dense tensor or SparseTensor."""
    if isinstance(x, SparseTensor):
        if not isinstance(x.indices, Tensor):
            raise NotImplementedError(with_location(f"tf.sets.{op}: eager SparseTensors only"))
        lead = tuple(x._shape[:-1])
        rows = [set() for _ in range(int(np.prod(lead, dtype=np.int64)))]
        idx, vals = x.indices.numpy(), x.values.numpy()
        for i, v in zip(np.ravel_multi_index(idx[:, :-1].T, lead) if lead else np.zeros(len(vals), int), vals):
            rows[int(i)].add(v.item() if hasattr(v, "item") else v)
        return lead, rows, x.dtype
    t = convert_to_tensor(x)
    if not isinstance(t, Tensor):
        raise NotImplementedError(with_location(f"tf.sets.{op}: the sets are computed eagerly (outside tf.function)"))
    if t.shape.rank is None or t.shape.rank < 2:
        raise InvalidArgumentError(with_location(f"tf.sets.{op}: the input needs rank >= 2, got {t.shape}"))
    if t.dtype.is_floating or t.dtype.is_bool:
        raise TypeError(with_location(f"tf.sets.{op}: integer or string sets only, got {t.dtype.name}"))
    a = t.numpy()
    lead = a.shape[:-1]
    flat = a.reshape(int(np.prod(lead, dtype=np.int64)), a.shape[-1])
    return lead, [set(v.item() if hasattr(v, "item") else v for v in row) for row in flat], t.dtype


def _result(lead, rows, dtype):
    width = max((len(r) for r in rows), default=0)
    indices, values = [], []
    for i, row in enumerate(rows):
        at = np.unravel_index(i, lead) if lead else ()
        for j, v in enumerate(sorted(row)):
            indices.append(list(at) + [j])
            values.append(v)
    rank = len(lead) + 1
    idx = np.asarray(indices, np.int64).reshape(-1, rank)
    vals = np.asarray(values, dtype=object if dtype is dtypes.string else dtype.np)
    return SparseTensor(idx, convert_to_tensor(vals, dtype), tuple(lead) + (width,))


def _pair(a, b, op):
    la, ra, da = _rows(a, op)
    lb, rb, db = _rows(b, op)
    if da is not db:
        raise TypeError(with_location(f"tf.sets.{op}: dtypes {da.name} and {db.name} differ"))
    if la != lb:
        raise ValueError(with_location(f"tf.sets.{op}: leading shapes {list(la)} and {list(lb)} differ"))
    return la, ra, rb, da


def size(a, validate_indices=True):
    """The number of distinct values in each row of a SparseTensor (int32)."""
    if not isinstance(a, SparseTensor):
        raise TypeError(with_location(f"tf.sets.size: expected a SparseTensor, got {type(a).__name__}"))
    lead, rows, _ = _rows(a, "size")
    return convert_to_tensor(np.asarray([len(r) for r in rows], np.int32).reshape(lead))


def intersection(a, b, validate_indices=True):
    lead, ra, rb, dtype = _pair(a, b, "intersection")
    return _result(lead, [x & y for x, y in zip(ra, rb)], dtype)


def union(a, b, validate_indices=True):
    lead, ra, rb, dtype = _pair(a, b, "union")
    return _result(lead, [x | y for x, y in zip(ra, rb)], dtype)


def difference(a, b, aminusb=True, validate_indices=True):
    lead, ra, rb, dtype = _pair(a, b, "difference")
    return _result(lead, [(x - y) if aminusb else (y - x) for x, y in zip(ra, rb)], dtype)

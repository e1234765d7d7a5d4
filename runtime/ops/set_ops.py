"""tf.sets' kernels: set operations over the last axis, one set per row.

Both operands arrive in sparse form (indices [N, r], values [N], dense_shape [r]);
a dense operand is passed with every element listed (all its values belong to its
sets, zeros included).  The result is sparse too: row b's sorted elements at
(b..., 0), (b..., 1), ..., and a dense_shape whose last dim is the largest set."""
import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError
from ..registry import Aval, defprim

SET_DTYPES = frozenset((dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16,
                        dtypes.string))
_COMBINE = {"intersection": lambda a, b: a & b, "union": lambda a, b: a | b,
            "a-b": lambda a, b: a - b, "b-a": lambda a, b: b - a}


def _rows(indices, values, shape):
    """{row index tuple: set of its values} of one sparse operand."""
    if len(shape) < 2:
        raise InvalidArgumentError(f"Shape {list(shape)} has rank {len(shape)} < 2")
    rows = {}
    keys = map(tuple, np.asarray(indices)[:, :-1].tolist())
    for key, v in zip(keys, np.asarray(values).tolist()):
        rows.setdefault(key, set()).add(v)
    return rows


def _set_operation_impl(xp, a_idx, a_val, a_shape, b_idx, b_val, b_shape, op):
    a_shape, b_shape = [int(d) for d in a_shape], [int(d) for d in b_shape]
    a_rows, b_rows = _rows(a_idx, a_val, a_shape), _rows(b_idx, b_val, b_shape)
    if a_shape[:-1] != b_shape[:-1]:
        raise InvalidArgumentError(f"Mismatched shapes {a_shape[:-1]} vs {b_shape[:-1]}")
    indices, values, width = [], [], 0
    for key in sorted(set(a_rows) | set(b_rows)):
        members = sorted(_COMBINE[op](a_rows.get(key, set()), b_rows.get(key, set())))
        width = max(width, len(members))
        indices += [key + (j,) for j in range(len(members))]
        values += members
    rank = len(a_shape)
    out_idx = np.asarray(indices, np.int64).reshape(-1, rank)
    out_val = np.asarray(values, dtype=np.asarray(a_val).dtype) if values else np.asarray(a_val)[:0]
    return out_idx, out_val, np.asarray(a_shape[:-1] + [width], np.int64)


def _set_operation_rule(a_idx, a_val, a_shape, b_idx, b_val, b_shape, op):
    if a_val.dtype is not b_val.dtype:
        raise TypeError(f"the two sets have different dtypes, {a_val.dtype.name} and {b_val.dtype.name}")
    rank = a_shape.shape[0] if a_shape.shape[0] is not None else b_shape.shape[0]
    return Aval((None, rank), dtypes.int64), Aval((None,), a_val.dtype), Aval((rank,), dtypes.int64)


SET_OPERATION = defprim("set_operation", _set_operation_impl, _set_operation_rule, None, multiple_results=True)


def _set_size_impl(xp, indices, values, shape):
    shape = [int(d) for d in shape]
    counts = np.zeros(shape[:-1], np.int32)
    for key, members in _rows(indices, values, shape).items():
        counts[key] = len(members)
    return counts


def _set_size_rule(indices, values, shape):
    if shape.shape[0] is None:
        raise R.ShapeError("sets.size needs the rank of its set to be known")
    return Aval((None,) * (shape.shape[0] - 1), dtypes.int32)


SET_SIZE = defprim("set_size", _set_size_impl, _set_size_rule, None)

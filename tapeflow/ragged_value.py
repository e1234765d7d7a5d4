"""tf.compat.v1.ragged.RaggedTensorValue and constant_value: a ragged value held as NumPy
arrays (TF1's graph-mode result type), with values typed as NumPy infers them (Python ints
int64, floats float64) unless a dtype is given."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.ragged_ops import constant
from tapeflow.ragged_tensor import is_ragged


class RaggedTensorValue:
    """`values` (a NumPy array or another RaggedTensorValue) split at `row_splits` (a 1-D
    int32 / int64 NumPy array)."""

    def __init__(self, values, row_splits):
        if not (isinstance(row_splits, (np.ndarray, np.generic)) and row_splits.ndim == 1
                and row_splits.dtype in (np.int32, np.int64)):
            raise TypeError("RaggedTensorValue: row_splits must be a 1-D int32 or int64 NumPy array")
        if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
            raise TypeError("RaggedTensorValue: values must be a NumPy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and values.row_splits.dtype != row_splits.dtype:
            raise ValueError("RaggedTensorValue: row_splits and values.row_splits must have the same dtype")
        self._values, self._row_splits = values, row_splits

    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)
    dtype = property(lambda self: self._values.dtype)

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensorValue):
            v = v.values
        return v

    @property
    def nested_row_splits(self):
        out, v = [self._row_splits], self._values
        while isinstance(v, RaggedTensorValue):
            out.append(v.row_splits)
            v = v.values
        return tuple(out)

    @property
    def ragged_rank(self):
        return self._values.ragged_rank + 1 if isinstance(self._values, RaggedTensorValue) else 1

    @property
    def shape(self):
        return (self._row_splits.shape[0] - 1, None) + tuple(self._values.shape[1:])

    def to_list(self):
        rows = self._values.to_list() if isinstance(self._values, RaggedTensorValue) else self._values.tolist()
        cuts = self._row_splits.tolist()
        return [rows[a:b] for a, b in zip(cuts[:-1], cuts[1:])]

    def __str__(self):
        return f"<tf.RaggedTensorValue {self.to_list()}>"

    def __repr__(self):
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None, row_splits_dtype="int64"):
    """A RaggedTensorValue from nested lists (a plain NumPy array when nothing is ragged)."""
    np_dtype = None if dtype is None else dtypes.as_dtype(dtype).np
    splits_dtype = dtypes.as_dtype(row_splits_dtype).np
    rt = constant(pylist, dtype, ragged_rank, inner_shape)
    if not is_ragged(rt):
        return np.array(pylist, dtype=np_dtype)
    flat = rt.flat_values.numpy()
    out = np.array(flat.tolist(), dtype=np_dtype if np_dtype is not None else None) if flat.size else \
        flat.astype(np_dtype if np_dtype is not None else np.float64)
    out = out.reshape(flat.shape)
    for splits in reversed(rt.nested_row_splits):
        out = RaggedTensorValue(out, splits.numpy().astype(splits_dtype))
    return out

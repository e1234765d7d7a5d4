"""tf.ragged: a minimal RaggedTensor with one ragged dimension.

A RaggedTensor is `flat_values` (the rows concatenated along axis 0) and
`row_splits` (int64, row i is flat_values[row_splits[i]:row_splits[i+1]]).
The splits must be known when it is made (Python lists or eager tensors);
flat_values may be any tensor, and to_tensor keeps its gradient (a scatter).
Nested raggedness (ragged_rank > 1) is not supported and says so.
"""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops, gather_ops


def _static_splits(row_splits, what):
    if isinstance(row_splits, TensorBase) and not isinstance(row_splits, Tensor):
        raise ValueError(with_location(f"{what}: row partitions must be known when the RaggedTensor is made, "
                                       f"not graph values"))
    splits = np.asarray(row_splits, dtype=np.int64).reshape(-1)
    if splits.size == 0 or splits[0] != 0 or np.any(np.diff(splits) < 0):
        raise ValueError(with_location(f"{what}: row_splits must start at 0 and never decrease, "
                                       f"got {splits.tolist()}"))
    return splits


class RaggedTensor:
    """Rows of different lengths: flat_values split at row_splits."""

    def __init__(self, flat_values, row_splits):
        values = convert_to_tensor(flat_values)
        splits = _static_splits(row_splits, "RaggedTensor")
        n = values.shape.dims[0] if values.shape.rank else None
        if values.shape.rank == 0 or (n is not None and n != splits[-1]):
            raise ValueError(with_location(
                f"RaggedTensor: row_splits end at {int(splits[-1])} but flat_values has shape {list(values.shape)}"))
        self.flat_values = values
        self._splits = splits

    # -- construction
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        return cls(values, row_splits)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        lengths = np.asarray(row_lengths, dtype=np.int64).reshape(-1)
        return cls(values, np.concatenate([[0], np.cumsum(lengths)]))

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        ids = np.asarray(value_rowids, dtype=np.int64).reshape(-1)
        rows = int(nrows) if nrows is not None else (int(ids.max()) + 1 if ids.size else 0)
        if ids.size and (np.any(np.diff(ids) < 0) or ids.min() < 0 or ids.max() >= rows):
            raise ValueError(with_location(f"from_value_rowids: ids must be sorted in [0, {rows})"))
        return cls.from_row_lengths(values, np.bincount(ids, minlength=rows))

    # -- properties
    @property
    def values(self):
        return self.flat_values

    @property
    def row_splits(self):
        return convert_to_tensor(self._splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def ragged_rank(self):
        return 1

    @property
    def shape(self):
        return TensorShape((len(self._splits) - 1, None) + tuple(self.flat_values.shape.dims[1:]))

    def nrows(self, out_type=dtypes.int64, name=None):
        return convert_to_tensor(np.asarray(len(self._splits) - 1, dtypes.as_dtype(out_type).np))

    def row_lengths(self, axis=1, name=None):
        return convert_to_tensor(np.diff(self._splits))

    def value_rowids(self, name=None):
        return convert_to_tensor(np.repeat(np.arange(len(self._splits) - 1), np.diff(self._splits)))

    def row_starts(self, name=None):
        return convert_to_tensor(self._splits[:-1])

    def row_limits(self, name=None):
        return convert_to_tensor(self._splits[1:])

    # -- conversion
    def to_tensor(self, default_value=None, name=None, shape=None):
        """Dense [nrows, longest row, ...], padded with default_value (0)."""
        lengths = np.diff(self._splits)
        rows = len(lengths)
        width = int(lengths.max()) if rows else 0
        if shape is not None:
            dims = list(TensorShape(shape).dims)
            rows = dims[0] if dims[0] is not None else rows
            width = dims[1] if len(dims) > 1 and dims[1] is not None else width
        inner = tuple(self.flat_values.shape.dims[1:])
        # (row, column) of every flat value that fits in the requested shape.
        row_ids = np.repeat(np.arange(len(lengths)), lengths)
        col_ids = np.arange(int(self._splits[-1])) - np.repeat(self._splits[:-1], lengths)
        keep = (row_ids < rows) & (col_ids < width)
        index = np.stack([row_ids[keep], col_ids[keep]], axis=1).astype(np.int64)
        kept = self.flat_values if keep.all() else gather_ops.gather(self.flat_values, np.nonzero(keep)[0])
        dense = gather_ops.scatter_nd(index.reshape(-1, 2), kept, (rows, width) + inner)
        if default_value is None:
            return dense
        present = np.zeros((rows, width), bool)
        present[index[:, 0], index[:, 1]] = True
        present = present.reshape((rows, width) + (1,) * len(inner))
        fill = array_ops.broadcast_to(convert_to_tensor(default_value, self.dtype), (rows, width) + inner)
        return array_ops.where(np.broadcast_to(present, (rows, width) + inner), dense, fill)

    def to_list(self):
        flat = np.asarray(self.flat_values.numpy())
        return [flat[a:b].tolist() for a, b in zip(self._splits[:-1], self._splits[1:])]

    def numpy(self):
        flat = np.asarray(self.flat_values.numpy())
        rows = [flat[a:b] for a, b in zip(self._splits[:-1], self._splits[1:])]
        out = np.empty(len(rows), dtype=object)
        out[:] = rows
        return out

    def __getitem__(self, i):
        if isinstance(i, (int, np.integer)):
            n = len(self._splits) - 1
            if not -n <= i < n:
                raise IndexError(with_location(f"RaggedTensor: row {i} out of range for {n} rows"))
            i = int(i) % n
            return self.flat_values[int(self._splits[i]):int(self._splits[i + 1])]
        raise TypeError(with_location("RaggedTensor: only integer row indexing is supported"))

    def __len__(self):
        return len(self._splits) - 1

    def __repr__(self):
        return f"<tf.RaggedTensor {self.to_list()}>"


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype="int64"):
    """A RaggedTensor from a list of lists (rows of different lengths; the items
    in a row may be scalars or equal-shaped lists)."""
    if not isinstance(pylist, (list, tuple)):
        raise TypeError(with_location("ragged.constant: expected a list of rows"))
    if ragged_rank not in (None, 1):
        raise ValueError(with_location(f"ragged.constant: tapeflow supports ragged_rank=1, got {ragged_rank}"))
    rows = []
    for r in pylist:
        try:
            a = np.asarray(r)
        except ValueError:  # NumPy refuses a row whose items have different lengths
            a = np.asarray(None, dtype=object)
        if a.dtype == object:
            raise ValueError(with_location(
                "ragged.constant: a row is itself ragged; tapeflow supports one ragged dimension"))
        rows.append(a.reshape((0,) + tuple(inner_shape or ())) if a.size == 0 and a.ndim == 1 and inner_shape
                    else a)
    if not rows:
        return RaggedTensor(array_ops.zeros((0,), dtype or dtypes.float32), [0])
    inner = {r.shape[1:] for r in rows if r.ndim >= 1 and r.size}
    if any(r.ndim == 0 for r in rows):
        raise ValueError(with_location("ragged.constant: each row must be a list"))
    if len(inner) > 1:
        raise ValueError(with_location("ragged.constant: the items of the rows have different shapes "
                                       "(tapeflow supports one ragged dimension)"))
    inner_dims = inner.pop() if inner else ()
    filled = [r for r in rows if r.size]  # an empty row ([] is float64 to NumPy) says nothing of the dtype
    if not filled:
        values = array_ops.zeros((0,) + inner_dims, dtype or dtypes.float32)
    else:
        flat = np.concatenate(filled, axis=0)
        # Through a Python list so that TensorFlow's rules apply (ints -> int32, floats -> float32).
        values = convert_to_tensor(flat, dtype) if dtype is not None else convert_to_tensor(flat.tolist())
    lengths = [len(r) for r in rows]
    return RaggedTensor(values, np.concatenate([[0], np.cumsum(lengths)]))


"""tf.shape of a RaggedTensor: a DynamicRaggedShape (TensorFlow 2.21 returns one, not a
tensor), made of the row partitions (row splits, in the shape's dtype) and the shape of
the flat values (`inner_shape`).  Indexing gives the uniform dimensions (the number of
rows, the inner dense dimensions) and refuses ragged ones as TF does; tf.ones / tf.zeros
of one give a RaggedTensor of that shape."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import convert_to_tensor


class _RowPartition:
    def __init__(self, splits):
        self._splits = splits

    def row_splits(self):
        return self._splits

    def row_lengths(self):
        return self._splits[1:] - self._splits[:-1]

    def __repr__(self):
        return f"RowPartition(row_splits={self._splits!r})"


class DynamicRaggedShape:
    """The shape of a RaggedTensor: row partitions, then the inner (dense) shape."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=False, static_inner_shape=None):
        self.dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.int32
        self.row_partitions = [p if isinstance(p, _RowPartition) else _RowPartition(M.cast(p, self.dtype))
                               for p in row_partitions]
        self.inner_shape = M.cast(inner_shape, self.dtype)

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of a RaggedTensor (or of a dense tensor: no row partitions)."""
        splits = list(getattr(t, "nested_row_splits", ()))
        flat = t.flat_values if splits else t
        return cls(splits, A.shape(flat, out_type=dtypes.int64), dtype)

    @property
    def num_row_partitions(self):
        return len(self.row_partitions)

    @property
    def rank(self):
        return self.num_row_partitions + int(self.inner_shape.shape[0])

    def __getitem__(self, index):
        if not isinstance(index, int):
            raise TypeError(with_location(f"DynamicRaggedShape: index with an int, got {type(index).__name__}"))
        i = index + self.rank if index < 0 else index
        if not 0 <= i < self.rank:
            raise ValueError(with_location(f"Index {index} is not in a shape of rank {self.rank}"))
        nrp = self.num_row_partitions
        if nrp and i == 0:
            return A.shape(self.row_partitions[0].row_splits(), out_type=self.dtype)[0] - 1
        if 0 < i <= nrp:
            raise ValueError(with_location(f"Index {i} is not uniform"))
        return self.inner_shape[i - nrp] if nrp else self.inner_shape[i]

    def static_lengths(self):
        """[rows, (lengths of each row)..., inner dims] as Python values (eager shapes)."""
        inner = [int(d) for d in self.inner_shape.numpy().tolist()]
        if not self.row_partitions:
            return inner
        out = [int(self.row_partitions[0].row_splits().shape[0]) - 1]
        out += [tuple(int(v) for v in p.row_lengths().numpy().tolist()) for p in self.row_partitions]
        return out + inner[1:]

    def __repr__(self):
        return f"<DynamicRaggedShape lengths={self.static_lengths()} num_row_partitions={self.num_row_partitions}>"


def filled(shape, value, dtype):
    """A RaggedTensor of `shape` (a DynamicRaggedShape) holding `value` everywhere."""
    from tapeflow.ragged_tensor import RaggedTensor
    flat = A.fill(M.cast(shape.inner_shape, dtypes.int64), convert_to_tensor(value, dtype))
    if not shape.row_partitions:
        return flat
    return RaggedTensor.from_nested_row_splits(
        flat, [M.cast(p.row_splits(), dtypes.int64) for p in shape.row_partitions], validate=False)

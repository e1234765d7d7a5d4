"""SparseTensor elements inside a tf.data pipeline.

Like RaggedValue (ragged_values.py), a SparseTensor component travels as a SparseValue:
NumPy indices [N, rank], values [N] and dense_shape, with the few array facts the
pipeline reads (shape, ndim, dtype, len, row indexing `v[i, ...]` for
from_tensor_slices).  A batch (`stack`) prefixes each element's indices with its row and
takes, per dimension, the largest dense_shape of the batch (tf.data's rule); it leaves
the pipeline as a SparseTensor.
"""
import numpy as np


class SparseValue:
    __slots__ = ("indices", "values", "dense_shape")

    def __init__(self, indices, values, dense_shape):
        self.indices = np.asarray(indices, np.int64).reshape(-1, len(dense_shape))
        self.values = np.asarray(values)
        self.dense_shape = tuple(int(d) for d in dense_shape)

    @classmethod
    def from_sparse_tensor(cls, sp):
        return cls(sp.indices.numpy(), np.asarray(sp.values.numpy()), sp.dense_shape.numpy().tolist())

    def to_sparse_tensor(self):
        from tapeflow.sparse import SparseTensor
        from tapeflow.runtime.tensor import Tensor
        return SparseTensor(Tensor(self.indices), Tensor(self.values), self.dense_shape)

    @property
    def shape(self):
        return self.dense_shape

    @property
    def ndim(self):
        return len(self.dense_shape)

    @property
    def dtype(self):
        return self.values.dtype

    def __len__(self):
        return self.dense_shape[0]

    def __getitem__(self, key):
        i = int(key[0] if isinstance(key, tuple) else key)
        rows = self.indices[:, 0] == i
        return SparseValue(self.indices[rows, 1:], self.values[rows], self.dense_shape[1:])

    def __repr__(self):
        return f"SparseValue(indices={self.indices!r}, values={self.values!r}, dense_shape={self.dense_shape})"


def stack(parts):
    """A batch of SparseValues (all of one rank) as one SparseValue with a leading row dimension."""
    if not all(isinstance(p, SparseValue) for p in parts):
        raise ValueError("cannot batch sparse elements with dense ones")
    ranks = {p.ndim for p in parts}
    if len(ranks) != 1:
        raise ValueError(f"cannot batch sparse elements of ranks {sorted(ranks)}")
    rows = np.concatenate([np.full(len(p.values), r, np.int64) for r, p in enumerate(parts)])
    inner = np.concatenate([p.indices for p in parts], axis=0)
    indices = np.concatenate([rows.reshape(-1, 1), inner], axis=1)
    values = np.concatenate([p.values for p in parts])
    widest = tuple(max(p.dense_shape[d] for p in parts) for d in range(ranks.pop()))
    return SparseValue(indices, values, (len(parts),) + widest)

"""Ragged elements inside a tf.data pipeline.

Elements travel as flat lists of NumPy arrays; a RaggedTensor component travels
as a RaggedValue: NumPy flat values and row splits (outermost first).  It has
the few array facts the pipeline reads (shape with None for ragged dims, ndim,
dtype, row indexing `v[i, ...]`), batches by concatenation (`stack`: one more
ragged dimension) and leaves the pipeline as a RaggedTensor.
"""
import numpy as np


class RaggedValue:
    __slots__ = ("values", "splits")

    def __init__(self, values, splits):
        self.values = values
        self.splits = [np.asarray(s, np.int64) for s in splits]

    @classmethod
    def from_ragged_tensor(cls, rt):
        values = rt.flat_values.numpy()
        return cls(np.asarray(values) if not isinstance(values, np.ndarray) else values,
                   [s.numpy() for s in rt.nested_row_splits])

    def to_ragged_tensor(self):
        from tapeflow.ragged_tensor import RaggedTensor
        from tapeflow.runtime.tensor import Tensor
        return RaggedTensor.from_nested_row_splits(Tensor(self.values), [Tensor(s) for s in self.splits],
                                                   validate=False)

    @property
    def ragged_rank(self):
        return len(self.splits)

    @property
    def shape(self):
        return (len(self.splits[0]) - 1,) + (None,) * self.ragged_rank + tuple(self.values.shape[1:])

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def dtype(self):
        return self.values.dtype

    def __len__(self):
        return len(self.splits[0]) - 1

    def __getitem__(self, key):
        i = key[0] if isinstance(key, tuple) else key
        values, splits = _rows(self.values, self.splits, int(i), int(i) + 1)
        if len(splits) == 1:  # one row of a ragged_rank-1 value: a dense array
            return values
        return RaggedValue(values, [s for s in splits[1:]])

    def __repr__(self):
        return f"RaggedValue(values={self.values!r}, splits={self.splits!r})"


def _rows(values, splits, a, b):
    """Rows a..b of (values, splits): the sliced values and splits (re-based at 0)."""
    outer = splits[0]
    lo, hi = int(outer[a]), int(outer[b])
    new = [outer[a:b + 1] - lo]
    if len(splits) == 1:
        return values[lo:hi], new
    inner_values, inner = _rows(values, splits[1:], lo, hi)
    return inner_values, new + inner


def stack(parts):
    """A batch of elements as one RaggedValue: each part is a row (a RaggedValue, or a
    dense array whose first dimension becomes ragged)."""
    if all(isinstance(p, RaggedValue) for p in parts):
        rank = {p.ragged_rank for p in parts}
        if len(rank) != 1:
            raise ValueError(f"cannot batch ragged elements of ragged ranks {sorted(rank)}")
        levels = [_concat_splits([p.splits[k] for p in parts]) for k in range(rank.pop())]
        outer = np.zeros(len(parts) + 1, np.int64)
        np.cumsum([len(p) for p in parts], out=outer[1:])
        return RaggedValue(np.concatenate([p.values for p in parts], axis=0), [outer] + levels)
    if any(isinstance(p, RaggedValue) for p in parts):
        raise ValueError("cannot batch ragged elements with dense ones")
    arrays = [np.asarray(p) for p in parts]
    if any(a.ndim == 0 for a in arrays):
        raise ValueError("ragged_batch: scalar elements have no dimension to make ragged")
    inner = {a.shape[1:] for a in arrays}
    if len(inner) != 1:
        raise ValueError(f"ragged_batch: elements differ beyond their first dimension: {sorted(inner)}")
    outer = np.zeros(len(arrays) + 1, np.int64)
    np.cumsum([a.shape[0] for a in arrays], out=outer[1:])
    return RaggedValue(np.concatenate(arrays, axis=0), [outer])


def _concat_splits(pieces):
    out, offset = [np.zeros(1, np.int64)], 0
    for s in pieces:
        out.append(s[1:] + offset)
        offset += int(s[-1])
    return np.concatenate(out)

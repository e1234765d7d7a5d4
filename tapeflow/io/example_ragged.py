"""tf.io.RaggedFeature: a feature's values per Example as a RaggedTensor, optionally split
further by partitions read from other features of the same Example (outermost first):
RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds (int64 features) and
UniformRowLength (a constant).  Measured on TensorFlow 2.21: a missing feature is an
empty row; partitions are not validated (values past the partition's end are dropped).

The engine reads each needed feature as a VarLenFeature column of example_parsing and
builds the nested row splits here, per Example, then joins them over the batch.
Row splits are int64 (tapeflow's RaggedTensor keeps int64 splits; TF's default
row_splits_dtype is int32 -- the values and the partition are the same).
"""
import collections

import numpy as np

from tapeflow.runtime.errors import InvalidArgumentError

RowSplits = collections.namedtuple("RowSplits", ["key"])
RowLengths = collections.namedtuple("RowLengths", ["key"])
RowStarts = collections.namedtuple("RowStarts", ["key"])
RowLimits = collections.namedtuple("RowLimits", ["key"])
ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])
_PARTITIONS = {"row_splits": RowSplits, "row_lengths": RowLengths, "row_starts": RowStarts,
               "row_limits": RowLimits, "value_rowids": ValueRowIds, "uniform_row_length": UniformRowLength}
_NAMES = {v: k for k, v in _PARTITIONS.items()}


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """tf.io.RaggedFeature(dtype, value_key=None, partitions=(), row_splits_dtype, validate)."""
    RowSplits, RowLengths, RowStarts, RowLimits = RowSplits, RowLengths, RowStarts, RowLimits
    ValueRowIds, UniformRowLength = ValueRowIds, UniformRowLength

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype="int32", validate=False):
        parts = tuple(partitions)
        for p in parts:
            if type(p) not in _NAMES:
                raise TypeError(f"RaggedFeature: partitions must be RaggedFeature.RowSplits, RowLengths, "
                                f"RowStarts, RowLimits, ValueRowIds or UniformRowLength, got {p!r}")
        return super().__new__(cls, dtype, value_key, parts, row_splits_dtype, validate)


def partition_key(partitions):
    """A hashable form of the partitions (a graph-node attribute) and back."""
    return tuple((_NAMES[type(p)], p[0]) for p in partitions)


def partitions_of(key):
    return [_PARTITIONS[name](arg) for name, arg in key]


def n_levels(part_key):
    """How many row-splits vectors the batch has: the batch's own, then one per non-uniform
    partition (a uniform one is a length, not a vector)."""
    return 1 + sum(1 for name, _ in part_key if name != "uniform_row_length")


def _rows(columns, key, i, starts):
    _kinds, counts, values = columns[key]
    s = starts[key][i]
    return values[s:s + counts[i]]


def _splits_of(part, n_inner, columns, i, starts):
    """One Example's row splits for partition `part` over n_inner values (or rows)."""
    if isinstance(part, UniformRowLength):
        length = int(part.length)
        if length <= 0 or n_inner % length:
            raise InvalidArgumentError(f"Input to reshape is a tensor with {n_inner} values, but the requested "
                                       f"shape requires a multiple of {length}")
        return None
    v = np.asarray(_rows(columns, part.key, i, starts), np.int64)
    if isinstance(part, RowSplits):
        return v if len(v) else np.zeros(1, np.int64)
    if isinstance(part, RowLengths):
        return np.concatenate([[0], np.cumsum(v)]).astype(np.int64)
    if isinstance(part, RowStarts):
        return np.concatenate([v, [n_inner]]).astype(np.int64)
    if isinstance(part, RowLimits):
        return np.concatenate([[0], v]).astype(np.int64)
    nrows = int(v.max()) + 1 if len(v) else 0               # ValueRowIds
    return np.searchsorted(v, np.arange(nrows + 1), side="left").astype(np.int64)


def assemble(value_key, partitions, columns, batch):
    """(flat values, the batch's row splits, [per partition: its row splits over the batch, or
    its uniform length]) of a RaggedFeature; columns: example_parsing columns by feature key."""
    starts = {k: (np.cumsum(c[1]) - c[1]).astype(np.int64) for k, c in columns.items()}
    depth = len(partitions)
    values_parts, per_splits, units = [], [], []    # units[i][d]: rows at level d (d = depth: values)
    for i in range(batch):
        vals = _rows(columns, value_key, i, starts)
        u = [0] * (depth + 1)
        u[depth] = len(vals)
        sps = [None] * depth
        for d in range(depth - 1, -1, -1):          # innermost first: each counts the rows below it
            sps[d] = _splits_of(partitions[d], u[d + 1], columns, i, starts)
            u[d] = u[d + 1] // int(partitions[d].length) if sps[d] is None else len(sps[d]) - 1
        values_parts.append(vals)
        per_splits.append(sps)
        units.append(u)
    outer = np.zeros(batch + 1, np.int64)
    np.cumsum([u[0] for u in units], out=outer[1:])
    levels = []
    for d, part in enumerate(partitions):
        if isinstance(part, UniformRowLength):
            levels.append(int(part.length))
            continue
        pieces, offset = [np.zeros(1, np.int64)], 0
        for sps, u in zip(per_splits, units):
            pieces.append(sps[d][1:] + offset)
            offset += u[d + 1]                      # each Example's own rows (values) kept apart
        levels.append(np.concatenate(pieces))
    dtype = columns[value_key][2].dtype
    flat = np.concatenate(values_parts) if values_parts else np.zeros(0, dtype)
    return flat.astype(dtype, copy=False), outer, levels

"""Splitting a tensor by partition ids and interleaving it back: dynamic_partition,
dynamic_stitch (its inverse), and shape_n.  Composites of gather / boolean_mask /
segment ops, so their gradients come from those ops."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import SymbolicTensor, convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops import segment_ops as SG


def dynamic_partition(data, partitions, num_partitions, name=None):
    """A list of num_partitions tensors: output i holds the rows of `data` (over the first
    partitions.rank dims) whose partition id is i, in their order."""
    x = convert_to_tensor(data)
    p = convert_to_tensor(partitions)
    if p.dtype is not dtypes.int32:
        raise TypeError(with_location(f"dynamic_partition: partitions must be int32, got {p.dtype.name}"))
    n = int(num_partitions)
    if n < 1:
        raise ValueError(with_location(f"dynamic_partition: num_partitions must be >= 1, got {n}"))
    if not isinstance(p, SymbolicTensor):
        ids = p.numpy()
        bad = ids[(ids < 0) | (ids >= n)]
        if bad.size:
            raise InvalidArgumentError(with_location(
                f"dynamic_partition: partitions[...] = {int(bad[0])} is not in [0, {n})"))
    if p.shape.rank == 0:
        x, p = A.expand_dims(x, 0), A.expand_dims(p, 0)
    return [G.boolean_mask(x, M.equal(p, i)) for i in range(n)]


def dynamic_stitch(indices, data, name=None):
    """merged[indices[m][i]] = data[m][i] over every m, i; a later index overwrites an earlier
    one (TensorFlow's order) and rows no index names are zeros.  merged has max(index) + 1 rows."""
    indices = [convert_to_tensor(i) for i in indices]
    data = [convert_to_tensor(d) for d in data]
    if len(indices) != len(data) or not indices:
        raise ValueError(with_location(
            f"dynamic_stitch: needs as many index tensors as data tensors (>= 1), got {len(indices)} "
            f"and {len(data)}"))
    if any(i.dtype is not dtypes.int32 for i in indices):
        raise TypeError(with_location("dynamic_stitch: indices must be int32 tensors"))
    rows = []
    for idx, d in zip(indices, data):
        k = idx.shape.rank
        if not d.shape[:k].is_compatible_with(idx.shape):
            raise ValueError(with_location(
                f"dynamic_stitch: data of shape {list(d.shape)} does not start with its indices' shape "
                f"{list(idx.shape)}"))
        rows.append(A.reshape(d, [-1] + [s if s is not None else -1 for s in d.shape.dims[k:]]))
    flat_ids = J.concat([A.reshape(i, [-1]) for i in indices], 0)
    values = J.concat(rows, 0)
    if not isinstance(flat_ids, SymbolicTensor) and np.any(flat_ids.numpy() < 0):
        raise InvalidArgumentError(with_location("dynamic_stitch: indices must be >= 0"))
    size = RD.reduce_max(flat_ids) + 1 if flat_ids.shape[0] != 0 else 0
    # where each output row comes from: the last position that names it (-1: none does)
    last = SG.unsorted_segment_max(A.range_(0, A.shape(flat_ids)[0]), flat_ids, size)
    found = M.greater_equal(last, 0)
    picked = G.gather(values, A.where(found, last, A.zeros_like(last)))
    mask = A.reshape(found, [-1] + [1] * (values.shape.rank - 1))
    return A.where(mask, picked, A.zeros_like(picked))


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The shapes of a list of tensors."""
    return [A.shape(x, out_type) for x in input]

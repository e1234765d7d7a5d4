"""Reshaping ragged tensors: merge_dims (RaggedTensor.merge_dims), expand_dims (tf.expand_dims
of a RaggedTensor) and tf.ragged.stack_dynamic_partitions.

Dimension 0 of a RaggedTensor is its rows, dimension 1 the (ragged or uniform) row
length, and dimensions past ragged_rank are the flat values' inner dimensions."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops import sort_ops as S
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.ragged_tensor import RaggedTensor, is_ragged


def _axis(axis, rank, op):
    if rank is None or not -rank <= axis < rank:
        raise ValueError(with_location(f"{op}: axis {axis} is out of range for rank {rank}"))
    return axis % rank


def _merge_dense(x, outer, inner):
    dims = A.shape(x, dtypes.int64)
    merged = A.reshape(RD.reduce_prod(dims[outer:inner + 1]), (1,))
    return A.reshape(x, J.concat([dims[:outer], merged, dims[inner + 1:]], 0))


def _merge_rows_into_row_length(rt):
    """Dims 1 and 2 of rt merged: every row holds its sub-rows' items one after another."""
    values = rt.values
    if is_ragged(values):
        return RaggedTensor(values.values, G.gather(values.row_splits, rt.row_splits), _validate=False)
    width = A.shape(values, dtypes.int64)[1]
    return RaggedTensor(_merge_dense(values, 0, 1), rt.row_splits * width, _validate=False)


def merge_dims(rt, outer_axis, inner_axis):
    """rt with dimensions outer_axis..inner_axis (inclusive) merged into one."""
    rank = rt.shape.rank
    outer = _axis(outer_axis, rank, "merge_dims")
    inner = _axis(inner_axis, rank, "merge_dims")
    if outer > inner:
        raise ValueError(with_location(
            f"merge_dims: outer_axis ({outer_axis}) must not be after inner_axis ({inner_axis})"))
    if outer == inner:
        return rt
    if not is_ragged(rt):
        return _merge_dense(rt, outer, inner)
    if outer == 0:
        values = rt.values  # rows and their items merged: the values, dims 1..inner left
        return merge_dims(values, 0, inner - 1) if inner > 1 else values
    if outer == 1:
        for _ in range(inner - outer):
            rt = _merge_rows_into_row_length(rt)
        return rt
    return rt.with_values(merge_dims(rt.values, outer - 1, inner - 1))


def expand_dims(input, axis, name=None):  # noqa: A002
    """tf.expand_dims of a RaggedTensor: the new dimension has uniform length 1 (or, at
    axis 0, one row holding every row)."""
    rt = input
    axis = _axis(axis, rt.shape.rank + 1, "tf.expand_dims")
    if axis == 0:
        n = rt.nrows()
        static = rt.shape[0]
        splits = J.stack([convert_to_tensor(np.int64(0)), n])
        return RaggedTensor(rt, splits, uniform_row_length=static, _validate=False)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(rt, 1, validate=False)
    values = rt.values
    inner = expand_dims(values, axis - 1) if is_ragged(values) else A.expand_dims(values, axis - 1)
    return rt.with_values(inner)


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row i holds, in order, the items of data whose partition is i."""
    data = convert_to_tensor(data)
    partitions = M.cast(convert_to_tensor(partitions), dtypes.int64)
    if partitions.shape.rank != 1:
        data = A.reshape(data, J.concat([convert_to_tensor([-1], dtypes.int64),
                                         A.shape(data, dtypes.int64)[partitions.shape.rank:]], 0))
        partitions = A.reshape(partitions, (-1,))
    order = S.argsort(partitions, stable=True)
    return RaggedTensor.from_value_rowids(G.gather(data, order), G.gather(partitions, order),
                                          nrows=num_partitions)

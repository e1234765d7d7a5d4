"""RaggedTensor.from_tensor: the rows of a dense tensor, cut by lengths, padding or nested
lengths (the classmethod of ragged_tensor.RaggedTensor calls this with its class)."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import ragged_ops as RO
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.ragged_tensor import as_splits


def from_tensor(cls, t, lengths, padding, ragged_rank):
    if isinstance(lengths, (list, tuple)) and lengths and not isinstance(lengths[0], (int, float)):
        return _nested_lengths(cls, t, lengths, padding, ragged_rank)
    if t.shape.rank is None or t.shape.rank < ragged_rank + 1:
        raise ValueError(with_location(f"RaggedTensor.from_tensor: a rank-{t.shape.rank} tensor cannot "
                                       f"have ragged_rank {ragged_rank}"))
    if ragged_rank > 1:
        if lengths is not None or padding is not None:
            raise NotImplementedError(with_location(
                "RaggedTensor.from_tensor: lengths/padding with ragged_rank > 1"))
        dims = t.shape.dims
        inner = from_tensor(cls, A.reshape(t, (-1,) + tuple(dims[2:])), None, None, ragged_rank - 1)
        return cls.from_uniform_row_length(inner, dims[1], validate=False)
    width = A.shape(t, out_type=dtypes.int64)[1]
    nrows = A.shape(t, out_type=dtypes.int64)[0]
    if padding is not None:
        keep = M.not_equal(t, convert_to_tensor(padding, t.dtype))
        if t.shape.rank > 2:
            keep = RD.reduce_any(keep, axis=tuple(range(2, t.shape.rank)))
        cols = A.range_(1, width + 1, dtype=dtypes.int64)
        lengths = RD.reduce_max(A.where(keep, A.broadcast_to(cols, A.shape(keep, out_type=dtypes.int64)),
                                        A.zeros_like(cols)), axis=1)
    if lengths is None and t.shape.dims[1] in (None, 0):
        # Rows of unknown or zero width: the row count comes from the shape, not values / width.
        lengths = A.fill(A.reshape(nrows, [1]), width)
    if lengths is None:
        flat = A.reshape(t, (-1,) + tuple(t.shape.dims[2:]))
        return cls.from_uniform_row_length(flat, t.shape.dims[1], nrows=None if t.shape.dims[0] is not None
                                           else nrows, validate=False)
    lengths = M.minimum(as_splits(lengths, "from_tensor"), width)
    splits = RO.splits_from_lengths(lengths)
    return cls(RO.dense_values(t, splits), splits, _validate=False)


def _nested_lengths(cls, t, lengths, padding, ragged_rank):
    """lengths = (outer, ..., inner) row lengths: TF masks the dense tensor with the dense
    form of a ragged mask of those lengths (so they must reach each dim's full size)."""
    if padding is not None or ragged_rank not in (1, len(lengths)):
        raise ValueError(with_location(
            f"RaggedTensor.from_tensor: nested lengths take neither padding nor a ragged_rank other "
            f"than len(lengths) = {len(lengths)} (got ragged_rank {ragged_rank})"))
    if t.shape.rank is None or t.shape.rank < len(lengths) + 1:
        raise ValueError(with_location(f"RaggedTensor.from_tensor: {len(lengths)} levels of lengths need a "
                                       f"tensor of rank > {len(lengths)}, got shape {list(t.shape)}"))
    ones = A.ones(A.reshape(RD.reduce_sum(convert_to_tensor(lengths[-1])), [1]), dtypes.bool_)
    mask = cls.from_nested_row_lengths(ones, lengths, validate=False).to_tensor(default_value=False)
    return cls.from_nested_row_lengths(G.boolean_mask(t, mask), lengths, validate=False)

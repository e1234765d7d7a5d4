"""RaggedTensor.from_tensor: the rows of a dense tensor, whole, cut to lengths (one vector,
or nested lengths for each ragged dimension) or stripped of trailing padding, as TF."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import ragged_ops as RO
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.ragged_tensor import RaggedTensor, as_splits


def from_tensor(tensor, lengths=None, padding=None, ragged_rank=1):
    t = convert_to_tensor(tensor)
    if t.shape.rank is None or t.shape.rank < ragged_rank + 1:
        raise ValueError(with_location(f"RaggedTensor.from_tensor: a rank-{t.shape.rank} tensor cannot "
                                       f"have ragged_rank {ragged_rank}"))
    if lengths is not None and padding is not None:
        raise ValueError(with_location("RaggedTensor.from_tensor: specify `lengths` or `padding`, "
                                       "but not both"))
    if isinstance(lengths, (list, tuple)) and lengths and not isinstance(lengths[0], (int, float)):
        # Nested row lengths, outermost first: keep the dense cells that a ragged mask of
        # those lengths covers (TF's construction).
        if ragged_rank not in (1, len(lengths)) or t.shape.rank < len(lengths) + 1:
            raise ValueError(with_location(
                f"RaggedTensor.from_tensor: {len(lengths)} nested lengths need ragged_rank "
                f"{len(lengths)} and a tensor of rank > {len(lengths)}, got ragged_rank {ragged_rank} "
                f"and rank {t.shape.rank}"))
        last = as_splits(lengths[-1], "from_tensor")
        ones = A.fill(A.reshape(RD.reduce_sum(last), [1]), True)
        mask = RaggedTensor.from_nested_row_lengths(ones, lengths, validate=False).to_tensor(default_value=False)
        return RaggedTensor.from_nested_row_lengths(G.boolean_mask(t, mask), lengths, validate=False)
    if ragged_rank > 1 and (lengths is not None or padding is not None):
        # The lengths or padding apply to the innermost ragged dimension: ragged_rank 1 over
        # the outer dimensions flattened, then uniform rows back on top.
        dims = t.shape.dims
        flat = A.reshape(t, (-1,) + tuple(dims[ragged_rank:]))
        out = RaggedTensor.from_tensor(flat, lengths, padding)
        for axis in range(ragged_rank - 1, 0, -1):
            out = RaggedTensor.from_uniform_row_length(out, dims[axis], validate=False)
        return out
    if ragged_rank > 1:
        dims = t.shape.dims
        inner = RaggedTensor.from_tensor(A.reshape(t, (-1,) + tuple(dims[2:])), ragged_rank=ragged_rank - 1)
        return RaggedTensor.from_uniform_row_length(inner, dims[1], validate=False)
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
        known_rows = t.shape.dims[0] is not None
        return RaggedTensor.from_uniform_row_length(flat, t.shape.dims[1], nrows=None if known_rows else nrows,
                                                    validate=False)
    lengths = M.minimum(as_splits(lengths, "from_tensor"), width)
    splits = RO.splits_from_lengths(lengths)
    return RaggedTensor(RO.dense_values(t, splits), splits, _validate=False)

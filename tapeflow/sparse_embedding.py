"""tf.nn.embedding_lookup_sparse: per row of a SparseTensor of ids, its ids' rows of params
combined by "sum", "mean" or "sqrtn" (weighted by another SparseTensor's values)."""
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import nn_ops as NN
from tapeflow.runtime.ops import segment_ops as SG
from tapeflow.sparse import SparseTensor


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner="mean", max_norm=None, name=None,
                            allow_fast_lookup=False):
    """Rows past the last row holding an id are absent (TensorFlow's sorted segment sum)."""
    if combiner not in ("sum", "mean", "sqrtn"):
        raise ValueError(with_location(f"embedding_lookup_sparse: combiner must be sum, mean or sqrtn, got {combiner!r}"))
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(with_location(f"embedding_lookup_sparse: sp_ids must be a SparseTensor, got "
                                      f"{type(sp_ids).__name__}"))
    rows = sp_ids.indices[:, 0]
    emb = NN.embedding_lookup(params, sp_ids.values, max_norm=max_norm)
    weights = A.ones_like(rows, emb.dtype) if sp_weights is None else M.cast(sp_weights.values, emb.dtype)
    total = SG.segment_sum(emb * A.expand_dims(weights, 1), rows)
    if combiner == "sum":
        return total
    scale = SG.segment_sum(weights, rows) if combiner == "mean" else M.sqrt(SG.segment_sum(weights * weights, rows))
    return M.div_no_nan(total, A.expand_dims(scale, 1))

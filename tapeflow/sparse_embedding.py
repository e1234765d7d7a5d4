"""tf.nn.embedding_lookup_sparse: per row of a SparseTensor of ids, its ids' rows of params
combined by "sum", "mean" or "sqrtn" (weighted by another SparseTensor's values)."""
import numpy as np

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


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, max_norm=None, name=None, allow_fast_lookup=False):
    """embedding_lookup_sparse over ids of any rank >= 2 (the leading dims are the batch), after
    dropping negative ids (and, unless combiner is "sum", weights <= 0); a row left empty gets
    default_id's embedding, or zeros without one.  A list of tables is one table split in
    consecutive rows (TensorFlow 2's "div" partitioning)."""
    import tapeflow as tf
    tables = list(embedding_weights) if isinstance(embedding_weights, (list, tuple)) else [embedding_weights]
    if not tables or embedding_weights is None:
        raise ValueError(with_location(f"safe_embedding_lookup_sparse: missing embedding_weights {embedding_weights}"))
    table = tables[0] if len(tables) == 1 else tf.concat([tf.convert_to_tensor(t) for t in tables], 0)
    shape = sparse_ids.dense_shape
    known = tf.get_static_value(shape)     # static sizes where known: sparse.reshape traces with them
    if known is not None:
        shape = [int(d) for d in known]
        ids = tf.sparse.reshape(sparse_ids, [int(np.prod(shape[:-1])), shape[-1]])
    else:
        ids = tf.sparse.reshape(sparse_ids, tf.stack([tf.reduce_prod(shape[:-1]), shape[-1]]))
    weights = None if sparse_weights is None else SparseTensor(ids.indices, sparse_weights.values, ids.dense_shape)
    keep = ids.values >= 0
    if weights is not None and combiner != "sum":
        keep = keep & (weights.values > 0)
    ids = tf.sparse.retain(ids, keep)
    ids, empty = tf.sparse.fill_empty_rows(ids, default_id or 0)
    if weights is not None:
        weights, _ = tf.sparse.fill_empty_rows(tf.sparse.retain(weights, keep), 1.0)
    result = embedding_lookup_sparse(table, ids, weights, combiner=combiner, max_norm=max_norm)
    if default_id is None:
        result = tf.where(empty[:, None], tf.zeros_like(result), result)
    if known is not None:
        return tf.reshape(result, shape[:-1] + result.shape.as_list()[1:])
    return tf.reshape(result, tf.concat([tf.cast(shape[:-1], tf.int32), tf.shape(result)[1:]], 0))

"""tf.sparse ops that build a new SparseTensor from others: the union ops (add, maximum,
minimum), map_values, concat, slice, reshape, reset_shape, fill_empty_rows, to_indicator,
softmax; the sparse segment reductions and tf.nn.embedding_lookup_sparse.

Entries are addressed by their row-major linear position ("key"); an op on keys keeps
explicitly stored zeros, as TensorFlow does (a dense round trip would drop them).
Results are in row-major order."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import Tensor, convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import nn_ops as NN
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops import segment_ops as SG
from tapeflow.runtime.ops import sort_ops as S
from tapeflow.sparse import SparseTensor, _check, to_dense


def _strides(shape):
    return np.cumprod((1,) + tuple(shape)[::-1])[:-1][::-1].astype(np.int64)


def _keys(indices, shape):
    return RD.reduce_sum(indices * convert_to_tensor(_strides(shape)), axis=1) if len(shape) else \
        A.zeros_like(indices[:, 0])


def _indices(keys, shape):
    strides = convert_to_tensor(_strides(shape))
    return M.floormod(M.floordiv(A.expand_dims(keys, 1), strides), convert_to_tensor(np.asarray(shape, np.int64)))


def check_order(sp, op):
    """TensorFlow's kernels reject indices out of row-major order, repeated or out of bounds."""
    if not isinstance(sp.indices, Tensor):
        return
    idx = sp.indices.numpy()
    if not len(idx):
        return
    shape = np.asarray(sp._shape, np.int64)
    bad = np.nonzero(np.any((idx < 0) | (idx >= shape), axis=1))[0]
    if bad.size:
        raise InvalidArgumentError(with_location(
            f"{op}: indices[{bad[0]}] = {idx[bad[0]].tolist()} is out of bounds: need 0 <= index < {shape.tolist()}"))
    keys = idx @ _strides(sp._shape)
    step = np.nonzero(np.diff(keys) <= 0)[0]
    if step.size:
        i = int(step[0]) + 1
        what = "is repeated" if keys[i] == keys[i - 1] else "is out of order"
        raise InvalidArgumentError(with_location(
            f"{op}: indices[{i}] = {idx[i].tolist()} {what}. Many sparse ops require sorted indices; "
            "use tf.sparse.reorder to create a correctly ordered copy"))


def _union(a, b, combine, op):
    if a._shape != b._shape:
        raise ValueError(with_location(f"tf.sparse.{op}: shapes {list(a._shape)} and {list(b._shape)} differ"))
    keys, _ = SG.unique(J.concat([_keys(a.indices, a._shape), _keys(b.indices, b._shape)], 0))
    indices = _indices(S.sort(keys), a._shape)
    return SparseTensor(indices, G.gather_nd(combine(to_dense(a), to_dense(b)), indices), a._shape)


def add(a, b, threshold=0, name=None):
    """Sparse + sparse is sparse (entries whose |sum| < threshold are dropped); sparse + dense is dense."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        out = _union(a, b, M.add, "add")
        if threshold:
            keep = M.greater_equal(M.abs(out.values), convert_to_tensor(threshold, out.dtype))
            out = SparseTensor(G.boolean_mask(out.indices, keep), G.boolean_mask(out.values, keep), out._shape)
        return out
    dense = [to_dense(x) if isinstance(x, SparseTensor) else convert_to_tensor(x) for x in (a, b)]
    return M.add(*dense)


def maximum(sp_a, sp_b, name=None):
    """Elementwise max over the union of the entries (a missing entry counts as 0)."""
    return _union(sp_a, sp_b, M.maximum, "maximum")


def minimum(sp_a, sp_b, name=None):
    return _union(sp_a, sp_b, M.minimum, "minimum")


def map_values(op, *args, **kwargs):
    """op applied to the values of the SparseTensor arguments (which share their indices)."""
    sparse = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not sparse:
        raise ValueError(with_location("tf.sparse.map_values: no SparseTensor among the arguments"))
    first = sparse[0]
    for other in sparse[1:]:
        if other._shape != first._shape or (isinstance(first.indices, Tensor) and isinstance(other.indices, Tensor)
                                            and not np.array_equal(first.indices.numpy(), other.indices.numpy())):
            raise InvalidArgumentError(with_location("tf.sparse.map_values: the SparseTensors' indices differ"))
    values = lambda x: x.values if isinstance(x, SparseTensor) else x  # noqa: E731
    out = op(*[values(a) for a in args], **{k: values(v) for k, v in kwargs.items()})
    return SparseTensor(first.indices, out, first._shape)


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """The SparseTensors joined along axis (the other dims must agree, or take their max
    with expand_nonconcat_dims)."""
    for sp in sp_inputs:
        _check(sp, "concat")
    rank = len(sp_inputs[0]._shape)
    axis = int(axis) % rank
    others = [tuple(s._shape[:axis] + s._shape[axis + 1:]) for s in sp_inputs]
    if not expand_nonconcat_dims and len(set(others)) > 1:
        raise InvalidArgumentError(with_location(
            f"tf.sparse.concat: shapes {[list(s._shape) for s in sp_inputs]} differ outside axis {axis}"))
    shape = [max(s._shape[d] for s in sp_inputs) for d in range(rank)]
    shape[axis] = sum(s._shape[axis] for s in sp_inputs)
    parts, offset = [], 0
    for s in sp_inputs:
        shift = np.zeros(rank, np.int64)
        shift[axis] = offset
        parts.append(s.indices + convert_to_tensor(shift))
        offset += s._shape[axis]
    indices = J.concat(parts, 0)
    order = S.argsort(_keys(indices, shape), stable=True)
    values = J.concat([s.values for s in sp_inputs], 0)
    return SparseTensor(G.gather(indices, order), G.gather(values, order), tuple(shape))


def slice(sp_input, start, size, name=None):  # noqa: A001
    """The entries inside the box [start, start + size), moved to start at 0."""
    _check(sp_input, "slice")
    start = np.asarray(convert_to_tensor(start).numpy(), np.int64)
    size = np.asarray(convert_to_tensor(size).numpy(), np.int64)
    shape = np.asarray(sp_input._shape, np.int64)
    stop = np.minimum(start + size, shape)
    idx = sp_input.indices
    inside = RD.reduce_all(M.logical_and(M.greater_equal(idx, convert_to_tensor(start)),
                                         M.less(idx, convert_to_tensor(stop))), axis=1)
    return SparseTensor(G.boolean_mask(idx, inside) - convert_to_tensor(start),
                        G.boolean_mask(sp_input.values, inside), tuple(np.maximum(stop - start, 0).tolist()))


def reshape(sp_input, shape, name=None):
    """The same entries in a dense shape of the same size (one dim may be -1)."""
    _check(sp_input, "reshape")
    new = [int(d) for d in np.asarray(convert_to_tensor(shape).numpy()).reshape(-1)]
    total = int(np.prod(sp_input._shape))
    if new.count(-1) == 1:
        known = int(np.prod([d for d in new if d != -1]))
        new[new.index(-1)] = total // known if known else 0
    if int(np.prod(new)) != total:
        raise InvalidArgumentError(with_location(
            f"tf.sparse.reshape: cannot reshape a SparseTensor of shape {list(sp_input._shape)} "
            f"({total} entries) to {new}"))
    return SparseTensor(_indices(_keys(sp_input.indices, sp_input._shape), new), sp_input.values, tuple(new))


def reset_shape(sp_input, new_shape=None):
    """The same entries with a larger dense_shape (None: the tightest one that holds them)."""
    _check(sp_input, "reset_shape")
    if new_shape is None:
        idx = sp_input.indices.numpy()
        shape = tuple((idx.max(axis=0) + 1).tolist()) if len(idx) else (0,) * len(sp_input._shape)
    else:
        shape = tuple(int(d) for d in np.asarray(convert_to_tensor(new_shape).numpy()).reshape(-1))
        if len(shape) != len(sp_input._shape) or any(n < o for n, o in zip(shape, sp_input._shape)):
            raise ValueError(with_location(
                f"tf.sparse.reset_shape: {list(shape)} does not hold the shape {list(sp_input._shape)}"))
    return SparseTensor(sp_input.indices, sp_input.values, shape)


def fill_empty_rows(sp_input, default_value, name=None):
    """(the SparseTensor with [row, 0, ...] = default_value in every row that has no entry,
    a bool vector marking those rows)."""
    _check(sp_input, "fill_empty_rows")
    rows = sp_input._shape[0]
    counts = SG.unsorted_segment_sum(A.ones_like(sp_input.indices[:, 0]), sp_input.indices[:, 0], rows)
    empty = M.equal(counts, 0)
    new_rows = A.reshape(A.where(empty), (-1, 1))
    pad = A.zeros(J.concat([A.shape(new_rows, dtypes.int64)[:1],
                            convert_to_tensor([len(sp_input._shape) - 1], dtypes.int64)], 0), dtypes.int64)
    indices = J.concat([sp_input.indices, J.concat([new_rows, pad], 1)], 0)
    fill = A.fill(A.shape(new_rows)[:1], convert_to_tensor(default_value, sp_input.dtype))
    values = J.concat([sp_input.values, fill], 0)
    order = S.argsort(_keys(indices, sp_input._shape), stable=True)
    return SparseTensor(G.gather(indices, order), G.gather(values, order), sp_input._shape), empty


def to_indicator(sp_input, vocab_size, name=None):
    """Dense bool [..., vocab_size]: True at every id the last dimension's entries hold."""
    _check(sp_input, "to_indicator")
    shape = sp_input._shape[:-1] + (int(vocab_size),)
    idx = J.concat([sp_input.indices[:, :-1], A.expand_dims(M.cast(sp_input.values, dtypes.int64), 1)], 1)
    hits = G.scatter_nd(idx, A.ones_like(sp_input.values, dtypes.int32), shape)
    return M.greater(hits, 0)


def softmax(sp_input, name=None):
    """Softmax over the last dimension among the present entries only."""
    _check(sp_input, "softmax")
    dense = to_dense(sp_input, default_value=-np.inf)
    return SparseTensor(sp_input.indices, G.gather_nd(NN.softmax(dense, axis=-1), sp_input.indices),
                        sp_input._shape)


def segment_sum(data, indices, segment_ids, num_segments=None, name=None):
    """tf.sparse.segment_sum: the rows of data at indices, summed per (sorted) segment id."""
    rows = G.gather(data, indices)
    if num_segments is not None:
        return SG.unsorted_segment_sum(rows, segment_ids, num_segments)
    return SG.segment_sum(rows, segment_ids)


def segment_mean(data, indices, segment_ids, num_segments=None, name=None):
    rows = G.gather(data, indices)
    if num_segments is not None:
        return SG.unsorted_segment_mean(rows, segment_ids, num_segments)
    return SG.segment_mean(rows, segment_ids)


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None):
    rows = G.gather(data, indices)
    ids = convert_to_tensor(segment_ids)
    count = num_segments if num_segments is not None else RD.reduce_max(ids) + 1
    return SG.unsorted_segment_sqrt_n(rows, ids, count)


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner="mean", max_norm=None, name=None,
                            allow_fast_lookup=False):
    """Per row of sp_ids, its ids' rows of params combined by "sum", "mean" or "sqrtn"
    (weighted by sp_weights' values when given).  Rows past the last id-holding row are absent."""
    if combiner not in ("sum", "mean", "sqrtn"):
        raise ValueError(with_location(f"embedding_lookup_sparse: combiner must be sum, mean or sqrtn, got {combiner!r}"))
    _check(sp_ids, "embedding_lookup_sparse")
    rows = sp_ids.indices[:, 0]
    emb = NN.embedding_lookup(params, sp_ids.values, max_norm=max_norm)
    if sp_weights is None:
        weights = A.ones_like(rows, emb.dtype)
    else:
        weights = M.cast(sp_weights.values, emb.dtype)
    total = SG.segment_sum(emb * A.expand_dims(weights, 1), rows)
    if combiner == "sum":
        return total
    scale = SG.segment_sum(weights, rows) if combiner == "mean" else M.sqrt(SG.segment_sum(weights * weights, rows))
    return M.div_no_nan(total, A.expand_dims(scale, 1))

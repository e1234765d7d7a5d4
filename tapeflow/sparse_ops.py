"""tf.sparse's index-level ops: they move, merge and filter (index, value) entries
without a dense round trip, so explicitly stored zeros stay entries, as in
TensorFlow.  All are composites of tapeflow ops over the SparseTensor's indices
and values (dense shapes static), so they trace and carry gradients to values.

An entry's key is its row-major linear index in the dense shape; merging two
tensors (add, maximum, minimum) sorts the keys of both and combines equal ones."""
import numpy as np

from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import Tensor
from tapeflow.sparse import SparseTensor, _check, reorder


def _tf():
    import tapeflow
    return tapeflow


def _strides(shape):
    return np.cumprod((1,) + tuple(shape)[::-1])[:-1][::-1].astype(np.int64)


def _keys(tf, indices, shape):
    return tf.reduce_sum(indices * tf.constant(_strides(shape)), axis=1)


def _unravel(tf, keys, shape):
    strides = _strides(shape)
    cols = [tf.math.floormod(tf.math.floordiv(keys, int(s)), int(d)) for s, d in zip(strides, shape)]
    return tf.stack(cols, axis=1) if cols else tf.zeros([tf.shape(keys)[0], 0], tf.int64)


def _merge(a, b, combine, op):
    """Entries of a and b merged by position: (keys, combine(values of a or 0, values of b or 0),
    whether both store the position)."""
    tf = _tf()
    _check(a, op)
    _check(b, op)
    if a._shape != b._shape:
        raise InvalidArgumentError(with_location(f"{op}: shapes {list(a._shape)} and {list(b._shape)} differ"))
    keys = tf.concat([_keys(tf, a.indices, a._shape), _keys(tf, b.indices, b._shape)], 0)
    order = tf.argsort(keys, stable=True)
    unique = tf.unique(tf.gather(keys, order))
    n = tf.size(unique.y)
    side = tf.gather(tf.concat([tf.zeros_like(a.values, tf.int32), tf.ones_like(b.values, tf.int32)], 0), order)
    values = tf.gather(tf.concat([a.values, b.values], 0), order)
    zero = tf.zeros([n], a.values.dtype)
    from_a = tf.tensor_scatter_nd_add(zero, tf.boolean_mask(unique.idx, side == 0)[:, None],
                                      tf.boolean_mask(values, side == 0))
    from_b = tf.tensor_scatter_nd_add(zero, tf.boolean_mask(unique.idx, side == 1)[:, None],
                                      tf.boolean_mask(values, side == 1))
    both = tf.math.unsorted_segment_sum(tf.ones_like(unique.idx), unique.idx, n) > 1
    return unique.y, combine(from_a, from_b), both


def add(a, b, threshold=0, name=None):
    """Sparse + sparse keeps every position either stores, dropping sums with
    |sum| < threshold; sparse + dense is dense."""
    from tapeflow.sparse import _dense
    tf = _tf()
    if not (isinstance(a, SparseTensor) and isinstance(b, SparseTensor)):
        return tf.add(_dense(a), _dense(b))
    keys, values, both = _merge(a, b, lambda x, y: x + y, "sparse.add")
    # TensorFlow applies the threshold to sums only: an entry of one operand passes as it is.
    keep = tf.logical_or(tf.logical_not(both), tf.abs(values) >= tf.cast(threshold, values.dtype))
    keys, values = tf.boolean_mask(keys, keep), tf.boolean_mask(values, keep)
    return SparseTensor(_unravel(tf, keys, a._shape), values, a._shape)


def maximum(sp_a, sp_b, name=None):
    """Elementwise max over the positions either stores (an absent entry counts as 0)."""
    tf = _tf()
    keys, values, _ = _merge(sp_a, sp_b, tf.maximum, "sparse.maximum")
    return SparseTensor(_unravel(tf, keys, sp_a._shape), values, sp_a._shape)


def minimum(sp_a, sp_b, name=None):
    tf = _tf()
    keys, values, _ = _merge(sp_a, sp_b, tf.minimum, "sparse.minimum")
    return SparseTensor(_unravel(tf, keys, sp_a._shape), values, sp_a._shape)


def transpose(sp_input, perm=None, name=None):
    tf = _tf()
    _check(sp_input, "transpose")
    rank = len(sp_input._shape)
    perm = list(range(rank))[::-1] if perm is None else [int(p) for p in perm]
    indices = tf.gather(sp_input.indices, perm, axis=1)
    return reorder(SparseTensor(indices, sp_input.values, tuple(sp_input._shape[p] for p in perm)))


def reshape(sp_input, shape, name=None):
    """The same entries in the same order at their positions in the new dense shape."""
    tf = _tf()
    _check(sp_input, "reshape")
    shape = [int(d) for d in (shape.numpy() if hasattr(shape, "numpy") else shape)]
    total = int(np.prod(sp_input._shape, dtype=np.int64))
    if shape.count(-1) > 1:
        raise InvalidArgumentError(with_location(f"sparse.reshape: at most one -1 in the shape, got {shape}"))
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
        if known == 0 or total % known:
            raise InvalidArgumentError(with_location(
                f"sparse.reshape: cannot reshape a SparseTensor of {total} elements to {shape}"))
        shape[shape.index(-1)] = total // known
    if int(np.prod(shape, dtype=np.int64)) != total:
        raise InvalidArgumentError(with_location(
            f"sparse.reshape: cannot reshape a SparseTensor of shape {list(sp_input._shape)} to {shape}"))
    keys = _keys(tf, sp_input.indices, sp_input._shape)
    return SparseTensor(_unravel(tf, keys, shape), sp_input.values, tuple(shape))


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None, concat_dim=None):
    tf = _tf()
    axis = concat_dim if concat_dim is not None else axis
    inputs = list(sp_inputs)
    for s in inputs:
        _check(s, "concat")
    rank = len(inputs[0]._shape)
    axis = int(axis) % rank
    shape = [max(s._shape[d] for s in inputs) if expand_nonconcat_dims else inputs[0]._shape[d]
             for d in range(rank)]
    for s in inputs:
        if len(s._shape) != rank or (not expand_nonconcat_dims and any(
                s._shape[d] != shape[d] for d in range(rank) if d != axis)):
            raise InvalidArgumentError(with_location(
                f"sparse.concat: the shapes {[list(t._shape) for t in inputs]} differ outside axis {axis}"))
    shape[axis] = sum(s._shape[axis] for s in inputs)
    offsets = np.cumsum([0] + [s._shape[axis] for s in inputs[:-1]])
    shift = lambda k: tf.constant([int(k) if d == axis else 0 for d in range(rank)], tf.int64)  # noqa: E731
    indices = tf.concat([s.indices + shift(k) for s, k in zip(inputs, offsets)], 0)
    values = tf.concat([s.values for s in inputs], 0)
    return reorder(SparseTensor(indices, values, tuple(shape)))


def slice(sp_input, start, size, name=None):  # noqa: A001 - TensorFlow's name
    tf = _tf()
    _check(sp_input, "slice")
    start = [int(v) for v in (start.numpy() if hasattr(start, "numpy") else start)]
    size = [int(v) for v in (size.numpy() if hasattr(size, "numpy") else size)]
    out_shape = tuple(max(0, min(n, d - s)) for s, n, d in zip(start, size, sp_input._shape))
    lo = tf.constant(start, tf.int64)
    keep = tf.reduce_all((sp_input.indices >= lo) & (sp_input.indices < lo + tf.constant(out_shape, tf.int64)), 1)
    return SparseTensor(tf.boolean_mask(sp_input.indices, keep) - lo, tf.boolean_mask(sp_input.values, keep),
                        out_shape)


def split(sp_input=None, num_split=None, axis=None, name=None, keyword_required=None):
    """num_split pieces along axis; the first shape[axis] % num_split are one longer."""
    _check(sp_input, "split")
    axis = int(axis) % len(sp_input._shape)
    n = sp_input._shape[axis]
    base, extra = divmod(n, int(num_split))
    pieces, begin = [], 0
    for i in range(int(num_split)):
        length = base + (1 if i < extra else 0)
        start = [begin if d == axis else 0 for d in range(len(sp_input._shape))]
        size = [length if d == axis else sp_input._shape[d] for d in range(len(sp_input._shape))]
        pieces.append(slice(sp_input, start, size))
        begin += length
    return pieces


def softmax(sp_input, name=None):
    """Softmax over the stored entries of each innermost row (absent entries take no part)."""
    tf = _tf()
    _check(sp_input, "softmax")
    rows = _keys(tf, sp_input.indices[:, :-1], sp_input._shape[:-1])
    rows = tf.unique(rows).idx
    n = tf.reduce_max(rows) + 1 if sp_input.values.shape[0] != 0 else 0
    shifted = sp_input.values - tf.gather(tf.math.unsorted_segment_max(sp_input.values, rows, n), rows)
    e = tf.exp(shifted)
    return SparseTensor(sp_input.indices, e / tf.gather(tf.math.unsorted_segment_sum(e, rows, n), rows),
                        sp_input._shape)


def fill_empty_rows(sp_input, default_value, name=None):
    """(the entries plus default_value at [r, 0, ...] of each empty row r, sorted by row;
    a bool vector marking the rows that were empty)."""
    tf = _tf()
    _check(sp_input, "fill_empty_rows")
    rows = sp_input._shape[0]
    present = tf.math.unsorted_segment_sum(tf.ones_like(sp_input.indices[:, 0], tf.int32),
                                           sp_input.indices[:, 0], rows) > 0
    empty = tf.logical_not(present)
    empty_rows = tf.cast(tf.where(empty)[:, 0], tf.int64)
    rank = len(sp_input._shape)
    new_indices = tf.concat([empty_rows[:, None], tf.zeros([tf.shape(empty_rows)[0], rank - 1], tf.int64)], 1)
    indices = tf.concat([sp_input.indices, new_indices], 0)
    values = tf.concat([sp_input.values, tf.fill(tf.shape(empty_rows), tf.cast(default_value,
                                                                              sp_input.values.dtype))], 0)
    order = tf.argsort(indices[:, 0], stable=True)
    return SparseTensor(tf.gather(indices, order), tf.gather(values, order), sp_input._shape), empty


def _segment(reduce, unsorted, data, indices, segment_ids, num_segments):
    tf = _tf()
    rows = tf.gather(data, indices)
    if num_segments is not None:
        return unsorted(rows, segment_ids, num_segments)
    return reduce(rows, segment_ids)


def segment_sum(data, indices, segment_ids, num_segments=None, name=None):
    tf = _tf()
    return _segment(tf.math.segment_sum, tf.math.unsorted_segment_sum, data, indices, segment_ids, num_segments)


def segment_mean(data, indices, segment_ids, num_segments=None, name=None):
    tf = _tf()
    return _segment(tf.math.segment_mean, tf.math.unsorted_segment_mean, data, indices, segment_ids, num_segments)


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None):
    tf = _tf()
    ids = tf.convert_to_tensor(segment_ids)
    n = num_segments if num_segments is not None else tf.reduce_max(ids) + 1
    return tf.math.unsorted_segment_sqrt_n(tf.gather(data, indices), ids, n)


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """TF's count ops with sparse output: one entry per value present (per row with axis=-1,
    of a 2-D dense input or a SparseTensor's rows), also where its weights sum to 0, holding
    its count (the input's dtype), summed weights (theirs) or 1 (binary_output).  Values at or
    over `maxlength` are dropped; the bins run to max(value) + 1, at least `minlength` and at
    most `maxlength`."""
    tf = _tf()
    if weights is not None and binary_output:
        raise ValueError(with_location("tf.sparse.bincount: `binary_output` and `weights` are mutually exclusive"))
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError(with_location(f"tf.sparse.bincount: axis must be 0 or -1, got {axis}"))
    if isinstance(values, SparseTensor):
        if weights is not None and not isinstance(weights, SparseTensor):
            raise ValueError(with_location("tf.sparse.bincount: `weights` must be a SparseTensor when "
                                           "`values` is one"))
        rank, data, nrows = len(values.shape), values.values, values.dense_shape[0]
        rows = values.indices[:, 0] if axis == -1 and rank == 2 else None
        weights = None if weights is None else weights.values
    else:
        values = tf.convert_to_tensor(values)
        rank, data, nrows = values.shape.rank, tf.reshape(values, [-1]), tf.shape(values, tf.int64)[0]
        rows = tf.reshape(tf.tile(tf.expand_dims(tf.range(tf.shape(values, tf.int64)[0]), 1),
                                  [1, tf.shape(values)[1]]), [-1]) if axis == -1 and rank == 2 else None
        weights = None if weights is None else tf.reshape(tf.convert_to_tensor(weights), [-1])
    if axis == -1 and rank > 2:
        raise InvalidArgumentError(with_location(f"tf.sparse.bincount: axis=-1 needs an input of rank 1 or 2, "
                                                 f"got rank {rank}"))
    if not data.dtype.is_integer:
        raise InvalidArgumentError(with_location(f"tf.sparse.bincount: values must be int32 or int64, got {data.dtype.name}"))
    out_dtype = data.dtype if weights is None else weights.dtype
    if type(data) is Tensor and np.any(data.numpy() < 0):
        raise InvalidArgumentError(with_location("tf.sparse.bincount: values must be non-negative"))
    v = tf.cast(data, tf.int64)
    size = tf.reduce_max(tf.concat([v, tf.constant([-1], tf.int64)], 0)) + 1
    keep = tf.ones_like(v, tf.bool)
    if maxlength is not None:
        size = tf.minimum(size, tf.cast(maxlength, tf.int64))
        keep = v < tf.cast(maxlength, tf.int64)
    if minlength is not None:
        size = tf.maximum(size, tf.cast(minlength, tf.int64))
    nrows = tf.constant(1, tf.int64) if rows is None else nrows
    keys = tf.boolean_mask(v if rows is None else rows * size + v, keep)
    counts = tf.math.unsorted_segment_sum(tf.ones_like(keys), keys, nrows * size)
    where = tf.where(counts > 0)
    if binary_output:
        out = tf.ones([tf.shape(where)[0]], out_dtype)
    elif weights is not None:
        out = tf.gather_nd(tf.math.unsorted_segment_sum(tf.boolean_mask(weights, keep), keys, nrows * size), where)
    else:
        out = tf.cast(tf.gather_nd(counts, where), out_dtype)
    flat = where[:, 0]
    if rows is None:
        return SparseTensor(tf.expand_dims(flat, 1), out, tf.reshape(size, [1]))
    return SparseTensor(tf.stack([flat // size, flat % size], 1), out, tf.stack([nrows, size]))


def eye(num_rows, num_columns=None, dtype="float32", name=None):
    tf = _tf()
    num_columns = int(num_rows if num_columns is None else num_columns)
    n = min(int(num_rows), num_columns)
    diagonal = tf.range(n, dtype=tf.int64)
    return SparseTensor(tf.stack([diagonal, diagonal], 1), tf.ones([n], dtype), (int(num_rows), num_columns))


def to_indicator(sp_input, vocab_size, name=None):
    """Dense bool [..., vocab_size]: True at each id that a row of sp_input stores."""
    tf = _tf()
    _check(sp_input, "to_indicator")
    ids = tf.cast(sp_input.values, tf.int64)
    positions = tf.concat([sp_input.indices[:, :-1], ids[:, None]], 1)
    shape = list(sp_input._shape[:-1]) + [int(vocab_size)]
    return tf.tensor_scatter_nd_update(tf.zeros(shape, tf.bool), positions, tf.ones_like(ids, tf.bool))


def map_values(op, *args, **kwargs):
    """op applied to the values of the SparseTensor arguments (all with the same indices)."""
    tf = _tf()
    sparse = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not sparse:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = sparse[0]
    for s in sparse[1:]:
        if s._shape != first._shape:
            raise InvalidArgumentError(with_location("map_values: the SparseTensors' dense shapes differ"))
        tf.debugging.assert_equal(s.indices, first.indices, message="map_values: the SparseTensors' indices differ")
    unwrap = lambda a: a.values if isinstance(a, SparseTensor) else a  # noqa: E731
    out = op(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    return SparseTensor(first.indices, out, first._shape)


def reset_shape(sp_input, new_shape=None):
    """The same entries with the tightest dense shape (max index + 1), or new_shape if it
    holds them."""
    tf = _tf()
    _check(sp_input, "reset_shape")
    if new_shape is None:
        tight = tf.reduce_max(tf.concat([sp_input.indices + 1, tf.zeros([1, len(sp_input._shape)], tf.int64)], 0), 0)
        return SparseTensor(sp_input.indices, sp_input.values, tight)
    new_shape = tuple(int(d) for d in (new_shape.numpy() if hasattr(new_shape, "numpy") else new_shape))
    if len(new_shape) != len(sp_input._shape) or any(n < d for n, d in zip(new_shape, sp_input._shape)):
        raise ValueError(with_location(
            f"sparse.reset_shape: new_shape {list(new_shape)} must hold the shape {list(sp_input._shape)}"))
    return SparseTensor(sp_input.indices, sp_input.values, new_shape)

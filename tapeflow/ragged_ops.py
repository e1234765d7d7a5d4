"""Ops on RaggedTensors, written in tapeflow ops over values and row splits (so
they trace and differentiate): tf.ragged.constant, map_flat_values, elementwise
math, reductions, concat/stack/gather/boolean_mask/where (indexing is in
ragged_indexing.py).

`dispatch_table()` maps public op names to their ragged versions; the API table's
builder (tapeflow/_api) wraps those public functions with `with_ragged_dispatch`, so
that `tf.reduce_sum(rt, axis=1)` lands here.
"""
import numpy as np

from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import ragged_ops as RO
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops import segment_ops as SG
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.ragged_shape import DynamicRaggedShape, filled
from tapeflow.ragged_spec import RaggedTensorSpec
from tapeflow.ragged_tensor import RaggedTensor
from tapeflow.ragged_reshape import expand_dims  # noqa: F401  (the ragged tf.expand_dims)
from tapeflow.ragged_map import map_fn  # noqa: F401  (the ragged tf.map_fn)

_DISPATCHED = (RaggedTensor, DynamicRaggedShape)   # argument types that select the ragged version


def is_ragged(x):
    return isinstance(x, RaggedTensor)


# ------------------------------------------------------------------ constant
def _depth(x):
    """Nesting depth of a Python list (a str/bytes/number is 0)."""
    d = 0
    while isinstance(x, (list, tuple)):
        if not x:
            return d + 1
        x = x[0]
        d += 1
    return d


def _max_depth(x):
    if not isinstance(x, (list, tuple)):
        return 0
    return 1 + max((_max_depth(v) for v in x), default=0)


def _flatten_level(rows):
    """Rows of one level: (concatenated items, lengths)."""
    flat, lengths = [], []
    for r in rows:
        if not isinstance(r, (list, tuple)):
            raise ValueError(with_location(f"ragged.constant: all scalar values must have the same nesting depth, "
                                           f"got {r!r} beside lists"))
        flat.extend(r)
        lengths.append(len(r))
    return flat, lengths


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """A RaggedTensor from nested Python lists; a non-list gives a dense tensor."""
    depth = _max_depth(pylist)
    if depth == 0:
        return convert_to_tensor(pylist, dtype)
    inner_rank = len(inner_shape) if inner_shape is not None else None
    if ragged_rank is None:
        ragged_rank = depth - 1 - (inner_rank or 0) if inner_rank is not None else max(depth - 1, 0)
        if ragged_rank == 0 and inner_rank is None:
            ragged_rank = max(depth - 1, 0)
    if ragged_rank == 0:
        return convert_to_tensor(pylist, dtype)
    levels, rows = [], list(pylist)
    for _ in range(ragged_rank):
        rows, lengths = _flatten_level(rows)
        levels.append(lengths)
    if rows:
        values = convert_to_tensor(rows, dtype)
    else:
        shape = (0,) + tuple(inner_shape or ())
        if inner_shape is None and depth > ragged_rank + 1:
            shape = (0,) + (0,) * (depth - ragged_rank - 1)
        values = A.zeros(shape, dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32)
    if inner_shape is not None and values.shape.dims[1:] != tuple(inner_shape):
        values = A.reshape(values, (-1,) + tuple(inner_shape))
    out = values
    for lengths in reversed(levels):
        out = RaggedTensor.from_row_lengths(out, np.asarray(lengths, np.int64))
    return out


# ------------------------------------------------------------------ elementwise
def _partition_of(args):
    return next(a for a in args if is_ragged(a))


def _same_partition(a, b):
    """Row splits of `b` must equal `a`'s (checked eagerly; trusted while tracing)."""
    if a.ragged_rank != b.ragged_rank:
        raise ValueError(with_location(f"ragged operands have ragged ranks {a.ragged_rank} and {b.ragged_rank}"))
    for x, y in zip(a.nested_row_splits, b.nested_row_splits):
        if x is y:
            continue
        if type(x) is Tensor and type(y) is Tensor:
            if x._value.shape != y._value.shape or np.any(x._value != y._value):
                raise InvalidArgumentError(with_location(
                    f"ragged operands have different row partitions: {x._value.tolist()} and {y._value.tolist()}"))


def _check_rows(a, b, op):
    """The outer row partition of `b` must equal `a`'s (checked eagerly)."""
    x, y = a.row_splits, b.row_splits
    if type(x) is Tensor and type(y) is Tensor and (x._value.shape != y._value.shape or np.any(x._value != y._value)):
        raise InvalidArgumentError(with_location(
            f"{op}: ragged inputs must have the same row lengths before the axis; got row splits "
            f"{x._value.tolist()} and {y._value.tolist()}"))


def _flat_operand(base, x):
    """The operand that lines up with base.flat_values: its own flat values when ragged,
    a dense [nrows, 1, ...] tensor gathered per row, anything else as given (broadcast)."""
    if is_ragged(x):
        _same_partition(base, x)
        return x.flat_values
    if isinstance(x, (TensorBase, np.ndarray, list)):
        t = convert_to_tensor(x, base.dtype) if not isinstance(x, TensorBase) else convert_to_tensor(x)
        rank = t.shape.rank
        if base.ragged_rank == 1 and rank == base.shape.rank and rank >= 2 and t.shape[1] == 1:
            return G.gather(A.squeeze(t, 1), base.value_rowids())
        if rank >= base.shape.rank:
            raise ValueError(with_location(
                f"a dense operand of shape {list(t.shape)} does not broadcast against a ragged tensor of shape "
                f"{list(base.shape)}"))
        return t
    if base.dtype is dtypes.string and not isinstance(x, (str, bytes)):
        # TF converts the operand with the ragged dtype only preferred: a number stays a number,
        # and the op then refuses string and int operands (InvalidArgumentError)
        return convert_to_tensor(x)
    return x


def map_flat_values(op, *args, **kwargs):
    """op applied to the flat values of every ragged argument (which share row partitions)."""
    rags = [a for a in list(args) + list(kwargs.values()) if is_ragged(a)]
    if not rags:
        return op(*args, **kwargs)
    base = rags[0]
    for r in rags[1:]:
        _same_partition(base, r)
    new_args = [a.flat_values if is_ragged(a) else a for a in args]
    new_kwargs = {k: v.flat_values if is_ragged(v) else v for k, v in kwargs.items()}
    return base.with_flat_values(op(*new_args, **new_kwargs))


def elementwise_binary(op, x, y, *rest, **kwargs):
    base = x if is_ragged(x) else y
    return base.with_flat_values(op(_flat_operand(base, x), _flat_operand(base, y), *rest, **kwargs))


def _unary(op):
    def apply(x, *args, **kwargs):
        return x.with_flat_values(op(x.flat_values, *args, **kwargs))
    return apply


def where(condition, x=None, y=None, name=None):
    if x is None and y is None:
        raise NotImplementedError(with_location("tf.where(ragged condition) without x and y"))
    base = _partition_of((condition, x, y))
    return base.with_flat_values(A.where(_flat_operand(base, condition), _flat_operand(base, x),
                                         _flat_operand(base, y)))


# ------------------------------------------------------------------ reductions
_SEGMENT = {"sum": SG.unsorted_segment_sum, "max": SG.unsorted_segment_max, "min": SG.unsorted_segment_min,
            "prod": SG.unsorted_segment_prod}
_DENSE = {"sum": RD.reduce_sum, "max": RD.reduce_max, "min": RD.reduce_min, "prod": RD.reduce_prod,
          "mean": RD.reduce_mean, "any": RD.reduce_any, "all": RD.reduce_all}


def _segment_reduce(kind, values, ids, n):
    if callable(kind):  # a segment op of its own: kind(values, ids, n), e.g. a string join
        return kind(values, ids, n)
    if kind in ("any", "all"):  # counts of True (any) or of False (all) per segment
        hits = M.cast(values if kind == "any" else M.logical_not(values), dtypes.int32)
        count = SG.unsorted_segment_sum(hits, ids, n)
        return M.greater(count, 0) if kind == "any" else M.equal(count, 0)
    if kind == "mean":
        total = SG.unsorted_segment_sum(values, ids, n)
        count = SG.unsorted_segment_sum(A.ones_like(values), ids, n)
        return total / count
    return _SEGMENT[kind](values, ids, n)


def grouped_rows(kind, values, ids, n):
    """Reduces the rows of `values` that share an id (ids: one per row, n groups), as reducing
    axis 0 of each group would: rows align by position, a group is as long as its longest
    row.  Ragged rows recurse level by level: each value's group is its row's group's
    output row plus its column."""
    if not is_ragged(values):
        return _segment_reduce(kind, values, ids, n)
    widths = M.maximum(SG.unsorted_segment_max(values.row_lengths(), ids, n), 0)   # 0: an empty group
    splits = RO.splits_from_lengths(widths)
    inner_ids = G.gather(G.gather(splits, ids), values.value_rowids()) + RO.ids(values.row_splits, "col")
    return RaggedTensor(grouped_rows(kind, values.values, inner_ids, splits[-1]), splits, _validate=False)


def _reduce(kind):
    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        rt = input_tensor
        if axis is None:
            return _DENSE[kind](rt.flat_values, keepdims=False)
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if len(axes) != 1:
            out = rt
            for a in sorted((a % rt.shape.rank for a in axes), reverse=True):
                out = reduce(out, a, keepdims)
            return out
        a = axes[0] % rt.shape.rank
        if keepdims:
            raise NotImplementedError(with_location(f"tf.reduce_{kind}(ragged, keepdims=True)"))
        if a > rt.ragged_rank:  # a dense inner axis of the flat values
            return rt.with_flat_values(_DENSE[kind](rt.flat_values, axis=a - rt.ragged_rank))
        if a == 0:                # every row is one group
            return grouped_rows(kind, rt, A.zeros_like(rt.row_splits[1:]), 1).values
        if a == 1:                # the rows of each row are a group
            return grouped_rows(kind, rt.values, rt.value_rowids(), rt.nrows())
        return rt.with_values(reduce(rt.values, a - 1, keepdims))
    reduce.__name__ = f"reduce_{kind}"
    return reduce


reduce_sum, reduce_max, reduce_min, reduce_prod, reduce_mean, reduce_any, reduce_all = (
    _reduce(k) for k in ("sum", "max", "min", "prod", "mean", "any", "all"))


# ------------------------------------------------------------------ rows
def gather_rows(rt, indices):
    """rt's rows at `indices` (an int vector): a RaggedTensor of len(indices) rows."""
    idx = M.cast(convert_to_tensor(indices), dtypes.int64)
    lengths = G.gather(rt.row_lengths(), idx)
    splits = RO.splits_from_lengths(lengths)
    starts = G.gather(rt.row_starts(), idx)
    source = G.gather(starts, RO.ids(splits, "row")) + RO.ids(splits, "col")
    values = gather_rows(rt.values, source) if is_ragged(rt.values) else G.gather(rt.values, source)
    return RaggedTensor(values, splits, rt._uniform_row_length, _validate=False)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    if axis not in (None, 0) or batch_dims:
        raise NotImplementedError(with_location("tf.gather of a RaggedTensor: axis 0 only"))
    if is_ragged(indices):
        inner = gather(params, indices.flat_values) if is_ragged(params) else G.gather(params, indices.flat_values)
        return indices.with_flat_values(inner)
    idx = convert_to_tensor(indices)
    if idx.shape.rank == 0:
        from tapeflow.ragged_indexing import getitem
        return getitem(params, idx)
    if idx.shape.rank != 1:
        raise NotImplementedError(with_location("tf.gather of a RaggedTensor: a vector of indices"))
    if type(idx) is Tensor and type(params.row_splits) is Tensor:
        n = int(params.row_splits.shape[0]) - 1
        bad = [int(i) for i in np.asarray(idx._value).reshape(-1) if not -n <= int(i) < n]
        if bad:
            raise InvalidArgumentError(with_location(f"tf.gather: index {bad[0]} is not in [0, {n})"))
        idx = convert_to_tensor(np.asarray(idx._value) % max(n, 1))
    return gather_rows(params, idx)


def embedding_lookup(params, ids, max_norm=None, name=None):
    """tf.nn.embedding_lookup with RaggedTensor ids: each id's row of params, ragged as the ids."""
    from tapeflow.runtime.ops import nn_ops
    if not is_ragged(ids):
        raise TypeError(with_location("tf.nn.embedding_lookup: params must be a dense tensor (or a list of them)"))
    return ids.with_flat_values(nn_ops.embedding_lookup(params, ids.flat_values, max_norm=max_norm))


def dense_boolean_mask(tensor, mask, axis=None, name=None):
    """tf.boolean_mask given a RaggedTensor: TensorFlow 2.21 refuses it (a ValueError)."""
    raise ValueError(with_location("tf.boolean_mask does not take RaggedTensors; use tf.ragged.boolean_mask"))


def boolean_mask(data, mask, name=None):
    """tf.ragged.boolean_mask: rows kept where a dense mask is True, or values kept
    where a ragged mask of the same row partition is True."""
    tensor = data
    if is_ragged(mask):
        _same_partition(tensor, mask) if is_ragged(tensor) else None
        if not is_ragged(tensor):
            raise NotImplementedError(with_location("tf.boolean_mask(dense, ragged mask)"))
        keep = mask.flat_values
        if tensor.ragged_rank != 1:
            raise NotImplementedError(with_location("tf.boolean_mask with a ragged mask of ragged_rank > 1"))
        lengths = SG.unsorted_segment_sum(M.cast(keep, dtypes.int64), tensor.value_rowids(), tensor.nrows())
        return RaggedTensor.from_row_lengths(G.boolean_mask(tensor.values, keep), lengths, validate=False)
    mask = convert_to_tensor(mask)
    if not is_ragged(tensor):
        # A dense mask over the leading dims of a dense tensor: rank 1 keeps rows (a dense
        # result, as tf.boolean_mask); rank 2 keeps entries of each row (ragged rows).
        tensor = convert_to_tensor(tensor)
        if mask.shape.rank == 1:
            return G.boolean_mask(tensor, mask)
        if mask.shape.rank != 2:
            raise NotImplementedError(with_location(
                f"tf.ragged.boolean_mask: a dense mask of rank 1 or 2, got {list(mask.shape)}"))
        inner = A.shape(tensor, dtypes.int64)[2:]
        flat = A.reshape(tensor, J.concat([convert_to_tensor([-1], dtypes.int64), inner], 0))
        lengths = RD.reduce_sum(M.cast(mask, dtypes.int64), axis=1)
        return RaggedTensor.from_row_lengths(G.boolean_mask(flat, A.reshape(mask, (-1,))), lengths,
                                             validate=False)
    rows = A.reshape(A.where(mask), (-1,))
    return gather_rows(tensor, rows)


def _as_ragged(x, ragged_rank):
    if is_ragged(x):
        return x
    t = convert_to_tensor(x)
    return RaggedTensor.from_tensor(t, ragged_rank=min(ragged_rank, t.shape.rank - 1))


def concat(values, axis=0, name=None):
    rank = next(v for v in values if is_ragged(v)).shape.rank
    rr = max(v.ragged_rank for v in values if is_ragged(v))
    parts = [_as_ragged(v, rr) for v in values]
    axis = axis % rank
    if axis == 0:
        if len(parts) == 1:
            return parts[0]
        splits, total = [], None
        for p in parts:
            s = p.row_splits
            splits.append(s if total is None else (s + total)[1:])
            total = s[-1] if total is None else total + s[-1]
        inner = parts[0].values
        values = concat([p.values for p in parts], 0) if is_ragged(inner) else J.concat([p.values for p in parts], 0)
        return RaggedTensor(values, J.concat(splits, 0), _validate=False)
    if axis == 1:
        # Row i is every part's row i, one after another: gather from the concatenated values.
        lengths = [p.row_lengths() for p in parts]
        total = lengths[0]
        for ln in lengths[1:]:
            total = total + ln
        splits = RO.splits_from_lengths(total)
        row, col = RO.ids(splits, "row"), RO.ids(splits, "col")
        source = A.zeros_like(col) - 1
        before = A.zeros_like(lengths[0])
        base = convert_to_tensor(np.int64(0))
        for p, ln in zip(parts, lengths):
            lo = G.gather(before, row)
            inside = M.logical_and(M.greater_equal(col, lo), M.less(col, lo + G.gather(ln, row)))
            source = A.where(inside, base + G.gather(p.row_starts(), row) + col - lo, source)
            before = before + ln
            base = base + p.row_splits[-1]
        if rr == 1:
            return RaggedTensor(G.gather(J.concat([p.values for p in parts], 0), source), splits, _validate=False)
        return RaggedTensor(gather_rows(concat([p.values for p in parts], 0), source), splits, _validate=False)
    if axis > rr:
        return parts[0].with_flat_values(J.concat([p.flat_values for p in parts], axis - rr))
    if axis >= 2:                 # inside each row: the rows must line up
        for p in parts[1:]:
            _check_rows(parts[0], p, "tf.concat")
        return parts[0].with_values(concat([p.values for p in parts], axis - 1))


def stack(values, axis=0, name=None):
    """Ragged tensors (or dense ones) stacked along a new axis 0."""
    if axis != 0:
        expanded = [v if not is_ragged(v) else v for v in values]
        if axis == 1 and all(is_ragged(v) and v.ragged_rank == 1 for v in values):
            # [rows, k, None]: row i holds every input's row i
            n = values[0].nrows()
            order = J.stack([A.range_(0, n, dtype=dtypes.int64) + i * n for i in range(len(values))], axis=1)
            joined = concat(expanded, 0)
            rows = gather_rows(joined, A.reshape(order, (-1,)))
            return RaggedTensor.from_uniform_row_length(rows, len(values), validate=False)
        raise NotImplementedError(with_location(f"tf.stack of ragged tensors along axis {axis}"))
    if not any(is_ragged(v) for v in values) and all(convert_to_tensor(v).shape.rank == 1 for v in values):
        # vectors of different lengths: each becomes one row (TF's [[1, 2], [3]])
        vectors = [convert_to_tensor(v) for v in values]
        counts = J.stack([A.size(v, out_type=dtypes.int64) for v in vectors])
        return RaggedTensor(J.concat(vectors, 0), RO.splits_from_lengths(counts), _validate=False)
    rr = max((v.ragged_rank for v in values if is_ragged(v)), default=1)
    parts = [_as_ragged(v, rr) for v in values]
    counts = J.stack([p.nrows() for p in parts])
    return RaggedTensor(concat(parts, 0), RO.splits_from_lengths(counts), _validate=False)


def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """tf.shape of a RaggedTensor: a DynamicRaggedShape (as TensorFlow 2.21)."""
    return DynamicRaggedShape.from_tensor(input, out_type)


def ones(shape, dtype=dtypes.float32, name=None):
    return filled(shape, 1, dtypes.as_dtype(dtype))


def zeros(shape, dtype=dtypes.float32, name=None):
    return filled(shape, 0, dtypes.as_dtype(dtype))


def size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return M.cast(A.size(input.flat_values), out_type)


def dispatch_table():
    """Public op name -> its ragged version."""
    unary = """abs negative exp log sqrt square sin cos tanh sigmoid round floor ceil sign logical_not
        log1p expm1 rsqrt reciprocal softplus relu cast identity is_nan is_finite zeros_like ones_like""".split()
    binary = """add subtract multiply divide truediv floordiv mod pow maximum minimum equal not_equal less
        less_equal greater greater_equal logical_and logical_or""".split()
    table = {}
    for n in unary:
        table[n] = n, "unary"
    for n in binary:
        table[n] = n, "binary"
    for n in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_mean", "reduce_any",
              "reduce_all", "where", "gather", "size", "shape", "ones", "zeros", "embedding_lookup"):
        table[n] = n, "own"
    table["expand_dims"] = "expand_dims", "own"
    table["map_fn"] = "map_fn", "nested"
    table["boolean_mask"] = "dense_boolean_mask", "own"
    for n in ("concat", "stack"):
        table[n] = n, "list"
    return table


def ragged_version(name, kind, dense_fn):
    """The function that runs in place of the public `name` when a ragged argument comes."""
    if kind == "unary":
        return _unary(dense_fn)
    if kind == "binary":
        return lambda x, y, *rest, **kw: elementwise_binary(dense_fn, x, y, *rest, **kw)
    return globals()[name]


def _dispatching(dense_fn, ragged_fn, kind):
    import functools
    if kind == "list":
        @functools.wraps(dense_fn)
        def op(values, *args, **kwargs):
            if isinstance(values, (list, tuple)) and any(type(v) is RaggedTensor for v in values):
                return ragged_fn(values, *args, **kwargs)
            return dense_fn(values, *args, **kwargs)
    elif kind == "nested":  # tf.map_fn: a ragged or sparse leaf of elems, or their spec in the signature
        @functools.wraps(dense_fn)
        def op(*args, **kwargs):
            from tapeflow.sparse import SparseTensor, SparseTensorSpec
            composite = (RaggedTensor, RaggedTensorSpec, SparseTensor, SparseTensorSpec)
            leaves = nest.flatten([list(args), kwargs], expand_composites=False)
            if any(isinstance(v, composite) for v in leaves):
                return ragged_fn(*args, **kwargs)
            return dense_fn(*args, **kwargs)
    else:
        @functools.wraps(dense_fn)
        def op(*args, **kwargs):
            # Loops, not any(): every eager call of tf.exp, tf.reduce_sum, ... comes through
            # here, and a generator expression costs more than the check itself.
            for a in args:
                if type(a) in _DISPATCHED:
                    return ragged_fn(*args, **kwargs)
            if kwargs:
                for v in kwargs.values():
                    if type(v) in _DISPATCHED:
                        return ragged_fn(*args, **kwargs)
            return dense_fn(*args, **kwargs)
    op._ragged_dispatch = True
    return op


def with_ragged_dispatch(name, dense_fn):
    """The public function `name`: `dense_fn`, or, when `name` has a ragged version, a wrapper
    that runs the ragged version for a RaggedTensor argument (TensorFlow's dispatch)."""
    entry = dispatch_table().get(name)
    if entry is None or getattr(dense_fn, "_ragged_dispatch", False):
        return dense_fn
    ragged_name, kind = entry
    return _dispatching(dense_fn, ragged_version(ragged_name, kind, dense_fn), kind)

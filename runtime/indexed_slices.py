"""tf.IndexedSlices: rows `values[i]` of a dense tensor at `indices[i]` (repeats add up).

The gradient tape produces them for the params of a gather along axis 0 (a variable
read by tf.gather / embedding_lookup / keras Embedding), as TensorFlow does: they pass
through identities (variable reads) and casts, add up with each other by
concatenation, and become dense when they meet any other op or a dense gradient.
Arithmetic follows TensorFlow: unary minus keeps the slices; `+`, `*` and the rest
are TypeErrors (convert with tf.convert_to_tensor first).
"""
import numpy as np

from . import dtypes
from .errors import with_location
from .shape import TensorShape
from .tensor import Tensor, convert_to_tensor


class IndexedSlices:
    _is_indexed_slices = True  # looked up by cast() and the tape, which cannot import this module

    def __init__(self, values, indices, dense_shape=None, _like=None):
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        if not self._indices.dtype.is_integer:
            raise TypeError(with_location(
                f"IndexedSlices: indices must be int32 or int64, got {self._indices.dtype.name}"))
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)
        self._like = _like  # the dense tensor the slices belong to (tape gradients): its shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)
    name = property(lambda self: getattr(self._values, "name", None))

    @property
    def shape(self):
        if self._like is not None:
            return self._like.shape
        if isinstance(self._dense_shape, Tensor):
            return TensorShape([int(d) for d in np.asarray(self._dense_shape.numpy())])
        return TensorShape([None] + list(self._values.shape.dims[1:]))

    def with_values(self, values):
        return IndexedSlices(values, self._indices, self._dense_shape, self._like)

    def __neg__(self):
        from .ops import math_ops
        return self.with_values(math_ops.negative(self._values))

    def __tf_tensor__(self, dtype=None, name=None):
        """tf.convert_to_tensor: the dense tensor (repeated indices add up)."""
        dense = to_dense(self)
        if dtype is not None and dtypes.as_dtype(dtype) is not dense.dtype:
            raise TypeError(with_location(
                f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for IndexedSlices "
                f"of dtype {dense.dtype.name}"))
        return dense

    def __repr__(self):
        return f"IndexedSlices(indices={self._indices}, values={self._values}, dense_shape={self._dense_shape})"

    __str__ = __repr__


def to_dense(s):
    from .ops import array_ops, gather_ops, segment_ops
    if s._like is not None:
        return gather_ops.scatter_rows(s._values, s._indices, s._like)
    if s._dense_shape is None:
        raise ValueError(with_location("IndexedSlices without dense_shape cannot be made dense"))
    rows = s._dense_shape[0]
    out = segment_ops.unsorted_segment_sum(s._values, s._indices, rows)
    return array_ops.reshape(out, s._dense_shape)


def is_indexed_slices(x):
    return getattr(type(x), "_is_indexed_slices", False)


def gather_gradient(g, params, indices):
    """The params gradient of gather(params, indices, axis=0) as slices (None when
    the shapes needed are not static)."""
    from .ops import array_ops
    rest = params.shape.dims[1:] if params.shape.dims is not None else None
    if rest is None or None in rest:
        return None
    values = array_ops.reshape(g, [-1] + list(rest))
    flat = array_ops.reshape(indices, [-1])
    # dense_shape is int32 whatever the indices' dtype (as TensorFlow's gather gradients).
    return IndexedSlices(values, flat, array_ops.shape(params, out_type=dtypes.int32), _like=params)


def add(a, b):
    """Sum of two gradients where at least one is IndexedSlices (the tape's rule)."""
    from .ops import join_ops, math_ops
    if is_indexed_slices(a) and is_indexed_slices(b):
        indices = math_ops.cast(b.indices, a.indices.dtype)
        # b arrived first (the tape plays records back in reverse): it was recorded later,
        # and TensorFlow lists the slices in the order the ops ran.
        return IndexedSlices(join_ops.concat([b.values, a.values], 0),
                             join_ops.concat([indices, a.indices], 0), a.dense_shape, a._like)
    da = to_dense(a) if is_indexed_slices(a) else a
    db = to_dense(b) if is_indexed_slices(b) else b
    return math_ops.add(da, db)


def dense(x):
    return to_dense(x) if is_indexed_slices(x) else x


"""tf.sparse and tf.SparseTensor, backed by dense tensors.

A SparseTensor holds `indices` (int64 [N, rank]), `values` ([N]) and a
`dense_shape` known when the SparseTensor is made (tapeflow needs static shapes
for scatter).  The operations turn it into a dense tensor with scatter_nd and
use the dense ops, so values keep their gradients; this trades the memory
saving of real sparse kernels for simplicity, and is exact.
"""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, arg_error, with_location
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops, gather_ops, join_ops, linalg_ops, math_ops, reduce_ops


def _static_shape(dense_shape):
    if isinstance(dense_shape, TensorShape):
        dims = dense_shape.dims
    elif isinstance(dense_shape, TensorBase) and not isinstance(dense_shape, Tensor):
        raise ValueError(with_location("SparseTensor: dense_shape must be known when it is made "
                                       "(a list or an eager tensor), not a graph value"))
    else:
        dims = np.asarray(dense_shape).tolist()
    if dims is None or any(d is None or int(d) < 0 for d in dims):
        raise ValueError(with_location(f"SparseTensor: dense_shape {dims} must be fully known"))
    return tuple(int(d) for d in dims)


def _traced_shape(dense_shape):
    """The static dims of a dense_shape computed in a graph (None where only the data knows)."""
    if dense_shape.shape.rank != 1 or dense_shape.shape.dims[0] is None:
        raise ValueError(with_location(f"SparseTensor: dense_shape must be a vector of known length, got "
                                       f"shape {list(dense_shape.shape)}"))
    return (None,) * dense_shape.shape.dims[0]


class SparseTensor:
    """tf.SparseTensor(indices, values, dense_shape).  Inside tf.function, dense_shape may
    be a graph value (parse_example's VarLenFeature): its dims are then None in `.shape`
    and to_dense runs as one NumPy-executed node; the ops that need the shape itself
    while tracing (reorder, expand_dims, ...) say so."""

    _refused_by_gradient_tape = True  # TF: ValueError as a GradientTape source or target

    def __init__(self, indices, values, dense_shape):
        traced = isinstance(dense_shape, TensorBase) and not isinstance(dense_shape, Tensor)
        shape = _traced_shape(dense_shape) if traced else _static_shape(dense_shape)
        idx = convert_to_tensor(indices, dtypes.int64) if not isinstance(indices, TensorBase) else \
            math_ops.cast(convert_to_tensor(indices), dtypes.int64)
        vals = convert_to_tensor(values)
        if idx.shape.rank != 2 or (idx.shape.dims[1] is not None and idx.shape.dims[1] != len(shape)):
            raise ValueError(with_location(
                f"SparseTensor: indices must have shape [N, {len(shape)}] for dense_shape {list(shape)}, "
                f"got {list(idx.shape)}"))
        if vals.shape.rank != 1 or not vals.shape[:1].is_compatible_with(idx.shape[:1]):
            raise ValueError(with_location(
                f"SparseTensor: values must have shape [N] with N = {idx.shape.dims[0]} indices, "
                f"got {list(vals.shape)}"))
        self.indices = idx
        self.values = vals
        self._shape = shape
        self._traced = traced
        self.dense_shape = math_ops.cast(dense_shape, dtypes.int64) if traced else \
            convert_to_tensor(np.asarray(shape, np.int64))

    @property
    def shape(self):
        return TensorShape(self._shape)

    # A composite for tf.function and nest: its three tensors.  Rebuilt from traced
    # components, a SparseTensor of static shape keeps it (and the signature keys on it,
    # so another static shape is another trace, as TensorFlow's SparseTensorSpec).
    def _nest_components(self):
        return (self.indices, self.values, self.dense_shape)

    def _nest_rebuild(self, components):
        if not all(isinstance(c, TensorBase) for c in components):
            return _Slots(self, tuple(components))   # the tracer's output markers
        indices, values, dense_shape = components
        return SparseTensor(indices, values, dense_shape if self._traced else self._shape)

    @property
    def _nest_static(self):
        return self._shape

    @property
    def dtype(self):
        return self.values.dtype

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        """Refine the static shape (a traced dense_shape's unknown dims); ValueError if the
        shapes are incompatible, as TF."""
        shape = TensorShape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(with_location(f"SparseTensor.set_shape: the shape {tuple(self._shape)} is not "
                                           f"compatible with the supplied shape {shape.as_list()}"))
        self._shape = tuple(self.shape.merge_with(shape).dims)

    def __repr__(self):
        # TensorFlow prints the three tensors as str() prints them, for repr and str alike.
        return f"SparseTensor(indices={self.indices}, values={self.values}, dense_shape={self.dense_shape})"

    @classmethod
    def from_value(cls, value):
        return value if isinstance(value, SparseTensor) else from_dense(value)

    def with_values(self, new_values):
        return SparseTensor(self.indices, new_values, self._shape)

    def __mul__(self, other):
        return self.with_values(self.values * other) if not isinstance(other, SparseTensor) else \
            from_dense(to_dense(self) * to_dense(other))

    __rmul__ = __mul__

    def __neg__(self):
        return self.with_values(-self.values)


class SparseTensorSpec:
    """The type of a SparseTensor: its (dense) shape and dtype (tf.SparseTensorSpec)."""

    def __init__(self, shape=None, dtype=dtypes.float32):
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype)

    def is_compatible_with(self, other):
        return isinstance(other, (SparseTensor, SparseTensorSpec)) and other.dtype is self.dtype and \
            self.shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return isinstance(other, SparseTensorSpec) and (self.shape.dims, self.dtype) == (other.shape.dims, other.dtype)

    def __hash__(self):
        return hash((self.shape.dims, self.dtype))

    def __repr__(self):
        dims = self.shape.as_list() if self.shape.rank is not None else None
        return f"SparseTensorSpec(TensorShape({dims}), tf.{self.dtype.name})"


class _Slots:
    """The place of a SparseTensor in a structure whose leaves are not tensors yet (the
    tracer's output placeholders): packs back into a SparseTensor once they are."""

    def __init__(self, like, components):
        self._like, self._components = like, components

    def _nest_components(self):
        return self._components

    def _nest_rebuild(self, components):
        return self._like._nest_rebuild(components)


def _check(sp, what):
    if not isinstance(sp, SparseTensor):
        raise TypeError(with_location(f"tf.sparse.{what}: expected a SparseTensor, got {type(sp).__name__}"))


def _check_order(sp, op):
    """TensorFlow's kernels reject indices out of row-major order, repeated or out of
    bounds (checked eagerly; trusted while tracing)."""
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
    keys = idx @ np.cumprod((1,) + sp._shape[::-1])[:-1][::-1].astype(np.int64)
    step = np.nonzero(np.diff(keys) <= 0)[0]
    if step.size:
        i = int(step[0]) + 1
        what = "is repeated" if keys[i] == keys[i - 1] else "is out of order"
        raise InvalidArgumentError(with_location(
            f"{op}: indices[{i}] = {idx[i].tolist()} {what}. Many sparse ops require sorted indices; "
            "use tf.sparse.reorder to create a correctly ordered copy"))


def from_dense(tensor, name=None):
    """The nonzero entries of a dense tensor (with a known shape)."""
    x = convert_to_tensor(tensor)
    indices = array_ops.where(math_ops.not_equal(x, array_ops.zeros_like(x)))
    shape = x.shape if x.shape.is_fully_defined() else array_ops.shape(x, out_type=dtypes.int64)
    return SparseTensor(indices, gather_ops.gather_nd(x, indices), shape)


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor; entries not in `indices` are default_value (0)."""
    _check(sp_input, "to_dense")
    sp = sp_input
    if sp._traced:
        default = np.zeros((), sp.dtype.np) if default_value is None else default_value
        default = convert_to_tensor(b"" if sp.dtype is dtypes.string and default_value is None else default,
                                    sp.dtype)
        return bind(TRACED_TO_DENSE, (sp.indices, sp.values, sp.dense_shape, default), {"rank": len(sp._shape)})
    if validate_indices:
        _check_order(sp, "tf.sparse.to_dense")
    if sp.dtype is dtypes.string:
        return _strings_to_dense(sp, b"" if default_value is None else default_value)
    dense = gather_ops.scatter_nd(sp.indices, sp.values, sp._shape)
    if default_value is None:
        return dense
    default = convert_to_tensor(default_value, sp.dtype)
    present = gather_ops.scatter_nd(sp.indices, array_ops.ones_like(sp.values), sp._shape)
    return array_ops.where(math_ops.not_equal(present, array_ops.zeros_like(present)), dense,
                           array_ops.broadcast_to(default, sp._shape))


def _traced_to_dense_impl(xp, indices, values, dense_shape, default, rank):
    out = np.empty(tuple(int(d) for d in np.asarray(dense_shape).tolist()), dtype=values.dtype)
    out[...] = default if values.dtype != object else np.asarray(default, dtype=object)[()]
    idx = np.asarray(indices)
    if len(idx):
        out[tuple(idx.T)] = values
    return out


def _traced_to_dense_rule(indices, values, dense_shape, default, rank):
    return Aval((None,) * rank, values.dtype)


# to_dense of a SparseTensor whose dense_shape is known only when the graph runs (no gradient:
# parse_example's sparse outputs have none)
TRACED_TO_DENSE = defprim("sparse_to_dense_traced", _traced_to_dense_impl, _traced_to_dense_rule)


def _strings_to_dense(sp, default_value):
    """Strings have no scatter (nothing to add): the dense array is filled directly.  The
    values carry no gradient, so nothing is lost by leaving the op table."""
    if not isinstance(sp.indices, Tensor) or not isinstance(sp.values, Tensor):
        raise ValueError(with_location("sparse.to_dense: a string SparseTensor is densified eagerly only "
                                       "(outside tf.function)"))
    default = default_value.numpy() if isinstance(default_value, TensorBase) else default_value
    out = np.empty(sp._shape, dtype=object)
    out[...] = default.encode("utf-8") if isinstance(default, str) else np.asarray(default, dtype=object)[()]
    idx = sp.indices.numpy()
    if len(idx):
        out[tuple(idx.T)] = sp.values.numpy()
    return convert_to_tensor(out, dtypes.string)


def _dense(x):
    return to_dense(x) if isinstance(x, SparseTensor) else convert_to_tensor(x)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """matmul where either operand may be a SparseTensor; the result is dense."""
    return linalg_ops.matmul(_dense(sp_a), _dense(b), transpose_a=adjoint_a, transpose_b=adjoint_b)


def _present_groups(sp, axis, keepdims):
    """Which groups of the reduction hold at least one entry."""
    ordered = reorder(sp)
    stored = ordered.with_values(array_ops.ones_like(ordered.values, dtypes.bool_))
    return reduce_ops.reduce_any(to_dense(stored, default_value=False), axis=axis, keepdims=keepdims)


def _reduced(sp, out, axis, keepdims, output_is_sparse):
    """TF's sparse reductions: a group without entries is 0 in a dense result and absent from a
    sparse one (a group whose entries reduce to 0 is still an entry there)."""
    present = _present_groups(sp, axis, keepdims)
    if not output_is_sparse:
        return array_ops.where(present, out, array_ops.zeros_like(out))
    where = array_ops.where(present)
    return SparseTensor(where, gather_ops.gather_nd(out, where), out.shape)


def reduce_sum(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    _check(sp_input, "reduce_sum")  # TF's sparse reductions take entries in any order
    keepdims = bool(keepdims)
    out = reduce_ops.reduce_sum(to_dense(reorder(sp_input)), axis=axis, keepdims=keepdims)
    return _reduced(sp_input, out, axis, keepdims, output_is_sparse) if output_is_sparse else out


def reduce_max(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    """Max over the present entries (absent entries do not count, as TensorFlow)."""
    _check(sp_input, "reduce_max")
    keepdims = bool(keepdims)
    dense = to_dense(reorder(sp_input), default_value=sp_input.dtype.min)
    out = reduce_ops.reduce_max(dense, axis=axis, keepdims=keepdims)
    return _reduced(sp_input, out, axis, keepdims, output_is_sparse)


def reorder(sp_input, name=None):
    """The same entries with indices in row-major order."""
    _check(sp_input, "reorder")
    strides = np.cumprod((1,) + sp_input._shape[::-1])[:-1][::-1].astype(np.int64)
    keys = reduce_ops.reduce_sum(sp_input.indices * convert_to_tensor(strides), axis=1)
    from tapeflow.runtime.ops import sort_ops
    order = sort_ops.argsort(keys)
    return SparseTensor(gather_ops.gather(sp_input.indices, order), gather_ops.gather(sp_input.values, order),
                        sp_input._shape)


def expand_dims(sp_input, axis=None, name=None):
    """A size-1 dimension inserted at `axis` (default -1): a zero column in the indices."""
    _check(sp_input, "expand_dims")
    rank = len(sp_input._shape)
    axis = -1 if axis is None else int(axis)
    if not -rank - 1 <= axis <= rank:
        raise arg_error(ValueError, with_location(
            f"sparse.expand_dims: axis {axis} is out of range for a SparseTensor of rank {rank}"))
    axis %= rank + 1
    idx = sp_input.indices
    zeros = array_ops.zeros_like(idx[:, :1])
    indices = join_ops.concat([idx[:, :axis], zeros, idx[:, axis:]], axis=1)
    return SparseTensor(indices, sp_input.values, sp_input._shape[:axis] + (1,) + sp_input._shape[axis:])


def retain(sp_input, to_retain):
    _check(sp_input, "retain")
    keep = convert_to_tensor(to_retain)
    return SparseTensor(gather_ops.boolean_mask(sp_input.indices, keep),
                        gather_ops.boolean_mask(sp_input.values, keep), sp_input._shape)


# The index-level ops (merges, reshapes, slices, ...) live in sparse_ops; tf.sparse is this module.
from tapeflow.sparse_ops import (  # noqa: E402,F401
    add, bincount, concat, eye, fill_empty_rows, map_values, maximum, minimum, reset_shape, reshape,
    segment_mean, segment_sqrt_n, segment_sum, slice, softmax, split, to_indicator, transpose)
from tapeflow.feature_cross import (  # noqa: E402,F401
    mask, sampled_addmm, sparse_cross as cross, sparse_cross_hashed as cross_hashed)

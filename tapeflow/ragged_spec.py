"""tf.RaggedTensorSpec, and the rebuilding of a RaggedTensor from its components
(flat values, then row splits outermost first) that tf.function and tf.nest use."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import TensorBase
from tapeflow.ragged_tensor import RaggedTensor


def rebuild(ragged_rank, components, uniform=None):
    """A RaggedTensor (or RaggedTensorSpec, from TensorSpecs) from (flat values, splits...)."""
    from tapeflow.tracer.signature import TensorSpec
    if components and isinstance(components[0], TensorSpec):
        values, splits = components[0], components[1:]
        return RaggedTensorSpec(TensorShape((None,) * (ragged_rank + 1) + tuple(values.shape.dims[1:])),
                                values.dtype, ragged_rank, _component_specs=tuple(components))
    if not all(isinstance(c, (TensorBase, RaggedTensor)) for c in components):
        return _Slots(ragged_rank, tuple(components), uniform)
    out = components[0]
    uniform = uniform or (None,) * ragged_rank
    for splits, width in zip(reversed(components[1:]), reversed(uniform)):
        out = RaggedTensor(out, splits, width, _validate=False)
    return out


class _Slots:
    """The place of a RaggedTensor in a structure whose leaves are not tensors (the
    tracer's output placeholders): packs back into a RaggedTensor once they are."""

    def __init__(self, ragged_rank, components, uniform):
        self.ragged_rank, self._components, self._uniform = ragged_rank, components, uniform

    def _nest_components(self):
        return self._components

    def _nest_rebuild(self, components):
        return rebuild(self.ragged_rank, components, self._uniform)


class RaggedTensorSpec:
    """The type of a RaggedTensor argument: shape (rank = ragged_rank + 1 + inner rank),
    dtype and ragged rank; its components are the TensorSpecs of the flat values and
    of each row_splits vector."""

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=dtypes.int64,
                 flat_values_spec=None, _component_specs=None):
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        rank = self.shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("RaggedTensorSpec: give ragged_rank or a shape of known rank")
            ragged_rank = rank - 1
        if rank is not None and not 0 <= ragged_rank < max(rank, 1):
            raise ValueError(f"RaggedTensorSpec: ragged_rank {ragged_rank} does not fit a rank-{rank} shape")
        self.ragged_rank = ragged_rank
        self.row_splits_dtype = dtypes.int64
        self._component_specs = _component_specs

    def _nest_components(self):
        if self._component_specs is not None:
            return self._component_specs
        from tapeflow.tracer.signature import TensorSpec
        dims = self.shape.dims if self.shape.rank is not None else (None,) * (self.ragged_rank + 1)
        inner = tuple(dims[self.ragged_rank + 1:])
        rows = dims[0]
        splits = [TensorSpec([None if rows is None else rows + 1], dtypes.int64)]
        splits += [TensorSpec([None], dtypes.int64) for _ in range(self.ragged_rank - 1)]
        return (TensorSpec((None,) + inner, self.dtype),) + tuple(splits)

    def _nest_rebuild(self, components):
        return rebuild(self.ragged_rank, components)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype, value.ragged_rank)

    def is_compatible_with(self, other):
        if isinstance(other, (RaggedTensor, RaggedTensorSpec)):
            return (other.dtype is self.dtype and other.ragged_rank == self.ragged_rank
                    and self.shape.is_compatible_with(other.shape))
        return False

    def __eq__(self, other):
        return isinstance(other, RaggedTensorSpec) and (self.shape.dims, self.dtype, self.ragged_rank) == \
            (other.shape.dims, other.dtype, other.ragged_rank)

    def __hash__(self):
        return hash((self.shape.dims, self.dtype, self.ragged_rank))

    def __repr__(self):
        return f"RaggedTensorSpec(TensorShape({self.shape.as_list() if self.shape.rank is not None else None}), " \
               f"tf.{self.dtype.name}, {self.ragged_rank}, tf.int64)"

"""The types of tf.data's iterators and datasets as values: NumpyIterator (what
as_numpy_iterator returns), DatasetSpec and IteratorSpec (their type specs), and
type_spec_from_value for tensors, composite tensors, datasets and iterators."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.ragged_values import RaggedValue


class NumpyIterator:
    """The elements of a dataset as NumPy values (scalars as NumPy scalars, as TensorFlow)."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._flats = iter(dataset._produce())

    def __iter__(self):
        return self

    def __next__(self):
        flat = next(self._flats)
        return S.pack(self._dataset._tmpl, [_numpy_of(a) for a in flat])

    next = __next__  # TensorFlow's iterators have both

    def __repr__(self):
        return f"NumpyIterator(iterator={object.__repr__(self._flats)})"


def _numpy_of(a):
    """One component as as_numpy_iterator gives it: a RaggedTensor's numpy() (TF's rows),
    a scalar as a NumPy scalar, an array as a copy."""
    if type(a) is RaggedValue:
        return a.to_ragged_tensor().numpy()
    return a[()] if np.ndim(a) == 0 else np.array(a, copy=True)


class DatasetSpec:
    """The type of a Dataset: its element_spec and dataset_shape (TensorShape([]))."""

    def __init__(self, element_spec, dataset_shape=()):
        from tapeflow.runtime.shape import TensorShape
        self.element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    @staticmethod
    def from_value(value):
        return DatasetSpec(value.element_spec)

    @property
    def value_type(self):
        from tapeflow.data.dataset import Dataset
        return Dataset

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and (self.element_spec, self._dataset_shape) == \
            (other.element_spec, other._dataset_shape)

    def __hash__(self):
        return hash(("DatasetSpec", repr(self.element_spec)))

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, {self._dataset_shape!r})"


class IteratorSpec:
    """The type of a dataset iterator: its element_spec."""

    def __init__(self, element_spec):
        self.element_spec = element_spec

    @staticmethod
    def from_value(value):
        return IteratorSpec(value.element_spec)

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and self.element_spec == other.element_spec

    def __hash__(self):
        return hash(("IteratorSpec", repr(self.element_spec)))

    def __repr__(self):
        return f"IteratorSpec({self.element_spec!r},)"


def type_spec_from_value(value):
    """The TypeSpec of a tensor, RaggedTensor, SparseTensor, Dataset or dataset iterator."""
    from tapeflow.data.dataset import Dataset
    from tapeflow.data.iterator import DatasetIterator
    from tapeflow.ragged_spec import RaggedTensorSpec
    from tapeflow.ragged_tensor import RaggedTensor
    from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
    from tapeflow.sparse import SparseTensor, SparseTensorSpec
    from tapeflow.tracer.signature import TensorSpec
    if isinstance(value, Dataset):
        return DatasetSpec(value.element_spec)
    if isinstance(value, DatasetIterator):
        return IteratorSpec(value.element_spec)
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec.from_value(value)
    if isinstance(value, TensorBase) or isinstance(value, (np.ndarray, np.generic, int, float, bool, list, tuple)):
        return TensorSpec.from_tensor(convert_to_tensor(value))
    raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type {type(value)}.")

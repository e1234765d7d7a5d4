"""tf.data.experimental functions that are not Dataset methods: from_list, at, get_structure,
pad_to_cardinality, dense_to_sparse_batch, the device spellings (identity on the CPU) and
the AutotuneAlgorithm / SHARD_HINT constants."""
import enum

import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.batching import _grouped
from tapeflow.data.elements import UNKNOWN, INFINITE, positive
from tapeflow.data.sparse_values import SparseValue
from tapeflow.runtime.errors import DataLossError, OutOfRangeError, with_location
from tapeflow.runtime.shape import TensorShape

SHARD_HINT = -1  # a shard count filled in by the distribution's auto-sharding


class AutotuneAlgorithm(enum.Enum):
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


def from_list(elements, name=None):
    """A data set of the given elements (each of one structure), as from_tensor_slices of
    their stacked components."""
    import tapeflow
    from tapeflow.data.dataset import Dataset
    elements = list(elements)
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty. If you want an empty dataset, "
                         "use `tf.data.Dataset.range(0)`.")
    tmpl = S.template(elements[0])
    for e in elements[1:]:
        if S.template(e) != tmpl:  # lists are values, as everywhere in tf.data
            raise ValueError(with_location(
                f"from_list: The two structures don't have the same nested structure: {tmpl!r} and "
                f"{S.template(e)!r}"))
    flats = [S.flat_arrays(e)[1] for e in elements]
    columns = list(zip(*flats))
    if all(len({getattr(a, "shape", None) for a in c}) == 1 for c in columns):
        return Dataset.from_tensor_slices(S.pack(tmpl, [tapeflow.stack(list(c)) for c in columns]))
    return _from_varying_list(tmpl, flats, columns)


def _from_varying_list(tmpl, flats, columns):
    """from_list of elements whose components differ in shape: each element as it is, the
    spec's dims None where they differ (TensorShape(None) where the ranks do), as TF's."""
    from tapeflow.data.dataset import Dataset
    static = []
    for k, column in enumerate(columns):
        dtypes = {a.dtype for a in column}
        if len(dtypes) != 1:
            raise TypeError(with_location(
                f"from_list: component {k} of the elements has dtypes {sorted(d.name for d in dtypes)}; "
                "every element needs the same dtypes"))
        shapes = {a.shape for a in column}
        if len({len(s) for s in shapes}) != 1:
            static.append(TensorShape(None))
        else:
            static.append(TensorShape([dims[0] if len(set(dims)) == 1 else None for dims in zip(*shapes)]))

    def seek(k, epochs):
        return iter(flats[k:])

    out = Dataset(lambda: seek(0, None), tmpl, len(flats), None, seek=seek)
    out._static = lambda: static
    return out


def at(dataset, index):
    """The element at `index` (OutOfRangeError past the end)."""
    index = int(index)
    if index < 0:
        raise OutOfRangeError(with_location(f"at: the index must be >= 0, got {index}"))
    for k, element in enumerate(dataset.skip(index).take(1)):
        return element
    raise OutOfRangeError(with_location(f"at: index out of range [0, {index}):{index}"))


def get_structure(dataset_or_iterator):
    from tapeflow.data.dataset import Dataset
    from tapeflow.data.iterator import DatasetIterator
    if isinstance(dataset_or_iterator, (Dataset, DatasetIterator)):
        return dataset_or_iterator.element_spec
    raise TypeError(f"Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a `tf.data.Dataset` or "
                    f"tf.data.Iterator object, but got {type(dataset_or_iterator)}.")


def get_single_element(dataset):
    return dataset.get_single_element()


def pad_to_cardinality(cardinality, mask_key="valid"):
    """Dict elements gain `mask_key` (True); then all-zero elements (mask False) follow up to
    `cardinality` elements."""
    def apply(dataset):
        import tapeflow
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        have = int(dataset.cardinality())
        if have in (UNKNOWN, INFINITE):
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a known cardinalty, "
                             f"but has cardinality {have}")
        if have > cardinality:
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a cardinalty less than "
                             f"the target cardinality ({cardinality}), but has cardinality {have}")
        filler = {k: tapeflow.zeros(s.shape, s.dtype) for k, s in spec.items()}
        filler[mask_key] = tapeflow.constant(False)
        marked = dataset.map(lambda e: {**e, mask_key: tapeflow.constant(True)})
        return marked.concatenate(tapeflow.data.Dataset.from_tensors(filler).repeat(cardinality - have))
    return apply


def dense_to_sparse_batch(batch_size, row_shape):
    """Batches of `batch_size` dense elements as one SparseTensor each: every entry of element i
    at [i, *its index], dense_shape [rows, *row_shape] (an unknown dimension: the batch's largest)."""
    from tapeflow.runtime.shape import TensorShape
    row_shape = TensorShape(row_shape)
    batch_size = positive(batch_size, "dense_to_sparse_batch")

    def combine(buf):
        arrays = [np.asarray(flat[0]) for flat in buf]
        for a in arrays:
            if a.ndim != row_shape.rank or any(d is not None and n > d for n, d in zip(a.shape, row_shape)):
                raise DataLossError(with_location(
                    f"dense_to_sparse_batch: Input element had shape ({list(a.shape)}) that is larger than the "
                    f"row shape ({[-1 if d is None else d for d in row_shape]})."))
        rows = [np.concatenate([np.full((a.size, 1), r, np.int64),
                                np.argwhere(np.ones(a.shape, bool)).astype(np.int64)], axis=1)
                for r, a in enumerate(arrays)]
        dense = [d if d is not None else max(a.shape[k] for a in arrays) for k, d in enumerate(row_shape)]
        values = np.concatenate([a.reshape(-1) for a in arrays])
        return [SparseValue(np.concatenate(rows), values, [len(arrays)] + dense)]

    def apply(dataset):
        import tapeflow
        spec = dataset.element_spec
        if len(S.flatten(spec)) != 1:
            raise TypeError(with_location(f"dense_to_sparse_batch: the elements must be one tensor, got {spec}"))
        card = dataset._card if dataset._card < 0 else -(-dataset._card // batch_size)
        out = dataset._derive(_grouped(dataset._produce, batch_size, False, combine), card, None)
        out._row_specs = [tapeflow.SparseTensorSpec([None] + list(row_shape), spec.dtype)]
        return out
    return apply


def copy_to_device(target_device, source_device="/cpu:0"):
    """Identity: tapeflow's data sets produce host arrays, copied where an op needs them."""
    return lambda dataset: dataset


def prefetch_to_device(device, buffer_size=None):
    return lambda dataset: dataset.prefetch(1 if buffer_size is None else buffer_size)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """interleave (deterministic: tapeflow makes the sloppy order the plain one)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def ignore_errors(log_warning=False):
    return lambda dataset: dataset.ignore_errors(log_warning)


def unique():
    return lambda dataset: dataset.unique()


def enable_debug_mode():
    """Accepted and changes nothing: tapeflow's tf.data keeps no debug mode to switch on."""

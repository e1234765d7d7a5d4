"""How fit / evaluate / predict walk their inputs: batches of in-memory arrays
(shuffled per epoch as Keras draws it), datasets and PyDatasets as they come,
class weights folded into the sample weights, and validation_split's cut."""
import numpy as np

from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.ops.random_ops import get_global_seed, get_seed, permutation
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

from .utils import pack_x_y_sample_weight


def unpack(data):
    """(x,), (x, y) or (x, y, sample_weight) -> x, y, sample_weight."""
    if isinstance(data, tuple) and not hasattr(data, "_fields"):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data
    return data, None, None


def first_dim(structure):
    return int(np.asarray(nest.flatten(structure)[0]).shape[0])


def to_tensors(structure):
    return nest.map_structure(lambda a: a if isinstance(a, TensorBase) else convert_to_tensor(a), structure)


class ArrayBatches:
    """Batches of in-memory arrays (x, y, sample_weight), shuffled per epoch."""

    def __init__(self, x, y, sample_weight, batch_size, shuffle, seed=None):
        self.parts = (x, y, sample_weight)
        for leaf in nest.flatten([p for p in self.parts if p is not None]):
            # Keras 3's array adapter refuses NumPy object and string arrays (its dtype list has none)
            if isinstance(leaf, np.ndarray) and leaf.dtype.kind in "OSU":
                raise ValueError(with_location(f"Invalid dtype: {leaf.dtype.name} (a NumPy array of shape "
                                               f"{leaf.shape} given to fit / evaluate / predict)"))
        self.n = first_dim(x)
        for name, part in (("y", y), ("sample_weight", sample_weight)):
            if part is not None and first_dim(part) != self.n:
                raise ValueError(with_location(
                    f"fit: x has {self.n} examples but {name} has {first_dim(part)}"))
        self.batch_size = int(batch_size or 32)
        self.shuffle = shuffle
        # Without a global seed: from NumPy's global generator (keras.utils.set_random_seed).
        self.rng = np.random.default_rng(np.random.randint(2**31) if seed is None else seed)

    def steps(self):
        return -(-self.n // self.batch_size)

    def _order(self):
        """Keras' order: its TF pipeline's tf.random.shuffle is the first random op of a map
        function (op seed 0), a new kernel per epoch, so with a global seed every epoch has
        the same order; shuffle="batch" permutes each batch, one kernel per epoch."""
        if not self.shuffle or not self.n:
            return None
        pos = P.from_seeds(*get_seed(0)) if get_global_seed() is not None else None   # op seed 0
        bs = self.n if self.shuffle != "batch" else self.batch_size
        parts = []
        for start in range(0, self.n, bs):
            size = min(bs, self.n - start)
            parts.append(start + (self.rng.permutation(size) if pos is None else permutation(*pos, size)))
            pos = None if pos is None else (pos[0] + (size + 2) // 4, pos[1])   # as _shuffle_impl reserves
        return np.concatenate(parts)

    def __iter__(self):
        order = self._order()
        arrays = [None if p is None else nest.map_structure(np.asarray, p) for p in self.parts]
        for start in range(0, self.n, self.batch_size):
            idx = slice(start, start + self.batch_size) if order is None else order[start:start + self.batch_size]
            x, y, sw = (None if a is None else to_tensors(nest.map_structure(lambda v: v[idx], a))
                        for a in arrays)
            # As Keras: train_step gets x alone when there is no y (a tuple x is wrapped as (x,)).
            yield pack_x_y_sample_weight(x, y, sw)


class DatasetBatches:
    def __init__(self, dataset):
        self.dataset = dataset

    def steps(self):
        n = getattr(self.dataset, "cardinality", lambda: -1)()
        n = int(n)
        return n if n >= 0 else None

    def __iter__(self):
        for element in self.dataset:
            yield element  # train_step gets what the dataset yields, as in Keras


class ClassWeighted:
    """Batches whose sample weights are multiplied by class_weight[class of each target]:
    the class is the label itself, or the argmax of a one-hot / probability row."""

    def __init__(self, data, class_weight):
        self.data = data
        self.table = np.zeros(max(int(k) for k in class_weight) + 1, np.float32)
        for k, w in class_weight.items():
            self.table[int(k)] = w

    def steps(self):
        return self.data.steps()

    def __iter__(self):
        for batch in self.data:
            x, y, sw = unpack(batch)
            if y is None or len(nest.flatten(y)) != 1:
                raise ValueError(with_location("fit: class_weight needs exactly one target per example"))
            labels = np.asarray(nest.flatten(y)[0])
            if labels.ndim > 1 and labels.shape[-1] > 1:
                labels = labels.argmax(axis=-1)
            labels = labels.reshape(labels.shape[0], -1)[:, 0].astype(np.int64)
            if labels.min() < 0 or labels.max() >= len(self.table):
                raise ValueError(with_location(
                    f"fit: class_weight has no entry for class {int(labels.max())}"))
            weights = self.table[labels]
            if sw is not None:
                weights = weights * np.asarray(sw, np.float32).reshape(weights.shape[0], -1)[:, 0]
            yield x, y, convert_to_tensor(weights)


def batches(x, y=None, sample_weight=None, batch_size=None, shuffle=False, reset=True):
    """The batches fit (reset: a PyDataset ends an epoch after Keras's peek), evaluate (also)
    and predict (reset=False) walk."""
    from tapeflow.data import Dataset
    from tapeflow.distribute.input import DistributedDataset
    if isinstance(x, (Dataset, DistributedDataset)):
        if y is not None:
            raise ValueError(with_location("fit: when x is a Dataset, y must come from the dataset"))
        return DatasetBatches(x)
    from tapeflow.keras.utils_data import PyDataset, PyDatasetBatches
    if isinstance(x, PyDataset):
        if y is not None:
            raise ValueError(with_location("fit: when x is a PyDataset, y must come from its batches"))
        return PyDatasetBatches(x, shuffle, reset)
    return ArrayBatches(x, y, sample_weight, batch_size, shuffle)




def validation_kwargs(validation_data):
    from tapeflow.data import Dataset
    from tapeflow.keras.utils_data import PyDataset
    if isinstance(validation_data, (Dataset, PyDataset)):
        return {"x": validation_data}
    if not isinstance(validation_data, (tuple, list)) or len(validation_data) not in (2, 3):
        raise ValueError(with_location(
            "fit: validation_data must be a Dataset or a tuple (x, y) or (x, y, sample_weight)"))
    sw = validation_data[2] if len(validation_data) == 3 else None
    return {"x": validation_data[0], "y": validation_data[1], "sample_weight": sw}


def validation_split_of(x, y, sample_weight, fraction):
    """Keras's validation_split: the last `fraction` of the examples, before shuffling."""
    leaves = nest.flatten(x)
    if not leaves or not all(isinstance(a, (np.ndarray, TensorBase, list)) for a in leaves):
        # a Dataset, a PyDataset (whose __getitem__ NumPy would call without end), a generator
        raise ValueError(with_location(
            f"Argument `validation_split` is only supported for tensors or NumPy arrays. Found: "
            f"x={type(x).__name__}"))
    n = first_dim(x)
    cut = int(n * (1.0 - fraction))
    if cut <= 0 or cut >= n:
        raise ValueError(with_location(f"fit: validation_split={fraction} leaves no training or validation data"))

    def head(s):
        return None if s is None else nest.map_structure(lambda a: np.asarray(a)[:cut], s)

    def tail(s):
        return None if s is None else nest.map_structure(lambda a: np.asarray(a)[cut:], s)

    val = (tail(x), tail(y)) + ((tail(sample_weight),) if sample_weight is not None else ())
    return head(x), head(y), head(sample_weight), val

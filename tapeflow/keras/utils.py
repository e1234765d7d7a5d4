"""keras.utils: seeding and label helpers."""
import random

import numpy as np

from tapeflow.keras import initializers
from tapeflow.keras.preprocessing.sequence import pad_sequences  # noqa: F401 - keras.utils.pad_sequences


def set_random_seed(seed):
    """Seed Python's, NumPy's and tapeflow's generators (initializers and tf.random)."""
    random.seed(seed)
    np.random.seed(seed)
    initializers.set_seed(seed)
    import tapeflow
    tf_random = getattr(tapeflow, "random", None)
    if tf_random is not None and hasattr(tf_random, "set_seed"):
        tf_random.set_seed(seed)


def to_categorical(y, num_classes=None, dtype="float32"):
    """Integer class vector -> one-hot matrix (NumPy)."""
    y = np.asarray(y, dtype=np.int64).reshape(-1)
    if num_classes is None:
        num_classes = int(y.max()) + 1 if y.size else 0
    out = np.zeros((y.size, num_classes), dtype=dtype)
    out[np.arange(y.size), y] = 1
    return out


def normalize(x, axis=-1, order=2):
    """x divided by its L`order` norm along `axis` (NumPy; zero vectors stay zero)."""
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


def plot_model(*args, **kwargs):
    raise NotImplementedError("keras.utils.plot_model needs graphviz; use model.summary() instead")


def unpack_x_y_sample_weight(data):
    """(x,), (x, y) or (x, y, sample_weight) -> (x, y, sample_weight), missing parts None."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple) or hasattr(data, "_fields"):
        return data, None, None
    if not 1 <= len(data) <= 3:
        raise ValueError(f"unpack_x_y_sample_weight: expected a tuple of 1 to 3 parts, got {len(data)}")
    return tuple(data) + (None,) * (3 - len(data))


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The inverse of unpack_x_y_sample_weight: x alone, (x, y) or (x, y, sample_weight)."""
    if y is None:
        return x if not isinstance(x, (tuple, list)) else (x,)
    return (x, y) if sample_weight is None else (x, y, sample_weight)
from tapeflow.keras.saving import get_custom_objects, register_keras_serializable  # noqa: E402,F401 - also keras.utils names


def get_source_inputs(tensor):
    """The keras.Input tensors that `tensor` of a functional graph is computed from."""
    node = getattr(tensor, "node", None)
    if node is None or not getattr(node, "args", None) and not getattr(node, "kwargs", None):
        return [tensor]
    from tapeflow.keras.functional import KerasTensor
    found = []
    stack = list(node.args) + list(node.kwargs.values())
    while stack:
        item = stack.pop(0)
        if isinstance(item, (list, tuple)):
            stack[:0] = list(item)
        elif isinstance(item, dict):
            stack[:0] = list(item.values())
        elif isinstance(item, KerasTensor):
            found += [t for t in get_source_inputs(item) if not any(t is f for f in found)]
    return found


def standardize_dtype(dtype):
    """A dtype's Keras name ("float32", "int64", ...; Python float is "float32", int "int32")."""
    from tapeflow.runtime import dtypes
    if dtype is None:
        from tapeflow.keras.backend import floatx
        return floatx()
    if dtype is float:
        return "float32"
    if dtype is int:
        return "int64"
    if dtype is bool:
        return "bool"
    if isinstance(dtype, str) and dtype == "int":
        return "int32"
    if isinstance(dtype, str) and dtype == "float":
        return "float32"
    return dtypes.as_dtype(getattr(dtype, "name", dtype) if not isinstance(dtype, np.dtype) else dtype).name


def get_registered_name(obj):
    """"package>Name" for a register_keras_serializable class or function, else its __name__."""
    return getattr(obj, "_registered_name", None) or obj.__name__


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered (or in a custom object scope / `custom_objects`) as `name`, else None."""
    from tapeflow.keras import saving
    for table in (saving._SCOPE[-1], saving._REGISTERED, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


# ---- keras.utils names defined elsewhere, one per line ----
from tapeflow.keras.backend import clear_session  # noqa: E402,F401
from tapeflow.keras.backend import is_keras_tensor  # noqa: E402,F401
from tapeflow.keras.saving import CustomObjectScope  # noqa: E402,F401
from tapeflow.keras.saving import custom_object_scope  # noqa: E402,F401
from tapeflow.keras.saving import serialize_keras_object  # noqa: E402,F401
from tapeflow.keras.saving import deserialize_keras_object  # noqa: E402,F401
from tapeflow.keras.progbar import Progbar  # noqa: E402,F401
from tapeflow.keras.utils_data import PyDataset  # noqa: E402,F401
from tapeflow.keras.utils_data import Sequence  # noqa: E402,F401
from tapeflow.keras.utils_data import split_dataset  # noqa: E402,F401
from tapeflow.keras.utils_data import timeseries_dataset_from_array  # noqa: E402,F401
from tapeflow.keras.utils_directory import text_dataset_from_directory  # noqa: E402,F401
# ---- end of keras.utils names defined elsewhere ----

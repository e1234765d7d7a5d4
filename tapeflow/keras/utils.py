"""keras.utils: seeding and label helpers."""
import random

import numpy as np

from tapeflow.keras.preprocessing.sequence import pad_sequences  # noqa: F401 - keras.utils.pad_sequences


def set_random_seed(seed):
    """Seed Python's, NumPy's and tapeflow's generators, as Keras 3: Python's
    generator gives initializers and SeedGenerators their default seeds, and the
    global keras.random generator is made anew from it on its next draw."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} "
                         f"(of type {type(seed)})")
    from tapeflow.keras import random as keras_random
    keras_random.reset_global_seed_generator()
    random.seed(seed)
    np.random.seed(seed)
    import tapeflow
    tf_random = getattr(tapeflow, "random", None)
    if tf_random is not None and hasattr(tf_random, "set_seed"):
        tf_random.set_seed(seed)


def to_categorical(x, num_classes=None):
    """Class ids -> one-hot, as Keras 3: a tensor gives a float32 tf.one_hot; anything
    else a float64 NumPy array of shape x.shape + (num_classes,), a trailing axis
    of size 1 dropped first."""
    import tapeflow as tf
    if isinstance(x, tf.Tensor):
        if x.shape.rank is not None and x.shape.rank > 1 and x.shape[-1] == 1:
            x = tf.reshape(x, tf.shape(x)[:-1])
        return tf.one_hot(x, num_classes)
    x = np.array(x, dtype="int64")
    shape = x.shape
    if shape and len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(x)) + 1
    out = np.zeros((x.shape[0], num_classes))
    out[np.arange(x.shape[0]), x] = 1
    return out.reshape(shape + (num_classes,))


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
from tapeflow.keras.feature_space import FeatureSpace  # noqa: E402,F401
from tapeflow.keras.utils_data import PyDataset  # noqa: E402,F401
from tapeflow.keras.utils_data import Sequence  # noqa: E402,F401
from tapeflow.keras.utils_data import split_dataset  # noqa: E402,F401
from tapeflow.keras.utils_data import timeseries_dataset_from_array  # noqa: E402,F401
from tapeflow.keras.utils_directory import image_dataset_from_directory, text_dataset_from_directory  # noqa: E402,F401,E501
# ---- end of keras.utils names defined elsewhere ----

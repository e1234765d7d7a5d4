"""keras.backend: the global float type, epsilon, image data format, clear_session, get/set_value."""
from tapeflow.runtime import dtypes

_config = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def floatx():
    return _config["floatx"]


def set_floatx(value):
    """The default dtype of new layers' weights (float16, float32 or float64)."""
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"set_floatx: expected 'float16', 'float32' or 'float64', got {value!r}")
    _config["floatx"] = value


def epsilon():
    return _config["epsilon"]


def set_epsilon(value):
    _config["epsilon"] = float(value)


def image_data_format():
    return _config["image_data_format"]


def set_image_data_format(data_format):
    if data_format != "channels_last":
        raise ValueError("set_image_data_format: only 'channels_last' (NHWC) is supported")
    _config["image_data_format"] = data_format


def clear_session(free_memory=True):
    """Reset the layer name counters (names start again at "dense", "dense_1", ...)."""
    from tapeflow.keras.layers import base
    with base._name_lock:
        base._name_counts.clear()


def is_keras_tensor(x):
    from tapeflow.keras.functional import KerasTensor
    return isinstance(x, KerasTensor)


def int_shape(x):
    return tuple(x.shape.dims)


def dtype(x):
    return dtypes.as_dtype(x.dtype).name


def backend():
    return "tensorflow"


def get_value(x):
    """A tensor's or variable's value as NumPy; Python numbers and arrays pass through."""
    return x.numpy() if hasattr(x, "numpy") else x


def set_value(x, value):
    """Assign `value` to the variable `x` (e.g. an optimizer's learning_rate)."""
    if not hasattr(x, "assign"):
        raise TypeError(f"set_value: {type(x).__name__} is not a variable; cannot assign {value!r}")
    x.assign(value)

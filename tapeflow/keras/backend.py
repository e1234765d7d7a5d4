"""keras.backend: the global float type, epsilon, image data format, clear_session, get/set_value."""
from tapeflow.runtime import dtypes



class DTypeName(str):
    """A dtype as Keras 3 gives a variable's or a KerasTensor's: its name, a str (prints,
    compares and hashes as the name; every dtype argument takes it).  It also answers DType's
    attributes (.name, .is_floating, ...), which tapeflow's own code reads off any variable."""
    __slots__ = ()

    def __getattr__(self, attr):
        return getattr(dtypes.as_dtype(str(self)), attr)


def dtype_name(dtype):
    """The Keras 3 form (DTypeName) of a DType, a name or a NumPy dtype."""
    return DTypeName(dtypes.as_dtype(dtype).name)


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
    from tapeflow.keras import mixed_precision
    from tapeflow.keras.layers import naming
    naming.reset_names()
    mixed_precision.reset()  # Keras 3 keeps the global dtype policy in the state it clears


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


# ---- legacy tf.keras.backend tensor functions (backend_legacy), one per line ----
from tapeflow.keras import backend_legacy as _legacy  # noqa: E402

abs = _legacy.abs
all = _legacy.all
any = _legacy.any
sum = _legacy.sum
prod = _legacy.prod
max = _legacy.max
min = _legacy.min
mean = _legacy.mean
std = _legacy.std
var = _legacy.var
argmax = _legacy.argmax
argmin = _legacy.argmin
arange = _legacy.arange
cast = _legacy.cast
cast_to_floatx = _legacy.cast_to_floatx
clip = _legacy.clip
concatenate = _legacy.concatenate
constant = _legacy.constant
variable = _legacy.variable
ones = _legacy.ones
zeros = _legacy.zeros
eye = _legacy.eye
ones_like = _legacy.ones_like
zeros_like = _legacy.zeros_like
count_params = _legacy.count_params
ndim = _legacy.ndim
shape = _legacy.shape
eval = _legacy.eval
batch_get_value = _legacy.batch_get_value
batch_set_value = _legacy.batch_set_value
update = _legacy.update
update_add = _legacy.update_add
update_sub = _legacy.update_sub
dot = _legacy.dot
batch_dot = _legacy.batch_dot
batch_flatten = _legacy.batch_flatten
flatten = _legacy.flatten
expand_dims = _legacy.expand_dims
squeeze = _legacy.squeeze
reshape = _legacy.reshape
permute_dimensions = _legacy.permute_dimensions
transpose = _legacy.transpose
stack = _legacy.stack
tile = _legacy.tile
repeat = _legacy.repeat
repeat_elements = _legacy.repeat_elements
reverse = _legacy.reverse
gather = _legacy.gather
one_hot = _legacy.one_hot
l2_normalize = _legacy.l2_normalize
switch = _legacy.switch
stop_gradient = _legacy.stop_gradient
softmax = _legacy.softmax
relu = _legacy.relu
binary_crossentropy = _legacy.binary_crossentropy
categorical_crossentropy = _legacy.categorical_crossentropy
sparse_categorical_crossentropy = _legacy.sparse_categorical_crossentropy
cumsum = _legacy.cumsum
cumprod = _legacy.cumprod
exp = _legacy.exp
log = _legacy.log
sqrt = _legacy.sqrt
square = _legacy.square
sign = _legacy.sign
round = _legacy.round
sin = _legacy.sin
cos = _legacy.cos
tanh = _legacy.tanh
sigmoid = _legacy.sigmoid
softplus = _legacy.softplus
softsign = _legacy.softsign
elu = _legacy.elu
equal = _legacy.equal
not_equal = _legacy.not_equal
greater = _legacy.greater
greater_equal = _legacy.greater_equal
less = _legacy.less
less_equal = _legacy.less_equal
maximum = _legacy.maximum
minimum = _legacy.minimum
pow = _legacy.pow
# ---- end of legacy backend functions ----

"""keras.ops (Keras 3): NumPy-like names and argument names as thin wrappers
over tapeflow's ops. No new primitives live here; nn ops, losses, convolution
and control flow are in ops_nn.py and re-exported below.

Traps: Keras's `axis=None` means "all axes" as TensorFlow's; `shape()` returns a
tuple of Python ints (a traced scalar for a dim unknown while tracing, None for a
KerasTensor's); `repeat` and
`split` take NumPy's arguments (split by section count or by cut indices).
"""
import functools
import itertools

import numpy as np

import tapeflow as tf
from tapeflow.keras import functional as _functional
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import TensorBase


def _t(x, dtype=None):
    return tf.convert_to_tensor(x, dtype=dtype)


def _axes(axis):
    return list(axis) if isinstance(axis, (tuple, list)) else axis


# --- conversion, creation --------------------------------------------------------------
def shape(x):
    """A tuple of ints; as Keras 3's TensorFlow backend, a dimension unknown while a function is
    traced is the traced scalar tf.shape(x)[i] (a KerasTensor's stays None)."""
    s = x.shape if hasattr(x, "shape") else np.shape(x)
    dims = tuple(None if d is None else int(d) for d in (s.as_list() if hasattr(s, "as_list") else s))
    if None in dims and isinstance(x, TensorBase):
        dynamic = tf.shape(x)
        return tuple(dynamic[i] if d is None else d for i, d in enumerate(dims))
    return dims


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Keras 3's TF backend: tensors (variables, KerasTensors) of another dtype are cast, values
    for a bool or integer dtype converted and then cast, others converted straight to `dtype`."""
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    if dtype is None or not isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, complex, str, bytes)):
        x = tf.convert_to_tensor(x)
        return x if dtype is None or x.dtype is dtype else tf.cast(x, dtype)
    return tf.cast(tf.convert_to_tensor(x), dtype) if dtype.is_bool or dtype.is_integer else \
        tf.convert_to_tensor(x, dtype=dtype)


def convert_to_numpy(x):
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def cast(x, dtype):
    return tf.cast(x, dtype)


def dtype(x):
    return _t(x).dtype.name


def zeros(shape, dtype="float32"):
    return tf.zeros(shape, dtype=dtype)


def ones(shape, dtype="float32"):
    return tf.ones(shape, dtype=dtype)


def zeros_like(x, dtype=None):
    return tf.zeros_like(x, dtype=dtype)


def ones_like(x, dtype=None):
    return tf.ones_like(x, dtype=dtype)


def full(shape, fill_value, dtype=None):
    return tf.fill(shape, tf.cast(fill_value, dtype or "float32"))  # Keras: floatx when no dtype


def full_like(x, fill_value, dtype=None):
    x = _t(x)
    return tf.fill(tf.shape(x), _t(fill_value, dtype or x.dtype))


def eye(N, M=None, k=0, dtype="float32"):
    if k != 0:
        rows = np.arange(N)[:, None]
        cols = np.arange(N if M is None else M)[None, :]
        return tf.constant((cols - rows == k).astype(dtypes.as_dtype(dtype).np))
    return tf.eye(N, M, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    out = tf.range(start, stop, step)
    return out if dtype is None else tf.cast(out, dtype)


# --- elementwise ------------------------------------------------------------------------
def _result_dtype(x1, x2, floating=False):
    """Keras 3's type promotion of two operands: integers (and bools) promote as NumPy's,
    an integer with a float gives the float, float16 with bfloat16 gives float32, and a
    Python int or float is weak (it takes the other operand's dtype, a Python float
    turning integers into float32). `floating`: integers give float32 (true division)."""
    return _promote(_kind(x1), _kind(x2), floating)


def _kind(x):
    """A Python scalar's type (weak in promotion), or the dtype name of a tensor or array."""
    if isinstance(x, (bool, int, float)) and not hasattr(x, "dtype"):
        return type(x)
    d = x.dtype if hasattr(x, "dtype") else np.asarray(x).dtype
    return dtypes.as_dtype(d).name


def _promote(a, b, floating=False):
    """_result_dtype's rule on two kinds (a Python type or a dtype name); None: not numeric."""
    def numeric(k):  # (this module's `any`/`max` are keras.ops', not the builtins)
        return isinstance(k, type) or k == "bool" or dtypes.as_dtype(k).is_floating or dtypes.as_dtype(k).is_integer
    if not (numeric(a) and numeric(b)):
        return None  # strings, complex: the op's own dtype rule
    if isinstance(a, type) and isinstance(b, type):
        a = "float32" if float in (a, b) else "int32" if int in (a, b) else "bool"
        b = a
    if isinstance(b, type):
        a, b = b, a
    if isinstance(a, type):  # weak Python scalar against the tensor's dtype
        out = b if dtypes.as_dtype(b).is_floating or a is bool else ("int32" if b == "bool" else b)
        out = "float32" if a is float and not dtypes.as_dtype(b).is_floating else out
    elif dtypes.as_dtype(a).is_floating or dtypes.as_dtype(b).is_floating:
        fa, fb = (dtypes.as_dtype(d).is_floating for d in (a, b))
        out = a if not fb else b if not fa else ("float32" if {a, b} == {"float16", "bfloat16"}
                                                   else a if dtypes.as_dtype(a).size >= dtypes.as_dtype(b).size else b)
    else:
        out = np.promote_types(a, b).name
    return "float32" if floating and not dtypes.as_dtype(out).is_floating else out


def _elementwise(keras_name, tf_name, arity):
    """keras.ops.<keras_name>: tf.<tf_name> under Keras's argument names (x; x1, x2), the
    operands promoted as Keras promotes them. Unary ops marked `float` compute integers in
    float32. tf.<tf_name> is looked up per call: it is the public op, with its ragged dispatch."""
    module, _, attr = tf_name.rpartition(".")
    if arity == "float":
        def op(x):
            x = _t(x)
            return getattr(getattr(tf, module) if module else tf, attr)(
                x if x.dtype.is_floating else tf.cast(x, "float32"))
    elif arity == 1:
        def op(x):
            return getattr(getattr(tf, module) if module else tf, attr)(x)
    else:
        def op(x1, x2):
            dt = _result_dtype(x1, x2, floating=keras_name == "divide")
            if dt is not None:
                x1, x2 = tf.cast(x1, dt), tf.cast(x2, dt)
            return getattr(getattr(tf, module) if module else tf, attr)(x1, x2)
    op.__name__ = op.__qualname__ = keras_name
    op.__doc__ = f"keras.ops.{keras_name}: tf.{tf_name}."
    return op


# Keras name -> the TensorFlow op it is (same meaning, Keras's argument names).
_UNARY = """negative abs sign square"""
_FLOAT_UNARY = """sqrt exp log=math.log log1p=math.log1p expm1=math.expm1 sin cos tanh floor ceil=math.ceil"""
_BINARY = """add subtract multiply divide=math.truediv power=pow maximum minimum equal not_equal greater
    greater_equal less less_equal"""
for _arity, _names in ((1, _UNARY), ("float", _FLOAT_UNARY), (2, _BINARY)):
    for _item in _names.split():
        _keras, _, _tf = _item.partition("=")
        globals()[_keras] = _elementwise(_keras, _tf or _keras, _arity)
true_divide, absolute = divide, abs  # noqa: F821 - defined by the table above


def round(x, decimals=0):  # noqa: A001 - Keras's name
    if decimals == 0:
        return tf.round(x)
    scale = 10.0 ** decimals
    return tf.round(x * scale) / scale


def clip(x, x_min, x_max):
    return tf.clip_by_value(x, x_min, x_max)


def where(condition, x1=None, x2=None):
    return tf.where(condition, x1, x2)


# --- reductions -------------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    return tf.reduce_sum(x, axis=_axes(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    x = _t(x)
    if x.dtype.is_integer or x.dtype.is_bool:  # Keras: the mean of integers is float32
        x = tf.cast(x, "float32")
    return tf.reduce_mean(x, axis=_axes(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False, initial=None):  # noqa: A001 - Keras's name
    out = tf.reduce_max(x, axis=_axes(axis), keepdims=keepdims)
    return out if initial is None else tf.maximum(out, initial)


def min(x, axis=None, keepdims=False, initial=None):  # noqa: A001 - Keras's name
    out = tf.reduce_min(x, axis=_axes(axis), keepdims=keepdims)
    return out if initial is None else tf.minimum(out, initial)


amax, amin = max, min


def prod(x, axis=None, keepdims=False, dtype=None):
    x = _t(x) if dtype is None else tf.cast(x, dtype)
    return tf.reduce_prod(x, axis=_axes(axis), keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    x = _t(x)
    if x.dtype.is_integer or x.dtype.is_bool:
        x = tf.cast(x, "float32")
    return tf.math.reduce_variance(x, axis=_axes(axis), keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return sqrt(var(x, axis=axis, keepdims=keepdims))


def argmax(x, axis=None, keepdims=False):
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    out = tf.cast(tf.argmax(x, axis=axis), "int32")  # Keras 3 returns int32
    return tf.expand_dims(out, axis) if keepdims else out


def argmin(x, axis=None, keepdims=False):
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    out = tf.cast(tf.argmin(x, axis=axis), "int32")
    return tf.expand_dims(out, axis) if keepdims else out


def all(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    return tf.reduce_all(tf.cast(x, "bool"), axis=_axes(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001 - Keras's name
    return tf.reduce_any(tf.cast(x, "bool"), axis=_axes(axis), keepdims=keepdims)


def cumsum(x, axis=None, dtype=None):
    x = _t(x) if dtype is None else tf.cast(x, dtype)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.math.cumsum(x, axis=axis)


def cumprod(x, axis=None, dtype=None):
    x = _t(x) if dtype is None else tf.cast(x, dtype)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.math.cumprod(x, axis=axis)


def logsumexp(x, axis=None, keepdims=False):
    return tf.math.reduce_logsumexp(x, axis=_axes(axis), keepdims=keepdims)


# --- linear algebra, shapes, indexing -----------------------------------------------------
def matmul(x1, x2):
    x1, x2 = _t(x1), _t(x2)
    if x1.shape.rank == 1 and x2.shape.rank == 1:
        return tf.reduce_sum(x1 * x2)
    if x1.shape.rank == 1:
        return tf.squeeze(tf.matmul(x1[None, :], x2), -2)
    if x2.shape.rank == 1:
        return tf.squeeze(tf.matmul(x1, x2[:, None]), -1)
    return tf.matmul(x1, x2)


def dot(x1, x2):
    x1, x2 = _t(x1), _t(x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        return x1 * x2
    if x2.shape.rank <= 2:
        return matmul(x1, x2)
    return tf.tensordot(x1, x2, [[x1.shape.rank - 1], [x2.shape.rank - 2]])  # NumPy's dot for N-d


def tensordot(x1, x2, axes=2):
    return tf.tensordot(x1, x2, axes)


def einsum(subscripts, *operands):
    return tf.einsum(subscripts, *operands)


def transpose(x, axes=None):
    return tf.transpose(x, perm=None if axes is None else list(axes))


def reshape(x, newshape):
    return tf.reshape(x, newshape)


def expand_dims(x, axis):
    return tf.expand_dims(x, axis)


def squeeze(x, axis=None):
    return tf.squeeze(x, axis=axis)


def _promoted(xs):
    """Tensors of `xs` in the dtype Keras 3 gives their mix (float32 with int64 is float32,
    int32 with int64 is int64), as its concatenate and stack do."""
    xs = [_t(x) for x in xs]
    out = _kind(xs[0]) if xs else None
    for x in xs[1:]:
        out = None if out is None else _promote(out, _kind(x))
    return xs if out is None else [x if x.dtype == out else tf.cast(x, out) for x in xs]


def concatenate(xs, axis=0):
    return tf.concat(_promoted(xs), axis=axis)


def stack(x, axis=0):
    return tf.stack(_promoted(x), axis=axis)


def split(x, indices_or_sections, axis=0):
    x = _t(x)
    if isinstance(indices_or_sections, int):
        return tf.split(x, indices_or_sections, axis=axis)
    size = x.shape[axis]
    cuts = [0] + [int(i) for i in indices_or_sections] + [int(size)]
    return tf.split(x, [b - a for a, b in zip(cuts[:-1], cuts[1:])], axis=axis)


def tile(x, repeats):
    x = _t(x)
    repeats = [int(r) for r in (repeats if isinstance(repeats, (tuple, list)) else [repeats])]
    rank = x.shape.rank
    if len(repeats) > rank:  # NumPy: prepend axes to x
        x = tf.reshape(x, tf.concat([tf.ones([len(repeats) - rank], "int32"), tf.shape(x)], 0))
    repeats = [1] * (x.shape.rank - len(repeats)) + repeats
    return tf.tile(x, repeats)


def pad(x, pad_width, mode="constant", constant_values=None):
    """pad_width: one (before, after) pair per axis (Keras 3 takes no NumPy shorthand)."""
    x = _t(x)
    if mode not in ("constant", "reflect", "symmetric"):
        raise ValueError(with_location(f"keras.ops.pad: mode must be 'constant', 'reflect' or 'symmetric', "
                                       f"got {mode!r}"))
    if constant_values is not None and mode != "constant":
        raise ValueError(with_location(f"keras.ops.pad: constant_values needs mode='constant', got mode={mode!r}"))
    return tf.pad(x, pad_width, mode.upper(), constant_values=0 if constant_values is None else constant_values)


def repeat(x, repeats, axis=None):
    return tf.repeat(x, repeats, axis=axis)


def take(x, indices, axis=None):
    x = _t(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.gather(x, indices, axis=axis)


def take_along_axis(x, indices, axis=None):
    x, indices = _t(x), _t(indices)
    if axis is None:
        return tf.gather(tf.reshape(x, [-1]), tf.reshape(indices, [-1]))
    rank = x.shape.rank
    axis = axis % rank
    if indices.shape.rank != rank:
        raise ValueError(with_location(f"keras.ops.take_along_axis: x has rank {rank} but indices has rank "
                                       f"{indices.shape.rank}"))
    # move `axis` last, gather with every other axis as a batch axis, move it back
    perm = [d for d in range(rank) if d != axis] + [axis]
    inverse = list(np.argsort(perm))
    x_t, i_t = tf.transpose(x, perm), tf.transpose(indices, perm)
    i_t = tf.where(i_t < 0, i_t + tf.cast(tf.shape(x_t)[-1], i_t.dtype), i_t)
    return tf.transpose(tf.gather(x_t, i_t, batch_dims=rank - 1), inverse)


def flip(x, axis=None):
    x = _t(x)
    axes = list(range(x.shape.rank)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    return tf.reverse(x, axes)


def roll(x, shift, axis=None):
    x = _t(x)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def sort(x, axis=-1):
    return tf.sort(x, axis=axis)


def argsort(x, axis=-1):
    return tf.argsort(x, axis=axis, stable=True)


def top_k(x, k, sorted=True):  # noqa: A002 - Keras's name
    return tf.math.top_k(x, k=k, sorted=sorted)


def one_hot(x, num_classes, axis=-1, dtype="float32"):
    return tf.one_hot(x, num_classes, axis=axis, dtype=dtype)


def stop_gradient(variable):
    return tf.stop_gradient(variable)


from tapeflow.keras.ops_nn import *  # noqa: E402,F401,F403  (nn, losses, conv, control flow)
from tapeflow.keras.ops_nn import NN_NAMES  # noqa: E402
from tapeflow.keras.ops_linalg import *  # noqa: E402,F401,F403  (linear algebra, segments, erfc)
from tapeflow.keras.ops_linalg import LINALG_NAMES  # noqa: E402
from tapeflow.keras.ops_stats import *  # noqa: E402,F401,F403  (nan reductions, quantiles, fmod, isin)
from tapeflow.keras.ops_arrays import *  # noqa: E402,F401,F403  (append, splits, bit ops, windows)
from tapeflow.keras.ops_numpy import *  # noqa: E402,F401,F403  (the rest of the NumPy-like surface)
from tapeflow.keras.ops_signal import *  # noqa: E402,F401,F403  (fft family, stft, kaiser, complex parts)
from tapeflow.keras.ops_selection import *  # noqa: E402,F401,F403  (unique, argpartition, histogram)
from tapeflow.keras.ops_rearrange import rearrange  # noqa: E402,F401  (einops-style patterns)
from tapeflow.keras import ops_image as image  # noqa: E402,F401  (keras.ops.image)


# Keras 3's ops take KerasTensors too: an op given one records a node (an OperatorLayer
# named "keras.ops.<name>") whose output KerasTensor has the op's shape and dtype.
_NOT_SYMBOLIC = {"shape", "dtype", "is_tensor", "convert_to_numpy", "with_location"}


def _has_keras_tensor(args, kwargs):
    for a in itertools.chain(args, kwargs.values()):
        if isinstance(a, _functional.KerasTensor) or (isinstance(a, (list, tuple, dict))
                                                      and _functional.contains_keras_tensor(a)):
            return True
    return False


def _symbolic(name, fn):
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if _has_keras_tensor(args, kwargs):
            from tapeflow.keras.layers.lambda_layer import OperatorLayer
            return OperatorLayer(f"keras.ops.{name}")(*args, **kwargs)
        return fn(*args, **kwargs)
    op.eager_function = fn
    return op


for _name, _fn in list(globals().items()):
    if (callable(_fn) and not _name.startswith("_") and not isinstance(_fn, type)
            and _name not in _NOT_SYMBOLIC):
        globals()[_name] = _symbolic(_name, _fn)


def _namespace(name, names):
    import types
    module = types.ModuleType(f"tapeflow.keras.ops.{name}")
    for n in names:
        setattr(module, n, globals()[n])
    return module


nn = _namespace("nn", NN_NAMES)  # keras.ops.nn: the nn functions, also under keras.ops itself
linalg = _namespace("linalg", LINALG_NAMES)  # keras.ops.linalg, likewise

"""keras.ops for complex values and raw reinterpretation, as Keras 3's TensorFlow backend gives
them: real / imag / conj, angle (integers and bools as float32, complex as complex64), isreal, view_as_real /
view_as_complex (always complex64, as Keras), polar (also keras.ops.nn.polar) and view
(NumPy's reinterpreting `view(dtype)`: the last axis scales with the itemsizes)."""
import tapeflow as tf
from tapeflow.runtime import dtypes

__all__ = ["real", "imag", "conj", "conjugate", "angle", "isreal", "view_as_real", "view_as_complex", "polar",
           "view"]


def _t(x):
    return tf.convert_to_tensor(x)


def real(x):
    return tf.math.real(_t(x))


def imag(x):
    return tf.math.imag(_t(x))


def conj(x):
    return tf.math.conj(_t(x))


conjugate = conj


def angle(x):
    """Keras casts to result_type(x.dtype, float) first: integers and bools to float32, and
    complex128 to complex64 (its promotion lattice), so complex angles are float32."""
    x = _t(x)
    if x.dtype.is_complex:
        x = tf.cast(x, "complex64")
    elif not x.dtype.is_floating:
        x = tf.cast(x, "float32")
    return tf.math.angle(x)


def isreal(x):
    x = _t(x)
    if x.dtype.is_complex:
        return tf.equal(tf.math.imag(x), tf.zeros([], tf.math.imag(x).dtype))
    return tf.ones_like(x, dtype="bool")


def view_as_real(x):
    x = _t(x)
    return tf.stack([tf.math.real(x), tf.math.imag(x)], axis=-1)


def view_as_complex(x):
    x = _t(x)
    if x.shape.rank is None or x.shape.rank < 1 or x.shape[-1] != 2:
        raise ValueError(f"Last dimension of input must be size 2 (real and imaginary). Received shape: {x.shape}")
    # Keras casts each part to complex64 (a float64 input loses precision there too)
    return tf.complex(tf.cast(x[..., 0], "float32"), tf.cast(x[..., 1], "float32"))


def polar(abs_, angle):  # noqa: A002 - Keras's names
    abs_, angle = _t(abs_), _t(angle)
    return tf.complex(abs_ * tf.cos(angle), abs_ * tf.sin(angle))


def view(x, dtype=None):
    x = _t(x)
    new = dtypes.as_dtype(dtype or x.dtype)
    old_size, new_size = x.dtype.size, new.size
    shape = [int(d) for d in x.shape]
    last = shape[-1] if shape else -1
    if (last == -1 and old_size != new_size) or (last * old_size) % new_size:
        raise ValueError(f"Cannot view array of shape {x.shape} and dtype {x.dtype.name} as dtype {new.name} "
                         f"because the total number of bytes is not divisible by the new itemsize.")
    if old_size == new_size:
        return tf.bitcast(x, new)
    if old_size > new_size:
        shape[-1] *= old_size // new_size
        return tf.reshape(tf.bitcast(tf.reshape(x, [-1]), new), shape)
    ratio = new_size // old_size
    shape[-1] //= ratio
    return tf.reshape(tf.bitcast(tf.reshape(x, [-1, ratio]), new), shape)

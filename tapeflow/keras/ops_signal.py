"""keras.ops spectral functions over tf.signal: fft / fft2 / ifft2 / rfft / irfft, stft / istft,
kaiser, extract_sequences, and the complex helpers (real, imag, conj, angle, isreal,
view_as_real / view_as_complex, polar).

Trap: Keras 3 has no complex tensors in its API; a complex value travels as a pair
(real, imaginary) of float tensors of one shape, in and out (irfft returns a plain real
tensor). stft / istft frame `sequence_length` samples padded (centered) to `fft_length`
with a periodic hann or hamming window, as Keras's TF back end does.
"""
import tapeflow as tf
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location

__all__ = ["fft", "fft2", "ifft2", "rfft", "irfft", "stft", "istft", "kaiser", "real", "imag", "conj",
           "conjugate", "angle", "isreal", "view_as_real", "view_as_complex", "polar", "extract_sequences", "view"]


def _complex_from_pair(x):
    """The complex tensor of a (real, imaginary) pair; Keras's ValueErrors for anything else."""
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(with_location(f"keras.ops: input `x` should be a tuple of two tensors - real and "
                                       f"imaginary; received {type(x).__name__}"))
    real_part, imag_part = tf.convert_to_tensor(x[0]), tf.convert_to_tensor(x[1])
    if real_part.shape != imag_part.shape:
        raise ValueError(with_location(f"keras.ops: the real and imaginary parts should have one shape; "
                                       f"received {real_part.shape} and {imag_part.shape}"))
    if not (real_part.dtype.is_floating and imag_part.dtype.is_floating):
        raise ValueError(with_location(f"keras.ops: the real and imaginary parts must be floats; received "
                                       f"{real_part.dtype.name} and {imag_part.dtype.name}"))
    return tf.complex(real_part, imag_part)


def _pair(z):
    return tf.math.real(z), tf.math.imag(z)


def fft(x):
    return _pair(tf.signal.fft(_complex_from_pair(x)))


def fft2(x):
    return _pair(tf.signal.fft2d(_complex_from_pair(x)))


def ifft2(x):
    """Keras computes it as the conjugate of fft2 of the conjugate, divided by h * w."""
    real_part, imag_part = tf.convert_to_tensor(x[0]), tf.convert_to_tensor(x[1])
    count = tf.cast(tf.shape(real_part)[-2] * tf.shape(real_part)[-1], real_part.dtype)
    fft_real, fft_imag = fft2((real_part, -imag_part))
    return fft_real / count, -fft_imag / count


def rfft(x, fft_length=None):
    return _pair(tf.signal.rfft(x, fft_length=None if fft_length is None else [fft_length]))


def irfft(x, fft_length=None):
    return tf.signal.irfft(_complex_from_pair(x), None if fft_length is None else [fft_length])


def _padded_window(window, sequence_length, fft_length, dtype):
    """The window of `sequence_length` samples centered in `fft_length` zeros, or None."""
    if window is None:
        return None
    if isinstance(window, str):
        make = tf.signal.hann_window if window == "hann" else tf.signal.hamming_window
        win = make(sequence_length, periodic=True, dtype=dtype)
    else:
        win = tf.convert_to_tensor(window, dtype=dtype)
    if win.shape.rank != 1 or win.shape[0] != sequence_length:
        raise ValueError(with_location(f"keras.ops.stft: the shape of `window` must be [sequence_length] = "
                                       f"[{sequence_length}]; received {win.shape}"))
    left = (fft_length - sequence_length) // 2
    return tf.pad(win, [[left, fft_length - sequence_length - left]])


def _check_window_name(window):
    if isinstance(window, str) and window not in ("hann", "hamming"):
        raise ValueError(with_location(f'keras.ops.stft: a string `window` must be "hann" or "hamming"; '
                                       f"received window={window!r}"))


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = tf.convert_to_tensor(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(with_location(f"keras.ops.stft: expected a float32 or float64 input; received "
                                      f"{x.dtype.name}"))
    if fft_length < sequence_length:
        raise ValueError(with_location(f"keras.ops.stft: fft_length ({fft_length}) must be at least "
                                       f"sequence_length ({sequence_length})"))
    _check_window_name(window)
    if center:
        paddings = [[0, 0]] * (x.shape.rank - 1) + [[fft_length // 2, fft_length // 2]]
        x = tf.pad(x, paddings, mode="REFLECT")
    win = _padded_window(window, sequence_length, fft_length, x.dtype)
    window_fn = None if win is None else (lambda frame_length, dtype: win)
    return _pair(tf.signal.stft(x, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                                window_fn=window_fn))


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    spectrum = _complex_from_pair(x)
    _check_window_name(window)
    win = _padded_window(window, sequence_length, fft_length, tf.math.real(spectrum).dtype)
    window_fn = None if win is None else tf.signal.inverse_stft_window_fn(sequence_stride,
                                                                         lambda frame_length, dtype: win)
    signal = tf.signal.inverse_stft(spectrum, frame_length=fft_length, frame_step=sequence_stride,
                                    fft_length=fft_length, window_fn=window_fn)
    start = fft_length // 2 if center else 0
    if length is not None:
        return signal[..., start:start + length]
    if center:
        return signal[..., start:-(fft_length // 2)]
    return signal[..., :fft_length + sequence_stride * (spectrum.shape[-2] - 1)]


def kaiser(x, beta):
    return tf.signal.kaiser_window(tf.cast(x, "int32"), beta=beta)


# --- complex parts: real inputs pass through real / conj, angle is 0 or pi ---------------
def real(x):
    return tf.math.real(x)


def imag(x):
    return tf.math.imag(x)


def conj(x):
    return tf.math.conj(x)


conjugate = conj


def angle(x):
    """Keras casts to result_type(x.dtype, float) first: integers and bools to float32, and
    complex128 to complex64 (its promotion lattice), so complex angles are float32."""
    x = tf.convert_to_tensor(x)
    if x.dtype.is_complex:
        x = tf.cast(x, "complex64")
    elif not x.dtype.is_floating:
        x = tf.cast(x, "float32")
    return tf.math.angle(x)


def isreal(x):
    x = tf.convert_to_tensor(x)
    if x.dtype.is_complex:
        return tf.equal(tf.math.imag(x), 0)
    return tf.ones_like(x, dtype="bool")


def view_as_real(x):
    x = tf.convert_to_tensor(x)
    return tf.stack([tf.math.real(x), tf.math.imag(x)], axis=-1)


def view_as_complex(x):
    """Keras builds complex64 whatever the float width (real + 1j * imag in complex64)."""
    x = tf.convert_to_tensor(x)
    if x.shape.rank < 1 or x.shape[-1] != 2:
        raise ValueError(with_location(f"keras.ops.view_as_complex: the last dimension of the input must be 2 "
                                       f"(real and imaginary); received shape {x.shape}"))
    return tf.complex(tf.cast(x[..., 0], "float32"), tf.cast(x[..., 1], "float32"))


def polar(abs_, angle):  # noqa: A002 - Keras's names
    abs_, angle = tf.convert_to_tensor(abs_), tf.convert_to_tensor(angle)
    return _complex_from_pair((abs_ * tf.cos(angle), abs_ * tf.sin(angle)))


def extract_sequences(x, sequence_length, sequence_stride):
    return tf.signal.frame(x, frame_length=sequence_length, frame_step=sequence_stride, axis=-1, pad_end=False)


def view(x, dtype=None):
    """NumPy's reinterpreting view(dtype): the last axis scales with the itemsizes."""
    x = tf.convert_to_tensor(x)
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

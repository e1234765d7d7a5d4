"""keras.ops' Fourier transforms and framing, as Keras 3's TensorFlow backend: complex values
travel as (real, imag) tuples of float tensors; fft / fft2 / ifft2 / rfft / irfft over the last
axis (axes), stft / istft (periodic hann or hamming windows centred in fft_length, reflect
padding with center=True) and extract_sequences (tf.signal.frame without end padding)."""
import tapeflow as tf
from tapeflow.runtime.errors import with_location

__all__ = ["fft", "fft2", "ifft2", "rfft", "irfft", "stft", "istft", "extract_sequences"]


def _complex(x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(with_location(f"Input `x` should be a tuple of two tensors - real and imaginary."
                                       f"Received: x={x}"))
    real, imag = tf.convert_to_tensor(x[0]), tf.convert_to_tensor(x[1])
    if real.shape != imag.shape:
        raise ValueError(with_location(
            "Input `x` should be a tuple of two tensors - real and imaginary. Both the real and imaginary parts "
            f"should have the same shape. Received: x[0].shape = {real.shape}, x[1].shape = {imag.shape}"))
    if not real.dtype.is_floating or not imag.dtype.is_floating:
        raise ValueError(with_location(f"At least one tensor in input `x` is not of type float.Received: x={x}."))
    return tf.complex(real, imag)


def _parts(z):
    return tf.math.real(z), tf.math.imag(z)


def fft(x):
    return _parts(tf.signal.fft(_complex(x)))


def fft2(x):
    return _parts(tf.signal.fft2d(_complex(x)))


def ifft2(x):
    real, imag = x
    real = tf.convert_to_tensor(real)
    size = tf.cast(tf.shape(real)[-2] * tf.shape(real)[-1], real.dtype)
    fr, fi = fft2((real, -tf.convert_to_tensor(imag)))  # Keras: the conjugate's fft, conjugated
    return fr / size, -fi / size


def rfft(x, fft_length=None):
    return _parts(tf.signal.rfft(x, fft_length=None if fft_length is None else [fft_length]))


def irfft(x, fft_length=None):
    return tf.signal.irfft(_complex(x), None if fft_length is None else [fft_length])


def _window(window, sequence_length, fft_length, dtype):
    """The window zero-padded to fft_length (centred), or None."""
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(with_location(f'If a string is passed to `window`, it must be one of `"hann"`, '
                                           f'`"hamming"`. Received: window={window}'))
        make = tf.signal.hann_window if window == "hann" else tf.signal.hamming_window
        values = make(sequence_length, periodic=True, dtype=dtype)
    else:
        values = tf.cast(tf.convert_to_tensor(window), dtype)
    if values.shape.rank != 1 or values.shape[-1] != sequence_length:
        raise ValueError(with_location(f"The shape of `window` must be equal to [sequence_length].Received: "
                                       f"window shape={values.shape}"))
    left = (fft_length - sequence_length) // 2
    return tf.pad(values, [[left, fft_length - sequence_length - left]])


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = tf.convert_to_tensor(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(with_location(f"Invalid input type. Expected `float32` or `float64`. Received: input "
                                      f"type={x.dtype.name}"))
    if fft_length < sequence_length:
        raise ValueError(with_location(f"`fft_length` must equal or larger than `sequence_length`. Received: "
                                       f"sequence_length={sequence_length}, fft_length={fft_length}"))
    padded = _window(window, sequence_length, fft_length, x.dtype)
    if center:
        x = tf.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[fft_length // 2, fft_length // 2]], mode="REFLECT")
    window_fn = None if padded is None else (lambda frame_length, dtype: padded)
    return _parts(tf.signal.stft(x, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                                 window_fn=window_fn))


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    z = _complex(x)
    dtype = tf.math.real(z).dtype
    padded = _window(window, sequence_length, fft_length, dtype)
    window_fn = None if padded is None else tf.signal.inverse_stft_window_fn(
        sequence_stride, lambda frame_length, dtype: padded)
    y = tf.signal.inverse_stft(z, frame_length=fft_length, frame_step=sequence_stride, fft_length=fft_length,
                               window_fn=window_fn)
    start = fft_length // 2 if center else 0
    if length is not None:
        return y[..., start:start + length]
    if center:
        return y[..., start:-(fft_length // 2)]
    return y[..., :fft_length + sequence_stride * (tf.shape(z)[-2] - 1)]


def extract_sequences(x, sequence_length, sequence_stride):
    return tf.signal.frame(x, frame_length=sequence_length, frame_step=sequence_stride, axis=-1, pad_end=False)

"""tf.signal beyond the FFTs: framing, windows, short-time Fourier transforms and
their inverse, overlap-add, DCTs, FFT shifts, mel filter banks and MFCCs.

All are composites of tapeflow ops (gather, pad, segment sums, matmul, rfft), so
they trace inside tf.function and have gradients.  Windows and the mel matrix do
their arithmetic in the requested dtype, in TensorFlow's order of operations."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location


def _tf():
    import tapeflow
    return tapeflow


def _float_dtype(dtype, op):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{op}: dtype must be a floating point type. Found {dtype!r}")
    return dtype


def _static_int(value, what, op):
    v = value.numpy() if hasattr(value, "numpy") else value
    try:
        return int(np.asarray(v).reshape(()))
    except (TypeError, ValueError):
        raise ValueError(with_location(f"{op}: {what} must be an integer scalar, got {value!r}")) from None


# ---- framing and overlap-add
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """[..., N, ...] -> [..., num_frames, frame_length, ...]: windows of frame_length samples
    every frame_step samples along `axis` (num_frames = 1 + (N - frame_length) // frame_step,
    or ceil(N / frame_step) with pad_end, the tail padded with pad_value)."""
    tf = _tf()
    signal = tf.convert_to_tensor(signal)
    length, step = _static_int(frame_length, "frame_length", "frame"), _static_int(frame_step, "frame_step", "frame")
    rank = signal.shape.rank
    if rank is None or rank < 1:
        raise ValueError(with_location(f"frame: the signal must have rank >= 1, got shape {signal.shape}"))
    axis = axis + rank if axis < 0 else axis
    dims = signal.shape.as_list()
    n = tf.shape(signal, out_type=tf.int32)[axis]
    if pad_end:
        frames = -(-n // step)
        pad = tf.maximum(0, length + step * (frames - 1) - n)
        # the tail as a concat of a filled block: its size may be known only when the graph runs
        tail_shape = tf.tensor_scatter_nd_update(tf.shape(signal, out_type=tf.int32), [[axis]], [pad])
        signal = tf.concat([signal, tf.fill(tail_shape, tf.cast(pad_value, signal.dtype))], axis)
    else:
        frames = tf.maximum(0, 1 + (n - length) // step)
    starts = tf.range(frames) * step
    index = starts[:, None] + tf.range(length)[None, :]
    # TF gathers from a reshape of the signal, so the signal's gradient is dense: the same here
    # (a real reshape; one to the same shape is skipped and would pass the slices through).
    out = tf.gather(tf.reshape(signal[None], tf.shape(signal)), index, axis=axis)
    if dims[axis] is not None:  # a known length gives a known frame count (TF's static shape)
        known = -(-dims[axis] // step) if pad_end else max(0, 1 + (dims[axis] - length) // step)
        out = tf.ensure_shape(out, dims[:axis] + [known, length] + dims[axis + 1:])
    return out


def overlap_and_add(signal, frame_step, name=None):
    """[..., frames, frame_length] -> [..., (frames - 1) * frame_step + frame_length]: the
    frames summed where they overlap."""
    tf = _tf()
    signal = tf.convert_to_tensor(signal)
    step = _static_int(frame_step, "frame_step", "overlap_and_add")
    rank = signal.shape.rank
    if rank is None or rank < 2:
        raise ValueError(with_location(f"overlap_and_add: the signal must have rank >= 2, got {signal.shape}"))
    shape = tf.shape(signal)
    frames, length = shape[-2], shape[-1]
    out_len = (frames - 1) * step + length
    positions = tf.reshape(tf.range(frames)[:, None] * step + tf.range(length)[None, :], [-1])
    perm = [rank - 2, rank - 1] + list(range(rank - 2))
    flat = tf.reshape(tf.transpose(signal, perm), tf.concat([[-1], shape[:-2]], 0))
    summed = tf.math.unsorted_segment_sum(flat, positions, tf.maximum(out_len, 0))
    return tf.transpose(summed, list(range(1, rank - 1)) + [0])


# ---- windows
def _raised_cosine(window_length, periodic, dtype, a, b, op):
    tf = _tf()
    dtype = _float_dtype(dtype, op)
    n = _static_int(window_length, "window_length", op)
    if n == 1:
        return tf.ones([1], dtype)
    even = 1 - n % 2
    denom = tf.cast(n + int(bool(periodic)) * even - 1, dtype)
    count = tf.cast(tf.range(n), dtype)
    return a - b * tf.cos(tf.constant(2 * np.pi, dtype) * count / denom)


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5, "hann_window")


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46, "hamming_window")


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    tf = _tf()
    dtype = _float_dtype(dtype, "kaiser_window")
    n = _static_int(window_length, "window_length", "kaiser_window")
    if n == 1:
        return tf.ones([1], dtype)
    half = (n - 1) / 2
    arg = tf.range(-half, half + 0.1, 1.0, dtype=dtype)
    beta = tf.cast(beta, dtype)
    arg = beta * tf.sqrt(tf.maximum(1.0 - tf.square(arg / half), 0.0))
    i0e = tf.math.bessel_i0e
    return tf.exp(tf.math.log(i0e(arg)) - tf.math.log(i0e(beta)) + (arg - beta))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    tf = _tf()
    n = _static_int(window_length, "window_length", "kaiser_bessel_derived_window")
    cumulative = tf.cumsum(kaiser_window(n // 2 + 1, beta, dtype))
    half = tf.sqrt(cumulative[:-1] / cumulative[-1])
    return tf.concat([half, half[::-1]], 0)


def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    tf = _tf()
    dtype = _float_dtype(dtype, "vorbis_window")
    n = _static_int(window_length, "window_length", "vorbis_window")
    arg = tf.cast(tf.range(n), dtype)
    return tf.sin(np.pi / 2.0 * tf.square(tf.sin(np.pi / n * (arg + 0.5))))


# ---- short-time Fourier transforms
def _enclosing_power_of_two(n):
    return int(2 ** int(np.ceil(np.log2(n))))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window, pad_end=False, name=None):
    """[..., samples] real -> [..., frames, fft_length // 2 + 1] complex (fft_length defaults
    to the smallest power of 2 enclosing frame_length)."""
    tf = _tf()
    signals = tf.convert_to_tensor(signals)
    if signals.dtype not in (tf.float32, tf.float64):
        raise ValueError(with_location(f"stft: signals must be float32 or float64, got {signals.dtype.name}"))
    length = _static_int(frame_length, "frame_length", "stft")
    fft_length = _enclosing_power_of_two(length) if fft_length is None else _static_int(fft_length, "fft_length", "stft")
    framed = frame(signals, length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=framed.dtype)
    return tf.signal.rfft(framed, [fft_length])


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window, name=None):
    tf = _tf()
    stfts = tf.convert_to_tensor(stfts)
    length = _static_int(frame_length, "frame_length", "inverse_stft")
    fft_length = _enclosing_power_of_two(length) if fft_length is None else _static_int(fft_length, "fft_length",
                                                                                        "inverse_stft")
    real = tf.signal.irfft(stfts, [fft_length])[..., :length]
    if length > fft_length:  # irfft gave fewer samples than a frame: pad the frames
        rank = real.shape.rank
        real = tf.pad(real, [[0, 0]] * (rank - 1) + [[0, length - fft_length]])
    if window_fn is not None:
        real = real * window_fn(length, dtype=real.dtype)
    return overlap_and_add(real, frame_step)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """The window that makes inverse_stft invert stft with `forward_window_fn`: the forward
    window divided by the overlapping sum of its squares."""
    step = _static_int(frame_step, "frame_step", "inverse_stft_window_fn")

    def window(frame_length, dtype):
        tf = _tf()
        forward = forward_window_fn(frame_length, dtype=dtype)
        overlaps = -(-frame_length // step)
        denom = tf.pad(tf.square(forward), [[0, overlaps * step - frame_length]])
        denom = tf.reduce_sum(tf.reshape(denom, [overlaps, step]), 0, keepdims=True)
        denom = tf.reshape(tf.tile(denom, [overlaps, 1]), [overlaps * step])
        return forward / denom[:frame_length]
    return window


# ---- discrete cosine transforms (over the last axis, as TensorFlow)
def _dct_matrix(n_in, dct_type, norm, np_dtype):
    """M with dct(x) = x @ M for x of n_in samples (SciPy's conventions, as TensorFlow)."""
    n = np.arange(n_in, dtype=np.float64)[:, None]
    k = np.arange(n_in, dtype=np.float64)[None, :]
    if dct_type == 1:
        m = 2 * np.cos(np.pi * n * k / (n_in - 1))
        m[0, :] = 1.0
        m[-1, :] = (-1.0) ** np.arange(n_in)
    elif dct_type == 2:
        m = 2 * np.cos(np.pi * k * (2 * n + 1) / (2 * n_in))
        if norm == "ortho":
            m[:, 0] *= np.sqrt(1 / (4 * n_in))
            m[:, 1:] *= np.sqrt(1 / (2 * n_in))
    elif dct_type == 3:
        m = 2 * np.cos(np.pi * n * (2 * k + 1) / (2 * n_in))
        m[0, :] = 1.0
        if norm == "ortho":
            m[0, :] /= np.sqrt(n_in)
            m[1:, :] *= np.sqrt(1 / (2 * n_in))
    else:
        m = 2 * np.cos(np.pi * (2 * n + 1) * (2 * k + 1) / (4 * n_in))
        if norm == "ortho":
            m *= np.sqrt(1 / (2 * n_in))
    return m.astype(np_dtype)


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TensorFlow's names
    tf = _tf()
    x = tf.convert_to_tensor(input)
    if x.dtype not in (tf.float32, tf.float64):
        raise TypeError(with_location(f"dct: input must be float32 or float64, got {x.dtype.name}"))
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types I, II, III and IV (I)DCT are supported, got type {type}")
    if axis != -1:
        raise NotImplementedError("axis must be -1. Got: %s" % axis)
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if norm not in (None, "ortho"):
        raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    length = x.shape[-1]
    if n is not None:
        if length is None or n < length:
            x = x[..., :n]
        elif n > length:
            x = tf.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - length]])
        length = n
    if length is None:
        raise ValueError(with_location("dct: the length of the last axis must be known"))
    if type == 1 and length < 2:
        raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    matrix = tf.constant(_dct_matrix(length, type, norm, x.dtype.as_numpy_dtype))
    return tf.tensordot(x, matrix, [[x.shape.rank - 1], [0]])


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """TensorFlow's idct: the DCT of the inverse type (unscaled unless norm="ortho")."""
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types I, II, III and IV (I)DCT are supported, got type {type}")
    return dct(input, type={1: 1, 2: 3, 3: 2, 4: 4}[type], n=n, axis=axis, norm=norm)


# ---- FFT shifts
def _shift(x, axes, sign):
    tf = _tf()
    x = tf.convert_to_tensor(x)
    rank = x.shape.rank
    axes = list(range(rank)) if axes is None else [axes] if isinstance(axes, int) else list(axes)
    shape = tf.shape(x)
    shifts = [sign * (shape[a] // 2) for a in axes]
    return tf.roll(x, tf.stack(shifts), axes)


def fftshift(x, axes=None, name=None):
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None):
    return _shift(x, axes, -1)


# ---- mel filter banks and MFCCs
def _hertz_to_mel(tf, hz):
    return 1127.0 * tf.math.log(1.0 + hz / 700.0)


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """[num_spectrogram_bins, num_mel_bins] triangular filters, equally spaced in mel between
    the edges (HTK's mel scale); the DC bin gets no weight."""
    tf = _tf()
    dtype = _float_dtype(dtype, "linear_to_mel_weight_matrix")
    if num_mel_bins <= 0:
        raise ValueError("num_mel_bins must be positive. Got: %s" % num_mel_bins)
    if lower_edge_hertz < 0.0:
        raise ValueError("lower_edge_hertz must be non-negative. Got: %s" % lower_edge_hertz)
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" % (lower_edge_hertz, upper_edge_hertz))
    if sample_rate <= 0.0:
        raise ValueError("sample_rate must be positive. Got: %s" % sample_rate)
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                         "Got %s for sample_rate: %s" % (upper_edge_hertz, sample_rate))
    nyquist = tf.constant(sample_rate / 2.0, dtype)
    linear = tf.linspace(tf.constant(0.0, dtype), nyquist, num_spectrogram_bins)[1:]
    bins_mel = _hertz_to_mel(tf, linear)[:, None]
    edges = tf.linspace(_hertz_to_mel(tf, tf.constant(lower_edge_hertz, dtype)),
                        _hertz_to_mel(tf, tf.constant(upper_edge_hertz, dtype)), num_mel_bins + 2)
    lower, center, upper = edges[None, :-2], edges[None, 1:-1], edges[None, 2:]
    rising = (bins_mel - lower) / (center - lower)
    falling = (upper - bins_mel) / (upper - center)
    weights = tf.maximum(tf.constant(0.0, dtype), tf.minimum(rising, falling))
    return tf.pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """The orthonormal-scaled DCT-II of log-mel spectrograms (HTK's MFCCs)."""
    tf = _tf()
    x = tf.convert_to_tensor(log_mel_spectrograms)
    bins = x.shape[-1]
    if bins is None:
        raise ValueError(with_location("mfccs_from_log_mel_spectrograms: the number of mel bins must be known"))
    return dct(x, type=2) * tf.math.rsqrt(tf.cast(bins, x.dtype) * 2.0)

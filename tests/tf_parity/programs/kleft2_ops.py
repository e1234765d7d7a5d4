"""keras.ops names Keras 3.15 has on the TensorFlow back end: the fft family (real and imaginary
parts as a pair), stft / istft, kaiser, argpartition, corrcoef, correlate, histogram, unique, the
complex-part helpers and the conv variants (conv_transpose, depthwise_conv, separable_conv), with
gradients where Keras's TF back end has them."""
import numpy as np

from parity import tolerance

_R = np.random.RandomState(5)
_SIG = _R.uniform(-1, 1, (2, 16)).astype("float32")
_RE = _R.uniform(-1, 1, (3, 4)).astype("float32")
_IM = _R.uniform(-1, 1, (3, 4)).astype("float32")
_IMG = _R.uniform(-1, 1, (1, 5, 5, 2)).astype("float32")
_DK = _R.uniform(-1, 1, (3, 3, 2, 2)).astype("float32")
_PK = _R.uniform(-1, 1, (1, 1, 4, 3)).astype("float32")
_TK = _R.uniform(-1, 1, (3, 3, 3, 2)).astype("float32")


@tolerance(rtol=1e-5, atol=1e-5)
def program_fft_family(tf):
    o = tf.keras.ops
    x = (tf.constant(_RE), tf.constant(_IM))
    out = {"fft": o.fft(x), "fft2": o.fft2(x), "ifft2": o.ifft2(x), "rfft": o.rfft(tf.constant(_SIG)),
           "rfft_len": o.rfft(tf.constant(_SIG), fft_length=10), "irfft": o.irfft(x),
           "irfft_len": o.irfft(x, fft_length=8)}
    with tf.GradientTape() as tape:
        re = tf.Variable(_RE)
        real, imag = o.fft((re, tf.constant(_IM)))
        loss = tf.reduce_sum(real * real + 2.0 * imag)
    out["fft_grad"] = tape.gradient(loss, re)
    return out


def program_fft_needs_float_pair(tf):
    return {"y": tf.keras.ops.fft(tf.constant(_RE))}


def program_fft_integer_parts(tf):
    return {"y": tf.keras.ops.fft((tf.constant([1, 2]), tf.constant([0, 0])))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_stft_istft(tf):
    o = tf.keras.ops
    x = tf.constant(_SIG)
    out = {"stft": o.stft(x, 8, 4, 8), "stft_hamming": o.stft(x, 6, 3, 8, window="hamming", center=False),
           "stft_nowin": o.stft(x, 8, 4, 8, window=None)}
    spec = o.stft(x, 8, 2, 8)
    out["istft"] = o.istft(spec, 8, 2, 8)
    out["istft_len"] = o.istft(spec, 8, 2, 8, length=12)
    out["istft_nocenter"] = o.istft(o.stft(x, 8, 2, 8, center=False), 8, 2, 8, center=False)
    return out


def program_stft_integer_input(tf):
    return {"y": tf.keras.ops.stft(tf.range(16), 8, 4, 8)}


def program_stft_bad_window(tf):
    return {"y": tf.keras.ops.stft(tf.constant(_SIG), 8, 4, 8, window="blackman")}


def program_stft_short_fft(tf):
    return {"y": tf.keras.ops.stft(tf.constant(_SIG), 8, 4, 6)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_kaiser_windows(tf):
    o = tf.keras.ops
    return {"k5": o.kaiser(5, 2.0), "k1": o.kaiser(1, 3.0), "k8": o.kaiser(8, 0.5)}


def program_argpartition(tf):
    o = tf.keras.ops
    return {"1d": o.argpartition(tf.constant([3, 1, 4, 1, 5, 9, 2]), 3),
            "floats": o.argpartition(tf.constant([0.5, 2.5, 1.5, -1.0]), 1),
            "2d": o.argpartition(tf.constant([[5, 2, 8], [1, 9, 3]]), 1),
            "axis0": o.argpartition(tf.constant([[5, 2, 8], [1, 9, 3]]), 0, axis=0),
            "flat": o.argpartition(tf.constant([[5, 2], [1, 9]]), 2, axis=None)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_corrcoef_correlate(tf):
    o = tf.keras.ops
    return {"corr": o.corrcoef(tf.constant(_RE)), "corr_int": o.corrcoef(tf.constant([[1, 2, 4], [3, 1, 0]])),
            "valid": o.correlate(tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant([0.0, 1.0, 0.5])),
            "same": o.correlate(tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant([0.0, 1.0]), mode="same"),
            "full": o.correlate(tf.constant([1.0, 2.0, 3.0]), tf.constant([0.0, 1.0, 0.5]), mode="full"),
            "ints": o.correlate(tf.constant([1, 2, 3]), tf.constant([0, 1, 2])),
            "int64": o.correlate(tf.constant([1, 2, 3], "int64"), tf.constant([1, 1], "int64"))}


def program_correlate_bad_mode(tf):
    return {"y": tf.keras.ops.correlate(tf.constant([1.0, 2.0]), tf.constant([1.0]), mode="circular")}


def program_histogram(tf):
    o = tf.keras.ops
    return {"default": o.histogram(tf.constant([1.0, 2.0, 2.0, 3.0, 5.0]), bins=4),
            "range": o.histogram(tf.constant([0.1, 0.4, 0.5, 0.9, 1.5, -0.2]), bins=2, range=(0.0, 1.0)),
            "ten": o.histogram(tf.constant(_SIG[0]))}


def program_unique(tf):
    o = tf.keras.ops
    x = tf.constant([3, 1, 3, 2, 1, 5])
    return {"plain": o.unique(x), "all": o.unique(x, return_index=True, return_inverse=True, return_counts=True),
            "unsorted": o.unique(x, sorted=False, return_inverse=True),
            "size": o.unique(x, size=6, fill_value=-1), "trunc": o.unique(x, size=2, return_counts=True),
            "2d": o.unique(tf.constant([[2, 1], [3, 0]])),
            "rows": o.unique(tf.constant([[1, 2], [0, 5], [1, 2]]), axis=0, return_counts=True)}


def program_complex_parts(tf):
    o = tf.keras.ops
    z = tf.complex(tf.constant([1.0, -2.0]), tf.constant([0.5, 0.0]))
    return {"real": o.real(z), "imag": o.imag(z), "conj": o.conj(z), "conjugate": o.conjugate(z),
            "angle": o.angle(z), "isreal": o.isreal(z), "real_of_float": o.real(tf.constant([1.0, 2.0])),
            "isreal_float": o.isreal(tf.constant([1.0])), "angle_float": o.angle(tf.constant([-1.0, 2.0]))}


@tolerance(rtol=1e-5, atol=1e-5)
def program_conv_variants(tf):
    o = tf.keras.ops
    x = tf.constant(_IMG)
    out = {"depthwise": o.depthwise_conv(x, _DK), "depthwise_same_s2": o.depthwise_conv(x, _DK, 2, "same"),
           "depthwise_dil": o.depthwise_conv(x, _DK, dilation_rate=2),
           "depthwise_1d": o.depthwise_conv(x[:, 0], _DK[0], padding="same"),
           "separable": o.separable_conv(x, _DK, _PK), "separable_same": o.separable_conv(x, _DK, _PK, 1, "same"),
           "separable_1d": o.separable_conv(x[:, 0], _DK[0], _PK[0], strides=2),
           "transpose": o.conv_transpose(x, _TK), "transpose_s2_same": o.conv_transpose(x, _TK, 2, "same"),
           "transpose_outpad": o.conv_transpose(x, _TK, 2, "valid", output_padding=1),
           "transpose_1d": o.conv_transpose(x[:, 0], _TK[0], 2)}
    with tf.GradientTape() as tape:
        v = tf.Variable(_IMG)
        loss = tf.reduce_sum(o.separable_conv(v, _DK, _PK) ** 2) + tf.reduce_sum(o.conv_transpose(v, _TK, 2))
    out["grad"] = tape.gradient(loss, v)
    return out


def program_depthwise_conv_channel_mismatch(tf):
    return {"y": tf.keras.ops.depthwise_conv(tf.constant(_IMG), _DK[:, :, :1])}


def program_histogram_bad_arguments(tf):
    o, x = tf.keras.ops, tf.constant([1.0, 2.0])
    out = {}
    for name, call in [("float_bins", lambda: o.histogram(x, bins=2.0)), ("neg_bins", lambda: o.histogram(x, -1)),
                       ("list_range", lambda: o.histogram(x, 2, [0.0, 1.0])),
                       ("reversed", lambda: o.histogram(x, 2, (1.0, 0.0))),
                       ("matrix", lambda: o.histogram(tf.ones([2, 2])))]:
        try:
            call()
            out[name] = "no error"
        except (TypeError, ValueError) as e:
            out[name] = type(e).__name__
    return out

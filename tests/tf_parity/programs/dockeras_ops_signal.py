"""keras.ops' Fourier and framing functions that tapeflow lacked (found comparing keras.ops'
names with Keras 3.15's): fft / fft2 / ifft2 / rfft / irfft on (real, imag) tuples, stft / istft
(windows, centring, fft_length > sequence_length), extract_sequences."""
import numpy as np

from parity import tolerance

RNG = np.random.RandomState(12)
SIG = RNG.rand(2, 20).astype("float32")
IM = RNG.rand(2, 20).astype("float32")


@tolerance(rtol=1e-4, atol=1e-5)
def program_fft_family(tf):
    ops = tf.keras.ops
    grid_r, grid_i = RNG.rand(2, 4, 6).astype("float32"), RNG.rand(2, 4, 6).astype("float32")
    return {"fft": ops.fft((SIG, IM)), "fft2": ops.fft2((grid_r, grid_i)), "ifft2": ops.ifft2((grid_r, grid_i)),
            "rfft": ops.rfft(SIG), "rfft_len": ops.rfft(SIG, fft_length=12),
            "irfft": ops.irfft(ops.rfft(SIG)), "irfft_len": ops.irfft(ops.rfft(SIG), fft_length=10),
            "f64": ops.fft((SIG.astype("float64"), IM.astype("float64")))}


def program_fft_wants_floats(tf):
    return {"v": tf.keras.ops.fft((np.ones(4, "int32"), np.ones(4, "int32")))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_stft_istft(tf):
    ops = tf.keras.ops
    out = {"hann": ops.stft(SIG, 8, 4, 8), "hamming_uncentred": ops.stft(SIG, 6, 3, 8, window="hamming",
                                                                         center=False),
           "no_window": ops.stft(SIG.astype("float64"), 5, 5, 8, window=None),
           "array_window": ops.stft(SIG, 4, 2, 4, window=np.float32([0.5, 1.0, 1.0, 0.5]))}
    spec = ops.stft(SIG, 8, 4, 8)
    out["roundtrip"] = ops.istft(spec, 8, 4, 8)
    out["roundtrip_len"] = ops.istft(spec, 8, 4, 8, length=15)
    spec2 = ops.stft(SIG, 6, 2, 8, window="hamming", center=False)
    out["uncentred_back"] = ops.istft(spec2, 6, 2, 8, window="hamming", center=False)
    return out


def program_stft_wants_float(tf):
    return {"v": tf.keras.ops.stft(np.ones((2, 16), "int32"), 8, 4, 8)}


def program_extract_sequences(tf):
    ops = tf.keras.ops
    return {"frames": ops.extract_sequences(SIG, 6, 4), "ints": ops.extract_sequences(np.arange(10), 3, 3)}

"""tf.signal.fftnd / ifftnd / rfftnd / irfftnd and the raw tf.fftnd ... ops.  TensorFlow 2.21's
CPU build has no kernel for them (NotFoundError, recorded); tapeflow computes them with the
semantics of TF's GPU kernel, checked here against NumPy's fftn family (@differs).  The
argument errors TF raises before looking for a kernel are recorded from TF."""
import numpy as np
from parity import differs, tolerance

_X = (np.arange(24.0).reshape(2, 3, 4) % 7 - 3.0) + 1j * (np.arange(24.0).reshape(2, 3, 4) % 5 - 2.0)
_R = np.cos(np.arange(30.0).reshape(2, 3, 5))
_H = np.fft.rfftn(_R, axes=[1, 2])


def _out(t):
    return [t.dtype.name, np.asarray(t.numpy(), np.complex128)]


def _ref(a, dtype):
    return [dtype, np.asarray(a, np.complex128)]


_REASON = "TF 2.21's CPU build registers no FFTND kernels; values are NumPy's fftn (TF's GPU semantics)"


@tolerance(rtol=1e-4, atol=1e-3)
@differs(_REASON, {"all": _ref(np.fft.fftn(_X), "complex64"),
                   "axes": _ref(np.fft.fftn(_X, axes=[0, 2]), "complex64"),
                   "lengths": _ref(np.fft.fftn(_X, s=[5, 2], axes=[2, 1]), "complex64"),
                   "ortho": _ref(np.fft.fftn(_X, axes=[1, 2], norm="ortho"), "complex64"),
                   "inverse": _ref(np.fft.ifftn(_X, axes=[-1]), "complex64"),
                   "inverse_forward": _ref(np.fft.ifftn(_X, norm="forward"), "complex64"),
                   "raw": _ref(np.fft.fftn(_X, s=[3, 2], axes=[1, 0]), "complex64")})
def program_linalg2_fftnd(tf):
    x = tf.constant(_X, tf.complex64)
    return {"all": _out(tf.signal.fftnd(x)), "axes": _out(tf.signal.fftnd(x, axes=[0, 2])),
            "lengths": _out(tf.signal.fftnd(x, fft_length=[5, 2], axes=[2, 1])),
            "ortho": _out(tf.signal.fftnd(x, axes=[1, 2], norm="ortho")),
            "inverse": _out(tf.signal.ifftnd(x, axes=[-1])),
            "inverse_forward": _out(tf.signal.ifftnd(x, norm="forward")),
            "raw": _out(tf.fftnd(x, [3, 2], [1, 0]))}


@tolerance(rtol=1e-8, atol=1e-8)
@differs(_REASON, {"rfft": _ref(np.fft.rfftn(_R, axes=[1, 2]), "complex128"),
                   "rfft_len": _ref(np.fft.rfftn(_R, s=[4, 6], axes=[0, 2]), "complex128"),
                   "irfft": [_ref(np.fft.irfftn(_H, axes=[1, 2], s=[3, 5]), "float64")],
                   "irfft_default": _ref(np.fft.irfftn(_H, axes=[1, 2]), "float64"),
                   "round_trip_ortho": _ref(_R, "float64")})
def program_linalg2_rfftnd(tf):
    r = tf.constant(_R, tf.float64)
    h = tf.constant(_H, tf.complex128)
    spectrum = tf.signal.rfftnd(r, axes=[0, 1, 2], norm="ortho")
    return {"rfft": _out(tf.signal.rfftnd(r, axes=[1, 2])),
            "rfft_len": _out(tf.signal.rfftnd(r, fft_length=[4, 6], axes=[0, 2])),
            "irfft": [_out(tf.signal.irfftnd(h, fft_length=[3, 5], axes=[1, 2]))],
            "irfft_default": _out(tf.signal.irfftnd(h, axes=[1, 2])),
            "round_trip_ortho": _out(tf.signal.irfftnd(spectrum, fft_length=[2, 3, 5], norm="ortho"))}


def program_linalg2_fftnd_errors(tf):
    out = {}
    for key, fn in {"real_input": lambda: tf.signal.fftnd(tf.ones([2, 2])),
                    "complex_rfft": lambda: tf.signal.rfftnd(tf.ones([2, 2], tf.complex64)),
                    "int_rfft": lambda: tf.signal.rfftnd(tf.ones([2, 2], tf.int32)),
                    "same": [tf.signal.fftnd is tf.fftnd]}.items():
        try:
            out[key] = fn() if callable(fn) else fn
        except Exception as e:  # noqa: BLE001 - the exception type is the recorded outcome
            out[key] = type(e).__name__
    return out

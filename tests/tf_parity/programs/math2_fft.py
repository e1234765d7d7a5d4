"""tf.signal FFTs: fft / ifft / fft2d / ifft2d (complex to complex over the inner axes), rfft /
irfft / rfft2d / irfft2d (real <-> half spectrum, fft_length cropping and padding), their
dtypes, errors and gradients (TensorFlow's complex convention), in tf.function too."""
import numpy as np

from parity import differs, tolerance


def _signal(tf, n=8, dtype="float32"):
    t = tf.range(n, dtype=dtype)
    return tf.sin(t * 0.7) + 0.5 * tf.cos(t * 1.9) + t * 0.05


@tolerance(rtol=1e-4, atol=1e-4)
def program_fft_ifft(tf):
    x = tf.complex(_signal(tf), tf.cos(_signal(tf, 8)))
    b = tf.reshape(tf.complex(_signal(tf, 12), _signal(tf, 12) * 0.5), [3, 4])
    return {"fft": tf.signal.fft(x), "ifft": tf.signal.ifft(x), "round": tf.signal.ifft(tf.signal.fft(x)),
            "batched": tf.signal.fft(b), "fft2d": tf.signal.fft2d(b), "ifft2d": tf.signal.ifft2d(b),
            "c128": tf.signal.fft(tf.cast(x, tf.complex128))}


@tolerance(rtol=1e-4, atol=1e-4)
def program_rfft_irfft(tf):
    x = _signal(tf, 8)
    odd = _signal(tf, 7)
    spec = tf.signal.rfft(x)
    m = tf.reshape(_signal(tf, 24), [4, 6])
    return {"rfft": spec, "irfft": tf.signal.irfft(spec), "rfft_odd": tf.signal.rfft(odd),
            "irfft_odd": tf.signal.irfft(tf.signal.rfft(odd), fft_length=[7]),
            "rfft_pad": tf.signal.rfft(x, fft_length=[12]), "rfft_crop": tf.signal.rfft(x, fft_length=[5]),
            "irfft_len": tf.signal.irfft(spec, fft_length=[6]), "irfft_long": tf.signal.irfft(spec, fft_length=[16]),
            "rfft2d": tf.signal.rfft2d(m), "irfft2d": tf.signal.irfft2d(tf.signal.rfft2d(m)),
            "rfft2d_len": tf.signal.rfft2d(m, fft_length=[3, 8]),
            "irfft2d_len": tf.signal.irfft2d(tf.signal.rfft2d(m), fft_length=[5, 5]),
            "f64": tf.signal.rfft(tf.cast(x, tf.float64)), "irf64": tf.signal.irfft(tf.cast(spec, tf.complex128))}


def program_fft_of_real_raises(tf):
    return {"r": tf.signal.fft(tf.constant([1.0, 2.0]))}


def program_rfft_of_complex_raises(tf):
    return {"r": tf.signal.rfft(tf.constant([1 + 1j, 2 + 0j], tf.complex64))}


def program_fft_of_scalar_raises(tf):
    return {"r": tf.signal.fft(tf.constant(1 + 1j, tf.complex64))}


def _grads(tf, make_loss, *args):
    with tf.GradientTape() as tape:
        tape.watch(list(args))
        loss = make_loss(*args)
    return tape.gradient(loss, list(args))


@tolerance(rtol=1e-6, atol=1e-8)
def program_gradients_complex(tf):
    z = tf.complex(_signal(tf, 6, "float64"), tf.cos(_signal(tf, 6, "float64")))
    w = tf.reshape(tf.complex(_signal(tf, 12, "float64"), _signal(tf, 12, "float64") ** 2), [3, 4])
    weights = tf.range(1.0, 7.0, dtype=tf.float64)
    return {
        "fft": _grads(tf, lambda z: tf.reduce_sum(tf.abs(tf.signal.fft(z)) * weights), z),
        "ifft": _grads(tf, lambda z: tf.reduce_sum(tf.math.real(tf.signal.ifft(z) * (1 + 2j))), z),
        "fft2d": _grads(tf, lambda w: tf.reduce_sum(tf.abs(tf.signal.fft2d(w)) ** 2), w),
        "ifft2d": _grads(tf, lambda w: tf.reduce_sum(tf.math.imag(tf.signal.ifft2d(w * w))), w)}


def _real_inputs(tf):
    x = _signal(tf, 8, "float64")
    return {"x": x, "x7": _signal(tf, 7, "float64"), "m": tf.reshape(_signal(tf, 24, "float64"), [4, 6]),
            "wsp": tf.complex(tf.range(5, dtype=tf.float64), tf.range(5, dtype=tf.float64) * -0.5 + 1.0),
            "spec": tf.signal.rfft(x)}


def _spec_loss(tf, s):
    return tf.reduce_sum(tf.math.real(s * tf.cast(tf.range(tf.size(s)), s.dtype) ** 0.5) + tf.abs(s))


# One program per case: TensorFlow's gradient of some fft_length choices raises.
_REAL_CASES = {
    "rfft": lambda tf, v: _grads(tf, lambda x: _spec_loss(tf, tf.signal.rfft(x)), v["x"]),
    "rfft_odd": lambda tf, v: _grads(tf, lambda x: _spec_loss(tf, tf.signal.rfft(x)), v["x7"]),
    "rfft_pad": lambda tf, v: _grads(tf, lambda x: _spec_loss(tf, tf.signal.rfft(x, fft_length=[12])), v["x"]),
    "irfft": lambda tf, v: _grads(tf, lambda s: tf.reduce_sum(tf.signal.irfft(s) * tf.range(8.0, dtype=tf.float64)),
                                  v["spec"]),
    "irfft_odd": lambda tf, v: _grads(tf, lambda s: tf.reduce_sum(tf.signal.irfft(s, fft_length=[7]) ** 2),
                                      v["wsp"][:4]),
    "irfft_long": lambda tf, v: _grads(tf, lambda s: tf.reduce_sum(tf.signal.irfft(s, fft_length=[12]) ** 2),
                                       v["wsp"]),
    "rfft2d": lambda tf, v: _grads(tf, lambda m: tf.reduce_sum(tf.abs(tf.signal.rfft2d(m)) ** 1.5), v["m"]),
    "irfft2d": lambda tf, v: _grads(tf, lambda s: tf.reduce_sum(tf.signal.irfft2d(s) ** 2),
                                    tf.signal.rfft2d(v["m"]) * (1 + 0.5j)),
}


def _real_program(case):
    @tolerance(rtol=1e-6, atol=1e-8)
    def program(tf):
        return {"g": _REAL_CASES[case](tf, _real_inputs(tf))}
    program.__name__ = f"program_gradient_{case}"
    return program


for _case in _REAL_CASES:
    globals()[f"program_gradient_{_case}"] = _real_program(_case)


# fft_length shorter than the input crops it; TensorFlow's gradients assume no cropping and
# raise (shapes [5] vs [8]).  tapeflow differentiates the cropping: the expected values are
# NumPy central differences of the same losses (d/dx + i d/dy for complex inputs).
def _np_signal(n):
    t = np.arange(n, dtype=np.float64)
    return np.sin(t * 0.7) + 0.5 * np.cos(t * 1.9) + t * 0.05


def _np_grad(loss, x, eps=1e-6):
    out = np.zeros_like(x)
    for k in range(x.size):
        for unit in ((1, 1j) if np.iscomplexobj(x) else (1,)):
            d = np.zeros_like(x)
            d.reshape(-1)[k] = eps * unit
            out.reshape(-1)[k] += unit * (loss(x + d) - loss(x - d)) / (2 * eps)
    return out


def _np_spec_loss(s):
    return float(np.sum(np.real(s * np.sqrt(np.arange(s.size))) + np.abs(s)))


_WSP = np.arange(5.0) + 1j * (np.arange(5.0) * -0.5 + 1.0)
_CROP = "TensorFlow's FFT gradients raise when fft_length crops the input; tapeflow differentiates the crop"


@tolerance(rtol=1e-5, atol=1e-6)
@differs(_CROP, {"g": _np_grad(lambda x: _np_spec_loss(np.fft.rfft(x, 5)), _np_signal(8))})
def program_gradient_rfft_crop(tf):
    x = tf.constant(_np_signal(8))
    return {"g": _grads(tf, lambda x: _spec_loss(tf, tf.signal.rfft(x, fft_length=[5])), x)[0].numpy()}


@tolerance(rtol=1e-5, atol=1e-6)
@differs(_CROP, {"g": _np_grad(lambda s: float(np.sum(np.fft.irfft(s, 6) ** 3)), _WSP)})
def program_gradient_irfft_crop(tf):
    s = tf.constant(_WSP)
    return {"g": _grads(tf, lambda s: tf.reduce_sum(tf.signal.irfft(s, fft_length=[6]) ** 3), s)[0].numpy()}


@tolerance(rtol=1e-5, atol=1e-6)
@differs(_CROP, {"g": _np_grad(lambda m: float(np.sum(np.abs(np.fft.rfft2(m, s=(6, 4))))),
                               _np_signal(24).reshape(4, 6))})
def program_gradient_rfft2d_pad_and_crop(tf):
    m = tf.constant(_np_signal(24).reshape(4, 6))
    return {"g": _grads(tf, lambda m: tf.reduce_sum(tf.abs(tf.signal.rfft2d(m, fft_length=[6, 4]))), m)[0].numpy()}


@tolerance(rtol=1e-4, atol=1e-4)
def program_in_tf_function(tf):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        with tf.GradientTape() as tape:
            tape.watch(x)
            spec = tf.signal.rfft(x)
            y = tf.reduce_sum(tf.abs(spec) ** 2)
        return spec, tf.signal.irfft(spec), tape.gradient(y, x)
    return {"a": f(_signal(tf, 8)), "b": f(_signal(tf, 8) * 2.0), "traces": len(traces)}

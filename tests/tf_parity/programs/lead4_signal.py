"""tf.signal beyond the FFTs, as audio programs use it: frames, windows, STFT and its
inverse, overlap-add, DCTs, FFT shifts, mel filter banks and MFCCs -- values,
gradients, graphs with unknown lengths, and errors."""
from parity import tolerance
from _sweep import outcomes


def _signal(tf, n=40, dtype="float32"):
    t = tf.range(n, dtype=dtype)
    return tf.sin(t * 0.37) + 0.5 * tf.cos(t * 1.3)


def program_frame(tf):
    x = tf.reshape(tf.range(24), [2, 12])
    return {"basic": tf.signal.frame(tf.range(10), 4, 3), "pad": tf.signal.frame(tf.range(10), 4, 3, pad_end=True),
            "pad_value": tf.signal.frame(tf.range(7), 3, 2, pad_end=True, pad_value=-1),
            "batched": tf.signal.frame(x, 5, 4), "axis0": tf.signal.frame(tf.transpose(x), 5, 4, axis=0),
            "too_short": tf.signal.frame(tf.range(3), 5, 2), "float": tf.signal.frame(tf.ones([6]) * 0.5, 2, 2)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_windows(tf):
    return {"hann": tf.signal.hann_window(8), "hann_sym": tf.signal.hann_window(7, periodic=False),
            "hann_odd": tf.signal.hann_window(5), "hann_one": tf.signal.hann_window(1),
            "hamming": tf.signal.hamming_window(6), "hamming64": tf.signal.hamming_window(5, dtype=tf.float64),
            "kaiser": tf.signal.kaiser_window(7, beta=4.0), "kaiser_even": tf.signal.kaiser_window(6),
            "kbd": tf.signal.kaiser_bessel_derived_window(8, beta=6.0), "vorbis": tf.signal.vorbis_window(8)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_stft(tf):
    x = _signal(tf)
    s = tf.signal.stft(x, frame_length=16, frame_step=8)
    s_pad = tf.signal.stft(tf.stack([x, -x]), frame_length=10, frame_step=6, fft_length=16, pad_end=True)
    s_rect = tf.signal.stft(x, 8, 4, window_fn=None)
    return {"abs": tf.abs(s), "dtype": s.dtype, "shape": s.shape, "pad_shape": s_pad.shape,
            "pad_abs": tf.abs(s_pad), "rect": tf.math.real(s_rect),
            "f64": tf.abs(tf.signal.stft(_signal(tf, 20, "float64"), 8, 4))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_inverse_stft_roundtrip(tf):
    x = _signal(tf, 64)
    s = tf.signal.stft(x, 16, 4)
    inv = tf.signal.inverse_stft(s, 16, 4, window_fn=tf.signal.inverse_stft_window_fn(4))
    plain = tf.signal.inverse_stft(s, 16, 4)
    return {"inverse": inv[16:48], "matches": inv[16:48] - x[16:48], "plain": plain, "len": inv.shape,
            "window": tf.signal.inverse_stft_window_fn(4)(16, tf.float32)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_overlap_and_add(tf):
    frames = tf.reshape(tf.range(2 * 3 * 4, dtype=tf.float32), [2, 3, 4])
    return {"batched": tf.signal.overlap_and_add(frames, 2), "step_eq": tf.signal.overlap_and_add(frames[0], 4),
            "step_1": tf.signal.overlap_and_add(frames[0], 1)}


@tolerance(rtol=1e-4, atol=1e-4)
def program_dct(tf):
    x = _signal(tf, 8)
    xb = tf.reshape(_signal(tf, 12), [2, 6])
    out = {}
    for t in (1, 2, 3, 4):
        out[f"dct{t}"] = tf.signal.dct(x, type=t)
        out[f"idct{t}"] = tf.signal.idct(x, type=t)
        if t != 1:
            out[f"ortho{t}"] = tf.signal.dct(xb, type=t, norm="ortho")
            out[f"roundtrip{t}"] = tf.signal.idct(tf.signal.dct(x, type=t, norm="ortho"), type=t, norm="ortho")
    out["n_short"] = tf.signal.dct(x, n=5)
    out["n_long"] = tf.signal.dct(x, n=11)
    out["f64"] = tf.signal.dct(tf.cast(x, tf.float64), norm="ortho")
    return out


def program_dct_errors(tf):
    out = {}
    cases = {"type5": lambda: tf.signal.dct(tf.ones([4]), type=5),
             "ortho1": lambda: tf.signal.dct(tf.ones([4]), type=1, norm="ortho"),
             "axis0": lambda: tf.signal.dct(tf.ones([4, 4]), axis=0),
             "norm": lambda: tf.signal.dct(tf.ones([4]), norm="forward"),
             "n0": lambda: tf.signal.dct(tf.ones([4]), n=0),
             "int": lambda: tf.signal.dct(tf.ones([4], tf.int32)),
             "window_int": lambda: tf.signal.hann_window(4, dtype=tf.int32)}
    out.update(outcomes(cases))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_fftshift(tf):
    x = tf.reshape(tf.range(15), [3, 5])
    return {"all": tf.signal.fftshift(x), "axis": tf.signal.fftshift(x, axes=1), "axes": tf.signal.ifftshift(x, axes=(0, 1)),
            "roundtrip": tf.signal.ifftshift(tf.signal.fftshift(tf.range(7))),
            "freq": tf.signal.fftshift(tf.abs(tf.signal.fft(tf.complex(_signal(tf, 8), 0.0))))}


@tolerance(rtol=2e-4, atol=1e-5)
def program_mel_and_mfcc(tf):
    m = tf.signal.linear_to_mel_weight_matrix(num_mel_bins=8, num_spectrogram_bins=17, sample_rate=16000,
                                              lower_edge_hertz=80.0, upper_edge_hertz=7600.0)
    spec = tf.abs(tf.signal.stft(_signal(tf, 64), 32, 16))
    mel = tf.tensordot(spec, m, 1)
    log_mel = tf.math.log(mel + 1e-6)
    return {"matrix": m, "default_shape": tf.signal.linear_to_mel_weight_matrix().shape,
            "mel": mel, "mfcc": tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :5],
            "f64": tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 3000.0, dtype=tf.float64)}


def program_mel_errors(tf):
    out = {}
    for name, kw in {"bins": {"num_mel_bins": 0}, "lower": {"lower_edge_hertz": -1.0},
                     "order": {"lower_edge_hertz": 500.0, "upper_edge_hertz": 400.0},
                     "nyquist": {"upper_edge_hertz": 5000.0}, "rate": {"sample_rate": 0}}.items():
        try:
            tf.signal.linear_to_mel_weight_matrix(**kw)
            out[name] = "ok"
        except Exception as e:  # noqa: BLE001
            out[name] = type(e).__name__
    return out


@tolerance(rtol=1e-4, atol=1e-4)
def program_stft_gradient_and_graph(tf):
    x = _signal(tf, 48)
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.signal.stft(x, 16, 8)
        loss = tf.reduce_sum(tf.abs(s) ** 2) + tf.reduce_sum(tf.signal.dct(x[:16]) ** 2)
    grad = tape.gradient(loss, x)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def spectrogram(signal):
        frames = tf.signal.frame(signal, 16, 8)
        return tf.abs(tf.signal.stft(signal, 16, 8)), tf.shape(frames), tf.signal.overlap_and_add(frames, 8)

    mag, frame_shape, ola = spectrogram(x)
    mag2, frame_shape2, _ = spectrogram(x[:30])
    return {"grad": grad, "mag": mag, "frame_shape": frame_shape, "ola": ola, "mag2": mag2,
            "frame_shape2": frame_shape2, "traces": spectrogram.experimental_get_tracing_count()}

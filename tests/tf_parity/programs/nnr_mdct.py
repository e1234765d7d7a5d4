"""tf.signal.mdct / inverse_mdct: coefficients with the Vorbis window, without a window, with
norm='ortho', pad_end, batches, float64, the round trip, gradients, tf.function and errors."""
import numpy as np
from parity import tolerance

_SIGNAL = np.sin(np.arange(64) * 0.37) + 0.3 * np.cos(np.arange(64) * 1.9)


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


@tolerance(rtol=1e-4, atol=1e-5)
def program_mdct_values(tf):
    x = tf.constant(_SIGNAL, tf.float32)
    batch = tf.constant(np.stack([_SIGNAL[:40], _SIGNAL[10:50]]), tf.float32)
    return {"vorbis": tf.signal.mdct(x, 16), "no_window": tf.signal.mdct(x, 8, window_fn=None),
            "ortho_padded": tf.signal.mdct(x[:50], 12, pad_end=True, norm="ortho"),
            "batch_hann": tf.signal.mdct(batch, 8, window_fn=tf.signal.hann_window)}


@tolerance(rtol=1e-9, atol=1e-10)
def program_mdct_round_trip_float64(tf):
    x = tf.constant(_SIGNAL, tf.float64)
    coeffs = tf.signal.mdct(x, 16)
    ortho = tf.signal.mdct(x, 16, norm="ortho")
    return {"coeffs": coeffs, "inverse": tf.signal.inverse_mdct(coeffs),
            "inverse_ortho": tf.signal.inverse_mdct(ortho, norm="ortho"),
            "inverse_no_window": tf.signal.inverse_mdct(tf.signal.mdct(x, 8, window_fn=None), window_fn=None)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_mdct_gradients_function_errors(tf):
    x = tf.constant(_SIGNAL[:32], tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.signal.mdct(x, 8) ** 2)
    traced = tf.function(lambda s: tf.signal.inverse_mdct(tf.signal.mdct(s, 8)))(x)
    return {"grad": tape.gradient(loss, x), "traced": traced,
            "bad_length": _outcome(lambda: tf.signal.mdct(x, 6)),
            "int_signal": _outcome(lambda: tf.signal.mdct(tf.constant([1, 2, 3, 4, 5, 6, 7, 8]), 4))}

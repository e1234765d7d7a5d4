"""tf.summary.audio and tf.summary.write: return values with and without a default writer, when
recording is off, and errors for bad arguments (the events themselves: tests/test_tensorboard.py).
Record with TensorBoard importable (TF 2.21 needs it for tf.summary.audio): PYTHONPATH=<dir with it>."""
import tempfile

import numpy as np


def _error(fn):
    try:
        fn()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def program_summary_audio_write_returns(tf):
    clip = np.zeros((1, 4, 1), np.float32)
    out = {"audio_no_writer": tf.summary.audio("a", clip, 8000, step=0),
           "write_no_writer": tf.summary.write("w", tf.constant(1.0), step=0)}
    writer = tf.summary.create_file_writer(tempfile.mkdtemp())
    with writer.as_default(step=1):
        out["audio"] = tf.summary.audio("a", clip, 8000)
        out["write"] = tf.summary.write("w", [1, 2, 3])
        out["write_lazy"] = tf.summary.write("w", lambda: tf.constant("s"))
        with tf.summary.record_if(False):
            out["audio_off"] = tf.summary.audio("a", clip, 8000)
            out["write_off"] = tf.summary.write("w", lambda: 1 / 0)  # the callable is not called
    writer.close()
    return {k: bool(v) for k, v in out.items()}


def program_summary_audio_write_errors(tf):
    writer = tf.summary.create_file_writer(tempfile.mkdtemp())
    clip = np.zeros((1, 4, 1), np.float32)
    with writer.as_default(step=1):
        out = {"encoding": _error(lambda: tf.summary.audio("a", clip, 8000, encoding="mp3")),
               "no_step": None}
    with writer.as_default():
        out["no_step_audio"] = _error(lambda: tf.summary.audio("a", clip, 8000))
        out["no_step_write"] = _error(lambda: tf.summary.write("w", 1.0))
    writer.close()
    return out

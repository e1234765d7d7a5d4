# A TF 1.8 eager training loop logging to TensorBoard through tf.contrib.summary:
# record_summaries_every_n_global_steps writes only every n-th global step.
import glob

import numpy as np

import tapeflow as tf

tf.enable_eager_execution()


def test_contrib_summary_every_n_steps(tmp_path):
    writer = tf.contrib.summary.create_file_writer(str(tmp_path), flush_millis=1000)
    step = tf.train.get_or_create_global_step()
    step.assign(0)
    w = tf.Variable([2.0, -1.0])
    opt = tf.train.GradientDescentOptimizer(0.1)
    assert not tf.contrib.summary.scalar("outside", 1.0)  # no recording rule: nothing written
    with writer.as_default(), tf.contrib.summary.record_summaries_every_n_global_steps(5):
        for _ in range(20):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.square(w))
            opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]), global_step=step)
            tf.contrib.summary.scalar("loss", loss)
            tf.contrib.summary.histogram("w", w, family="weights")
        with tf.contrib.summary.always_record_summaries():
            assert tf.contrib.summary.scalar("final", loss, step=99)
    writer.flush()
    events = [e for f in glob.glob(str(tmp_path / "*")) for e in tf.summary.read_events(f)]
    text = repr(events)
    steps = sorted(e.get("step") if isinstance(e, dict) else getattr(e, "step", None) for e in events
                   if "loss" in repr(e) and "final" not in repr(e))
    assert steps == [5, 10, 15, 20], steps
    assert "weights/w" in text and "final" in text
    np.testing.assert_allclose(w.numpy(), np.array([2.0, -1.0]) * 0.8 ** 20, rtol=1e-5)

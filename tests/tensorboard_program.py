"""One program of tf.summary calls, run under TensorFlow 2.21 (to record what it
writes: tests/golden/tensorboard_events.json, by record_tensorboard_events.py) and
under tapeflow (test_tensorboard.py), and what TensorBoard's event accumulator
reads from its logdir, in a form both can compare (PNGs as decoded pixels)."""
import io

import numpy as np


def write_summaries(tf, logdir):
    rng = np.random.default_rng(3)
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default(step=1):
        tf.summary.scalar("loss", 0.75)
        tf.summary.scalar("loss", tf.constant(0.5, tf.float64), step=2)
        tf.summary.scalar("int_count", tf.constant(7), step=3)
        tf.summary.histogram("normal", rng.normal(size=200).astype(np.float32), step=1)
        tf.summary.histogram("few", tf.constant([0.0, 1.0, 1.0, 2.0, 5.0, 9.0]), step=2, buckets=3)
        tf.summary.histogram("single", tf.constant([4.0, 4.0, 4.0]), step=3, buckets=4)
        tf.summary.histogram("empty", tf.zeros([0]), step=4, buckets=2)
        tf.summary.image("rgb", rng.random((3, 4, 6, 3)).astype(np.float32), step=5, max_outputs=2)
        tf.summary.image("gray", (np.arange(24).reshape(2, 3, 4, 1) * 10).astype(np.uint8), step=6)
        tf.summary.text("note", "hello", step=7)
        tf.summary.text("table", [["a", "b"], ["c", "d"]], step=8, description="a 2x2 table")
        clips = np.array([[[0.0, 0.5], [-1.0, 2.0], [0.25, -0.3]], [[1e-5, -0.5], [0.75, 1.0], [-2.0, 0.1]],
                          [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]], np.float32)
        tf.summary.audio("stereo", clips, 8000, step=9, max_outputs=2, description="two clips")
        tf.summary.audio("mono", tf.constant(clips[:, :, :1]), tf.constant(16000), step=10)
        tf.summary.write("raw_floats", tf.constant([1.5, -2.0]), step=11)
        tf.summary.write("raw_ints", tf.constant([[1, 2], [3, 4]], tf.int64), step=12, metadata=b"")
        tf.summary.write("raw_strings", tf.constant(["x", "yz"]), step=13,
                         metadata=b"\x0a\x08\x0a\x06custom\x1a\x04note")  # plugin "custom", description
        tf.summary.write("lazy", lambda: tf.constant(3.0), step=14)
    step = tf.Variable(10, dtype=tf.int64)

    @tf.function
    def log(x):
        with writer.as_default(step=step):
            tf.summary.scalar("in_function", x * 2.0)
            tf.summary.histogram("in_function_h", tf.stack([x, x + 1.0, x + 3.0]), buckets=3)
            tf.summary.audio("in_function_a", tf.reshape(tf.stack([x, -x]) / 4.0, [1, 2, 1]), 4000)
            tf.summary.write("in_function_w", x + 0.5)
        step.assign_add(1)

    for v in (1.0, 2.0):
        log(tf.constant(v))
    writer.close()


def read_back(logdir):
    """{tag: [[step, plugin, dtype, shape, values]]} as TensorBoard's event accumulator reads it."""
    from PIL import Image
    from tensorboard.backend.event_processing import event_accumulator
    from tensorboard.util import tensor_util

    acc = event_accumulator.EventAccumulator(logdir, size_guidance={event_accumulator.TENSORS: 0})
    acc.Reload()
    out = {}
    for tag in sorted(acc.Tags()["tensors"]):
        meta = acc.summary_metadata.get(tag)  # none for tf.summary.write without metadata
        plugin = meta.plugin_data.plugin_name if meta is not None else ""
        rows = []
        for ev in acc.Tensors(tag):
            proto = ev.tensor_proto
            value = tensor_util.make_ndarray(proto)
            if plugin == "images":
                items = [value[0].decode(), value[1].decode()] + [
                    np.asarray(Image.open(io.BytesIO(png))).tolist() for png in value[2:]]
            elif plugin == "audio":  # the WAV files' bytes and the plugin's content (the encoding)
                items = [meta.plugin_data.content.hex()] + [
                    s.hex() for s in value.reshape(-1).tolist()]
            elif value.dtype.kind in "OSU":
                items = [s.decode() if isinstance(s, bytes) else str(s) for s in value.reshape(-1).tolist()]
            else:
                items = value.reshape(-1).tolist()
            rows.append([ev.step, plugin, int(proto.dtype), list(value.shape), items,
                         meta.summary_description if meta is not None else None])
        out[tag] = rows
    return out

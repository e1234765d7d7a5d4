"""tf.compat.v1 names that TF 2 answers eagerly (values recorded from TF in the parity module
tf3_compat_v1): here the parts a parity program cannot reach -- v1 summaries forwarded to a
default TF2 writer (TF needs TensorBoard installed for that path), histogram buckets against a
direct count, the v1 Saver's max_to_keep and state file, and a closed Session."""
import glob
import os
import struct
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.io.wire import fields
from tapeflow.summary import v1 as summary_v1


def _events(logdir):
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    return [v for e in tf.summary.read_events(path) for v in e["values"]]


def test_v1_summary_forwards_to_default_writer_with_step(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=4):
        with tf.name_scope("train"):
            out = tf.compat.v1.summary.scalar("loss", tf.constant(0.5))
        text = tf.compat.v1.summary.text("note", tf.constant("hi"))
    writer.flush()
    assert out.numpy() == b"" and text.numpy() == b""  # TF returns b"" when it forwarded
    values = _events(tmp_path)
    assert [v["tag"] for v in values] == ["train/loss", "note"]
    assert values[0]["simple_value"] == 0.5


def test_v1_summary_without_step_returns_the_proto(tmp_path, monkeypatch):
    from tapeflow.train import optimizers
    monkeypatch.setattr(optimizers, "_global_step", [])  # no global step (an earlier test may have made one)
    tf.summary.experimental.set_step(None)
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = tf.compat.v1.summary.scalar("x", 2.0)
    assert any("global step not set" in str(w.message) for w in caught)
    value = fields(fields(out.numpy())[1][0])
    assert value[1][0] == b"x" and struct.unpack("<f", value[2][0])[0] == 2.0


def _histogram(values):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raw = tf.compat.v1.summary.histogram("h", values).numpy()
    histo = fields(fields(fields(raw)[1][0])[5][0])
    limits = np.frombuffer(histo[6][0], "<f8")
    counts = np.frombuffer(histo[7][0], "<f8")
    return limits, counts


def test_v1_histogram_buckets_count_every_value_once():
    rng = np.random.RandomState(0)
    values = np.concatenate([rng.normal(0, 3, 200), [0.0, 0.0, -1e9, 7e15]])
    limits, counts = _histogram(values)
    assert counts.sum() == len(values)
    full = np.array(summary_v1._BUCKET_LIMITS)
    # each kept count is the number of values in [previous TF limit, its limit)
    for limit, count in zip(limits, counts):
        i = int(np.searchsorted(full, limit))
        lo = full[i - 1] if i else -np.inf
        assert count == np.sum((values >= lo) & (values < limit)), limit
    assert np.all(np.diff(limits) > 0)


def test_v1_histogram_refuses_non_finite():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram for: h"):
        _histogram([1.0, float("nan")])


def test_v1_saver_keeps_max_to_keep_and_writes_state(tmp_path):
    v = tf.Variable([1.0], name="v")
    saver = tf.compat.v1.train.Saver([v], max_to_keep=2)
    prefix = str(tmp_path / "m")
    paths = [saver.save(None, prefix, global_step=s) for s in (1, 2, 3)]
    assert saver.last_checkpoints == paths[1:]
    assert tf.train.latest_checkpoint(str(tmp_path)) == paths[-1]
    assert tf.train.get_checkpoint_state(str(tmp_path)).all_model_checkpoint_paths == paths[1:]
    assert not os.path.exists(paths[0])
    v.assign([9.0])
    saver.restore(None, paths[1])
    assert v.numpy().tolist() == [1.0]
    with pytest.raises(ValueError, match="save_path when it is None"):
        saver.restore(None, None)


def test_v1_session_closed_and_graph_argument():
    sess = tf.compat.v1.Session()
    sess.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(tf.constant(1.0))
    graph = tf.function(lambda x: x).get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    with pytest.raises(NotImplementedError, match="tf.function"):
        tf.compat.v1.Session(graph=graph)


def test_placeholder_with_default_checks_shape_and_collections_scope():
    assert tf.compat.v1.placeholder_with_default([1, 2], [None]).numpy().tolist() == [1, 2]
    with pytest.raises(ValueError, match="not compatible with shape"):
        tf.compat.v1.placeholder_with_default([1, 2], [3])
    a, b = tf.Variable(1.0, name="enc/w"), tf.Variable(2.0, name="dec/w")
    for item in (a, b, "no name"):
        tf.compat.v1.add_to_collection("test_scoped", item)
    assert tf.compat.v1.get_collection("test_scoped", scope="enc") == [a]

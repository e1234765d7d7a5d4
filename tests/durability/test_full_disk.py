"""A full disk, through RLIMIT_FSIZE in a forked child (writes past the limit fail
with EFBIG, as on a full file system; SIGXFSZ is ignored so they fail instead of
killing): the save fails with an OSError naming the path being saved, the
previous save is still what loads, and no partial files are left."""
import os
import resource
import signal

import numpy as np

import tapeflow as tf
from fork_helpers import run_forked
from scenarios import Module, generation, make_variables

BIG = np.zeros((64, 1024), np.float32)  # 256 KiB: over the limit below


class BigModule(Module):
    def __init__(self, gen):
        super().__init__(gen)
        self.big = tf.Variable(BIG)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def total(self, x):
        return tf.reduce_sum(self.big) + x


def _disk_full(save, limit=64 << 10):
    def child():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        save()
    return run_forked(child, timeout=60)


def _assert_named_failure(out, path):
    assert out.kind == "raised", out
    assert "OSError" in out.detail, out
    assert path in out.value[2], out.value
    assert "File too large" in out.value[2] or "short write: is the disk full?" in out.value[2], out.value


def _debris(directory):
    return [n for n in os.listdir(directory) if ".tapeflow-" in n]


def test_checkpoint_manager_on_a_full_disk(tmp_path):
    d = str(tmp_path)
    for keep in (1, 3):
        sub = os.path.join(d, f"keep{keep}")
        w, step = make_variables(2)
        tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), sub, keep).save(checkpoint_number=2)

        def save():
            w, step = make_variables(3)
            big = tf.Variable(BIG)
            tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step, big=big), sub, keep) \
                .save(checkpoint_number=3)

        _assert_named_failure(_disk_full(save), os.path.join(sub, "ckpt-3"))
        w, step = make_variables(9)
        tf.train.Checkpoint(w=w, step=step).restore(tf.train.latest_checkpoint(sub))
        assert generation(w, step) == 2
        tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), sub, keep).save(checkpoint_number=4)
        assert _debris(sub) == []  # the killed-by-EFBIG temporaries went with the failed save


def test_checkpoint_write_and_saved_model_save_over_a_full_disk(tmp_path):
    snap, model = str(tmp_path / "snap"), str(tmp_path / "model")
    w, step = make_variables(2)
    tf.train.Checkpoint(w=w, step=step).write(snap)
    tf.saved_model.save(Module(2), model)

    def write():
        w, step = make_variables(3)
        tf.train.Checkpoint(w=w, step=step, big=tf.Variable(BIG)).write(snap)

    def save():
        m = BigModule(3)
        tf.saved_model.save(m, model, signatures=m.serve)

    _assert_named_failure(_disk_full(write), snap)
    _assert_named_failure(_disk_full(save), model)
    w, step = make_variables(9)
    tf.train.Checkpoint(w=w, step=step).read(snap)
    assert generation(w, step) == 2
    loaded = tf.saved_model.load(model)
    assert generation(loaded.w, loaded.step) == 2
    assert _debris(str(tmp_path)) == []

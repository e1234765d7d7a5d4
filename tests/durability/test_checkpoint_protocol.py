"""The crash-safe checkpoint protocol, step by step (the kill and fault tests
check its outcome; these check its order and its recovery paths directly)."""
import json
import os
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

import tapeflow as tf
from scenarios import Module, generation, make_variables
from tapeflow.train import files
from tapeflow.train.checkpoint_format import CheckpointError


def _state(d):
    with open(os.path.join(d, "checkpoint")) as f:
        return json.load(f)["all_model_checkpoint_paths"]


def test_manager_records_the_new_checkpoint_before_deleting_the_old(tmp_path, monkeypatch):
    d = str(tmp_path)
    w, step = make_variables(1)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), d, max_to_keep=1)
    manager.save()
    seen = []
    real = files.remove_dir

    def spy(path):
        seen.append((os.path.basename(path), _state(d), sorted(os.listdir(d))))
        real(path)

    monkeypatch.setattr(files, "remove_dir", spy)
    manager.save()
    # When ckpt-1 is deleted the state file already names only ckpt-2, which is complete.
    assert seen == [("ckpt-1", ["ckpt-2"], ["checkpoint", "ckpt-1", "ckpt-2"])]
    assert sorted(os.listdir(d)) == ["checkpoint", "ckpt-2"]


def _three_variables(tmp_path):
    a = tf.Variable(np.arange(4, dtype=np.float32))
    b = tf.Variable(np.int64(7))
    c = tf.Variable(np.ones((2, 2), np.float64))
    path = tf.train.Checkpoint(a=a, b=b, c=c).write(str(tmp_path / "ck"))
    fresh = [tf.Variable(np.full(4, -1, np.float32)), tf.Variable(np.int64(-1)), tf.Variable(np.zeros((2, 2)))]
    return path, fresh


def _index(path):
    with open(os.path.join(path, "index.json")) as f:
        return json.load(f)["values"]


@pytest.mark.parametrize("spoil,match", [
    (lambda p, e: open(os.path.join(p, e["c"]["file"]), "r+b").truncate(130), "value 'c'.*truncated"),
    (lambda p, e: os.remove(os.path.join(p, e["c"]["file"])), "value 'c'.*missing"),
    (lambda p, e: np.save(os.path.join(p, e["b"]["file"]), np.float32(1)), "value 'b'.*float32"),
])
def test_a_failed_restore_changes_no_variable(tmp_path, spoil, match):
    path, fresh = _three_variables(tmp_path)
    spoil(path, _index(path))
    before = [v.numpy().copy() for v in fresh]
    with pytest.raises(CheckpointError, match=match) as info:
        tf.train.Checkpoint(a=fresh[0], b=fresh[1], c=fresh[2]).restore(path)
    assert path in str(info.value)
    for v, old in zip(fresh, before):
        np.testing.assert_array_equal(v.numpy(), old)


def test_a_kill_between_the_two_renames_of_an_overwrite_leaves_the_old_copy_loadable(tmp_path):
    snap, model = str(tmp_path / "snap"), str(tmp_path / "model")
    w, step = make_variables(2)
    tf.train.Checkpoint(w=w, step=step).write(snap)
    tf.saved_model.save(Module(2), model)
    for p in (snap, model):  # the state publish() leaves after its first rename
        os.rename(p, p + files.OLD_SUFFIX)
    w, step = make_variables(9)
    tf.train.Checkpoint(w=w, step=step).read(snap)
    assert generation(w, step) == 2
    assert generation(*(lambda m: (m.w, m.step))(tf.saved_model.load(model))) == 2
    # The next save publishes and removes the aside copy.
    tf.train.Checkpoint(w=w, step=step).write(snap)
    tf.saved_model.save(Module(3), model)
    assert sorted(os.listdir(tmp_path)) == ["model", "snap"]


def test_a_manager_finds_its_latest_checkpoint_in_the_aside_copy(tmp_path):
    d = str(tmp_path)
    w, step = make_variables(2)
    ckpt = tf.train.Checkpoint(w=w, step=step)
    tf.train.CheckpointManager(ckpt, d, max_to_keep=2).save(checkpoint_number=2)
    os.rename(os.path.join(d, "ckpt-2"), os.path.join(d, "ckpt-2" + files.OLD_SUFFIX))
    assert tf.train.latest_checkpoint(d) == os.path.join(d, "ckpt-2")
    w, step = make_variables(9)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), d, max_to_keep=2)
    manager.restore_or_initialize()
    assert generation(w, step) == 2


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_only_our_stale_temporaries_are_cleaned_up(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    host = "".join(c for c in socket.gethostname() if c.isalnum())[:32] or "host"
    keep_dir = tmp_path / "precious"
    keep_dir.mkdir()
    (keep_dir / "data").write_text("keep")
    names = {
        "dead": f"ckpt-1.tapeflow-tmp-{host}-{_dead_pid()}-aa",  # stale: its saver is gone
        "dead_del": f"ckpt-0.tapeflow-del-{host}-{_dead_pid()}-bb",  # a deletion cut short
        "dead_file": f"checkpoint.tapeflow-tmp-{host}-{_dead_pid()}-cc",  # a state file never renamed
        "alive": f"ckpt-2.tapeflow-tmp-{host}-{os.getpid()}-dd",  # a save in progress (ours)
        "elsewhere": "ckpt-3.tapeflow-tmp-otherhost-1-ee",  # another machine's, recent
        "old_elsewhere": "ckpt-4.tapeflow-tmp-otherhost-1-ff",  # another machine's, two days old
        "foreign": f"ckpt-5.tapeflow-tmp-{host}-{_dead_pid()}-gg",  # stale, but not our uid
        "link": f"ckpt-6.tapeflow-tmp-{host}-{_dead_pid()}-hh",  # stale name, but a symlink
        "user": "ckpt-7.tmp",  # not our naming at all
    }
    for key, name in names.items():
        p = d / name
        if key == "link":
            p.symlink_to(keep_dir)
        elif key == "dead_file":
            p.write_text("{}")
        else:
            p.mkdir()
            (p / "0.npy").write_bytes(b"x")
    os.utime(d / names["old_elsewhere"], (time.time() - 2 * 86400,) * 2)
    os.chown(d / names["foreign"], 65534, 65534)
    w, step = make_variables(1)
    tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), str(d), 3).save()
    left = set(os.listdir(d))
    gone = {k for k, n in names.items() if n not in left}
    assert gone == {"dead", "dead_del", "dead_file", "old_elsewhere"}
    assert (keep_dir / "data").read_text() == "keep"
    assert {"ckpt-1", "checkpoint"} <= left

"""PreemptionCheckpointHandler across a real termination: a training process is sent
SIGTERM (kill -TERM) mid-loop, must save a checkpoint at a run() boundary and exit with the
default exit_fn's status 42; a restarted process restores the variable and total_run_calls
from it and finishes the loop. Also the polled termination_watcher_fn path."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import tapeflow as tf

_TRAINER = textwrap.dedent("""
    import os, sys, time
    import tapeflow as tf
    directory, progress, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    v = tf.Variable(0.0)
    checkpoint = tf.train.Checkpoint(v=v)
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(None, checkpoint, checkpoint_dir=directory)
    print("start", int(handler.total_run_calls), float(v.numpy()), flush=True)
    while handler.total_run_calls < steps:
        handler.run(lambda: v.assign_add(1.0))
        with open(progress, "w") as f:
            f.write(str(int(handler.total_run_calls)))
        time.sleep(0.02)
    print("done", int(handler.total_run_calls), float(v.numpy()), flush=True)
""")


def _start(tmp_path, steps):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.Popen([sys.executable, "-c", _TRAINER, str(tmp_path / "ckpt"), str(tmp_path / "progress"),
                             str(steps)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_sigterm_saves_exits_42_and_restart_restores(tmp_path):
    proc = _start(tmp_path, steps=100000)
    progress = tmp_path / "progress"
    deadline = time.time() + 120
    while not (progress.exists() and progress.read_text().strip() and int(progress.read_text()) >= 5):
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline, "the trainer made no progress"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 42, (out, err)
    latest = tf.train.latest_checkpoint(str(tmp_path / "ckpt"))
    assert latest is not None and latest.endswith("ckpt-1")
    reader = tf.train.load_checkpoint(latest)
    saved_runs = int(reader.get_tensor("checkpointed_runs/.ATTRIBUTES/VARIABLE_VALUE"))
    # The save happens at the run() after the one following the notice: v counts every run.
    assert saved_runs >= 6
    # exit_fn ends the process inside the saving run(), before its step: the last completed
    # step's count is the one saved (as TF 2.21 does with the same script).
    assert int(progress.read_text()) == saved_runs
    assert float(reader.get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE")) == saved_runs

    restart = _start(tmp_path, steps=saved_runs + 3)
    out, err = restart.communicate(timeout=120)
    assert restart.returncode == 0, err
    assert out.split() == ["start", str(saved_runs), str(float(saved_runs)),
                           "done", str(saved_runs + 3), str(float(saved_runs + 3))]


def test_polled_termination_watcher(tmp_path):
    previous = signal.getsignal(signal.SIGTERM)
    v = tf.Variable(0.0)
    flag, exits = [], []
    config = tf.distribute.experimental.TerminationConfig(termination_watcher_fn=lambda: bool(flag),
                                                          exit_fn=lambda: exits.append(int(v.numpy())))
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(
        None, tf.train.Checkpoint(v=v), checkpoint_dir=str(tmp_path), termination_config=config)
    # A watcher function replaces the SIGTERM handler.
    assert signal.getsignal(signal.SIGTERM) is previous
    handler.run(lambda: v.assign_add(1.0))
    flag.append(True)
    deadline = time.time() + 10
    while not exits:
        assert time.time() < deadline, "the watcher's notice never led to a save"
        handler.run(lambda: v.assign_add(1.0))
        time.sleep(0.05)
    assert tf.train.latest_checkpoint(str(tmp_path)) is not None
    # exit_fn ran before that run()'s step (it returned here, so the step still ran).
    assert exits == [int(handler.total_run_calls) - 1]
    saved = tf.train.load_checkpoint(tf.train.latest_checkpoint(str(tmp_path)))
    assert int(saved.get_tensor("checkpointed_runs/.ATTRIBUTES/VARIABLE_VALUE")) == exits[0]


def test_manager_is_used_as_given_and_multi_worker_is_refused(tmp_path):
    previous = signal.getsignal(signal.SIGTERM)
    try:
        v = tf.Variable(2.0)
        manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), str(tmp_path), max_to_keep=3)
        handler = tf.distribute.experimental.PreemptionCheckpointHandler(None, manager)
        assert handler.total_run_calls == 0 and manager.checkpoint.checkpointed_runs.dtype == tf.int64

        class TwoWorkerSpec:
            def as_dict(self):
                return {"worker": ["a:1", "b:2"]}

        class TwoWorkers:
            def cluster_spec(self):
                return TwoWorkerSpec()

        with pytest.raises(NotImplementedError, match="one process"):
            tf.distribute.experimental.PreemptionCheckpointHandler(TwoWorkers(), manager)
    finally:
        signal.signal(signal.SIGTERM, previous)

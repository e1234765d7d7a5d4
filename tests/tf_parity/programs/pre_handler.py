"""tf.distribute.experimental.PreemptionCheckpointHandler in one process: the run counter it
adds to the checkpoint, restore on construction from the latest checkpoint, run() results,
TerminationConfig's fields, a SIGTERM sent to this process handled at run() boundaries (save,
then exit_fn; with a grace period, a first save and training on), and bad arguments."""
import os
import signal
import tempfile

import numpy as np


def _handler(tf, directory, variable, **config):
    checkpoint = tf.train.Checkpoint(v=variable)
    termination = tf.distribute.experimental.TerminationConfig(**config) if config else None
    return checkpoint, tf.distribute.experimental.PreemptionCheckpointHandler(
        None, checkpoint, checkpoint_dir=directory, termination_config=termination)


def _with_sigterm_restored(body):
    previous = signal.getsignal(signal.SIGTERM)
    try:
        return body()
    finally:
        signal.signal(signal.SIGTERM, previous)


def program_fresh_and_restore(tf):
    def body():
        directory = tempfile.mkdtemp()
        v = tf.Variable(1.0)
        checkpoint, handler = _handler(tf, directory, v)
        out = {"fresh_total": int(handler.total_run_calls), "files_before": sorted(os.listdir(directory)),
               "tracked": checkpoint.checkpointed_runs.dtype, "tracked_value": checkpoint.checkpointed_runs.numpy()}
        results = [float(handler.run(lambda x: v.assign_add(x), 2.0)) for _ in range(3)]
        out["results"], out["total"] = results, int(handler.total_run_calls)
        handler.save_checkpoint_if_preempted()
        out["after_save_if"] = int(handler.total_run_calls)
        # No notice: nothing was written yet.
        out["files_no_notice"] = sorted(os.listdir(directory))
        # A manual save through a manager of the same checkpoint, then a new handler restores it.
        tf.train.CheckpointManager(checkpoint, directory, max_to_keep=1).save()
        w = tf.Variable(0.0)
        checkpoint2, handler2 = _handler(tf, directory, w)
        out["restored_v"], out["restored_total"] = float(w.numpy()), int(handler2.total_run_calls)
        out["restored_runs"] = int(checkpoint2.checkpointed_runs.numpy())
        return out
    return _with_sigterm_restored(body)


def program_sigterm_saves_then_exits(tf):
    def body():
        directory = tempfile.mkdtemp()
        v = tf.Variable(0.0)
        exits = []
        checkpoint, handler = _handler(tf, directory, v, exit_fn=lambda: exits.append(int(v.numpy())))
        log = []
        for step in range(6):
            if step == 2:
                os.kill(os.getpid(), signal.SIGTERM)
            handler.run(lambda: v.assign_add(1.0))
            log.append((step, len(exits), tf.train.latest_checkpoint(directory) is not None))
        reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(directory))
        saved = {k: np.asarray(reader.get_tensor(k)).tolist() for k in sorted(reader.get_variable_to_shape_map())
                 if "OPTIMIZER" not in k and "save_counter" not in k and "CHECKPOINTABLE" not in k}
        return {"log": log, "exits": exits, "saved": saved, "total": int(handler.total_run_calls),
                # The checkpoint prefixes written (tapeflow's files per prefix differ from TF's).
                "prefixes": sorted({f.split(".")[0] for f in os.listdir(directory) if f != "checkpoint"})}
    return _with_sigterm_restored(body)


def program_sigterm_grace_period(tf):
    def body():
        directory = tempfile.mkdtemp()
        v = tf.Variable(0.0)
        exits, saves = [], []
        config = dict(exit_fn=lambda: exits.append(handler.total_run_calls), grace_period=0.3,
                      save_fn=lambda: saves.append(int(v.numpy())))
        checkpoint, handler = _handler(tf, directory, v, **config)
        os.kill(os.getpid(), signal.SIGTERM)
        handler.run(lambda: v.assign_add(1.0))
        handler.run(lambda: v.assign_add(1.0))
        after_first = (list(saves), list(exits))
        import time
        time.sleep(0.35)
        for _ in range(3):
            handler.run(lambda: v.assign_add(1.0))
        return {"after_first": after_first, "saves": saves, "exits": exits,
                "files": sorted(os.listdir(directory))}
    return _with_sigterm_restored(body)


def program_termination_config_fields(tf):
    c = tf.distribute.experimental.TerminationConfig()
    d = tf.distribute.experimental.TerminationConfig(grace_period=5, exit_fn=len)
    return {"defaults": [c.termination_watcher_fn, c.exit_fn, c.grace_period, c.save_fn],
            "grace": d.grace_period, "exit_is": d.exit_fn is len}


def program_checkpoint_without_dir(tf):
    return tf.distribute.experimental.PreemptionCheckpointHandler(None, tf.train.Checkpoint())


def program_save_if_preempted_forwards_arguments(tf):
    def body():
        directory = tempfile.mkdtemp()
        v = tf.Variable(0.0)
        exits = []
        checkpoint, handler = _handler(tf, directory, v, exit_fn=lambda: exits.append(int(v.numpy())))
        log = []
        for step in range(4):
            if step == 1:
                os.kill(os.getpid(), signal.SIGTERM)
            v.assign_add(1.0)
            handler.save_checkpoint_if_preempted(checkpoint_number=7)
            log.append((step, len(exits), int(handler.total_run_calls)))
        return {"log": log, "exits": exits, "latest": os.path.basename(tf.train.latest_checkpoint(directory)),
                "restored_runs": int(tf.train.load_checkpoint(directory).get_tensor(
                    "checkpointed_runs/.ATTRIBUTES/VARIABLE_VALUE"))}
    return _with_sigterm_restored(body)

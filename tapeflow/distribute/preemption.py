"""tf.distribute.experimental.PreemptionCheckpointHandler and TerminationConfig for one
process: restore from the latest checkpoint on construction, count run() calls (saved in
the checkpoint as `checkpointed_runs`), and on a termination notice (SIGTERM, or a polled
termination_watcher_fn) save a checkpoint at a run() boundary and call exit_fn.

The protocol is TF's single-worker one: the notice only sets a flag; the next run() picks
the step to save at (the run count after the step it is about to run), and the run() after
that step saves. With a grace period the first save does not exit: training goes on until
the grace period (less a margin of six estimated step times) has passed, then a second
save is made and exit_fn is called."""
import signal
import sys
import threading
import time

import numpy as np

from tapeflow.runtime.errors import with_location
from tapeflow.runtime.variables import Variable

_RUN_COUNT_ATTRIBUTE = "checkpointed_runs"
_POLL_SECONDS = 1.0


class TerminationConfig:
    """How to learn of a termination (termination_watcher_fn; SIGTERM when None), what to do
    after the final save (exit_fn; default exits with status 42), the grace period in seconds
    (default 0) and an optional save_fn used instead of the checkpoint manager's save."""

    def __init__(self, termination_watcher_fn=None, exit_fn=None, grace_period=None, save_fn=None):
        self.termination_watcher_fn = termination_watcher_fn
        self.exit_fn = exit_fn
        self.grace_period = grace_period
        self.save_fn = save_fn


def _default_exit():
    sys.exit(42)


class PreemptionCheckpointHandler:
    def __init__(self, cluster_resolver, checkpoint_or_checkpoint_manager, checkpoint_dir=None,
                 termination_config=None):
        # Imported here: tapeflow.train imports tapeflow.distribute (its chief-only writes).
        from tapeflow.train.checkpoint_classes import Checkpoint, CheckpointManager
        if isinstance(checkpoint_or_checkpoint_manager, Checkpoint) and not checkpoint_dir:
            # TF 2.21 raises TypeError here (its InvalidArgumentError is built without its
            # required arguments); the type is TF's, the message says what is wrong.
            raise TypeError(with_location(
                "PreemptionCheckpointHandler: when a checkpoint is passed, a checkpoint_dir must be passed as well."))
        jobs = cluster_resolver.cluster_spec().as_dict() if cluster_resolver is not None else {}
        if "ps" in jobs:
            raise NotImplementedError(
                "PreemptionCheckpointHandler does not support usage with tf.distribute.experimental.ParameterServerStrategy.")
        if sum(len(tasks) for tasks in jobs.values()) > 1:
            # Coordinating the step to save at across workers needs a cluster key-value
            # service tapeflow's MPI collectives do not provide.
            raise NotImplementedError(with_location(
                "PreemptionCheckpointHandler: tapeflow supports one process only; the cluster has "
                f"{ {job: len(tasks) for job, tasks in jobs.items()} } tasks."))
        self._cluster_resolver = cluster_resolver
        self._checkpoint_or_checkpoint_manager = checkpoint_or_checkpoint_manager
        self._checkpoint_dir = checkpoint_dir
        config = termination_config or TerminationConfig()
        self._termination_watcher_fn = config.termination_watcher_fn
        self._exit_fn = config.exit_fn or _default_exit
        self._grace_period = config.grace_period or 0
        self._save_fn = config.save_fn

        if isinstance(checkpoint_or_checkpoint_manager, CheckpointManager):
            self._manager = checkpoint_or_checkpoint_manager
        else:
            self._manager = CheckpointManager(checkpoint_or_checkpoint_manager, directory=checkpoint_dir,
                                              max_to_keep=1)
        self._checkpointed_runs = Variable(np.int64(0), trainable=False, name=_RUN_COUNT_ATTRIBUTE)
        checkpoint = self._manager.checkpoint
        if not hasattr(checkpoint, _RUN_COUNT_ATTRIBUTE):
            setattr(checkpoint, _RUN_COUNT_ATTRIBUTE, self._checkpointed_runs)
        self._manager.restore_or_initialize()
        # When the checkpoint already tracked a run counter of its own, that is the one restored.
        # An int64 numpy scalar, as TF's total_run_calls.
        self._run_counter = np.int64(np.asarray(getattr(checkpoint, _RUN_COUNT_ATTRIBUTE).numpy()))
        self._estimated_run_time = 0.0
        self._final_checkpoint_countdown = False
        self._received_own_sigterm = threading.Event()
        self._received_own_sigterm_time = None
        self._step_to_checkpoint = None
        self._target_time_for_termination = None
        self._poll_thread = None
        if self._termination_watcher_fn is not None:
            self._poll_should_stop = threading.Event()
            self._poll_thread = threading.Thread(target=self._poll_termination_signal, daemon=True,
                                                 name="WorkerTerminationSignalWatcher-single_worker")
            self._poll_thread.start()
        else:
            signal.signal(signal.SIGTERM, self._sigterm_handler)

    # --- notice -----------------------------------------------------------------------
    def _sigterm_handler(self, signum, frame):
        self._note_termination()

    def _poll_termination_signal(self):
        while not (self._poll_should_stop.is_set() or self._final_checkpoint_countdown):
            if self._termination_watcher_fn():
                self._note_termination()
                return
            time.sleep(_POLL_SECONDS)

    def _note_termination(self):
        self._received_own_sigterm_time = time.time()
        self._received_own_sigterm.set()

    def _stop_polling(self):
        thread, self._poll_thread = getattr(self, "_poll_thread", None), None
        if thread is not None:
            self._poll_should_stop.set()
            if thread is not threading.current_thread():
                thread.join()

    def __del__(self):
        self._stop_polling()

    # --- public API -------------------------------------------------------------------
    @property
    def total_run_calls(self):
        """Number of run() (and save_checkpoint_if_preempted) calls, counted across restarts."""
        return self._run_counter

    def run(self, distributed_train_function, *args, **kwargs):
        """Runs one step, first saving a checkpoint (and exiting) if a termination is due."""
        self._check_preemption_and_maybe_checkpoint()
        begin = time.time()
        result = distributed_train_function(*args, **kwargs)
        elapsed = time.time() - begin
        self._run_counter += 1
        self._estimated_run_time += (elapsed - self._estimated_run_time) / self._run_counter
        return result

    def save_checkpoint_if_preempted(self, *args, **kwargs):
        """For custom loops: saves (with args forwarded to the save) and exits if a termination is due."""
        self._check_preemption_and_maybe_checkpoint(*args, **kwargs)
        self._run_counter += 1
        self._estimated_run_time = 0.0

    def watch_preemption_scope(self):
        """Context manager around the training loop; in one process errors pass through unchanged."""
        return _PassThroughScope()

    # --- saving -----------------------------------------------------------------------
    def _save_checkpoint(self, *args, **kwargs):
        self._checkpointed_runs.assign(np.int64(self._run_counter))
        if self._save_fn is not None:
            self._save_fn(*args, **kwargs)
        else:
            self._manager.save(*args, **kwargs)

    def _check_preemption_and_maybe_checkpoint(self, *args, **kwargs):
        if self._step_to_checkpoint is not None:
            if self._step_to_checkpoint == self._run_counter:
                self._save_checkpoint(*args, **kwargs)
                if self._grace_period <= 0 or self._final_checkpoint_countdown:
                    self._stop_polling()
                    self._exit_fn()
                else:
                    self._final_checkpoint_countdown = True
                    self._step_to_checkpoint = None
        elif self._received_own_sigterm.is_set():
            if self._final_checkpoint_countdown and self._target_time_for_termination >= time.time():
                return
            self._step_to_checkpoint = self._run_counter + 1
            if self._grace_period > 0 and not self._final_checkpoint_countdown:
                # Leave room for the steps still to run before the final save.
                margin = 3 * self._estimated_run_time * 2
                self._target_time_for_termination = self._received_own_sigterm_time + self._grace_period - margin


class _PassThroughScope:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

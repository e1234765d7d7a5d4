"""tf.train.Checkpoint, tf.train.CheckpointManager and tf.train.latest_checkpoint
over the directory format of checkpoint.py."""
import json
import os
import shutil
import time

import numpy as np

from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.variables import Variable
from tapeflow.train import checkpoint_format as fmt
from tapeflow.train.trackable import Trackable


class Checkpoint(Trackable):
    """Checkpoint(model=..., optimizer=..., step=...): saves and restores every
    variable reachable from the named objects."""

    def __init__(self, root=None, **kwargs):
        children = dict(kwargs)
        if root is not None:
            children["root"] = root
        for name, obj in children.items():
            if not isinstance(obj, (Trackable, Variable)):
                raise ValueError(with_location(
                    f"Checkpoint: {name}={type(obj).__name__} is not trackable; pass models, layers, "
                    f"optimizers, metrics, variables or other checkpoints"))
        self._children = children
        self._save_counter = None

    @property
    def save_counter(self):
        """The number of save() calls, saved with the checkpoint (made on first use)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter")
        return self._save_counter

    def _trackable_children(self):
        children = dict(self._children)
        if self._save_counter is not None:
            children["save_counter"] = self._save_counter
        return children

    def _roots(self):
        return self._trackable_children()

    def write(self, file_prefix):
        """Write to exactly `file_prefix` (no numbering, no state file); returns the path."""
        return fmt.write_objects(file_prefix, self._roots())

    def save(self, file_prefix):
        """Write to `file_prefix-N` (N = save_counter after incrementing) and record it
        as the latest checkpoint of its directory; returns the path."""
        counter = self.save_counter
        counter.assign_add(convert_to_tensor(1, counter.dtype))
        path = f"{os.fspath(file_prefix)}-{int(counter.numpy())}"
        try:
            path = fmt.write_objects(path, self._roots())
        except BaseException:
            counter.assign_sub(convert_to_tensor(1, counter.dtype))
            raise
        state = _read_state(os.path.dirname(path))
        names = [p for p in state if p != os.path.basename(path)] + [os.path.basename(path)]
        _write_state(os.path.dirname(path), names)
        return path

    def read(self, save_path):
        return fmt.read_objects(save_path, self._roots())

    def restore(self, save_path):
        """Restore from `save_path` (None: nothing to restore, for restore-or-initialize)."""
        if save_path is None:
            return fmt.LoadStatus([], [], [])
        if self._save_counter is None and "save_counter" in fmt.read_index(save_path):
            self.save_counter  # make it so the saved count is restored and numbering continues
        return fmt.read_objects(save_path, self._roots())


# -------------------------------------------------------------- state file
def _state_path(directory):
    return os.path.join(directory, fmt.STATE_FILE)


def _read_state(directory):
    """Names of the checkpoints in `directory`, oldest first."""
    try:
        with open(_state_path(directory)) as f:
            state = json.load(f)
    except FileNotFoundError:
        return []
    return [p for p in state.get("all_model_checkpoint_paths", [])]


def _write_state(directory, names):
    tmp = _state_path(directory) + ".tmp"
    fmt._write_json(tmp, {"model_checkpoint_path": names[-1] if names else None,
                          "all_model_checkpoint_paths": names})
    os.replace(tmp, _state_path(directory))
    fmt._fsync_dir(directory)


def latest_checkpoint(checkpoint_dir):
    """The path of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    names = [n for n in _read_state(checkpoint_dir)
             if os.path.isfile(os.path.join(checkpoint_dir, n, fmt.INDEX))]
    return os.path.join(checkpoint_dir, names[-1]) if names else None


class CheckpointManager:
    """Numbered saves of one Checkpoint in a directory, keeping the newest max_to_keep."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(with_location(f"CheckpointManager: max_to_keep must be positive or None, got {max_to_keep}"))
        self._checkpoint = checkpoint
        self.directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_hours = keep_checkpoint_every_n_hours
        self._name = checkpoint_name
        self._init_fn = init_fn
        self._last_kept_time = time.time()
        os.makedirs(self.directory, exist_ok=True)
        self._names = [n for n in _read_state(self.directory)
                       if os.path.isfile(os.path.join(self.directory, n, fmt.INDEX))]

    @property
    def checkpoints(self):
        return [os.path.join(self.directory, n) for n in self._names]

    @property
    def latest_checkpoint(self):
        return self.checkpoints[-1] if self._names else None

    def save(self, checkpoint_number=None, check_interval=True):
        if checkpoint_number is None:
            counter = self._checkpoint.save_counter
            counter.assign_add(convert_to_tensor(1, counter.dtype))
            number = int(counter.numpy())
        else:
            number = int(checkpoint_number)
        name = f"{self._name}-{number}"
        fmt.write_objects(os.path.join(self.directory, name), self._checkpoint._roots())
        self._names = [n for n in self._names if n != name] + [name]
        self._sweep()
        _write_state(self.directory, self._names)
        return os.path.join(self.directory, name)

    def _sweep(self):
        """Delete the oldest checkpoints beyond max_to_keep (except hourly keepers)."""
        if self._max_to_keep is None:
            return
        while len(self._names) > self._max_to_keep:
            oldest = self._names.pop(0)
            path = os.path.join(self.directory, oldest)
            if self._keep_hours and time.time() - self._last_kept_time >= self._keep_hours * 3600:
                self._last_kept_time = time.time()
                continue
            shutil.rmtree(path, ignore_errors=True)

    def restore_or_initialize(self):
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


"""tf.train.Checkpoint, tf.train.CheckpointManager and tf.train.latest_checkpoint
over the directory format of checkpoint_format.py."""
import json
import os
import time
import warnings

import numpy as np

from tapeflow.distribute.collective import on_chief
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.variables import Variable
from tapeflow.train import checkpoint_format as fmt
from tapeflow.train import files
from tapeflow.train.trackable import Trackable, checkpoint_children, children_of, is_trackable


class Checkpoint(Trackable):
    """Checkpoint(model=..., optimizer=..., step=...): saves and restores every
    variable reachable from the named objects."""

    def __init__(self, root=None, **kwargs):
        children = dict(kwargs)
        if root is not None:
            children["root"] = root
        # TF: `root` is the checkpoint's root object (its attributes are the top-level names,
        # "v/.ATTRIBUTES/..." not "root/v/..."), the keyword objects added beside them.
        self._root = root if root is not None and not isinstance(root, Variable) else None
        for name, obj in children.items():
            if not is_trackable(obj):
                raise ValueError(with_location(
                    f"Checkpoint: {name}={type(obj).__name__} is not trackable; pass models, layers, "
                    f"optimizers, metrics, variables or other checkpoints"))
        self._children = children
        self._save_counter = None
        self._pending_roots = {}  # root name -> checkpoint path: restored when the attribute is set

    # Keyword objects read back as attributes, and a trackable set as an attribute
    # later is a child (saved, restored), as on TensorFlow's AutoTrackable.
    def __getattr__(self, name):
        children = self.__dict__.get("_children", {})
        if name in children:
            return children[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        if name.startswith("_") or hasattr(type(self), name):
            object.__setattr__(self, name, value)
            return
        if not is_trackable(value):
            self._children.pop(name, None)
            object.__setattr__(self, name, value)
            return
        self.__dict__.pop(name, None)
        self._children[name] = value
        path = self._pending_roots.pop(name, None)
        if path is not None:  # deferred restoration of a checkpoint restored before
            fmt.read_objects(path, {name: value})

    @property
    def save_counter(self):
        """The number of save() calls, saved with the checkpoint (made on first use)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter")
            path = self._pending_roots.pop("save_counter", None)
            if path is not None:  # read() before it existed: TF restores it on creation
                fmt.read_objects(path, {"save_counter": self._save_counter})
        return self._save_counter

    def _trackable_children(self, version=fmt.VERSION):
        children = dict(self._children)
        if self._root is not None:
            children.pop("root")
            root = children_of(self._root) if version == 1 else checkpoint_children(self._root)
            children = {**root, **children}
        if self._save_counter is not None:
            children["save_counter"] = self._save_counter
        return children

    def _roots(self, version=fmt.VERSION):
        """The top-level objects, named as checkpoints of format `version` name them."""
        return self._trackable_children(version)

    def write(self, file_prefix, options=None):
        """Write to exactly `file_prefix` (no numbering, no state file); returns the path."""
        return fmt.write_objects(file_prefix, self._roots())

    def save(self, file_prefix, options=None):
        """Write to `file_prefix-N` (N = save_counter after incrementing) and record it
        as the latest checkpoint of its directory; returns the path."""
        counter = self.save_counter
        counter.assign_add(convert_to_tensor(1, counter.dtype))
        path = f"{os.fspath(file_prefix)}-{int(counter.numpy())}"

        def write():
            written = fmt.write_objects(path, self._roots())
            state = _read_state(os.path.dirname(written))
            names = [p for p in state if p != os.path.basename(written)] + [os.path.basename(written)]
            _write_state(os.path.dirname(written), names)
            return written
        try:
            return on_chief(write)
        except BaseException:
            counter.assign_sub(convert_to_tensor(1, counter.dtype))
            raise

    def read(self, save_path, options=None):
        """restore() without making save_counter first (its value waits until it is made)."""
        version, index = fmt.read_versioned_index(save_path)
        status = fmt.read_objects(save_path, self._roots(version))
        self._defer_unmatched(save_path, version, index)
        return status

    def restore(self, save_path, options=None):
        """Restore from `save_path` (None: nothing to restore, for restore-or-initialize)."""
        if save_path is None:
            return fmt.InitializationOnlyStatus()
        version, index = fmt.read_versioned_index(save_path)
        if self._save_counter is None and "save_counter" in index:
            self.save_counter  # make it so the saved count is restored and numbering continues
        status = fmt.read_objects(save_path, self._roots(version))
        self._defer_unmatched(save_path, version, index)
        return status

    def _defer_unmatched(self, save_path, version, index):
        """Checkpointed roots no object is attached to yet are restored when one is."""
        roots = self._roots(version)
        for key in index:
            root = key.split("/", 1)[0]
            if root not in roots and not root.startswith("_"):
                self._pending_roots[root] = os.fspath(save_path)


# -------------------------------------------------------------- state file
def _state_path(directory):
    return os.path.join(directory, fmt.STATE_FILE)


def _plain_name(name):
    """A name the state file may hold: one plain entry of its own directory."""
    return isinstance(name, str) and name not in ("", ".", "..") and not name.startswith(".") \
        and "/" not in name and "\\" not in name and "\0" not in name and os.path.basename(name) == name


def _read_state(directory):
    """Names of the checkpoints in `directory`, oldest first.  Only plain names of
    entries inside `directory` are trusted (a state file naming "../elsewhere" or
    an absolute path must not make another directory's files "latest", or
    deletable by the next save)."""
    path = _state_path(directory)
    try:
        text = files.read_limited(path, directory, fmt.MAX_INDEX_BYTES)
        state = json.loads(text.decode("utf-8"))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise fmt._named(exc, path, "reading") from exc  # noqa: SLF001
    except (ValueError, RecursionError) as exc:
        raise fmt.CheckpointError(with_location(f"checkpoint state file {path!r} cannot be read: {exc}")) from None
    names = state.get("all_model_checkpoint_paths", []) if isinstance(state, dict) else None
    if not isinstance(names, list):
        raise fmt.CheckpointError(with_location(f"checkpoint state file {path!r} has no list of checkpoints"))
    trusted = [n for n in names if _plain_name(n)]
    if len(trusted) != len(names):
        warnings.warn(f"checkpoint state file {path!r} names entries outside its directory; they are ignored: "
                      f"{[n for n in names if not _plain_name(n)][:5]!r}", RuntimeWarning, stacklevel=3)
    return trusted


def _write_state(directory, names):
    """Replace the state file atomically (a new file renamed over the old one)."""
    tmp = files.temp_name(_state_path(directory))
    try:
        files.write_json(tmp, {"model_checkpoint_path": names[-1] if names else None,
                               "all_model_checkpoint_paths": names})
        os.replace(tmp, _state_path(directory))
    except OSError as exc:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise fmt._named(exc, _state_path(directory)) from exc  # noqa: SLF001
    files.fsync_dir(directory)


def record_saved(directory, name, keep):
    """Name checkpoint `name` newest in the state file of `directory`, keeping those earlier
    entries (still on disk) whose names are in `keep`: a TF1 Saver's write_state."""
    names = [n for n in _read_state(directory) if n in keep and n != name and _exists(directory, n)]
    _write_state(directory, names + [name])


def _exists(directory, name):
    folder = fmt.resolve(os.path.join(directory, name))
    return os.path.isfile(os.path.join(folder, fmt.INDEX))


def latest_checkpoint(checkpoint_dir):
    """The path of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    names = [n for n in _read_state(checkpoint_dir) if _exists(checkpoint_dir, n)]
    return os.path.join(checkpoint_dir, names[-1]) if names else None


class CheckpointState:
    """What tf.train.get_checkpoint_state returns: the newest checkpoint and the recorded ones."""

    def __init__(self, model_checkpoint_path, all_model_checkpoint_paths):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)

    def __repr__(self):
        return (f"CheckpointState(model_checkpoint_path={self.model_checkpoint_path!r}, "
                f"all_model_checkpoint_paths={self.all_model_checkpoint_paths!r})")


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The checkpoint state of `checkpoint_dir` (paths joined to it), or None without one."""
    if latest_filename is not None:
        raise NotImplementedError("get_checkpoint_state: latest_filename is not supported (one state file)")
    checkpoint_dir = os.fspath(checkpoint_dir)
    names = [n for n in _read_state(checkpoint_dir) if _exists(checkpoint_dir, n)]
    if not names:
        return None
    return CheckpointState(os.path.join(checkpoint_dir, names[-1]), [os.path.join(checkpoint_dir, n) for n in names])


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
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError(with_location("CheckpointManager: `step_counter` should be passed if "
                                           "`checkpoint_interval` is not None."))
        self._step_counter, self._interval, self._last_step = step_counter, checkpoint_interval, None
        self._last_kept_time = time.time()
        os.makedirs(self.directory, exist_ok=True)
        self._names = [n for n in _read_state(self.directory) if _exists(self.directory, n)]

    @property
    def checkpoints(self):
        return [os.path.join(self.directory, n) for n in self._names]

    @property
    def latest_checkpoint(self):
        return self.checkpoints[-1] if self._names else None

    @property
    def checkpoint_interval(self):
        return self._interval

    @property
    def checkpoint(self):
        return self._checkpoint

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """The path written, or None when checkpoint_interval steps have not passed since the
        last save (check_interval=False saves anyway)."""
        if self._interval is not None:
            step = int(np.asarray(convert_to_tensor(self._step_counter).numpy()))
            if check_interval and self._last_step is not None and step < self._last_step + self._interval:
                return None
            self._last_step = step
        if checkpoint_number is None:
            counter = self._checkpoint.save_counter
            counter.assign_add(convert_to_tensor(1, counter.dtype))
            number = int(counter.numpy())
        else:
            number = int(checkpoint_number)
        name = f"{self._name}-{number}"
        # Crash-safe order: the new checkpoint is complete and published, then the
        # state file names it (atomically) together with the ones kept, and only
        # then are the others deleted.  A kill at any point leaves a state file that
        # names only complete checkpoints, the newest completed one among them.
        # Across MPI ranks the chief does all of it and the others wait for it.
        def write():
            fmt.write_objects(os.path.join(self.directory, name), self._checkpoint._roots())
            keep, drop = self._plan([n for n in self._names if n != name] + [name])
            _write_state(self.directory, keep)
            for old in drop:
                files.remove_dir(os.path.join(self.directory, old))
            return keep
        self._names = on_chief(write)
        return os.path.join(self.directory, name)

    def _plan(self, names):
        """(names kept, names to delete): the newest max_to_keep, except that one
        checkpoint per keep_checkpoint_every_n_hours leaves the list but stays on disk."""
        keep, drop = list(names), []
        if self._max_to_keep is None:
            return keep, drop
        while len(keep) > self._max_to_keep:
            oldest = keep.pop(0)
            if self._keep_hours and time.time() - self._last_kept_time >= self._keep_hours * 3600:
                self._last_kept_time = time.time()
                continue
            drop.append(oldest)
        return keep, drop

    def restore_or_initialize(self):
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


def Saver(*args, **kwargs):  # noqa: N802 - TensorFlow 1's class name
    """tf.train.Saver (TensorFlow 1 graph mode) is not provided: a clear error naming the replacement."""
    raise NotImplementedError(with_location(
        "tf.train.Saver: TensorFlow 1 graph-mode tf.train.Saver is not supported by tapeflow; save and "
        "restore with tf.train.Checkpoint(model=..., optimizer=...).save(prefix) / .restore(path), or, "
        "for a list of variables, tf.contrib.eager.Saver(variables)"))

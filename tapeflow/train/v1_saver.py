"""tf.compat.v1.train.Saver as TensorFlow 2 runs it eagerly: it needs an explicit var_list (a
list, or a {name: variable} dict), keys each variable by its name without ':0', ignores the
session argument, records saves in the directory's checkpoint state file (so
tf.train.latest_checkpoint finds them) and keeps the newest max_to_keep.  tf.contrib.eager.Saver
is the same object with TF 1.x eager's (prefix, global_step) signatures."""
import os

from tapeflow.runtime.errors import with_location
from tapeflow.runtime.variables import Variable
from tapeflow.train import checkpoint_format as fmt
from tapeflow.train import files
from tapeflow.train.checkpoint_classes import record_saved


class VariableSaver:
    """The variables of a var_list by key, and writing / reading them as one checkpoint."""

    def __init__(self, var_list, who):
        self._who = who
        items = var_list.items() if isinstance(var_list, dict) else [(None, v) for v in var_list]
        self._vars = {}
        for name, var in items:
            if not isinstance(var, Variable):
                raise TypeError(with_location(f"{who}: expected tf.Variable objects, got {type(var).__name__}"))
            key = name if name is not None else var.name.split(":")[0]
            if key in self._vars and self._vars[key] is not var:
                raise ValueError(with_location(
                    f"{who}: two variables are named {key!r}; pass a {{name: variable}} dict"))
            self._vars[key] = var

    def _write(self, path, global_step):
        path = os.fspath(path)
        if global_step is not None:
            step = global_step.numpy() if hasattr(global_step, "numpy") else global_step
            path = f"{path}-{int(step)}"
        return fmt.write_values(path, list(self._vars.items()), name_based=True)

    def _read(self, path):
        """Assigns every saved value to its variable; everything is checked before any assignment."""
        path = os.fspath(path)
        entries = fmt.read_index(path)
        arrays = {}
        for key, var in self._vars.items():
            if key not in entries:
                raise ValueError(with_location(
                    f"{self._who}.restore: {path!r} has no value for variable {key!r} (it holds {sorted(entries)})"))
            array = fmt.load_array(path, key, entries[key])
            if tuple(array.shape) != tuple(var.shape):
                raise ValueError(with_location(
                    f"{self._who}.restore: variable {key!r} has shape {list(var.shape)}, "
                    f"the checkpoint holds shape {list(array.shape)}"))
            arrays[key] = array.astype(var.dtype.as_numpy_dtype)
        for key, var in self._vars.items():
            var.assign(arrays[key])


class Saver(VariableSaver):
    """tf.compat.v1.train.Saver(var_list, max_to_keep=5, ...).save(sess, path) / .restore(sess, path)."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=None, pad_step_number=False, save_relative_paths=False, filename=None):
        if var_list is None:
            raise RuntimeError(with_location(
                "When eager execution is enabled, `var_list` must specify a list or dict of variables to save"))
        super().__init__(var_list, "tf.compat.v1.train.Saver")
        self._max_to_keep = max_to_keep
        self._last = []

    @property
    def last_checkpoints(self):
        return list(self._last)

    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False):
        """Writes the variables to save_path (save_path-<step> with global_step); returns that path."""
        path = self._write(save_path, global_step)
        self._last = [p for p in self._last if p != path] + [path]
        dropped = []
        if self._max_to_keep:
            dropped, self._last = self._last[:-self._max_to_keep], self._last[-self._max_to_keep:]
        if write_state:
            directory, name = os.path.split(os.path.abspath(path))
            record_saved(directory, name, {os.path.basename(p) for p in self._last})
        for old in dropped:
            files.remove_dir(old)
        return path

    def restore(self, sess, save_path):
        if save_path is None:
            raise ValueError(with_location("Can't load save_path when it is None."))
        self._read(save_path)

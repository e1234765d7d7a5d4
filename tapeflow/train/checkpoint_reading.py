"""Reading checkpoints without the objects that wrote them: tf.train.load_checkpoint
(a CheckpointReader), tf.train.checkpoints_iterator (new checkpoints as they appear),
and tf.train.CheckpointOptions (accepted by Checkpoint.save / write / read / restore)."""
import os
import time

from tapeflow.runtime.errors import NotFoundError
from tapeflow.runtime import dtypes
from tapeflow.train import checkpoint_format as fmt
from tapeflow.train.checkpoint_classes import latest_checkpoint


class CheckpointOptions:
    """Options of a checkpoint write or read.  Writes are synchronous in tapeflow (an async
    request is done before save returns, which TensorFlow's sync() would also wait for);
    experimental_skip_slot_variables=True is refused (not implemented)."""
    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint", "experimental_write_callbacks",
                 "enable_async", "experimental_skip_slot_variables", "experimental_sharding_callback")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_skip_slot_variables=False,
                 experimental_sharding_callback=None):
        if experimental_skip_slot_variables:
            raise NotImplementedError("CheckpointOptions: experimental_skip_slot_variables=True is not implemented")
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = bool(experimental_enable_async_checkpoint)
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = bool(enable_async)
        self.experimental_skip_slot_variables = False
        self.experimental_sharding_callback = experimental_sharding_callback


class CheckpointReader:
    """Keys, shapes, dtypes and values of one checkpoint (keys as list_variables names them)."""

    def __init__(self, path):
        self._path = path
        self._keys = {k: shape for k, shape in fmt.list_variables(path)}

    def get_variable_to_shape_map(self):
        return dict(self._keys)

    def get_variable_to_dtype_map(self):
        return {k: (dtypes.string if k == fmt.OBJECT_GRAPH_KEY else dtypes.as_dtype(self.get_tensor(k).dtype))
                for k in self._keys}

    def has_tensor(self, key):
        return key in self._keys

    def get_tensor(self, key):
        if key not in self._keys:
            raise NotFoundError(f"Key {key} not found in checkpoint")
        if key == fmt.OBJECT_GRAPH_KEY:
            raise NotImplementedError("CheckpointReader: the object graph is not stored as a serialized proto")
        return fmt.load_variable(self._path, key)


def _resolve(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path) and not os.path.isfile(os.path.join(path, fmt.INDEX)):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return latest
    return path


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader of a checkpoint path, or of the newest checkpoint of a directory."""
    return CheckpointReader(_resolve(ckpt_dir_or_file))


def _wait_for_new(checkpoint_dir, last, timeout):
    deadline = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if deadline is not None and time.time() >= deadline:
            return None
        time.sleep(0.05)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new newest checkpoint of checkpoint_dir; stop once none appears within
    `timeout` seconds (unless timeout_fn is given and returns False: then wait again)."""
    last = None
    while True:
        path = _wait_for_new(checkpoint_dir, last, timeout)
        if path is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        start = time.time()
        yield path
        last = path
        remaining = min_interval_secs - (time.time() - start)
        if remaining > 0:
            time.sleep(remaining)

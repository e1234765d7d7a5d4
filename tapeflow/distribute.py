"""tf.distribute on one device: the default strategy, OneDeviceStrategy and a
single-replica MirroredStrategy.

tapeflow runs one replica, so every strategy here has num_replicas_in_sync == 1:
`run(fn, args)` calls fn once, `reduce` of a per-replica value is the value (or
its reduction along `axis`), datasets are passed through unchanged.  A program
written for a strategy therefore computes what it would on one device.
"""
import contextlib
import enum
import threading

from tapeflow.runtime.devices import device as _device, list_logical_devices, parse_device
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import reduce_ops


class ReduceOp(enum.Enum):
    SUM = "SUM"
    MEAN = "MEAN"


class InputContext:
    """What distribute_datasets_from_function passes to its function (one pipeline)."""

    num_input_pipelines = 1
    input_pipeline_id = 0
    num_replicas_in_sync = 1

    def get_per_replica_batch_size(self, global_batch_size):
        return global_batch_size


class ReplicaContext:
    """tf.distribute.get_replica_context() inside Strategy.run (or outside any strategy)."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.num_replicas_in_sync = 1
        self.replica_id_in_sync_group = 0

    def all_reduce(self, reduce_op, value, options=None):
        return value  # the sum or mean over one replica is the value itself

    def merge_call(self, merge_fn, args=(), kwargs=None):
        return merge_fn(self.strategy, *args, **(kwargs or {}))


class _Local(threading.local):
    def __init__(self):
        self.stack = []  # strategies whose scope() is open
        self.in_replica = 0  # depth of Strategy.run calls


_local = _Local()


class Strategy:
    """The single-device strategy every tapeflow program runs under."""

    def __init__(self, device_name=None):
        self._device = device_name
        self.extended = self
        self.cluster_resolver = None

    @property
    def num_replicas_in_sync(self):
        return 1

    @contextlib.contextmanager
    def scope(self):
        _local.stack.append(self)
        try:
            if self._device is None:
                yield self
            else:
                with _device(self._device):
                    yield self
        finally:
            _local.stack.pop()

    def run(self, fn, args=(), kwargs=None, options=None):
        _local.in_replica += 1
        try:
            if self._device is None:
                return fn(*args, **(kwargs or {}))
            with _device(self._device):
                return fn(*args, **(kwargs or {}))
        finally:
            _local.in_replica -= 1

    def reduce(self, reduce_op, value, axis=None):
        """The reduction over replicas (one here) and, with `axis`, along it."""
        op = _reduce_op(reduce_op)
        if axis is None:
            return value
        return (reduce_ops.reduce_sum if op is ReduceOp.SUM else reduce_ops.reduce_mean)(value, axis=axis)

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(InputContext())

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_local_results(self, value):
        return (value,)

    def gather(self, value, axis):
        return value

    def __repr__(self):
        return f"<{type(self).__name__} on {self._device or 'the default device'}>"


def _reduce_op(op):
    if isinstance(op, ReduceOp):
        return op
    try:
        return ReduceOp(str(op).upper())
    except ValueError:
        raise ValueError(with_location(f"reduce: unknown reduce_op {op!r}; use tf.distribute.ReduceOp.SUM "
                                       f"or MEAN")) from None


class OneDeviceStrategy(Strategy):
    """Places the variables and computation made in scope()/run() on `device`."""

    def __init__(self, device):
        kind, index = parse_device(device)
        super().__init__(f"/device:{kind}:{index}")


class MirroredStrategy(Strategy):
    """Mirroring over one device (tapeflow runs a single replica); more than one
    device is an error rather than a silent single-device run."""

    def __init__(self, devices=None, cross_device_ops=None):
        devices = list(devices) if devices is not None else None
        if devices is not None and len(devices) > 1:
            raise ValueError(with_location(
                f"MirroredStrategy: tapeflow runs one replica; got {len(devices)} devices {devices}"))
        if devices:
            kind, index = parse_device(devices[0])
            name = f"/device:{kind}:{index}"
        else:
            gpus = list_logical_devices("GPU")
            name = gpus[0].name if gpus else None
        super().__init__(name)


_DEFAULT = Strategy()


def get_strategy():
    """The strategy whose scope() is open, else the default single-device one."""
    return _local.stack[-1] if _local.stack else _DEFAULT


def has_strategy():
    return bool(_local.stack)


def in_cross_replica_context():
    return _local.in_replica == 0


def get_replica_context():
    """The replica context inside Strategy.run or outside any scope; None in a
    cross-replica scope (as TensorFlow)."""
    if _local.in_replica or not _local.stack:
        return ReplicaContext(get_strategy())
    return None


MultiWorkerMirroredStrategy = MirroredStrategy

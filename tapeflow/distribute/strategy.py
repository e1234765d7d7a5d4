"""tf.distribute strategies: the default one, OneDeviceStrategy, MirroredStrategy
and CentralStorageStrategy over this process's devices, and
MultiWorkerMirroredStrategy over processes (MPI).

A strategy holds a collective engine (collective.py).  Under mpiexec a
MultiWorkerMirroredStrategy has one replica per process: `run(fn, args)` calls
fn once on this process's replica (its per-replica values are plain local
tensors, as TF's with one local replica), `reduce` and
`ReplicaContext.all_reduce` sum across processes, and variables made in
`scope()` or `run()` take rank 0's initial value.  Every other strategy, and a
MultiWorkerMirroredStrategy started without a launcher, is one replica and
computes what one device would.
"""
import contextlib
import enum
import threading

import numpy as np

from tapeflow.runtime import variables as variables_mod
from tapeflow.runtime.devices import device as _device, list_logical_devices, parse_device
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import math_ops, reduce_ops
from tapeflow.runtime.registry import state
from tapeflow.runtime.tensor import Tensor, convert_to_tensor

from . import collective, input as input_mod, mirrored, reduce as reduce_mod


class ReduceOp(enum.Enum):
    SUM = "SUM"
    MEAN = "MEAN"


class ReplicaContext:
    """tf.distribute.get_replica_context() inside Strategy.run (or outside any strategy)."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.num_replicas_in_sync = strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        from tapeflow.runtime import dtypes
        local = len(self.strategy._local_devices)
        return convert_to_tensor(self.strategy._engine.rank * local + mirrored.replica_id(), dtypes.int32)

    def all_reduce(self, reduce_op, value, options=None):
        """The sum (or mean) over replicas of every tensor in the structure `value`."""
        from tapeflow.runtime import nest
        op = _reduce_op(reduce_op)
        flat = [convert_to_tensor(v) for v in nest.flatten(value)]
        n = self.strategy.num_replicas_in_sync
        if n > 1:
            flat = (mirrored.sum_in_replica(flat) if mirrored.in_local_replica() else
                    reduce_mod.all_reduce_sum(self.strategy._engine, flat, self.strategy._bucket_bytes))
            if op is ReduceOp.MEAN:
                flat = [math_ops.divide(t, math_ops.cast(n, t.dtype)) for t in flat]
        return nest.pack_sequence_as(value, flat)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        if mirrored.in_local_replica():
            return mirrored.merge_in_replica(self.strategy, merge_fn, args, kwargs, _cross_replica)
        with _cross_replica():
            return merge_fn(self.strategy, *args, **(kwargs or {}))


@contextlib.contextmanager
def _cross_replica():
    _local.in_replica -= 1  # merge_fn runs in the cross-replica context
    try:
        yield
    finally:
        _local.in_replica += 1


class _Local(threading.local):
    def __init__(self):
        self.stack = []  # strategies whose scope() (or run()) is open
        self.in_replica = 0  # depth of Strategy.run calls


_local = _Local()


class Strategy:
    """One replica on one device: the strategy every tapeflow program runs under.
    (MirroredStrategy over several devices overrides what its local replicas change.)"""

    _local_devices = (None,)  # the devices of this process's replicas

    def __init__(self, device_name=None):
        self._device = device_name
        self._engine = collective.Local()
        self._bucket_bytes = reduce_mod.DEFAULT_BUCKET_BYTES
        self.extended = _Extended(self)
        self.cluster_resolver = None

    @property
    def num_replicas_in_sync(self):
        return self._engine.size * len(self._local_devices)

    @contextlib.contextmanager
    def _entered(self):
        _local.stack.append(self)
        created = self._creation_hook()
        variables_mod.creation_hooks.append(created)
        try:
            if self._device is None:
                yield self
            else:
                with _device(self._device):
                    yield self
        finally:
            variables_mod.creation_hooks.remove(created)
            _local.stack.pop()

    def _creation_hook(self):
        engine = self._engine

        def created(var):
            var._distribute_strategy = self
            if engine.size > 1:  # every rank makes the same variables in the same order (SPMD)
                var._value = Tensor(engine.broadcast(np.asarray(var._value._value), root=0))
        return created

    def scope(self):
        return self._entered()

    def run(self, fn, args=(), kwargs=None, options=None):
        with self._entered():
            _local.in_replica += 1
            try:
                return fn(*args, **(kwargs or {}))
            finally:
                _local.in_replica -= 1

    def reduce(self, reduce_op, value, axis=None):
        """The reduction over replicas and, with `axis`, along it (a MEAN along an
        axis divides by the number of elements along it on every replica)."""
        op = _reduce_op(reduce_op)
        value = convert_to_tensor(value)
        n = self.num_replicas_in_sync
        if axis is None:
            if n == 1:
                return value
            total = reduce_mod.all_reduce_sum(self._engine, [value], self._bucket_bytes)[0]
            return total if op is ReduceOp.SUM else math_ops.divide(total, math_ops.cast(n, total.dtype))
        local = reduce_ops.reduce_sum(value, axis=axis)
        count = value.shape.as_list()[axis]
        if n > 1:
            local = reduce_mod.all_reduce_sum(self._engine, [local], self._bucket_bytes)[0]
            count = sum(self._engine.allreduce_counts(count))
        if op is ReduceOp.SUM:
            return local
        if n == 1:
            return reduce_ops.reduce_mean(value, axis=axis)
        return math_ops.divide(local, math_ops.cast(count, local.dtype))

    def experimental_distribute_dataset(self, dataset, options=None):
        return input_mod.DistributedDataset(dataset, self._engine, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        e = self._engine
        dataset = dataset_fn(input_mod.InputContext(e.size, e.rank, e.size))
        return dataset if e.size == 1 else input_mod.PerReplicaDataset(dataset, e)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_local_results(self, value):
        return (value,)

    def gather(self, value, axis):
        """Every replica's value concatenated along `axis`, eagerly or in a tf.function."""
        if self.num_replicas_in_sync == 1:
            return value
        return reduce_mod.gather(self._engine, value, axis)

    def __repr__(self):
        return f"<{type(self).__name__} on {self._device or 'the default device'}>"


class _Extended:
    """strategy.extended: what optimizers and Keras ask of a strategy."""

    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def worker_devices(self):
        s = self._strategy
        return s._local_devices if s._local_devices[0] else (s._device or "/job:localhost/replica:0/task:0/device:CPU:0",)

    def update(self, var, fn, args=(), kwargs=None, group=True):
        return fn(var, *args, **(kwargs or {}))

    def variable_created_in_scope(self, v):
        return getattr(v, "_distribute_strategy", None) is self._strategy

    @property
    def should_checkpoint(self):
        return self._strategy._engine.rank == 0

    @property
    def should_save_summary(self):
        return self._strategy._engine.rank == 0


class _CentralExtended(_Extended):
    @property
    def worker_devices(self):
        return list(super().worker_devices)  # TF's type here: a list

    @property
    def parameter_devices(self):
        p = self._strategy._parameter_device
        return (p,) if p is not None else ("/job:localhost/replica:0/task:0/device:CPU:0",)


def _reduce_op(op):
    if isinstance(op, ReduceOp):
        return op
    try:
        return ReduceOp(str(getattr(op, "value", op)).upper())
    except ValueError:
        raise ValueError(with_location(f"reduce: unknown reduce_op {op!r}; use tf.distribute.ReduceOp.SUM "
                                       f"or MEAN")) from None


class OneDeviceStrategy(Strategy):
    """Places the variables and computation made in scope()/run() on `device`."""

    def __init__(self, device):
        kind, index = parse_device(device)
        super().__init__(f"/device:{kind}:{index}")


class _LocalReplicas(Strategy):
    """Replicas on the devices of this process: one per device, run in lockstep
    threads (mirrored.py); one device (or none given): one replica."""

    def __init__(self, devices):
        if devices and len(devices) > 1:
            self._local_devices = tuple(devices)
            name = None
        elif devices:
            name = devices[0]
        else:
            gpus = list_logical_devices("GPU")
            name = gpus[0].name if gpus else None
        super().__init__(name)

    def _replicated(self):
        return len(self._local_devices) > 1

    @contextlib.contextmanager
    def _replica_entered(self):
        _local.stack.append(self)
        _local.in_replica += 1
        try:
            yield
        finally:
            _local.in_replica -= 1
            _local.stack.pop()

    def run(self, fn, args=(), kwargs=None, options=None):
        if not self._replicated():
            return super().run(fn, args, kwargs, options)
        with self._entered():
            return mirrored.run_replicas(self._local_devices, self._replica_entered, fn, args, kwargs or {})

    def reduce(self, reduce_op, value, axis=None):
        if not self._replicated():
            return super().reduce(reduce_op, value, axis)
        return mirrored.reduce_values(_reduce_op(reduce_op).value, value, len(self._local_devices), axis)

    def gather(self, value, axis):
        if not self._replicated():
            return super().gather(value, axis)
        return mirrored.gather_values(value, axis)

    def experimental_local_results(self, value):
        return mirrored.local_results(value, len(self._local_devices))

    def experimental_distribute_dataset(self, dataset, options=None):
        if not self._replicated():
            return super().experimental_distribute_dataset(dataset, options)
        return input_mod.LocalReplicasDataset(dataset, len(self._local_devices))

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        if not self._replicated():
            return super().distribute_datasets_from_function(dataset_fn, options)
        n = len(self._local_devices)
        return input_mod.LocalReplicasDataset(dataset_fn(input_mod.InputContext(1, 0, n)), n, per_replica=True)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        n = len(self._local_devices)
        return mirrored.PerReplica([value_fn(ValueContext(r, n)) for r in range(n)])

    def __repr__(self):
        if not self._replicated():
            return super().__repr__()
        return f"<{type(self).__name__} on {', '.join(self._local_devices)}>"


class MirroredStrategy(_LocalReplicas):
    """Variables mirrored on every device of this process, one replica each."""

    def __init__(self, devices=None, cross_device_ops=None):
        devices = [_canonical(d) for d in devices] if devices is not None else None
        if devices is not None and len(set(devices)) != len(devices):  # TF's type and words
            raise AssertionError(with_location(f"No duplicates allowed in `devices` argument: {tuple(devices)}"))
        super().__init__(devices)


class CentralStorageStrategy(_LocalReplicas):
    """tf.distribute.experimental.CentralStorageStrategy: variables on one
    parameter device, replicas on `compute_devices` (a device named twice is two
    replicas, as TF).  tapeflow's local replicas share one copy of each variable
    already, so this computes what MirroredStrategy over those devices does."""

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__([_canonical(d) for d in compute_devices] if compute_devices else None)
        self._parameter_device = parameter_device
        self.extended = _CentralExtended(self)


class ValueContext:
    """What experimental_distribute_values_from_function passes to its function."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync


def _canonical(spec):
    kind, index = parse_device(spec)
    return f"/job:localhost/replica:0/task:0/device:{kind}:{index}"


class CommunicationImplementation(enum.Enum):
    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class CommunicationOptions:
    """tf.distribute.experimental.CommunicationOptions: bytes_per_pack sizes the
    gradient buckets (0: 25 MB), timeout_seconds bounds every collective wait,
    implementation NCCL selects the CuPy/NCCL engine (untested, see the README)."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation


class _ClusterResolver:
    """The MPI world as TF's cluster resolver: task "worker" number `rank`; with no
    launcher, TF's no-cluster values (task_type and task_id None)."""

    def __init__(self, engine, launched):
        self.task_type = "worker" if launched else None
        self.task_id = engine.rank if launched else None
        self._size = engine.size if launched else 0

    def cluster_spec(self):
        return _ClusterSpec({"worker": [f"rank-{i}" for i in range(self._size)]} if self._size else {})

    def num_accelerators(self, *args, **kwargs):
        return {}


class _ClusterSpec:
    def __init__(self, jobs):
        self._jobs = jobs

    def as_dict(self):
        return dict(self._jobs)

    @property
    def jobs(self):
        return list(self._jobs)

    def num_tasks(self, job_name):
        return len(self._jobs.get(job_name, ()))


class MultiWorkerMirroredStrategy(Strategy):
    """One replica per process of the MPI world (one replica without a launcher)."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        super().__init__(None)
        opts = communication_options or CommunicationOptions()
        impl = getattr(opts.implementation, "value", opts.implementation)
        self._engine = collective.world(opts.timeout_seconds, str(impl).upper())
        self._bucket_bytes = opts.bytes_per_pack or reduce_mod.DEFAULT_BUCKET_BYTES
        self.cluster_resolver = _ClusterResolver(self._engine, collective.launched_by_mpi())
        if self._engine.size > 1:
            self._engine.barrier()  # every rank is up before the first variable is mirrored

    def __repr__(self):
        e = self._engine
        return f"<MultiWorkerMirroredStrategy: rank {e.rank} of {e.size} ({e.name})>"


_DEFAULT = Strategy()


def get_strategy():
    """The strategy whose scope() is open, else the default single-device one."""
    return _local.stack[-1] if _local.stack else _DEFAULT


def has_strategy():
    return bool(_local.stack)


def in_cross_replica_context():
    """True in a strategy's scope() outside run() (outside every scope, TF's
    default replica context: False)."""
    return bool(_local.stack) and _local.in_replica == 0


def get_replica_context():
    """The replica context inside Strategy.run or outside any scope; None in a
    cross-replica scope (as TensorFlow)."""
    if _local.in_replica or not _local.stack:
        return ReplicaContext(get_strategy())
    return None


def replica_strategy():
    """The strategy of the Strategy.run being executed (or traced), else None."""
    return _local.stack[-1] if _local.in_replica and _local.stack else None


def chief_engine():
    """The engine when this process is one of several ranks, else None: checkpoint
    writers write on rank 0 (the chief) and the others wait for it."""
    return collective.joined()


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """tf.nn.compute_average_loss: sum(per_example_loss * sample_weight) / global
    batch size (default: this replica's batch times the replicas in sync)."""
    loss = convert_to_tensor(per_example_loss)
    if sample_weight is not None:
        loss = math_ops.multiply(loss, math_ops.cast(convert_to_tensor(sample_weight), loss.dtype))
    if global_batch_size is None:
        from tapeflow.runtime.ops import array_ops
        rows = array_ops.shape(loss)[0] if loss.shape.rank else 1
        global_batch_size = math_ops.multiply(math_ops.cast(rows, loss.dtype),
                                              math_ops.cast(get_strategy().num_replicas_in_sync, loss.dtype))
    total = reduce_ops.reduce_sum(loss)
    return math_ops.divide(total, math_ops.cast(global_batch_size, total.dtype))


def scale_regularization_loss(regularization_loss):
    """tf.nn.scale_regularization_loss: the loss divided by the replicas in sync."""
    loss = convert_to_tensor(regularization_loss)
    return math_ops.divide(loss, math_ops.cast(get_strategy().num_replicas_in_sync, loss.dtype))

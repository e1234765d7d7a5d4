"""tf.distribute's public types that user code names: DistributedValues (isinstance checks
of per-replica results), DistributedDataset / DistributedIterator (the distributed input
and its get_next / get_next_as_optional), the cross-device ops a MirroredStrategy accepts,
RunOptions, InputReplicationMode and experimental_set_strategy."""
import abc
import enum
import threading

from tapeflow.runtime.errors import OutOfRangeError, with_location


class DistributedValues:
    """The base of values that hold one value per replica (PerReplica)."""


class DistributedDataset(abc.ABC):
    """What experimental_distribute_dataset returns across replicas (registered below by
    the classes that implement it)."""


class DistributedIterator:
    """The iterator of a distributed dataset: next(it) and get_next() give one (per-replica)
    element, raising OutOfRangeError at the end (StopIteration for `for`);
    get_next_as_optional() gives a tf.experimental.Optional instead."""

    def __init__(self, elements, element_spec):
        self._elements, self.element_spec = iter(elements), element_spec

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._elements)

    def get_next(self):
        try:
            return next(self._elements)
        except StopIteration:
            raise OutOfRangeError(with_location("DistributedIterator.get_next: End of sequence")) from None

    def get_next_as_optional(self):
        from tapeflow.data.iterator import Optional
        value = next(self._elements, _END)
        return Optional.empty(self.element_spec) if value is _END else Optional.from_value(value)


_END = object()


class InputReplicationMode(enum.Enum):
    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class RunOptions:
    """strategy.run's options: accepted; tapeflow's replicas need none of them (no TPU/XLA)."""

    def __init__(self, experimental_enable_dynamic_batch_size=True, experimental_bucketizing_dynamic_shape=False,
                 experimental_xla_options=None):
        self.experimental_enable_dynamic_batch_size = experimental_enable_dynamic_batch_size
        self.experimental_bucketizing_dynamic_shape = experimental_bucketizing_dynamic_shape
        self.experimental_xla_options = experimental_xla_options


class CrossDeviceOps:
    """How a MirroredStrategy combines its replicas' values.  tapeflow's local replicas share
    one memory, so every choice reduces the same way (a sum in replica order); the classes
    exist so that programs choosing one run, and their reduce/broadcast work on their own."""

    def reduce(self, reduce_op, per_replica_value, destinations, options=None):
        from tapeflow.distribute.mirrored import PerReplica
        from tapeflow.distribute.strategy import _reduce_op
        from tapeflow.runtime.ops import math_ops, reduce_ops
        values = per_replica_value.values if isinstance(per_replica_value, PerReplica) else (per_replica_value,)
        total = reduce_ops.add_n(list(values))
        if _reduce_op(reduce_op).value == "MEAN":
            total = math_ops.divide(total, math_ops.cast(len(values), total.dtype))
        return total

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None):
        return [self.reduce(reduce_op, value, destinations, options) for value, destinations in value_destination_pairs]

    def broadcast(self, tensor, destinations):
        return tensor


class ReductionToOneDevice(CrossDeviceOps):
    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        self.reduce_to_device, self.accumulation_fn = reduce_to_device, accumulation_fn


class HierarchicalCopyAllReduce(CrossDeviceOps):
    def __init__(self, num_packs=1):
        self.num_packs = num_packs


class NcclAllReduce(CrossDeviceOps):
    def __init__(self, num_packs=1):
        self.num_packs = num_packs


_set = threading.local()  # .scope: the scope experimental_set_strategy entered on this thread


def experimental_set_strategy(strategy):
    """Make `strategy` the default of this thread as if its scope() were entered (None: back
    to the default strategy).  Not inside another strategy's scope, as in TF."""
    from tapeflow.distribute import strategy as strategy_mod
    current = getattr(_set, "scope", None)
    if current is not None:
        _set.scope = None
        current.__exit__(None, None, None)
    if strategy is None:
        return
    if strategy_mod.has_strategy():
        raise RuntimeError(with_location("experimental_set_strategy: must not be called inside a "
                                         "`tf.distribute.Strategy` scope"))
    scope = strategy.scope()
    scope.__enter__()
    _set.scope = scope

"""tf.distribute: strategies (one replica, or one per MPI process), their
contexts, distributed input and the collectives they stand on."""
import types as _types

from .input import InputContext, InputOptions
from .mirrored import DistributedValues
from .strategy import (  # noqa: F401
    CommunicationImplementation, CommunicationOptions, MirroredStrategy, MultiWorkerMirroredStrategy,
    OneDeviceStrategy, ReduceOp, ReplicaContext, Strategy, get_replica_context, get_strategy,
    has_strategy, in_cross_replica_context, ValueContext,
)

experimental = _types.SimpleNamespace(
    CommunicationOptions=CommunicationOptions,
    CommunicationImplementation=CommunicationImplementation,
    CollectiveCommunication=CommunicationImplementation,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy,
    ValueContext=ValueContext,
)

__all__ = ["CommunicationImplementation", "CommunicationOptions", "DistributedValues", "InputContext", "InputOptions",
           "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "ReduceOp",
           "ReplicaContext", "Strategy", "experimental", "get_replica_context", "get_strategy",
           "has_strategy", "in_cross_replica_context"]

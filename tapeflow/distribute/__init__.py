"""tf.distribute: strategies (one replica, or one per MPI process), their
contexts, distributed input and the collectives they stand on."""
import types as _types

from .api_types import (  # noqa: F401
    CrossDeviceOps, DistributedDataset, DistributedIterator, DistributedValues, HierarchicalCopyAllReduce,
    InputReplicationMode, NcclAllReduce, ReductionToOneDevice, RunOptions, experimental_set_strategy,
)
from .input import InputContext, InputOptions
from .preemption import PreemptionCheckpointHandler, TerminationConfig
from .strategy import (  # noqa: F401
    CentralStorageStrategy, CommunicationImplementation, CommunicationOptions, MirroredStrategy,
    MultiWorkerMirroredStrategy, OneDeviceStrategy, ReduceOp, ReplicaContext, Strategy, ValueContext, get_replica_context, get_strategy,
    has_strategy, in_cross_replica_context,
)

experimental = _types.SimpleNamespace(
    CentralStorageStrategy=CentralStorageStrategy,
    CommunicationOptions=CommunicationOptions,
    CommunicationImplementation=CommunicationImplementation,
    CollectiveCommunication=CommunicationImplementation,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy,
    PreemptionCheckpointHandler=PreemptionCheckpointHandler,
    TerminationConfig=TerminationConfig,
    ValueContext=ValueContext,
)

__all__ = ["CommunicationImplementation", "CommunicationOptions", "CrossDeviceOps", "DistributedDataset",
           "DistributedIterator", "DistributedValues", "HierarchicalCopyAllReduce", "InputContext",
           "InputOptions", "InputReplicationMode", "MirroredStrategy", "MultiWorkerMirroredStrategy",
           "NcclAllReduce", "OneDeviceStrategy", "ReduceOp", "ReductionToOneDevice", "ReplicaContext",
           "RunOptions", "Strategy", "experimental", "experimental_set_strategy", "get_replica_context",
           "get_strategy", "has_strategy", "in_cross_replica_context"]

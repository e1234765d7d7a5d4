"""Input across replicas: InputContext and the dataset each rank iterates.

experimental_distribute_dataset(ds) with ds batched to the GLOBAL batch size:
every rank reads the whole pipeline (so it must be deterministic: unshuffled or
seeded the same on every rank) and keeps its slice of each global batch, which
is TF's DATA auto-shard policy after rebatching: with global batch B over N
replicas, replica r of step j gets the elements [jB + rB/N, jB + (r+1)B/N).
A global batch that does not split evenly (the last, partial one) is cut into
sizes that differ by at most one, rank order.  FILE (and AUTO on a pipeline
reading files: data/file_shard.py) gives each rank its own files and every
per-replica part of its batches; AUTO without files is DATA; OFF gives every
rank every per-replica batch.
"""
import itertools

import numpy as np

from tapeflow.data import file_shard
from tapeflow.runtime import nest
from tapeflow.runtime.errors import NotFoundError, with_location
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor

from .api_types import DistributedDataset as DistributedDatasetType, DistributedIterator


_END = object()


class InputContext:
    """What distribute_datasets_from_function passes to its function."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size):
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self.num_replicas_in_sync} ")
        return global_batch_size // self.num_replicas_in_sync

    def __repr__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self.input_pipeline_id}, total: "
                f"{self.num_input_pipelines})")


class InputOptions:
    """tf.distribute.InputOptions: accepted (tapeflow prefetches nothing to devices)."""

    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=None,
                 experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


def split_bounds(n, size):
    """[start, stop) of each rank's share of n elements: sizes differ by at most one."""
    base, extra = divmod(n, size)
    stops = np.cumsum([base + (r < extra) for r in range(size)])
    return [(int(stop - (base + (r < extra))), int(stop)) for r, stop in enumerate(stops)]


def slice_batch(element, rank, size):
    """This rank's rows of every component of a global batch."""
    flat = nest.flatten(element)
    if not flat:
        return element
    n = _rows(flat[0])
    start, stop = split_bounds(n, size)[rank]
    out = []
    for t in flat:
        if _rows(t) != n:
            raise ValueError(with_location(
                f"experimental_distribute_dataset: the components of a batch have {n} and {_rows(t)} "
                f"rows; every component must be batched to the same global batch size"))
        out.append(Tensor(np.asarray(t._value if isinstance(t, TensorBase) else t)[start:stop]))
    return nest.pack_sequence_as(element, out)


def _rows(t):
    shape = convert_to_tensor(t).shape.as_list() if not isinstance(t, np.ndarray) else list(t.shape)
    if not shape:
        raise ValueError(with_location(
            "experimental_distribute_dataset: the dataset yields scalars; batch it to the global "
            "batch size first (dataset.batch(global_batch_size))"))
    return shape[0]


class DistributedDataset:
    """The per-replica batches of a globally batched dataset for this rank."""

    def __init__(self, dataset, engine, options=None):
        from tapeflow.data.options import AutoShardPolicy
        self._dataset, self._engine = dataset, engine
        policy = AutoShardPolicy.AUTO
        opts = getattr(dataset, "options", None)
        if opts is not None:
            policy = opts().experimental_distribute.auto_shard_policy
        self._every_batch = policy == AutoShardPolicy.OFF
        self._by_files = policy in (AutoShardPolicy.AUTO, AutoShardPolicy.FILE)
        self._files_only = policy == AutoShardPolicy.FILE

    def __iter__(self):
        return DistributedIterator(self._elements(), self.element_spec)

    def _elements(self):
        size, rank = self._engine.size, self._engine.rank
        if not self._by_files or size == 1:
            for element in self._dataset:
                yield from self._split(element, size, rank, self._every_batch)
            return
        with file_shard.sharding_files(size, rank) as request:
            elements = iter(self._dataset)
            first = next(elements, _END)
            request.close()
            if request.claimed is None and self._files_only:
                raise NotFoundError(with_location(
                    "Found an unshardable source dataset: AutoShardPolicy.FILE needs a pipeline that reads "
                    "files from Dataset.list_files or from a reader given a list of file names (tapeflow "
                    "finds no other file source); use AUTO or DATA"))
            # sharded by files: this rank's own files, every non-empty per-replica
            # part of each batch (TF rebatches, then shards); else DATA: its part of each
            by_files = request.claimed is not None
            for element in itertools.chain([first], elements) if first is not _END else ():
                yield from self._split(element, size, rank, by_files, skip_empty=by_files)

    @staticmethod
    def _split(element, size, rank, every_part, skip_empty=False):
        if not every_part:
            yield slice_batch(element, rank, size)
            return
        for r in range(size):
            part = slice_batch(element, r, size)
            flat = nest.flatten(part)
            if not (skip_empty and flat and _rows(flat[0]) == 0):
                yield part

    def cardinality(self):
        n = int(self._dataset.cardinality())
        if self._files_only and self._engine.size > 1:
            return -2  # UNKNOWN: this rank's share of the files
        return n * self._engine.size if self._every_batch and n >= 0 else n

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __repr__(self):
        return f"<DistributedDataset: rank {self._engine.rank} of {self._engine.size}>"


class PerReplicaDataset(DistributedDataset):
    """distribute_datasets_from_function's result across processes: this rank's
    dataset, already sharded and batched per replica by the user's function."""

    def __init__(self, dataset, engine):
        self._dataset, self._engine, self._every_batch = dataset, engine, False
        self._by_files = self._files_only = False  # the user's function shards (or not)

    def __iter__(self):
        return DistributedIterator(self._dataset, self.element_spec)


class LocalReplicasDataset:
    """What a MirroredStrategy over several devices of this process iterates:
    PerReplica batches.  Globally batched (experimental_distribute_dataset):
    each global batch split in replica order, as DistributedDataset splits it
    across processes; per-replica batched (distribute_datasets_from_function):
    n consecutive batches, one per replica."""

    def __init__(self, dataset, n, per_replica=False):
        self._dataset, self._n, self._per_replica = dataset, n, per_replica

    def __iter__(self):
        return DistributedIterator(self._elements(), self.element_spec)

    def _elements(self):
        from .mirrored import regroup
        n = self._n
        if self._per_replica:
            batches = []
            for element in self._dataset:
                batches.append(element)
                if len(batches) == n:
                    yield regroup(batches, collapse=False)
                    batches = []
            return
        for element in self._dataset:
            yield regroup([slice_batch(element, r, n) for r in range(n)], collapse=False)

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __repr__(self):
        return f"<DistributedDataset over {self._n} local replicas>"


for _implementation in (DistributedDataset, PerReplicaDataset, LocalReplicasDataset):
    DistributedDatasetType.register(_implementation)

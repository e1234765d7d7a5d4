"""fit / evaluate / predict of a model compiled under a strategy with several
replicas (one per MPI process, or several devices of this process), as Keras 3
on tf.distribute:

- every rank reads the same global batches and trains on its slice of each
  (DATA sharding; array inputs are shuffled with rank 0's seed);
- the step runs in Strategy.run, so apply_gradients all-reduces (SUM) the
  gradients of the loss scaled by 1/replicas;
- the logs are the MEAN over replicas of each replica's metrics (Keras 3's
  reduction "auto"), so every rank logs the same global values;
- the progress bar prints on rank 0 only; predict gathers every rank's rows.
Replicas in this process (MirroredStrategy over logical devices) get PerReplica
slices of each batch; they share the metric variables, and the last replica to
run reads them after every replica's update, so its logs are the global ones.
"""
import numpy as np

from tapeflow.distribute import mirrored
from tapeflow.distribute.input import DistributedDataset, LocalReplicasDataset, slice_batch
from tapeflow.runtime import nest


def strategy_of(model):
    """The model's strategy when it has more than one replica, else None."""
    s = model.__dict__.get("_distribute_strategy")
    return s if s is not None and s.num_replicas_in_sync > 1 else None


class Sharded:
    """This rank's slice of every global batch of `data` (the fit loop's batches)."""

    def __init__(self, data, strategy):
        self.data, self.engine, self.local = data, strategy._engine, len(strategy._local_devices)
        rng = getattr(data, "rng", None)
        if rng is not None:  # the same shuffles on every rank: rank 0's seed
            data.rng = np.random.default_rng(self.engine.broadcast_object(int(rng.integers(2**31))))

    def steps(self):
        return self.data.steps()

    def __iter__(self):
        e, n = self.engine, self.local
        for batch in self.data:
            if n > 1:
                yield mirrored.regroup([slice_batch(batch, r, n) for r in range(n)], collapse=False)
            else:
                yield slice_batch(batch, e.rank, e.size)


def shard(data, x, strategy):
    if strategy is None or isinstance(x, (DistributedDataset, LocalReplicasDataset)):
        return data
    return Sharded(data, strategy)


def first_replica(batch):
    """The batch of replica 0 (what builds the model and its metrics)."""
    return mirrored.component(batch, 0)


def run_step(strategy, step, batch, gather=False):
    """The step on every replica: this process's (last local replica's) logs, or
    with `gather` the local replicas' outputs concatenated in replica order."""
    if strategy is None:
        return step(batch)
    out = strategy.run(step, (batch,))
    if len(strategy._local_devices) == 1:
        return out
    if gather:
        return strategy.gather(out, axis=0)
    return strategy.experimental_local_results(out)[-1]


def global_logs(strategy, logs):
    """Each log value averaged over the replicas (one small all-reduce)."""
    if strategy is None or not logs or strategy._engine.size == 1:
        return logs
    keys = sorted(logs)
    total = strategy._engine.allreduce(np.array([logs[k] for k in keys], np.float64))
    n = strategy.num_replicas_in_sync
    means = dict(zip(keys, total / n))
    return {k: float(means[k]) for k in logs}


def gathered(strategy, outputs):
    """Every rank's predictions of one step, in rank (= element) order."""
    if strategy is None or strategy._engine.size == 1:
        return outputs
    return nest.map_structure(lambda a: np.concatenate(strategy._engine.allgather(a), axis=0), outputs)


def chief_verbose(strategy, verbose):
    return verbose if strategy is None or strategy._engine.rank == 0 else 0

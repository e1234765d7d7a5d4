"""fit / evaluate / predict of a model compiled under a strategy with several
replicas (one per MPI process), as Keras 3 on tf.distribute:

- every rank reads the same global batches and trains on its slice of each
  (DATA sharding; array inputs are shuffled with rank 0's seed);
- the step runs in Strategy.run, so apply_gradients all-reduces (SUM) the
  gradients of the loss scaled by 1/replicas;
- the logs are the MEAN over replicas of each replica's metrics (Keras 3's
  reduction "auto"), so every rank logs the same global values;
- the progress bar prints on rank 0 only; predict gathers every rank's rows.
"""
import numpy as np

from tapeflow.distribute.input import DistributedDataset, slice_batch
from tapeflow.runtime import nest


def strategy_of(model):
    """The model's strategy when it has more than one replica, else None."""
    s = model.__dict__.get("_distribute_strategy")
    return s if s is not None and s.num_replicas_in_sync > 1 else None


class Sharded:
    """This rank's slice of every global batch of `data` (the fit loop's batches)."""

    def __init__(self, data, strategy):
        self.data, self.engine = data, strategy._engine
        rng = getattr(data, "rng", None)
        if rng is not None:  # the same shuffles on every rank: rank 0's seed
            data.rng = np.random.default_rng(self.engine.broadcast_object(int(rng.integers(2**31))))

    def steps(self):
        return self.data.steps()

    def __iter__(self):
        e = self.engine
        for batch in self.data:
            yield slice_batch(batch, e.rank, e.size)


def shard(data, x, strategy):
    if strategy is None or isinstance(x, DistributedDataset):
        return data
    return Sharded(data, strategy)


def run_step(strategy, step, batch):
    if strategy is None:
        return step(batch)
    return strategy.run(step, (batch,))


def global_logs(strategy, logs):
    """Each log value averaged over the replicas (one small all-reduce)."""
    if strategy is None or not logs:
        return logs
    keys = sorted(logs)
    total = strategy._engine.allreduce(np.array([logs[k] for k in keys], np.float64))
    n = strategy.num_replicas_in_sync
    means = dict(zip(keys, total / n))
    return {k: float(means[k]) for k in logs}


def gathered(strategy, outputs):
    """Every rank's predictions of one step, in rank (= element) order."""
    if strategy is None:
        return outputs
    return nest.map_structure(lambda a: np.concatenate(strategy._engine.allgather(a), axis=0), outputs)


def chief_verbose(strategy, verbose):
    return verbose if strategy is None or strategy._engine.rank == 0 else 0

"""Stacking elements into batches, with padding for padded_batch."""
import numpy as np

from tapeflow.data import ragged_values
from tapeflow.data.ragged_values import RaggedValue
from tapeflow.runtime.errors import with_location


def _stack_one(parts):
    if type(parts[0]) is RaggedValue:  # a batch of ragged elements: one more ragged dimension
        return ragged_values.stack(parts)
    return np.stack(parts)


def stack(buf):
    try:
        return [_stack_one(parts) for parts in zip(*buf)]
    except ValueError:
        shapes = sorted({tuple(a.shape) for flat in buf for a in flat})
        raise ValueError(with_location(
            f"Dataset.batch: cannot batch elements of different shapes {shapes}; "
            f"use padded_batch")) from None


def pad_stack(buf, targets, pad_value):
    out = []
    for k, parts in enumerate(zip(*buf)):
        rank = parts[0].ndim
        if any(p.ndim != rank for p in parts):
            raise ValueError(with_location(f"Dataset.padded_batch: component {k} changes rank within a batch"))
        widest = [max(p.shape[d] for p in parts) for d in range(rank)]
        if targets is not None and targets[k] is not None:
            target = list(targets[k])
            if len(target) != rank:
                raise ValueError(with_location(
                    f"Dataset.padded_batch: padded shape {target} has rank {len(target)}, "
                    f"component {k} has rank {rank}"))
            for d, t in enumerate(target):
                if t is not None and t != -1:
                    if widest[d] > t:
                        raise ValueError(with_location(
                            f"Dataset.padded_batch: component {k} has size {widest[d]} on axis {d}, "
                            f"larger than the padded shape {target}"))
                    widest[d] = t
        fill = pad_value(k)
        if parts[0].dtype == object:  # strings pad with b"" unless told otherwise, as in tf.data
            fill = b"" if isinstance(fill, int) and fill == 0 else np.asarray(fill, dtype=object)[()]
            fill = fill.encode("utf-8") if isinstance(fill, str) else fill
        batch = np.full([len(parts)] + widest, fill, dtype=parts[0].dtype)
        for i, p in enumerate(parts):
            # A 0-d object array stored into an object array would be stored as an item.
            batch[(i,) + tuple(slice(0, s) for s in p.shape)] = p if p.ndim else p[()]
        out.append(batch)
    return out


def ragged_stack(buf):
    """ragged_batch: every component of the batch becomes ragged along its first dimension."""
    try:
        return [ragged_values.stack(list(parts)) for parts in zip(*buf)]
    except ValueError as exc:
        raise ValueError(with_location(f"Dataset.ragged_batch: {exc}")) from None

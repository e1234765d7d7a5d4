"""Datasets drawn from several datasets: choose_from_datasets (by an index
dataset) and sample_from_datasets (at random, seeded)."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import INFINITE, UNKNOWN
from tapeflow.runtime.errors import with_location


def _check_members(op, datasets):
    datasets = list(datasets)
    if not datasets:
        raise ValueError(with_location(f"Dataset.{op}: expected a non-empty list of datasets"))
    for d in datasets:
        if not isinstance(d, Dataset):
            raise TypeError(with_location(f"Dataset.{op}: expected datasets, got {type(d).__name__}"))
    return datasets


def _first_tmpl(datasets):
    return lambda: datasets[0]._tmpl


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """Element i is the next element of datasets[choice_i] (choice_dataset: int64
    scalars).  A chosen dataset that has ended stops the result
    (stop_on_empty_dataset) or that choice is skipped."""
    datasets = _check_members("choose_from_datasets", datasets)

    def produce():
        its = [iter(d._produce()) for d in datasets]
        for i, (choice,) in enumerate(choice_dataset._produce()):
            if choice.shape != () or choice.dtype != np.int64:
                raise TypeError(with_location(
                    f"Dataset.choose_from_datasets: choices must be int64 scalars, got "
                    f"{choice.dtype}{list(choice.shape)} at element {i}"))
            k = int(choice)
            if not 0 <= k < len(its):
                raise ValueError(with_location(
                    f"Dataset.choose_from_datasets: choice {k} at element {i} is out of range for "
                    f"{len(its)} datasets"))
            flat = next(its[k], None)
            if flat is None:
                if stop_on_empty_dataset:
                    return
                continue
            yield flat

    return Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=_first_tmpl(datasets),
                   parents=datasets + [choice_dataset])


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """Each element from a dataset picked at random with probability proportional to
    `weights` (default uniform).  An ended dataset stops the result
    (stop_on_empty_dataset) or drops out of the draw.  With a seed every pass draws
    the same sequence unless rerandomize_each_iteration."""
    datasets = _check_members("sample_from_datasets", datasets)
    w = np.ones(len(datasets)) if weights is None else np.asarray(S.to_array(weights), np.float64).reshape(-1)
    if w.shape != (len(datasets),) or np.any(w < 0) or not np.isfinite(w).all():
        raise ValueError(with_location(
            f"Dataset.sample_from_datasets: expected {len(datasets)} non-negative weights, got {w.tolist()}"))
    passes = [0]

    def produce():
        if seed is None:
            rng = np.random.default_rng()
        else:
            rng = np.random.default_rng([int(seed), passes[0]] if rerandomize_each_iteration else int(seed))
            passes[0] += 1
        its = [iter(d._produce()) for d in datasets]
        live = w.copy()
        while live.sum() > 0:
            k = int(rng.choice(len(its), p=live / live.sum()))
            flat = next(its[k], None)
            if flat is None:
                if stop_on_empty_dataset:
                    return
                live[k] = 0.0
                continue
            yield flat

    cards = [d._card for d in datasets]
    card = INFINITE if all(c == INFINITE for c in cards) and not stop_on_empty_dataset else UNKNOWN
    return Dataset(produce, cardinality=card, shapes=None, tmpl_fn=_first_tmpl(datasets),
                   parents=datasets)

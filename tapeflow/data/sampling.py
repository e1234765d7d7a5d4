"""Datasets drawn from several datasets: choose_from_datasets (by an index
dataset) and sample_from_datasets (at random, seeded)."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import INFINITE, UNKNOWN
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.tensor import TensorBase


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
    if choice_dataset._shapes is not None and [(tuple(s), d) for s, d in choice_dataset._shapes] != [((), np.int64)]:
        raise TypeError(with_location(  # TF checks the choices' spec when the data set is made
            "Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` tensors but are "
            f"{choice_dataset.element_spec}."))

    def produce():
        its = [iter(d._produce()) for d in datasets]
        for i, (choice,) in enumerate(choice_dataset._produce()):
            if choice.shape != () or choice.dtype != np.int64:
                raise TypeError(with_location(
                    f"Dataset.choose_from_datasets: choices must be int64 scalars, got "
                    f"{choice.dtype}{list(choice.shape)} at element {i}"))
            k = int(choice)
            if not 0 <= k < len(its):
                raise InvalidArgumentError(with_location(
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


def _logits(datasets, weights):
    """(datasets, logits row or None for a weights data set) as TensorFlow picks them: a
    Python list drops the datasets of weight 0; weights must be float32 or float64."""
    if weights is None:
        return datasets, np.ones((1, len(datasets)), np.float32)
    if isinstance(weights, Dataset):
        return datasets, None
    if not isinstance(weights, TensorBase):
        if len(weights) != len(datasets):
            raise ValueError(with_location(
                f"Dataset.sample_from_datasets: `weights` should have the same length as `datasets` but got "
                f"len(weights)={len(weights)} vs. len(datasets)={len(datasets)}"))
        kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
        datasets, weights = ([d for d, _ in kept], [w for _, w in kept]) if kept else ([datasets[0].take(0)], [1.0])
    w = S.to_array(weights)
    if w.dtype not in (np.float32, np.float64):
        raise TypeError(with_location(
            f"Dataset.sample_from_datasets: `weights` type must be either tf.float32 or tf.float64 but is "
            f"{w.dtype.name}"))
    if w.shape != (len(datasets),):
        raise ValueError(with_location(
            f"Dataset.sample_from_datasets: the shape of `weights` should be compatible with "
            f"[{len(datasets)}] but is {list(w.shape)}"))
    with np.errstate(divide="ignore"):
        return datasets, np.log(w).reshape(1, -1)


def _draw(logits, pair):
    """stateless_multinomial(logits, 1, seed=pair)[0, 0]."""
    counter, key = P.key_counter_from_seed(int(pair[0]), int(pair[1]))
    return int(P.categorical(counter, key, logits, 1, np.int64)[0, 0])


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """TensorFlow's construction: each choice is a stateless categorical draw over
    log(weights), seeded by the next two words of Dataset.random(seed); a chosen dataset
    that has ended stops the result (stop_on_empty_dataset) or the draw is repeated
    (the weights stay as they are)."""
    datasets = _check_members("sample_from_datasets", datasets)
    datasets, logits = _logits(datasets, weights)
    if len(datasets) == 1:
        return datasets[0]
    pairs = Dataset.random(seed, rerandomize_each_iteration).batch(2)
    if logits is None:
        choices = Dataset.zip((weights, pairs))
        draws = lambda flat: _draw(np.log(np.stack(flat[:-1])).reshape(1, -1), flat[-1])
    else:
        choices = pairs
        draws = lambda flat: _draw(logits, flat[0])

    def produce():
        its = [iter(d._produce()) for d in datasets]
        active = len(its)
        for flat in choices._produce():
            k = draws(flat)
            if its[k] is None:
                continue
            out = next(its[k], None)
            if out is not None:
                yield out
                continue
            if stop_on_empty_dataset:
                return
            its[k], active = None, active - 1
            if not active:
                return

    cards = [d._card for d in datasets]
    card = INFINITE if all(c == INFINITE for c in cards) and not stop_on_empty_dataset else UNKNOWN
    return Dataset(produce, cardinality=card, shapes=None, tmpl_fn=_first_tmpl(datasets),
                   parents=datasets)


def _unit(word):
    """A uniform draw in [0, 1) from one word of Dataset.random (32 random bits)."""
    return float(int(word) & 0xFFFFFFFF) / float(1 << 32)


def _mixing(initial, target):
    """TensorFlow's split: with probability m = min_i r_i an element comes from the data
    as it is, otherwise from the rejection sampler accepting class i with probability
    (r_i - m) / (max r - m), where r = target / initial."""
    ratio = target / (initial + np.finfo(np.float32).tiny)
    m, top = ratio.min(), ratio.max()
    accept = (ratio - m) / (top - m) if top > m else np.ones_like(ratio)
    return accept, m


def rejection_resample(dataset, class_func, target_dist, initial_dist=None, seed=None, name=None):
    """(class, element) pairs whose classes follow target_dist, built as TensorFlow builds
    them: sample_from_datasets over the data as it is (weight m) and a rejection sampler
    of it (weight 1 - m), see _mixing.  Without initial_dist the sampler alone runs, on
    the class frequencies seen so far (smoothed by 10 per class, as TensorFlow's
    estimate).  The draws are this library's own: the same distribution as
    TensorFlow's, not the same stream."""
    target = np.asarray(S.to_array(target_dist), np.float64).reshape(-1)
    given = None if initial_dist is None else np.asarray(S.to_array(initial_dist), np.float64).reshape(-1)
    if given is not None and given.shape != target.shape:
        raise ValueError(with_location(
            f"Dataset.rejection_resample: initial_dist has {given.size} classes, target_dist {target.size}"))

    def pair(*element):
        return class_func(*element), element[0] if len(element) == 1 else element

    paired = dataset.map(pair)
    zipped = Dataset.zip((paired, Dataset.random(seed)))

    def produce():
        seen = np.full(target.size, 10.0)
        for flat in zipped._produce():
            c = int(flat[0])
            if not 0 <= c < target.size:
                raise ValueError(with_location(
                    f"Dataset.rejection_resample: class {c} is outside [0, {target.size})"))
            if given is None:
                seen[c] += 1
                ratio = target / (seen / seen.sum())
                accept = ratio / ratio.max()
            else:
                accept = _mixing(given, target)[0]
            if _unit(flat[-1]) < accept[c]:
                yield flat[:-1]

    filtered = Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=lambda: paired._tmpl,
                       parents=(zipped,))
    m = None if given is None else float(_mixing(given, target)[1])
    if m is None or m == 0:
        return filtered
    if m >= 1:
        return paired
    return sample_from_datasets([paired, filtered], [m, 1.0 - m], seed=seed, stop_on_empty_dataset=True)

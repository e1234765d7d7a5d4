"""The random data sets: shuffle and Dataset.random, with TensorFlow's numbers
(ShuffleDatasetOp, RandomDatasetOp; the seeds as in seeds.py)."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.elements import INFINITE, UNKNOWN
from tapeflow.data.seeds import SeedGenerator, WordStream, scalar_value
from tapeflow.runtime.errors import InvalidArgumentError, with_location


def shuffle(ds, buffer_size, seed=None, reshuffle_each_iteration=None):
    """The kernel's streaming shuffle over a ring buffer of buffer_size slots: fill it,
    then emit a random one of the buffered elements, move the oldest into the emitted
    slot and refill.  Memory stays at buffer_size elements (UNKNOWN_CARDINALITY: all)."""
    size = int(scalar_value(buffer_size))
    if size <= 0 and size != UNKNOWN:
        raise InvalidArgumentError(with_location(
            f"Dataset.shuffle: buffer_size must be greater than zero or UNKNOWN_CARDINALITY (-2), got {size}"))
    seeds = SeedGenerator(seed, reshuffle_each_iteration is None or bool(reshuffle_each_iteration))
    source = ds._produce

    def produce():
        word = WordStream(*seeds.next_pair())
        it = iter(source())
        buf, it = ([None] * size, it) if size != UNKNOWN else (list(it), None)   # UNKNOWN: all at once
        cap = len(buf)
        start, end = 0, (0 if it is not None else cap)   # the buffered elements: slots start..end-1 (mod cap)
        while True:
            while it is not None and end - start < cap:
                flat = next(it, None)
                if flat is None:
                    it = None
                    break
                buf[end % cap] = flat
                end += 1
            if start == end:
                return
            pick = (start + word() % (end - start)) % cap
            out, buf[pick] = buf[pick], buf[start % cap]
            buf[start % cap] = None
            start += 1
            yield out

    out = ds._derive(produce)
    # each pass another order: a loop over it inside tf.function is staged (a new pass per call)
    out._reshuffles = reshuffle_each_iteration is None or bool(reshuffle_each_iteration)
    return out


def random(seed=None, rerandomize_each_iteration=None):
    """Endless int64 scalars: the uint32 words of the iterator's Philox stream."""
    from tapeflow.data.dataset import Dataset
    seeds = SeedGenerator(seed, bool(rerandomize_each_iteration))

    def produce():
        word = WordStream(*seeds.next_pair())
        while True:
            yield [np.asarray(word(), np.int64)]

    return Dataset(produce, S.LEAF, INFINITE, [((), np.dtype(np.int64))])

"""The random data sets: shuffle and Dataset.random, with TensorFlow's numbers
(ShuffleDatasetOp, RandomDatasetOp; the seeds as in seeds.py)."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.elements import INFINITE, positive
from tapeflow.data.seeds import SeedGenerator, WordStream


def shuffle(ds, buffer_size, seed=None, reshuffle_each_iteration=None):
    """The kernel's streaming shuffle over a ring buffer of buffer_size slots: fill it,
    then emit a random one of the buffered elements, move the oldest into the emitted
    slot and refill.  Memory stays at buffer_size elements."""
    size = positive(buffer_size, "shuffle")
    seeds = SeedGenerator(seed, reshuffle_each_iteration is None or bool(reshuffle_each_iteration))
    source = ds._produce

    def produce():
        word = WordStream(*seeds.next_pair())
        it = iter(source())
        buf = [None] * size
        start = end = 0                      # the buffered elements are slots start..end-1 (mod size)
        while True:
            while it is not None and end - start < size:
                flat = next(it, None)
                if flat is None:
                    it = None
                    break
                buf[end % size] = flat
                end += 1
            if start == end:
                return
            pick = (start + word() % (end - start)) % size
            out, buf[pick] = buf[pick], buf[start % size]
            buf[start % size] = None
            start += 1
            yield out

    return ds._derive(produce)


def random(seed=None, rerandomize_each_iteration=None):
    """Endless int64 scalars: the uint32 words of the iterator's Philox stream."""
    from tapeflow.data.dataset import Dataset
    seeds = SeedGenerator(seed, bool(rerandomize_each_iteration))

    def produce():
        word = WordStream(*seeds.next_pair())
        while True:
            yield [np.asarray(word(), np.int64)]

    return Dataset(produce, S.LEAF, INFINITE, [((), np.dtype(np.int64))])

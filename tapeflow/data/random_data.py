"""The random data sets: shuffle and Dataset.random, with TensorFlow's numbers
(ShuffleDatasetOp, RandomDatasetOp; the seeds as in seeds.py)."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.elements import INFINITE, PASSES_BEFORE, UNKNOWN
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
        if size == UNKNOWN:  # all at once
            buf = list(it)
            return _emit(word, None, buf, 0, len(buf))
        return _emit(word, it, [None] * size, 0, 0)

    def seek(k, epochs):
        """The pass from output k on without producing the first k: the buffer's state after k
        picks depends only on the random words and the input's length, so it is simulated on
        input indices, then filled from the input read from its oldest buffered element on."""
        n_in = ds._card
        later_pass = seeds.reshuffles and (epochs or {}).get(PASSES_BEFORE, 0)
        if size == UNKNOWN or n_in == UNKNOWN or later_pass:
            # decided before a seed pair is used: the caller replays, drawing the pairs itself
            return None
        word = WordStream(*seeds.next_pair())
        slots, start, end = _simulate(word, size, None if n_in == INFINITE else n_in, k)
        if start == end and n_in != INFINITE and end >= n_in:
            return iter(())
        wanted = {slots[j % size]: j % size for j in range(start, end)}
        first = min(wanted) if wanted else end
        rest = ds._start_at(first, epochs)
        it = iter(source()) if rest is None else iter(rest)
        if rest is None:
            for _ in range(first):
                next(it, None)
        buf = [None] * size
        for index in range(first, end):
            flat = next(it)
            if index in wanted:
                buf[wanted[index]] = flat
        return _emit(word, it, buf, start, end)

    out = ds._derive(produce, seek=seek)
    # each pass another order: a loop over it inside tf.function is staged (a new pass per call)
    out._reshuffles = reshuffle_each_iteration is None or bool(reshuffle_each_iteration)
    return out


def _emit(word, it, buf, start, end):
    """The shuffle from a buffer state: slots start..end-1 (mod len(buf)) are buffered; `it`
    gives the input from element `end` on (None: ended)."""
    cap = len(buf)
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


def _simulate(word, cap, n_in, k):
    """_emit's first k picks on input indices (n_in: the input's length, None: endless):
    (slots of indices, start, end) after them."""
    slots, start, end = [None] * cap, 0, 0
    while start < k:
        while end - start < cap and (n_in is None or end < n_in):
            slots[end % cap] = end
            end += 1
        if start == end:
            break
        pick = (start + word() % (end - start)) % cap
        slots[pick] = slots[start % cap]
        slots[start % cap] = None
        start += 1
    while end - start < cap and (n_in is None or end < n_in):  # the refill before the next pick
        slots[end % cap] = end
        end += 1
    return slots, start, end


def random(seed=None, rerandomize_each_iteration=None):
    """Endless int64 scalars: the uint32 words of the iterator's Philox stream."""
    from tapeflow.data.dataset import Dataset
    seeds = SeedGenerator(seed, bool(rerandomize_each_iteration))

    def produce():
        word = WordStream(*seeds.next_pair())
        while True:
            yield [np.asarray(word(), np.int64)]

    return Dataset(produce, S.LEAF, INFINITE, [((), np.dtype(np.int64))])

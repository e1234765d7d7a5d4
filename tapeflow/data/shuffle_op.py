"""Dataset.shuffle: tf.data's buffered shuffle, and how a pass is resumed part way.

Fill a buffer of buffer_size elements, then repeatedly emit a random one and put
the next input element in its place; when the input ends, emit the rest at random.
Pass e of a seeded shuffle draws from a generator seeded by (seed, e) (the same
order in every process); reshuffle_each_iteration=False draws every pass from the
seed alone; an unseeded reshuffling pass draws from fresh entropy.

Resuming at element k (a restored iterator): the same draws are made over the input
*positions* (integers, not elements), which gives the buffer's positions and the
generator's state after k outputs; only the buffered elements are then produced
(seeking the input to each) and the pass goes on from the next input position.  No
element that was emitted before k is produced again.  Needs an input of known
cardinality that can seek, and a reproducible order (a seed, or no reshuffling).
"""
import itertools

import numpy as np

from tapeflow.data.elements import positive


def _shuffled(rng, buf, inputs, size):
    """The shuffle algorithm over `inputs`, from the buffer `buf` (changed in place,
    so that between two outputs it holds exactly the elements not yet emitted)."""
    for flat in inputs:
        if len(buf) < size:
            buf.append(flat)
            continue
        i = int(rng.integers(len(buf)))
        out, buf[i] = buf[i], flat
        yield out
    while buf:
        i = int(rng.integers(len(buf)))
        buf[i], buf[-1] = buf[-1], buf[i]
        yield buf.pop()


def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
    buffer_size = positive(buffer_size, "shuffle")
    parent, source = self, self._produce
    fixed_seed = seed if seed is not None else int(np.random.SeedSequence().entropy % (2 ** 63))
    epoch = [0]  # passes started: pass e of a seeded reshuffle draws from (seed, e)

    def rng_for(e):
        if not reshuffle_each_iteration:
            return np.random.default_rng(fixed_seed)
        return np.random.default_rng([fixed_seed, e]) if seed is not None else np.random.default_rng()

    def produce():
        rng = rng_for(epoch[0])
        epoch[0] += 1
        return _shuffled(rng, [], source(), buffer_size)

    def seek(k, epochs):
        n = parent._card
        e = (epochs or {}).get(id(epoch))
        if n < 0 or (reshuffle_each_iteration and (seed is None or e is None)):
            return None
        rng = rng_for(e)
        positions, read = [], [0]

        def input_positions():
            for p in range(n):
                read[0] = p + 1
                yield p

        for _ in itertools.islice(_shuffled(rng, positions, input_positions(), buffer_size), k):
            pass
        starts = [parent._start_at(p, epochs) for p in positions] + [parent._start_at(read[0], epochs)]
        if any(it is None for it in starts):
            return None
        buf = [next(it) for it in starts[:-1]]  # the buffered elements, each produced once
        if reshuffle_each_iteration:
            epoch[0] = e + 1  # as just after that pass began (TensorFlow restores its seed state)
        return _shuffled(rng, buf, starts[-1], buffer_size)

    out = self._derive(produce, seek=seek)
    out._epoch = epoch
    out._reshuffles = bool(reshuffle_each_iteration)
    return out

"""The random numbers of tf.data: seed pairs, seed generators and word streams, as
TensorFlow's data kernels make them, so a seeded pipeline gives TensorFlow's order.

- A dataset op takes its seed pair when it is created, by tf.random.get_seed's rule
  (runtime/ops/random_ops.get_seed); a missing half is 0, and (0, 0) -- neither a
  global nor an op seed -- means fresh entropy for both (the kernels' RandomSeeds).
- The data set owns a seed generator.  Each new iterator asks it for its own pair:
  a fixed generator hands out the data set's pair every time (reshuffle off); a
  random one draws two uint32 words from a Philox stream seeded with the data set's
  pair, so every epoch gets the next two words (reshuffle on).
- An iterator draws uint32 words one at a time from Philox seeded with its pair
  (PhiloxRandom(seed, seed2): key = seed, counter high half = seed2), four words
  per Philox call, in order -- TensorFlow's SingleSampleAdapter.
- A data set made inside a tf.function is made anew by every call in TensorFlow: its
  generator starts over on each call.
"""
import contextlib
import copy
import os
import threading

import numpy as np

from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.ops.random_ops import function_scope, get_seed
from tapeflow.runtime.registry import state

_CHUNK = 64   # Philox calls computed at once; the words are the same as one by one


def dataset_seeds(seed):
    """The (seed, seed2) a tf.data op made now holds (tensorflow/python/data/util/random_seed)."""
    seed, seed2 = get_seed(None if seed is None else int(scalar_value(seed)))
    seed = 0 if seed is None else seed
    seed2 = 0 if seed2 is None else seed2
    if seed == 0 and seed2 == 0:
        seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
    return seed, seed2


def scalar_value(value):
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value).reshape(())


class WordStream:
    """uint32 words of Philox seeded with (seed, seed2), in order."""

    def __init__(self, seed, seed2):
        self._counter, self._key = P.from_seeds(seed, seed2)
        self._words, self._next = (), 0

    def __call__(self):
        if self._next == len(self._words):
            self._words = P.blocks(self._counter, self._key, _CHUNK).reshape(-1).tolist()
            self._counter = (self._counter + _CHUNK) & P.M128
            self._next = 0
        self._next += 1
        return self._words[self._next - 1]


class SeedGenerator:
    """The pair each new iterator of one data set starts from (fixed, or drawn in turn)."""

    def __init__(self, seed, reshuffle):
        self._pair = dataset_seeds(seed)
        self._reshuffle = reshuffle
        self._lock = threading.Lock()
        self._reset()
        if state.graph is not None:
            # Made while tracing: TensorFlow makes the data set, and its generator, anew on
            # every call, so each call starts the generator over (a stateful node, in
            # program order before anything takes elements).
            from tapeflow.tracer.py_function import py_function
            py_function(self._reset, [], [])

    def _reset(self):
        with self._lock:
            self._stream = WordStream(*self._pair) if self._reshuffle else None
        return []

    @property
    def reshuffles(self):
        """Whether each pass draws another pair."""
        return self._reshuffle

    def next_pair(self):
        if self._stream is None:
            return self._pair
        with self._lock:
            stream = copy.copy(self._stream) if _peeks[0] else self._stream
            return stream(), stream()


_peeks = [0]   # > 0 while some thread peeks (global: a prefetching thread may do the producing)


@contextlib.contextmanager
def peeking():
    """Within: iterators get the pairs they would get, without using them up.  tapeflow
    looks at a first element to learn a structure TensorFlow knows statically; looking
    must not move the orders of the epochs that follow."""
    from tapeflow.runtime.variables import undone_writes
    _peeks[0] += 1
    try:
        with undone_writes():  # nor the variables the map functions write (a layer's seed state)
            yield
    finally:
        _peeks[0] -= 1


def is_peeking():
    return _peeks[0] > 0


class FunctionStreams:
    """The random state of one instance of a function TF traces once and runs often (a
    tf.data map function, one instance per iterator).  In each eager `call()` the k-th
    random op without an op seed takes op seed k (the k-th traced node's), and every op
    continues its stream from the previous call; a new instance starts over.
    (runtime/ops/random_ops reads it from `function_scope` in get_seed and reserve.)"""

    def __init__(self):
        self.streams, self.count = {}, 0

    @contextlib.contextmanager
    def call(self):
        previous = getattr(function_scope, "current", None)
        self.count = 0
        function_scope.current = self
        try:
            yield
        finally:
            function_scope.current = previous

"""Candidate samplers: tf.random.(uniform|log_uniform|learned_unigram|fixed_unigram|all)_candidate_sampler
(also in tf.nn), with TensorFlow's numbers for a seed.

One stateful primitive draws for every kind.  It follows the CPU kernel: each call reserves
2048 * num_sampled 32-bit words (512 * num_sampled Philox steps) of the op's stream and reads
words one by one from there (SimplePhilox); a draw is
  uniform:         a 64-bit word (two 32-bit words, low first) reduced by rejection to [0, range),
  log_uniform:     int(exp(u * log1p(range))) - 1 with u a 52-bit double from two words,
  learned_unigram: a 32-bit rejection draw in [0, total weight) placed in the cumulative weights
                   (every class starts at weight 1; each call then adds 1 per true class),
  fixed_unigram:   Walker's alias table (a float from one word, then a 32-bit column draw).
unique=True redraws repeats and counts the tries; expected counts are then
1 - (1 - p)^tries (p * num_sampled when no draw was repeated), in float32 as the kernel.
"""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.ops import random_ops as RO
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import convert_to_tensor

_WORDS_PER_SAMPLE = 2048
_M64 = (1 << 64) - 1


class PhiloxWords:
    """SimplePhilox: the uint32 words of a stream position, one at a time."""

    def __init__(self, counter, key):
        self.counter, self.key, self.buffer, self.next_index = counter, key, [], 0

    def restart(self, counter):
        """Continue from Philox position `counter` (a kernel's next reservation)."""
        self.counter, self.buffer, self.next_index = counter, [], 0

    def word(self):
        if self.next_index == len(self.buffer):
            self.buffer = P.blocks(self.counter, self.key, 64).reshape(-1).tolist()
            self.counter, self.next_index = (self.counter + 64) & P.M128, 0
        self.next_index += 1
        return self.buffer[self.next_index - 1]

    def word64(self):
        lo = self.word()
        return lo | (self.word() << 32)

    def below(self, n, bits):
        """ExactUniformInt: uniform in [0, n) from `bits`-bit words (masking for a power of two)."""
        draw = self.word64 if bits == 64 else self.word
        if n & (n - 1) == 0:
            return draw() & (n - 1)
        rem = ((1 << bits) - 1) % n + 1
        value = draw()
        while value < rem:
            value = draw()
        return value % n

    def float64(self):
        hi = self.word()
        return float(P.to_float64(np.array([hi]), np.array([self.word()]))[0])

    def float32(self):
        return P.to_float32(np.array([self.word()], np.uint32))[0]


def _alias_table(weights):
    """Walker's alias table of float32 `weights` (the order TensorFlow pairs buckets in)."""
    n = len(weights)
    total = float(np.sum(weights.astype(np.float64)))
    scaled = [float(w) * n / total for w in weights]
    alt = [-1] * n
    low = [i for i in range(n) if scaled[i] < 1.0]
    high = [i for i in range(n) if scaled[i] >= 1.0]
    while high and low:
        small, big = low.pop(), high.pop()
        alt[small] = big
        scaled[big] -= 1.0 - scaled[small]
        (low if scaled[big] < 1.0 else high).append(big)
    for i in low + high:       # left over only through rounding: keep themselves
        scaled[i], alt[i] = 1.0, i
    return np.asarray(scaled, np.float32), alt


class _Sampler:
    """One kind's draw and probability (the state of a learned sampler lives in `weights`)."""

    def __init__(self, kind, range_max, unigrams):
        self.kind, self.range_max = kind, range_max
        if kind == "log_uniform":
            self.log_range = np.log1p(float(range_max))
        elif kind == "learned_unigram":
            self.weights = np.ones(range_max, np.int64)
        elif kind == "fixed_unigram":
            self.weights = np.asarray(unigrams, np.float32)
            self.total = np.float32(np.sum(self.weights, dtype=np.float32))
            self.prob, self.alt = _alias_table(self.weights)

    def draw(self, words):
        kind = self.kind
        if kind == "uniform":
            return words.below(self.range_max, 64)
        if kind == "log_uniform":
            return (int(np.exp(words.float64() * self.log_range)) - 1) % self.range_max
        if kind == "learned_unigram":
            index = words.below(int(self.weights.sum()), 32)
            return int(np.searchsorted(np.cumsum(self.weights), index, side="right"))
        r = words.float32()
        column = words.below(len(self.weights), 32)
        return column if r < self.prob[column] else self.alt[column]

    def probability(self, values):
        values = np.asarray(values, np.int64)
        if self.kind == "uniform":
            return np.full(values.shape, 1.0 / self.range_max, np.float32)
        if self.kind == "log_uniform":
            return (np.log((values + 2.0) / (values + 1.0)) / self.log_range).astype(np.float32)
        if self.kind == "learned_unigram":
            return (self.weights[values].astype(np.float32) / np.float32(self.weights.sum())).astype(np.float32)
        return (self.weights[values] / self.total).astype(np.float32)


def _expected_count(p, num_sampled, tries):
    if tries == num_sampled:
        return (p * np.float32(num_sampled)).astype(np.float32)
    return (-np.expm1(np.float32(tries) * np.log1p(-p))).astype(np.float32)


def _sampler_impl(xp, true_classes, kind, num_sampled, unique, range_max, unigrams, seed):
    true = np.asarray(true_classes if xp is np else true_classes.get())
    bad = true[(true < 0) | (true >= range_max)]
    if bad.size:
        raise InvalidArgumentError(f"{kind}_candidate_sampler: `true_candidate` out of range [0, {range_max}), "
                                   f"received {int(bad[0])}")
    if kind == "all":
        ones = np.ones(num_sampled, np.float32)
        return tuple(RO.to_xp(xp, a) for a in (np.arange(num_sampled, dtype=np.int64),
                                               np.ones(true.shape, np.float32), ones))
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(f"{kind}_candidate_sampler: Sampler's range is too small "
                                   f"(num_sampled={num_sampled} > range_max={range_max})")
    stream = f"{kind}_candidates/{num_sampled}/{unique}/{range_max}/{hash(unigrams)}"
    sampler = RO.stream_state(stream, seed, lambda: _Sampler(kind, range_max, unigrams))
    words = PhiloxWords(*RO.reserve(stream, dtypes.int64, seed, 0, steps=_WORDS_PER_SAMPLE // 4 * num_sampled))
    picked, seen, tries = [], set(), 0
    while len(picked) < num_sampled:
        tries += 1
        value = sampler.draw(words)
        if not unique or value not in seen:
            seen.add(value)
            picked.append(value)
    sampled_count = _expected_count(sampler.probability(picked), num_sampled, tries)
    true_count = _expected_count(sampler.probability(true), num_sampled, tries)
    if kind == "learned_unigram":          # the kernel learns from the true classes after drawing
        np.add.at(sampler.weights, true.reshape(-1), 1)
    return tuple(RO.to_xp(xp, a) for a in (np.asarray(picked, np.int64), true_count, sampled_count))


def _sampler_rule(true, kind, num_sampled, **_):
    return (Aval((num_sampled,), dtypes.int64), Aval(true.shape, dtypes.float32),
            Aval((num_sampled,), dtypes.float32))


CANDIDATE_SAMPLER = defprim("candidate_sampler", _sampler_impl, _sampler_rule, None,
                            stateful=True, multiple_results=True)


def _sample(kind, true_classes, num_true, num_sampled, unique, range_max, seed, unigrams=()):
    op = f"{kind}_candidate_sampler"
    true = convert_to_tensor(true_classes, dtypes.int64)
    if true.dtype != dtypes.int64:
        raise InvalidArgumentError(with_location(f"{op}: true_classes must be int64, got {true.dtype.name}"))
    if true.shape.rank != 2 or true.shape[1] not in (None, int(num_true)):
        raise InvalidArgumentError(with_location(
            f"{op}: true_classes must be a [batch_size, num_true={num_true}] matrix, got shape {list(true.shape)}"))
    if int(range_max) <= 0:
        raise InvalidArgumentError(with_location(f"{op}: range_max must be positive, got {range_max}"))
    attrs = {"kind": kind, "num_sampled": int(num_sampled), "unique": bool(unique), "range_max": int(range_max),
             "unigrams": tuple(float(u) for u in unigrams), "seed": RO.seed_key(seed)}
    return tuple(bind(CANDIDATE_SAMPLER, (true,), attrs))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """(sampled_candidates, true_expected_count, sampled_expected_count), classes uniform in [0, range_max)."""
    return _sample("uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Zipfian classes: P(c) = log((c + 2) / (c + 1)) / log(range_max + 1)."""
    return _sample("log_uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                      name=None):
    """Classes drawn by counts learned from the true classes of earlier calls (all 1 at first)."""
    return _sample("learned_unigram", true_classes, num_true, num_sampled, unique, range_max, seed)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """Classes drawn by given unigram weights raised to `distortion` (reserved ids get weight 0;
    with num_shards > 1 only the ids of `shard` are kept)."""
    op = "fixed_unigram_candidate_sampler"
    if bool(vocab_file) == bool(len(unigrams)):
        raise InvalidArgumentError(with_location(f"{op}: give exactly one of vocab_file and unigrams"))
    if vocab_file:
        with open(vocab_file) as f:
            unigrams = [line.strip().split(",")[-1] for line in f if line.strip()]
    weights = [0.0] * len([i for i in range(num_reserved_ids) if i % num_shards == shard])
    # The kernel numbers the unigrams from the count of reserved ids this shard kept (not from
    # num_reserved_ids), so which unigrams a shard keeps follows that count.
    weights += [float(np.float32(w) ** np.float32(distortion)) for i, w in
                enumerate((float(u) for u in unigrams), len(weights)) if i % num_shards == shard]
    if len(weights) != int(range_max):
        raise InvalidArgumentError(with_location(
            f"{op}: range is {range_max} must be equal to weights size {len(weights)}"))
    return _sample("fixed_unigram", true_classes, num_true, num_sampled, unique, range_max, seed, weights)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Every class in [0, num_sampled), each with expected count 1."""
    return _sample("all", true_classes, num_true, num_sampled, unique, num_sampled, seed)

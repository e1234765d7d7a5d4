"""tf.random.Generator, stateless random ops (a function of an explicit seed pair)
and tf.random.categorical.

A Generator owns one NumPy bit stream, registered in random_ops.generator_streams
under its number; its draws are the ordinary stateful random primitives keyed
by ("generator", number), so a traced graph draws new numbers on every run and
set_seed() leaves generators alone.  Stateless ops are pure: the seed is an
input tensor and equal seeds give equal numbers, eagerly and in graphs.
"""
import itertools

import numpy as np

from .. import dtypes
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import math_ops as M
from . import random_ops as RO

_generator_numbers = itertools.count()


class Generator:
    """A random number generator with its own state (TensorFlow's tf.random.Generator)."""

    def __init__(self, copy_from=None, state=None, alg=None, _seed=None):
        if copy_from is not None:
            raise NotImplementedError(with_location("Generator(copy_from=...) is not supported; use split()"))
        self._number = next(_generator_numbers)
        RO.generator_streams[self._number] = np.random.default_rng(_seed)
        self._key = ("generator", self._number)

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(_seed=_seed_words(seed))

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls(_seed=None)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return RO.normal_from(self._key, shape, mean, stddev, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return RO.truncated_normal_from(self._key, shape, mean, stddev, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        return RO.uniform_from(self._key, shape, minval, maxval, dtype)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_integer:
            raise TypeError(with_location(f"uniform_full_int: dtype must be an integer type, got {dtype.name}"))
        info = np.iinfo(dtype.np)
        if info.max >= 2 ** 63:  # the generator's integers stop at int64
            raise NotImplementedError(with_location(f"uniform_full_int: {dtype.name} is not supported"))
        return RO.uniform_from(self._key, shape, int(info.min), int(info.max) + 1, dtype)

    def make_seeds(self, count=1):
        """int64 seeds of shape [2, count] for the stateless ops."""
        return RO.uniform_from(self._key, [2, int(count)], 0, 2 ** 62, dtypes.int64)

    def split(self, count=1):
        """`count` new generators seeded from this one's stream."""
        seeds = RO.generator_streams[self._number].integers(0, 2 ** 62, size=(int(count), 2))
        return [Generator(_seed=[int(a), int(b)]) for a, b in seeds]


_global_generator = []


def get_global_generator():
    """The process-wide Generator (non-deterministic until set_global_generator)."""
    if not _global_generator:
        _global_generator.append(Generator.from_non_deterministic_state())
    return _global_generator[0]


def set_global_generator(generator):
    _global_generator[:] = [generator]


def _seed_words(seed):
    """A seed (int, pair, or tensor) as non-negative words for NumPy's SeedSequence."""
    arr = np.asarray(seed.numpy() if hasattr(seed, "numpy") else seed).astype(np.int64).reshape(-1)
    return [int(v) % (2 ** 64) for v in arr]


# --- stateless ---------------------------------------------------------------------------
def _stateless_impl(xp, seed, *dims, shape, dtype, dist, bounds):
    words = [int(v) % (2 ** 64) for v in np.asarray(seed if xp is np else seed.get()).reshape(-1)]
    gen = np.random.default_rng(words)
    size = RO._draw_shape(dims, shape)
    if dist == "normal":
        out = gen.standard_normal(size)
    elif dist == "truncated_normal":
        out = gen.standard_normal(size)
        bad = np.abs(out) > 2
        while bad.any():
            out[bad] = gen.standard_normal(int(bad.sum()))
            bad = np.abs(out) > 2
    elif dtype.is_integer:
        out = gen.integers(bounds[0], bounds[1], size=size)
    else:
        out = gen.random(size)
    return RO.to_xp(xp, out.astype(dtype.np))


def _stateless_rule(seed, *dims, shape, dtype, **_):
    if seed.shape != (2,) or not seed.dtype.is_integer:
        raise TypeError(f"the seed must be an integer tensor of shape [2], got {seed.dtype.name}{list(seed.shape)}")
    return Aval(shape, dtype)


STATELESS_RANDOM = defprim("stateless_random", _stateless_impl, _stateless_rule, None)


def _stateless(shape, seed, dtype, dist, op, bounds=(0, 1)):
    s = convert_to_tensor(seed)
    if not s.dtype.is_integer or s.shape.rank != 1 or s.shape[0] not in (None, 2):
        raise ValueError(with_location(f"{op}: seed must be an integer tensor of shape [2], got "
                                       f"{s.dtype.name}{list(s.shape)}"))
    dims, static = RO._shape_inputs(shape, op)
    attrs = {"shape": static, "dtype": dtype, "dist": dist, "bounds": bounds}
    return bind(STATELESS_RANDOM, (s,) + dims, attrs)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    out = _stateless(shape, seed, RO.float_dtype(dtype, "stateless_normal"), "normal", "stateless_normal")
    return RO._scale(out, mean, stddev)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    dtype = RO.float_dtype(dtype, "stateless_truncated_normal")
    out = _stateless(shape, seed, dtype, "truncated_normal", "stateless_truncated_normal")
    return RO._scale(out, mean, stddev)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(with_location(f"stateless_uniform: an integer dtype ({dtype.name}) needs maxval"))
        lo, hi = int(minval), int(maxval)
        if lo >= hi:
            raise ValueError(with_location(f"stateless_uniform: need minval < maxval, got {lo} and {hi}"))
        return _stateless(shape, seed, dtype, "uniform", "stateless_uniform", bounds=(lo, hi))
    dtype = RO.float_dtype(dtype, "stateless_uniform")
    out = _stateless(shape, seed, dtype, "uniform", "stateless_uniform")
    maxval = 1 if maxval is None else maxval
    if isinstance(minval, (int, float)) and isinstance(maxval, (int, float)) and (minval, maxval) == (0, 1):
        return out
    both_python = isinstance(minval, (int, float)) and isinstance(maxval, (int, float))
    span = maxval - minval if both_python else M.subtract(maxval, minval)
    return out * span + minval


# --- categorical -------------------------------------------------------------------------
def _categorical_impl(xp, logits, num_samples, dtype, seed):
    host = logits if xp is np else logits.get()
    z = host.astype(np.float64)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    cdf = np.cumsum(z / z.sum(axis=1, keepdims=True), axis=1)
    u = RO._stream(seed).random((host.shape[0], num_samples))
    idx = (u[:, :, None] >= cdf[:, None, :]).sum(-1)
    return RO.to_xp(xp, np.minimum(idx, host.shape[1] - 1).astype(dtype.np))


def _categorical_rule(logits, num_samples, dtype, seed):
    if len(logits.shape) != 2 or not logits.dtype.is_floating:
        raise TypeError(f"logits must be a float matrix [batch, classes], got {logits.dtype.name}"
                        f"{list(logits.shape)}")
    return Aval((logits.shape[0], num_samples), dtype)


RANDOM_CATEGORICAL = defprim("random_categorical", _categorical_impl, _categorical_rule, None, stateful=True)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """num_samples class indices per row, drawn with probabilities softmax(logits)."""
    x = convert_to_tensor(logits)
    dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    attrs = {"num_samples": int(num_samples), "dtype": dtype, "seed": None}
    from . import array_ops as A
    A.check_rule(_categorical_rule, "random.categorical", x, **attrs)
    attrs["seed"] = RO._key(seed)
    return bind(RANDOM_CATEGORICAL, (x,), attrs)

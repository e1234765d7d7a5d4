"""tf.random.Generator, stateless random ops (a function of an explicit seed pair)
and tf.random.categorical -- with TensorFlow's Philox numbers (philox.py).

A Generator's state is an int64 variable [counter_lo, counter_hi, key], as
TensorFlow's Philox state, so it checkpoints; its draws are the ordinary
stateful random primitives keyed by ("generator", number), whose kernels read
and advance that variable (random_ops.reserve), so a traced graph draws new
numbers on every run and set_seed() leaves generators alone.  Stateless ops are
pure: the seed pair is an input and is scrambled into a Philox key and counter
as TensorFlow's GenerateKey does.
"""
import enum
import itertools
import os

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, UnimplementedError, arg_error, with_location
from ..registry import Aval, bind, defprim
from ..tensor import Tensor, convert_to_tensor
from ..variables import Variable
from . import philox as P
from . import random_ops as RO

_generator_numbers = itertools.count()
PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3
_STATE_SIZE = 3
_STATE_SIZES = {PHILOX: 3, THREEFRY: 2, AUTO_SELECT: 3}
_ALG_NAMES = {"philox": PHILOX, "threefry": THREEFRY, "auto_select": AUTO_SELECT}


class Algorithm(enum.Enum):
    """tf.random.Algorithm (an Enum, as TensorFlow's: Algorithm.PHILOX != 1)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _alg(alg, op, default=PHILOX):
    """TensorFlow's algorithm number of a name, number or Algorithm (None: `default`).

    On CPU TensorFlow runs ThreeFry only under XLA: its stateless ops raise
    InvalidArgumentError and a ThreeFry Generator's draws UnimplementedError (threefry_error)."""
    value = alg.value if isinstance(alg, Algorithm) else alg
    if value is None:
        return default
    if isinstance(value, str) and value.lower() in _ALG_NAMES:
        return _ALG_NAMES[value.lower()]
    if isinstance(value, (int, np.integer)) and int(value) in _STATE_SIZES:
        return int(value)
    raise ValueError(with_location(f"{op}: argument `alg` got unsupported value {alg}; supported values are "
                                   "philox (1), threefry (2) and auto_select (3)"))


def threefry_error(op, cls):
    return cls(with_location(f"{op}: TensorFlow runs the ThreeFry algorithm only under XLA, not on CPU "
                             "(use alg='philox' or 'auto_select')"))


def _to_int64(v):
    v = int(v) & P.M64
    return v - (1 << 64) if v >= (1 << 63) else v


def _state_from_seed(seed, size=_STATE_SIZE):
    """TensorFlow's create_rng_state: an int cut into 64-bit words (low first), a list of
    words padded with zeros on the left (so a short seed lands in the key)."""
    if isinstance(seed, Tensor) or hasattr(seed, "numpy"):
        seed = np.asarray(seed.numpy()).tolist()
    if isinstance(seed, (int, np.integer)):
        seed, words = int(seed), []
        for _ in range(size):
            words.append(seed & P.M64)
            seed >>= 64
    else:
        words = [int(v) for v in np.asarray(seed).reshape(-1).tolist()][:size]
        words = [0] * (size - len(words)) + words
    return np.array([_to_int64(w) for w in words], dtype=np.int64)


class Generator:
    """A random number generator with its own Philox state (TensorFlow's tf.random.Generator).
    A ThreeFry generator has ThreeFry's state ([counter, key]) but draws nothing: TensorFlow
    raises UnimplementedError on CPU."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError(with_location("Generator: give copy_from or state/alg, not both"))
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        elif state is None:
            raise ValueError(with_location("Generator: give copy_from or state (or use from_seed)"))
        self._alg = _alg(alg, "Generator")
        value = np.asarray(state.numpy() if hasattr(state, "numpy") else state).astype(np.int64).reshape(-1)
        size = _STATE_SIZES[self._alg]
        if value.shape != (size,):
            raise ValueError(with_location(f"Generator: a {'ThreeFry' if self._alg == THREEFRY else 'Philox'} "
                                           f"state has {size} int64 words, got shape {list(value.shape)}"))
        self._state_var = Variable(value, trainable=False, name="StateVar")
        self._number = next(_generator_numbers)
        RO.generators[self._number] = self
        self._key = ("generator", self._number)

    @classmethod
    def from_seed(cls, seed, alg=None):
        alg = _alg(alg, "Generator.from_seed")
        return cls(state=_state_from_seed(seed, _STATE_SIZES[alg]), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        words = np.concatenate([np.asarray(counter, np.int64).reshape(-1), np.asarray(key, np.int64).reshape(-1)])
        return cls(state=words, alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        alg = _alg(alg, "Generator.from_non_deterministic_state")
        return cls(state=np.frombuffer(os.urandom(8 * _STATE_SIZES[alg]), dtype=np.int64).copy(), alg=alg)

    @property
    def state(self):
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return self._state_var[-1]

    def reset(self, state):
        self._state_var.assign(convert_to_tensor(np.asarray(state, dtype=np.int64)))

    def reset_from_seed(self, seed):
        self._state_var.assign(convert_to_tensor(_state_from_seed(seed, _STATE_SIZES[self._alg])))

    def reset_from_key_counter(self, key, counter):
        self.reset(np.concatenate([np.asarray(counter, np.int64).reshape(-1), np.asarray(key, np.int64).reshape(-1)]))

    def _position(self):
        """(counter, key) of the Philox state; a ThreeFry generator raises, as TensorFlow's on CPU."""
        if self._alg == THREEFRY:
            raise threefry_error("RngReadAndSkip", UnimplementedError)
        s = [int(v) & P.M64 for v in np.asarray(self._state_var._value.numpy()).tolist()]
        return s[0] | (s[1] << 64), s[2]

    def _reserve(self, steps):
        """(counter, key) for one draw; the state moves on by `steps` counter steps."""
        counter, key = self._position()
        self._set_counter(counter + int(steps))
        return counter, key

    def _set_counter(self, counter):
        counter &= P.M128
        words = [_to_int64(counter & P.M64), _to_int64(counter >> 64), _to_int64(self._position()[1])]
        self._state_var._store(Tensor(np.array(words, dtype=np.int64)))

    def skip(self, delta):
        """Advance as `delta` outputs would."""
        self._set_counter(self._position()[0] + int(delta) * P.RESERVED_PER_OUTPUT)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return RO.normal_from(self._key, shape, mean, stddev, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return RO.truncated_normal_from(self._key, shape, mean, stddev, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and minval is None and maxval is None:
            return self.uniform_full_int(shape, dtype)
        return RO.uniform_from(self._key, shape, minval, maxval, dtype)

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_integer:
            raise TypeError(with_location(f"uniform_full_int: dtype must be an integer type, got {dtype.name}"))
        return RO.draw(RO.RANDOM_UNIFORM, shape, dtype, self._key, "uniform_full_int", bounds=None)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """Binomial draws, TensorFlow's numbers; the parameters broadcast to the trailing dims."""
        from .random_parametric import binomial_from
        if self._alg != PHILOX:   # TensorFlow's binomial kernel takes algorithm 1 only (not auto_select)
            raise InvalidArgumentError(with_location(
                f"Generator.binomial: unsupported algorithm id {self._alg}; the binomial kernel runs Philox (1) only"))
        return binomial_from(self._key, shape, counts, probs, dtype)

    def make_seeds(self, count=1):
        """int64 seeds of shape [2, count] for the stateless ops: [keys; zeros], as TensorFlow."""
        from . import array_ops as A, join_ops as J
        keys = self.uniform_full_int([int(count)], dtypes.int64)
        return J.stack([keys, A.zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators whose keys are this generator's next int64 draws."""
        keys = self.uniform_full_int([int(count)], dtypes.int64).numpy()
        return [Generator(state=[0, 0, int(k)], alg=self._alg) for k in keys]

    def _trackable_children(self):
        return {"_state_var": self._state_var}


_global_generator = []


def get_global_generator():
    """The process-wide Generator (non-deterministic until set_global_generator)."""
    if not _global_generator:
        _global_generator.append(Generator.from_non_deterministic_state())
    return _global_generator[0]


def set_global_generator(generator):
    _global_generator[:] = [generator]


# --- stateless ---------------------------------------------------------------------------
def _stateless_impl(xp, seed, *dims, shape, dtype, dist, bounds):
    words = np.asarray(seed if xp is np else seed.get()).reshape(-1).tolist()
    counter, key = P.key_counter_from_seed(int(words[0]), int(words[1]))
    size = RO.draw_shape(dims, shape)
    n = int(np.prod(size, dtype=np.int64))
    if dist == "normal":
        out = P.normal(counter, key, n, RO.sample_dtype(dtype))
    elif dist == "truncated_normal":
        out = P.truncated_normal(counter, key, n, RO.sample_dtype(dtype))
    elif dist == "full_int":
        out = P.full_int(counter, key, n, dtype.np)
    elif dist == "permutation":     # RandomShuffle's row order, its words read from the seed's counter
        out = RO.permutation(counter, key, n) if n > 1 else np.arange(n)
    elif dtype.is_integer:
        out = P.uniform_int(counter, key, n, bounds[0], bounds[1], dtype.np)
    else:
        out = P.uniform(counter, key, n, dtype.np)  # half types: TF's 16-bit draws
    return RO.to_xp(xp, out.reshape(size).astype(dtype.np))


def _stateless_rule(seed, *dims, shape, dtype, **_):
    if seed.shape != (2,) or not seed.dtype.is_integer:
        raise TypeError(f"the seed must be an integer tensor of shape [2], got {seed.dtype.name}{list(seed.shape)}")
    return Aval(shape, dtype)


STATELESS_RANDOM = defprim("stateless_random", _stateless_impl, _stateless_rule, None)


def seed_tensor(seed, op):
    s = convert_to_tensor(seed)
    if not s.dtype.is_integer or s.shape.rank != 1 or s.shape[0] not in (None, 2):
        raise arg_error(ValueError, with_location(f"{op}: seed must be an integer tensor of shape [2], got "
                                       f"{s.dtype.name}{list(s.shape)}"))
    return s


def _stateless(shape, seed, dtype, dist, op, alg, bounds=(0, 1)):
    if _alg(alg, op, AUTO_SELECT) == THREEFRY:
        raise threefry_error(op, InvalidArgumentError)
    s = seed_tensor(seed, op)
    dims, static = RO.shape_inputs(shape, op)
    attrs = {"shape": static, "dtype": dtype, "dist": dist, "bounds": bounds}
    return bind(STATELESS_RANDOM, (s,) + dims, attrs)


def stateless_permutation(size, seed, op, alg="auto_select"):
    """The order stateless_shuffle puts `size` rows in (int64)."""
    return _stateless([size], seed, dtypes.int64, "permutation", op, alg)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    out = _stateless(shape, seed, RO.float_dtype(dtype, "stateless_normal"), "normal", "stateless_normal", alg)
    return RO.scale(out, mean, stddev)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    dtype = RO.float_dtype(dtype, "stateless_truncated_normal")
    out = _stateless(shape, seed, dtype, "truncated_normal", "stateless_truncated_normal", alg)
    return RO.scale(out, mean, stddev)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    dtype = dtypes.as_dtype(dtype)
    op = "stateless_uniform"
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(with_location(f"{op}: for an integer dtype ({dtype.name}) give minval and maxval "
                                           f"both or neither, got minval={minval} and maxval={maxval}"))
        if minval is None:
            return _stateless(shape, seed, dtype, "full_int", op, alg, bounds=None)
        lo, hi = int(minval), int(maxval)
        if lo >= hi:
            raise ValueError(with_location(f"{op}: need minval < maxval, got {lo} and {hi}"))
        return _stateless(shape, seed, dtype, "uniform", op, alg, bounds=(lo, hi))
    dtype = RO.float_dtype(dtype, op)
    out = _stateless(shape, seed, dtype, "uniform", op, alg)
    return RO.bounded(out, minval, maxval, dtype)


def stateless_split(seed, num=2, alg="auto_select"):
    """`num` new seed pairs from `seed`: full-range draws of the seed's dtype, as TensorFlow."""
    s = convert_to_tensor(seed)
    return stateless_uniform([int(num), 2], s, minval=None, maxval=None, dtype=s.dtype, alg=alg)


def stateless_fold_in(seed, data, alg="auto_select"):
    """A new seed pair: [one full-range draw of data's dtype from `seed`, data]."""
    from . import join_ops as J
    d = convert_to_tensor(data)
    return J.stack([stateless_uniform([], seed, minval=None, maxval=None, dtype=d.dtype, alg=alg), d])


def create_rng_state(seed, alg):
    """The Generator state TensorFlow makes from `seed` for `alg` (an int64 tensor)."""
    return convert_to_tensor(_state_from_seed(seed, _STATE_SIZES[_alg(alg, "create_rng_state")]))


# --- categorical -------------------------------------------------------------------------
def _multinomial(xp, logits, num_samples, dtype, counter, key):
    host = logits if xp is np else logits.get()
    return RO.to_xp(xp, P.categorical(counter, key, host, num_samples, dtype.np))


def _categorical_impl(xp, logits, num_samples, dtype, seed):
    # The CPU kernel reserves two words per sample, samples rounded up to 4, per row.
    reserved = logits.shape[0] * (-(-num_samples // 4) * 4) * 2
    counter, key = RO.reserve("multinomial", dtype, seed, reserved)
    return _multinomial(xp, logits, num_samples, dtype, counter, key)


def _stateless_categorical_impl(xp, logits, seed, num_samples, dtype):
    words = np.asarray(seed if xp is np else seed.get()).reshape(-1).tolist()
    counter, key = P.key_counter_from_seed(int(words[0]), int(words[1]))
    return _multinomial(xp, logits, num_samples, dtype, counter, key)


def _categorical_rule(logits, *seed, num_samples, dtype, **_):
    if len(logits.shape) != 2 or not logits.dtype.is_floating:
        raise TypeError(f"logits must be a float matrix [batch, classes], got {logits.dtype.name}"
                        f"{list(logits.shape)}")
    return Aval((logits.shape[0], num_samples), dtype)


RANDOM_CATEGORICAL = defprim("random_categorical", _categorical_impl, _categorical_rule, None, stateful=True)
STATELESS_CATEGORICAL = defprim("stateless_categorical", _stateless_categorical_impl, _categorical_rule, None)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """num_samples class indices per row, drawn with probabilities softmax(logits)."""
    x = convert_to_tensor(logits)
    dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    attrs = {"num_samples": int(num_samples), "dtype": dtype}
    from . import array_ops as A
    A.check_rule(_categorical_rule, "random.categorical", x, **attrs)
    return bind(RANDOM_CATEGORICAL, (x,), dict(attrs, seed=RO.seed_key(seed)))


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    x = convert_to_tensor(logits)
    attrs = {"num_samples": int(num_samples), "dtype": dtypes.as_dtype(dtype)}
    from . import array_ops as A
    A.check_rule(_categorical_rule, "random.stateless_categorical", x, **attrs)
    return bind(STATELESS_CATEGORICAL, (x, seed_tensor(seed, "stateless_categorical")), attrs)

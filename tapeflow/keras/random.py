"""keras.random (Keras 3): normal, uniform, truncated_normal, randint, shuffle,
dropout, categorical and SeedGenerator -- drawing the numbers Keras 3 draws on
its TensorFlow back end, so a program seeded with `keras.utils.set_random_seed`
initializes and drops out exactly as it does under TensorFlow.

Keras 3's seed rules (keras/src/random/seed_generator.py), which this follows:
- every draw is a *stateless* TF op (tf.random.stateless_*) whose seed pair is
  "drawn": an int seed gives [seed, 0] (the same numbers on every call); a
  SeedGenerator gives its state, then advances it by [0, 1]; seed=None uses the
  global SeedGenerator, advanced by the unordered rule (s + 1) * 5387 % 933199;
- a SeedGenerator made without a seed takes `random.randint(1, 10**9)` from
  Python's own generator (which set_random_seed seeds), as do initializers made
  without one -- so the order in which layers are constructed decides the draws;
- the int64 seed pair reaches the op as int32 after floormod(seed, 2**31 - 2).
The state is a non-trainable int64 tf.Variable, so inside tf.function every
call of the graph advances it (new numbers per call, as TF).
"""
import random as _python_random

import numpy as np

import tapeflow as tf
from tapeflow.keras.variables import Variable as KerasVariable
from tapeflow.runtime.errors import with_location

_GLOBAL = {"generator": None}


def make_default_seed():
    """Keras 3's default seed: one draw of Python's generator."""
    return _python_random.randint(1, int(1e9))


class SeedGenerator:
    """A seed state of its own: draws with seed=SeedGenerator(s) are reproducible per s."""

    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise ValueError(f"SeedGenerator: unrecognized keyword arguments {kwargs}")
        if name is None:
            from tapeflow.keras.layers.base import unique_name  # Keras's auto_name: seed_generator_<n>
            name = unique_name("seed_generator")
        self.name = name
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ValueError(with_location(f"SeedGenerator: seed must be an integer, got seed={seed!r}"))
        self.seed = int(seed)
        self.state = KerasVariable(np.array([self.seed, 0], np.int64), trainable=False, dtype=tf.int64,
                                   name="seed_generator_state", path=f"{self.name}/seed_generator_state")

    def next(self, ordered=True):
        """The current int64 seed pair; the state moves on ([0, 1] added, or
        Keras's unordered step for the global generator)."""
        value = self.state.read_value()
        if ordered:
            self.state.assign_add(tf.constant([0, 1], tf.int64))
        else:
            self.state.assign((value + 1) * 5387 % 933199)
        return value

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def global_seed_generator():
    """The generator behind seed=None draws; set_random_seed drops it, so the next
    draw makes a fresh one from Python's (reseeded) generator."""
    if _GLOBAL["generator"] is None:
        _GLOBAL["generator"] = SeedGenerator(name="global_seed_generator")
    return _GLOBAL["generator"]


def reset_global_seed_generator():
    _GLOBAL["generator"] = None


def draw_seed(seed, op="draw"):
    """The int32 seed pair of one stateless draw (Keras's draw_seed + _cast_seed)."""
    if isinstance(seed, SeedGenerator):
        pair = seed.next()
    elif seed is None:
        pair = global_seed_generator().next(ordered=False)
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed = (int(seed) & 0xFFFFFFFFFFFFFFFF ^ 0x8000000000000000) - 0x8000000000000000  # as int64
        pair = tf.constant([seed, 0], tf.int64)
    else:
        raise ValueError(with_location(f"keras.random.{op}: seed must be None, an int or a SeedGenerator, "
                                       f"got {type(seed).__name__}"))
    return tf.cast(tf.math.floormod(pair, 2**31 - 2), tf.int32)


def _draw(name, shape, a, b, dtype, seed):
    dtype = dtype or "float32"
    return getattr(tf.random, "stateless_" + name)(shape, draw_seed(seed, name), a, b, dtype=dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _draw("normal", shape, mean, stddev, dtype, seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _draw("truncated_normal", shape, mean, stddev, dtype, seed)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return _draw("uniform", shape, minval, maxval, dtype, seed)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    if not tf.as_dtype(dtype).is_integer:
        raise TypeError(with_location(f"keras.random.randint: dtype must be an integer type, got {dtype}"))
    # Keras draws int32/int64 directly and other integer types through int64.
    drawn = dtype if tf.as_dtype(dtype).name in ("int32", "int64") else "int64"
    return tf.cast(uniform(shape, int(minval), int(maxval), dtype=drawn, seed=seed), dtype)


def shuffle(x, axis=0, seed=None):
    """A random permutation along `axis`: argsort of one stateless uniform draw."""
    x = tf.convert_to_tensor(x)
    keys = tf.random.stateless_uniform(tf.reshape(tf.shape(x)[axis], [1]), draw_seed(seed, "shuffle"))
    return tf.gather(x, tf.argsort(keys), axis=axis)


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = tf.convert_to_tensor(inputs)
    if not 0 <= rate <= 1:
        raise ValueError(with_location(f"keras.random.dropout: rate must be in [0, 1], got {rate}"))
    if rate == 1.0:
        return tf.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    if noise_shape is not None:  # None entries take the input's size (Keras's concrete noise shape)
        dims = tf.unstack(tf.shape(inputs))
        noise_shape = tf.stack([dims[i] if d is None else d for i, d in enumerate(noise_shape)])
    return tf.nn.experimental.stateless_dropout(inputs, rate, seed=draw_seed(seed, "dropout"),
                                                noise_shape=noise_shape)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """[batch, num_samples] class indices: tf.random.stateless_categorical."""
    logits = tf.convert_to_tensor(logits)
    if logits.shape.rank != 2:
        raise ValueError(with_location(f"keras.random.categorical: logits must be 2-D, got shape {logits.shape}"))
    out = tf.random.stateless_categorical(logits, num_samples, seed=draw_seed(seed, "categorical"))
    return tf.cast(out, dtype)


def _through_float32(dtype):
    """Keras draws bfloat16 samples in float32 and casts them."""
    dtype = tf.as_dtype(dtype or "float32")
    return tf.float32 if dtype == tf.bfloat16 else dtype


def gamma(shape, alpha, dtype=None, seed=None):
    dtype = dtype or "float32"
    drawn = tf.random.stateless_gamma(shape, draw_seed(seed, "gamma"), alpha=alpha, dtype=_through_float32(dtype))
    return tf.cast(drawn, dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    dtype = dtype or "float32"
    drawn = tf.random.stateless_binomial(shape, draw_seed(seed, "binomial"), counts, probabilities,
                                         output_dtype=_through_float32(dtype))
    return tf.cast(drawn, dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):  # noqa: A002 - Keras's name
    """gamma(alpha) / (gamma(alpha) + gamma(beta)); Keras's second gamma draws from the first
    draw's seed pair plus 12 (one draw of the generator for both)."""
    dtype = dtype or "float32"
    seed_a = draw_seed(seed, "beta")
    drawn = _through_float32(dtype)
    alpha = tf.broadcast_to(tf.convert_to_tensor(alpha, drawn), shape)
    beta = tf.broadcast_to(tf.convert_to_tensor(beta, drawn), shape)
    gamma_a = tf.cast(tf.random.stateless_gamma(shape, seed_a, alpha=alpha, dtype=drawn), dtype)
    gamma_b = tf.cast(tf.random.stateless_gamma(shape, seed_a + 12, alpha=beta, dtype=drawn), dtype)
    return gamma_a / (gamma_a + gamma_b)

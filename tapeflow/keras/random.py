"""keras.random (Keras 3): normal, uniform, truncated_normal, randint, shuffle,
dropout, categorical and SeedGenerator.

`seed=` semantics, as Keras 3:
- None: a fresh draw from the global stream on every call (tf.random's ops);
- an int: a fixed draw -- the same numbers on every call (stateless ops);
- a SeedGenerator: Keras's own rule -- a variable state [seed, 0]; each draw is a
  stateless draw with the state as its seed, and then adds [0, 1] to the state, so
  a generator made with the same seed replays Keras's sequence, and inside
  tf.function every call of the graph gives new numbers.
"""
import tapeflow as tf
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops.random_generator import Generator


class SeedGenerator:
    """A seed state of its own: draws with seed=SeedGenerator(s) are reproducible per s."""

    def __init__(self, seed=None, name=None, **kwargs):
        self.name = name or "seed_generator"
        self.seed = seed
        start = int(Generator.from_non_deterministic_state().make_seeds(1)[0, 0].numpy()) % (2 ** 31) \
            if seed is None else int(seed)
        self.state = tf.Variable([start, 0], dtype=tf.int64, trainable=False, name="seed_generator_state")

    def next(self, ordered=True):
        """The seed pair of the next draw: the state, which then advances by [0, 1]."""
        value = self.state.read_value() * 1
        self.state.assign_add(tf.constant([0, 1], tf.int64))
        return value


def _kind(seed, op):
    if seed is None:
        return "global"
    if isinstance(seed, SeedGenerator):
        return "generator"
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(with_location(f"keras.random.{op}: seed must be None, an int or a SeedGenerator, "
                                      f"got {type(seed).__name__}"))
    return "fixed"


def _draw(name, shape, a, b, dtype, seed):
    """One draw of tf.random.<name>(shape, a, b): from the SeedGenerator's own
    stream, as a stateless draw for an int seed, or from the global stream."""
    dtype = dtype or "float32"
    kind = _kind(seed, name)
    if kind == "generator":
        return getattr(tf.random, "stateless_" + name)(shape, seed.next(), a, b, dtype=dtype)
    if kind == "fixed":
        return getattr(tf.random, "stateless_" + name)(shape, [seed, 0], a, b, dtype=dtype)
    return getattr(tf.random, name)(shape, a, b, dtype=dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _draw("normal", shape, mean, stddev, dtype, seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _draw("truncated_normal", shape, mean, stddev, dtype, seed)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return _draw("uniform", shape, minval, maxval, dtype, seed)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    if not tf.as_dtype(dtype).is_integer:
        raise TypeError(with_location(f"keras.random.randint: dtype must be an integer type, got {dtype}"))
    return uniform(shape, int(minval), int(maxval), dtype=dtype, seed=seed)


def shuffle(x, axis=0, seed=None):
    """A random permutation along `axis` (argsort of uniform keys)."""
    x = tf.convert_to_tensor(x)
    n = tf.shape(x)[axis]
    keys = uniform(tf.reshape(n, [1]), dtype="float32", seed=seed)
    return tf.gather(x, tf.argsort(keys), axis=axis)


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = tf.convert_to_tensor(inputs)
    if not 0 <= rate < 1:
        raise ValueError(with_location(f"keras.random.dropout: rate must be in [0, 1), got {rate}"))
    shape = tf.shape(inputs) if noise_shape is None else noise_shape
    keep = uniform(shape, dtype=inputs.dtype, seed=seed) >= rate
    return tf.where(keep, inputs / (1.0 - rate), tf.zeros_like(inputs))


def categorical(logits, num_samples, dtype="int32", seed=None):
    """[batch, num_samples] class indices drawn by the Gumbel-max trick over uniform draws."""
    logits = tf.convert_to_tensor(logits)
    if logits.shape.rank != 2:
        raise ValueError(with_location(f"keras.random.categorical: logits must be 2-D, got shape {logits.shape}"))
    batch, classes = tf.shape(logits)[0], tf.shape(logits)[1]
    u = uniform(tf.stack([batch, num_samples, classes]), minval=1e-7, maxval=1.0, dtype=logits.dtype, seed=seed)
    gumbel = -tf.math.log(-tf.math.log(u))
    return tf.cast(tf.argmax(logits[:, None, :] + gumbel, axis=-1), dtype)

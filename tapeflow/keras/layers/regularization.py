"""Noise and dropout variants (Keras 3): GaussianNoise, GaussianDropout,
AlphaDropout, SpatialDropout1D/2D/3D, and ActivityRegularization.

Each random layer owns a keras.random.SeedGenerator made at construction (so an
unseeded layer takes its default seed from Python's generator, in construction
order, as Keras does) and draws only when called with training=True."""
import math

import tapeflow as tf
from tapeflow.keras import random as keras_random
from tapeflow.keras import regularizers
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.core import Dropout
from tapeflow.runtime.errors import with_location


def _check_fraction(layer, name, value):
    if not 0 <= value <= 1:
        raise ValueError(with_location(f"{layer}: `{name}` must be a float between 0 and 1, got {name}={value}"))


class _RandomLayer(Layer):
    """A layer drawing noise in training: `amount` (its rate or stddev) checked in [0, 1],
    and Keras's SeedGenerator made here when the amount is positive."""
    supports_masking = True
    amount_name = "rate"

    def __init__(self, amount, seed=None, **kwargs):
        super().__init__(**kwargs)
        _check_fraction(type(self).__name__, self.amount_name, amount)
        setattr(self, self.amount_name, amount)
        self.seed = seed
        if amount > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)

    def get_config(self):
        return {**super().get_config(), self.amount_name: getattr(self, self.amount_name), "seed": self.seed}


class GaussianNoise(_RandomLayer):
    """In training, add N(0, stddev) noise."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    amount_name = "stddev"

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(stddev, seed, **kwargs)

    def call(self, inputs, training=None):
        if training and self.stddev > 0:
            noise = keras_random.normal(tf.shape(inputs), 0.0, self.stddev, dtype=inputs.dtype,
                                        seed=self.seed_generator)
            return inputs + noise
        return inputs


class GaussianDropout(_RandomLayer):
    """In training, multiply by N(1, sqrt(rate / (1 - rate))) noise."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, seed, **kwargs)

    def call(self, inputs, training=None):
        if training and self.rate > 0:
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            return inputs * keras_random.normal(tf.shape(inputs), 1.0, stddev, dtype=inputs.dtype,
                                                seed=self.seed_generator)
        return inputs


# SELU's fixed point (alpha, scale): AlphaDropout keeps SELU activations' mean and variance.
_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


class AlphaDropout(_RandomLayer):
    """In training, set dropped units to SELU's negative saturation value and
    rescale so the mean and variance are kept."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(rate, seed, **kwargs)
        self.noise_shape = noise_shape

    def call(self, inputs, training=None):
        if not (training and self.rate > 0):
            return inputs
        shape = tf.shape(inputs)
        if self.noise_shape is not None:
            shape = tf.stack([shape[i] if d is None else d for i, d in enumerate(self.noise_shape)])
        alpha_p = -_SELU_ALPHA * _SELU_SCALE
        kept = tf.cast(keras_random.uniform(shape, seed=self.seed_generator) >= self.rate, inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (inputs * kept + alpha_p * (1 - kept)) + b

    def get_config(self):
        return {**super().get_config(), "noise_shape": self.noise_shape}


class _SpatialDropout(Dropout):
    """Dropout of whole feature maps: the mask is 1 on every axis but batch and channels."""
    rank = None

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError(with_location(f"{type(self).__name__}: data_format must be channels_last or "
                                           f"channels_first, got {data_format!r}"))

    def call(self, inputs, training=None):
        if inputs.shape.rank != self.rank:
            raise ValueError(with_location(f"{type(self).__name__} {self.name}: expects inputs of rank "
                                           f"{self.rank}, got shape {inputs.shape}"))
        if not (training and self.rate > 0):
            return inputs
        dims = tf.unstack(tf.shape(inputs))
        ones = [1] * (self.rank - 2)
        if self.data_format == "channels_first":
            noise = [dims[0], dims[1]] + ones
        else:
            noise = [dims[0]] + ones + [dims[-1]]
        return keras_random.dropout(inputs, self.rate, noise_shape=tuple(noise), seed=self.seed_generator)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}


class SpatialDropout1D(_SpatialDropout):
    rank = 3

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        config.pop("data_format")
        return config


class SpatialDropout2D(_SpatialDropout):
    rank = 4


class SpatialDropout3D(_SpatialDropout):
    rank = 5


class ActivityRegularization(Layer):
    """The identity, adding l1 * sum|x| + l2 * sum x^2 of its output to the losses."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    supports_masking = True

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def get_config(self):
        config = {**super().get_config(), "l1": self.l1, "l2": self.l2}
        config.pop("activity_regularizer", None)
        return config

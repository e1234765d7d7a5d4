"""Core layers: Dense, Activation, Flatten, Reshape, Dropout, Embedding."""
import numpy as np

import tapeflow as tf
from tapeflow.keras import activations, initializers
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


class Dense(Layer):
    """y = activation(x @ kernel + bias) over the last axis of x."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", **kwargs):
        super().__init__(**kwargs)
        if int(units) <= 0:
            raise ValueError(with_location(f"Dense: units must be a positive integer, got {units!r}"))
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)

    def build(self, input_shape):
        last = input_shape[-1]
        if last is None:
            raise ValueError(with_location(
                f"Dense {self.name}: the last dimension of the input must be known, got {input_shape}"))
        self.kernel = self.add_weight("kernel", (last, self.units), initializer=self.kernel_initializer)
        self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer) \
            if self.use_bias else None

    def call(self, inputs):
        if inputs.shape[-1] != self.kernel.shape[0]:
            raise ValueError(with_location(
                f"Dense {self.name}: expected inputs with last dimension {self.kernel.shape[0]}, "
                f"got shape {list(inputs.shape)}"))
        # For rank > 2 inputs matmul broadcasts the kernel over the leading axes.
        y = tf.matmul(inputs, self.kernel)
        if self.use_bias:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias}


class Activation(Layer):
    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)


class Flatten(Layer):
    """(batch, d1, d2, ...) -> (batch, d1 * d2 * ...)."""

    def call(self, inputs):
        rest = inputs.shape.dims[1:]
        if None in rest:
            raise ValueError(with_location(
                f"Flatten {self.name}: all but the first dimension must be known, got {list(inputs.shape)}"))
        return tf.reshape(inputs, [-1, int(np.prod(rest, dtype=np.int64))])


class Reshape(Layer):
    """(batch, ...) -> (batch,) + target_shape; one entry may be -1."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs):
        batch = inputs.shape[0]
        if -1 in self.target_shape:
            if batch is None:
                raise ValueError(with_location(
                    f"Reshape {self.name}: a -1 in the target shape needs a known batch size"))
            return tf.reshape(inputs, (batch,) + self.target_shape)
        return tf.reshape(inputs, (-1,) + self.target_shape)


class Dropout(Layer):
    """In training, zero a fraction `rate` of the inputs and scale the rest by 1/(1-rate)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate < 1:
            raise ValueError(with_location(f"Dropout: rate must be in [0, 1), got {rate!r}"))
        self.rate = float(rate)
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        shape = self.noise_shape if self.noise_shape is not None else tf.shape(inputs)
        keep = tf.random.uniform(shape, dtype=inputs.dtype, seed=self.seed) >= self.rate
        return tf.where(keep, inputs / (1 - self.rate), tf.zeros_like(inputs))


class Embedding(Layer):
    """Integer ids -> rows of a (input_dim, output_dim) table."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", **kwargs):
        kwargs.pop("mask_zero", None)
        kwargs.pop("input_length", None)
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        init = "random_uniform" if embeddings_initializer == "uniform" else embeddings_initializer
        self.embeddings_initializer = initializers.get(init)

    def build(self, input_shape):
        self.embeddings = self.add_weight("embeddings", (self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer)

    def _convert_inputs(self, inputs):  # ids stay integers
        t = tf.convert_to_tensor(inputs)
        return t if t.dtype.is_integer else tf.cast(t, "int32")

    def call(self, inputs):
        return tf.gather(self.embeddings, inputs)

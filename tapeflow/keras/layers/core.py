"""Core layers: Dense, Activation, Flatten, Reshape, Dropout, Embedding."""
import numpy as np

import tapeflow as tf
from tapeflow.keras import activations, constraints, initializers, regularizers
from tapeflow.keras import random as keras_random
from tapeflow.keras.input_spec import InputSpec
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


class Dense(Layer):
    """y = activation(x @ kernel + bias) over the last axis of x."""
    _checkpoint_names = {"kernel": "_kernel"}
    supports_masking = True

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if kwargs.pop("quantization_config", None) is not None:
            raise NotImplementedError(with_location("Dense: quantization_config is not supported"))
        super().__init__(**kwargs)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
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
        self.kernel = self.add_weight("kernel", (last, self.units), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: int(last)})  # as Keras 3: later calls are checked

    def call(self, inputs):
        if inputs.shape[-1] != self.kernel.shape[0]:
            raise ValueError(with_location(
                f"Dense {self.name}: expected inputs with last dimension {self.kernel.shape[0]}, "
                f"got shape {list(inputs.shape)}"))
        if not inputs.dtype.is_floating:  # Keras 3's matmul promotes int/bool inputs (a multi_hot batch)
            inputs = tf.cast(inputs, self.kernel.dtype)
        # For rank > 2 inputs matmul broadcasts the kernel over the leading axes.
        y = tf.matmul(inputs, self.kernel)
        if self.use_bias:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint), "quantization_config": None}


class Activation(Layer):
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    supports_masking = True

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), "activation": activations.serialize(self.activation)}


class Flatten(Layer):
    """(batch, d1, d2, ...) -> (batch, d1 * d2 * ...); channels_first moves the channels
    (axis 1) last first, as Keras 3."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        from tapeflow.keras import backend
        self.data_format = data_format or backend.image_data_format()

    def call(self, inputs):
        rank = inputs.shape.rank
        if self.data_format == "channels_first" and rank > 2:
            inputs = tf.transpose(inputs, [0] + list(range(2, rank)) + [1])
        rest = inputs.shape.dims[1:]
        if None in rest:
            raise ValueError(with_location(
                f"Flatten {self.name}: all but the first dimension must be known, got {list(inputs.shape)}"))
        return tf.reshape(inputs, [-1, int(np.prod(rest, dtype=np.int64))])

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}


class Reshape(Layer):
    """(batch, ...) -> (batch,) + target_shape; one entry may be -1."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs):
        target = self.target_shape
        if -1 in target:
            # The -1 is resolved from the known per-example size, so the batch can stay -1.
            rest = inputs.shape.dims[1:]
            known = int(np.prod([d for d in target if d != -1], dtype=np.int64))
            if None in rest or known == 0 or int(np.prod(rest, dtype=np.int64)) % known:
                raise ValueError(with_location(
                    f"Reshape {self.name}: cannot reshape per-example shape {list(rest)} to {list(target)}"))
            fill = int(np.prod(rest, dtype=np.int64)) // known
            target = tuple(fill if d == -1 else d for d in target)
        return tf.reshape(inputs, (-1,) + target)

    def get_config(self):
        return {**super().get_config(), "target_shape": list(self.target_shape)}


class Dropout(Layer):
    """In training, zero a fraction `rate` of the inputs and scale the rest by 1/(1-rate)."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    supports_masking = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(with_location(f"Dropout: rate must be in [0, 1], got {rate!r}"))
        self.rate = float(rate)
        self.noise_shape = noise_shape
        self.seed = seed
        if rate > 0:  # Keras 3 makes the layer's generator (and takes its default seed) here
            self.seed_generator = keras_random.SeedGenerator(seed)

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        return keras_random.dropout(inputs, self.rate, self.noise_shape, seed=self.seed_generator)


class Embedding(Layer):
    """Integer ids -> rows of a (input_dim, output_dim) table.  mask_zero=True: id 0
    is padding, and the output carries the mask `ids != 0` for the layers after it."""
    _checkpoint_names = {"embeddings": "_embeddings"}

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, **kwargs):
        kwargs.pop("input_length", None)
        super().__init__(**kwargs)
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = embeddings_constraint
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        init = "random_uniform" if embeddings_initializer == "uniform" else embeddings_initializer
        self.embeddings_initializer = initializers.get(init)

    def build(self, input_shape):
        self.embeddings = self.add_weight("embeddings", (self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)

    def _convert_inputs(self, inputs):  # ids stay integers
        if isinstance(inputs, tf.RaggedTensor):
            flat = inputs.flat_values
            return inputs if flat.dtype.is_integer else inputs.with_flat_values(tf.cast(flat, "int32"))
        t = tf.convert_to_tensor(inputs)
        return t if t.dtype.is_integer else tf.cast(t, "int32")

    def call(self, inputs):
        return tf.gather(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return tf.not_equal(tf.convert_to_tensor(inputs), 0)

    def get_config(self):
        return {**super().get_config(), "input_dim": self.input_dim, "output_dim": self.output_dim,
                "mask_zero": self.mask_zero}

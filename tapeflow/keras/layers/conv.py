"""Convolution and pooling layers over NHWC images (channels_last)."""
import tapeflow as tf
from tapeflow.keras import activations, initializers, regularizers
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


def _pair(value, what):
    if isinstance(value, int):
        return (value, value)
    value = tuple(int(v) for v in value)
    if len(value) != 2:
        raise ValueError(with_location(f"{what} must be an int or a pair of ints, got {value!r}"))
    return value


def _padding(value, what):
    p = str(value).upper()
    if p not in ("SAME", "VALID"):
        raise ValueError(with_location(f"{what}: padding must be 'valid' or 'same', got {value!r}"))
    return p


def require_channels_last(data_format, what):
    if data_format not in (None, "channels_last"):
        raise ValueError(with_location(f"{what}: only data_format='channels_last' (NHWC) is supported"))


class Conv2D(Layer):
    _checkpoint_names = {"kernel": "_kernel"}
    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        require_channels_last(data_format, "Conv2D")
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.filters = int(filters)
        self.kernel_size = _pair(kernel_size, "Conv2D kernel_size")
        self.strides = _pair(strides, "Conv2D strides")
        self.dilation_rate = _pair(dilation_rate, "Conv2D dilation_rate")
        self.padding = _padding(padding, "Conv2D")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)

    def build(self, input_shape):
        if input_shape.rank != 4 or input_shape[-1] is None:
            raise ValueError(with_location(
                f"Conv2D {self.name}: expected NHWC input with known channels, got shape {input_shape}"))
        self.kernel = self.add_weight("kernel", self.kernel_size + (input_shape[-1], self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight("bias", (self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None

    def call(self, inputs):
        kwargs = {"dilations": self.dilation_rate} if self.dilation_rate != (1, 1) else {}
        y = tf.nn.conv2d(inputs, self.kernel, strides=self.strides, padding=self.padding, **kwargs)
        if self.use_bias:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters, "kernel_size": list(self.kernel_size),
                "strides": list(self.strides), "padding": self.padding.lower(),
                "dilation_rate": list(self.dilation_rate), "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias}


class _Pooling2D(Layer):
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        name = type(self).__name__
        require_channels_last(data_format, name)
        self.pool_size = _pair(pool_size, f"{name} pool_size")
        self.strides = _pair(strides, f"{name} strides") if strides is not None else self.pool_size
        self.padding = _padding(padding, name)

    def get_config(self):
        return {**super().get_config(), "pool_size": list(self.pool_size), "strides": list(self.strides),
                "padding": self.padding.lower()}


class MaxPooling2D(_Pooling2D):
    def call(self, inputs):
        return tf.nn.max_pool2d(inputs, self.pool_size, self.strides, self.padding)


class AveragePooling2D(_Pooling2D):
    def call(self, inputs):
        return tf.nn.avg_pool2d(inputs, self.pool_size, self.strides, self.padding)


class GlobalAveragePooling2D(Layer):
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        require_channels_last(data_format, "GlobalAveragePooling2D")
        self.keepdims = keepdims

    def call(self, inputs):
        return tf.reduce_mean(inputs, axis=[1, 2], keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "keepdims": self.keepdims}


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
GlobalAvgPool2D = GlobalAveragePooling2D

"""Conv1D, Conv2DTranspose, DepthwiseConv2D and SeparableConv2D, as composites of
the NHWC patch primitives (runtime/ops/conv_ops.py):
  Conv1D            conv2d over a unit-height image (causal: left padding first);
  Conv2DTranspose   the adjoint of conv2d: windows of x @ kernel^T summed back
                    onto the output image with `patches_grad` (no kernel flip:
                    it is exactly conv2d's input gradient);
  DepthwiseConv2D   the depthwise_conv2d primitive (runtime/ops/conv_variants.py)."""
import tapeflow as tf
from tapeflow.keras import activations, initializers, regularizers
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.conv import require_channels_last, _pair, _padding
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import conv_ops, conv_variants


class _ConvBase(Layer):
    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(**kwargs)
        name = type(self).__name__
        require_channels_last(data_format, name)
        self.filters = None if filters is None else int(filters)
        if self.rank == 1:
            self.kernel_size = (1, _single(kernel_size, f"{name} kernel_size"))
            self.strides = (1, _single(strides, f"{name} strides"))
            self.dilation_rate = (1, _single(dilation_rate, f"{name} dilation_rate"))
            self.causal = str(padding).lower() == "causal"
            self.padding = "VALID" if self.causal else _padding(padding, name)
        else:
            self.kernel_size = _pair(kernel_size, f"{name} kernel_size")
            self.strides = _pair(strides, f"{name} strides")
            self.dilation_rate = _pair(dilation_rate, f"{name} dilation_rate")
            self.causal = False
            self.padding = _padding(padding, name)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint

    def _channels(self, input_shape):
        if input_shape.rank != self.rank + 2 or input_shape[-1] is None:
            layout = "(batch, steps, channels)" if self.rank == 1 else "NHWC"
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expected {layout} input with known channels, "
                f"got shape {input_shape}"))
        return input_shape[-1]

    def _add_bias(self, n):
        if self.use_bias:
            self.bias = self.add_weight("bias", (n,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None

    def _finish(self, y):
        if self.use_bias:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        k = self.kernel_size[1:] if self.rank == 1 else self.kernel_size
        s = self.strides[1:] if self.rank == 1 else self.strides
        d = self.dilation_rate[1:] if self.rank == 1 else self.dilation_rate
        return {**super().get_config(), "filters": self.filters, "kernel_size": list(k), "strides": list(s),
                "padding": "causal" if self.causal else self.padding.lower(), "dilation_rate": list(d),
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias}


def _single(value, what):
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            raise ValueError(with_location(f"{what} must be an int, got {value!r}"))
        value = value[0]
    return int(value)


class Conv1D(_ConvBase):
    """Convolution over (batch, steps, channels); kernel (kernel_size, in, filters).
    padding "causal" pads (kernel_size - 1) * dilation steps on the left only."""
    _checkpoint_names = {"kernel": "_kernel"}
    rank = 1

    def build(self, input_shape):
        c = self._channels(input_shape)
        self.kernel = self.add_weight("kernel", (self.kernel_size[1], c, self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self._add_bias(self.filters)

    def call(self, inputs):
        x = inputs
        if self.causal:
            left = (self.kernel_size[1] - 1) * self.dilation_rate[1]
            x = tf.pad(x, [[0, 0], [left, 0], [0, 0]])
        x = tf.expand_dims(x, 1)
        kernel = tf.expand_dims(self.kernel, 0)
        kwargs = {"dilations": self.dilation_rate} if self.dilation_rate != (1, 1) else {}
        y = tf.nn.conv2d(x, kernel, strides=self.strides, padding=self.padding, **kwargs)
        return self._finish(tf.squeeze(y, 1))


def _transposed_length(size, k, stride, padding):
    """Keras's output length of a transposed convolution (no output_padding)."""
    if size is None:
        return None
    return size * stride if padding == "SAME" else size * stride + max(k - stride, 0)


def add_transposed_kernel(layer, input_shape, spatial):
    """A transposed convolution's weights: kernel (*spatial, filters, in_channels), bias (filters)."""
    c = layer._channels(input_shape)
    layer.kernel = layer.add_weight("kernel", tuple(spatial) + (layer.filters, c),
                                    initializer=layer.kernel_initializer, regularizer=layer.kernel_regularizer,
                                    constraint=layer.kernel_constraint)
    layer._add_bias(layer.filters)


class Conv2DTranspose(_ConvBase):
    """The transpose of Conv2D; kernel (kh, kw, filters, in_channels)."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None, **kwargs):
        if output_padding is not None:
            raise ValueError(with_location("Conv2DTranspose: output_padding is not supported"))
        super().__init__(filters, kernel_size, strides, padding, **kwargs)
        if self.dilation_rate != (1, 1):
            raise ValueError(with_location("Conv2DTranspose: dilation_rate other than 1 is not supported"))

    def build(self, input_shape):
        add_transposed_kernel(self, input_shape, self.kernel_size)

    def call(self, inputs):
        _, h, w, _ = inputs.shape.dims
        if h is None or w is None:
            raise ValueError(with_location(
                f"Conv2DTranspose {self.name}: the input's height and width must be known, got {list(inputs.shape)}"))
        oh = _transposed_length(h, self.kernel_size[0], self.strides[0], self.padding)
        ow = _transposed_length(w, self.kernel_size[1], self.strides[1], self.padding)
        # An (N, OH, OW, F) tensor that only gives the input gradient the output's shape; the
        # windows of (N, H, W, C) x (kh, kw, F, C) summed onto it.
        like = tf.zeros_like(inputs[:, :1, :1, :1]) * tf.zeros([1, oh, ow, self.filters], inputs.dtype)
        y = conv_ops.input_grad(inputs, self.kernel, like, {"strides": self.strides, "dilations": (1, 1),
                                                            "padding": self.padding})
        return self._finish(y)


class DepthwiseConv2D(_ConvBase):
    """One filter bank per input channel: kernel (kh, kw, channels, depth_multiplier),
    output channel c * depth_multiplier + m."""
    _checkpoint_names = {"depthwise_kernel": "kernel"}

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(None, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         depthwise_initializer, bias_initializer, depthwise_regularizer, bias_regularizer,
                         depthwise_constraint, bias_constraint, **kwargs)
        self.depth_multiplier = int(depth_multiplier)

    def build(self, input_shape):
        c = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", self.kernel_size + (c, self.depth_multiplier), initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self._add_bias(c * self.depth_multiplier)

    def call(self, inputs):
        return self._finish(conv_variants.depthwise(inputs, self.depthwise_kernel, self.strides,
                                                    self.dilation_rate, self.padding))

    def get_config(self):
        config = super().get_config()
        del config["filters"]
        return {**config, "depth_multiplier": self.depth_multiplier}


class SeparableConv2D(_ConvBase):
    """A depthwise convolution, then a 1x1 convolution to `filters` channels."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         depthwise_initializer, bias_initializer, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.pointwise_initializer = initializers.get(pointwise_initializer)

    def build(self, input_shape):
        c = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight("depthwise_kernel", self.kernel_size + (c, self.depth_multiplier),
                                                initializer=self.kernel_initializer)
        self.pointwise_kernel = self.add_weight("pointwise_kernel", (1, 1, c * self.depth_multiplier, self.filters),
                                                initializer=self.pointwise_initializer,
                                                regularizer=self.kernel_regularizer)
        self._add_bias(self.filters)

    def get_config(self):
        return {**super().get_config(), "depth_multiplier": self.depth_multiplier}

    def call(self, inputs):
        y = conv_variants.depthwise(inputs, self.depthwise_kernel, self.strides, self.dilation_rate, self.padding)
        return self._finish(tf.nn.conv2d(y, self.pointwise_kernel, strides=1, padding="VALID"))


def _rows(layer, x):
    """(N, steps, C) -> (N, 1, steps, C); Keras refuses padding "causal" here."""
    if layer.causal:
        raise ValueError(with_location(
            f"{type(layer).__name__}: padding must be 'same' or 'valid', got 'causal'"))
    return tf.expand_dims(x, 1)


class DepthwiseConv1D(DepthwiseConv2D):
    """DepthwiseConv2D over (batch, steps, channels); kernel (kernel_size, channels, depth_multiplier)."""
    rank = 1

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, **kwargs):
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format, dilation_rate, **kwargs)

    def build(self, input_shape):
        c = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", (self.kernel_size[1], c, self.depth_multiplier), initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self._add_bias(c * self.depth_multiplier)

    def call(self, inputs):
        y = conv_variants.depthwise(_rows(self, inputs), tf.expand_dims(self.depthwise_kernel, 0), self.strides,
                                    self.dilation_rate, self.padding)
        return self._finish(tf.squeeze(y, 1))


class SeparableConv1D(SeparableConv2D):
    """SeparableConv2D over (batch, steps, channels); depthwise kernel (kernel_size, channels,
    depth_multiplier), pointwise kernel (1, channels * depth_multiplier, filters)."""
    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, **kwargs)

    def build(self, input_shape):
        c = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight("depthwise_kernel", (self.kernel_size[1], c, self.depth_multiplier),
                                                initializer=self.kernel_initializer)
        self.pointwise_kernel = self.add_weight("pointwise_kernel", (1, c * self.depth_multiplier, self.filters),
                                                initializer=self.pointwise_initializer,
                                                regularizer=self.kernel_regularizer)
        self._add_bias(self.filters)

    def call(self, inputs):
        y = conv_variants.depthwise(_rows(self, inputs), tf.expand_dims(self.depthwise_kernel, 0), self.strides,
                                    self.dilation_rate, self.padding)
        y = tf.nn.conv2d(y, tf.expand_dims(self.pointwise_kernel, 0), strides=1, padding="VALID")
        return self._finish(tf.squeeze(y, 1))


Convolution1D = Conv1D
SeparableConvolution1D = SeparableConv1D
Convolution2DTranspose = Conv2DTranspose

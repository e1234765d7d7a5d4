"""Volumetric (NDHWC) layers -- Conv3D, Conv3DTranspose, the 3-D pools,
UpSampling3D, ZeroPadding3D, Cropping3D -- and Conv1DTranspose, over the tf.nn
ops of runtime/ops/conv3d_ops.py (channels_last only)."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.conv import Conv2D, require_channels_last, _padding
from tapeflow.keras.layers.conv_variants import SeparableConv2D, _ConvBase, _transposed_length, add_transposed_kernel
from tapeflow.keras.layers.pooling import _GlobalPooling
from tapeflow.keras.layers.reshaping import _known, _pairs, _repeat_axis
from tapeflow.runtime.errors import with_location


def _triple(value, what):
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(int(v) for v in value)
    if len(value) != 3:
        raise ValueError(with_location(f"{what} must be an int or 3 ints, got {value!r}"))
    return value


class _Conv3DBase(_ConvBase):
    """_ConvBase with 3-tuples; `rank` 3 makes _channels expect (N, D, H, W, C)."""
    rank = 3

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1, 1), **kwargs):
        super().__init__(filters, 1, 1, padding, data_format, 1, **kwargs)
        name = type(self).__name__
        self.kernel_size = _triple(kernel_size, f"{name} kernel_size")
        self.strides = _triple(strides, f"{name} strides")
        self.dilation_rate = _triple(dilation_rate, f"{name} dilation_rate")


class Conv3D(_Conv3DBase):
    """Kernel (kd, kh, kw, in_channels, filters)."""
    _checkpoint_names = {"kernel": "_kernel"}

    def build(self, input_shape):
        c = self._channels(input_shape)
        self.kernel = self.add_weight("kernel", self.kernel_size + (c, self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self._add_bias(self.filters)

    def call(self, inputs):
        return self._finish(tf.nn.conv3d(inputs, self.kernel, (1,) + self.strides + (1,), self.padding,
                                         dilations=(1,) + self.dilation_rate + (1,)))


class Conv3DTranspose(_Conv3DBase):
    """The transpose of Conv3D; kernel (kd, kh, kw, filters, in_channels)."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", output_padding=None, **kwargs):
        if output_padding is not None:
            raise ValueError(with_location("Conv3DTranspose: output_padding is not supported"))
        super().__init__(filters, kernel_size, strides, padding, **kwargs)
        if self.dilation_rate != (1, 1, 1):
            raise ValueError(with_location("Conv3DTranspose: dilation_rate other than 1 is not supported"))

    def build(self, input_shape):
        add_transposed_kernel(self, input_shape, self.kernel_size)

    def call(self, inputs):
        dims = inputs.shape.dims
        out = [_transposed_length(dims[1 + i], self.kernel_size[i], self.strides[i], self.padding) for i in range(3)]
        y = tf.nn.conv3d_transpose(inputs, self.kernel, [dims[0]] + out + [self.filters],
                                   (1,) + self.strides + (1,), self.padding)
        return self._finish(y)


class Conv1DTranspose(_ConvBase):
    """The transpose of Conv1D; kernel (kernel_size, filters, in_channels)."""
    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, **kwargs):
        if output_padding is not None:
            raise ValueError(with_location("Conv1DTranspose: output_padding is not supported"))
        super().__init__(filters, kernel_size, strides, padding, **kwargs)
        if self.dilation_rate != (1, 1) or self.causal:
            raise ValueError(with_location("Conv1DTranspose: dilation_rate 1 and padding valid/same only"))

    def build(self, input_shape):
        add_transposed_kernel(self, input_shape, self.kernel_size[1:])

    def call(self, inputs):
        n, steps, _ = inputs.shape.dims
        out = _transposed_length(steps, self.kernel_size[1], self.strides[1], self.padding)
        return self._finish(tf.nn.conv1d_transpose(inputs, self.kernel, [n, out, self.filters], self.strides[1],
                                                   self.padding))


class _Pooling3D(Layer):
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        name = type(self).__name__
        require_channels_last(data_format, name)
        self.pool_size = _triple(pool_size, f"{name} pool_size")
        self.strides = _triple(strides, f"{name} strides") if strides is not None else self.pool_size
        self.padding = _padding(padding, name)

    def call(self, inputs):
        return self._pool(inputs, self.pool_size, self.strides, self.padding)

    def get_config(self):
        return {**super().get_config(), "pool_size": list(self.pool_size), "strides": list(self.strides),
                "padding": self.padding.lower()}


class MaxPooling3D(_Pooling3D):
    _pool = staticmethod(tf.nn.max_pool3d)


class AveragePooling3D(_Pooling3D):
    _pool = staticmethod(tf.nn.avg_pool3d)


class GlobalAveragePooling3D(_GlobalPooling):
    axes = (1, 2, 3)
    _reduce = staticmethod(tf.reduce_mean)


class GlobalMaxPooling3D(_GlobalPooling):
    axes = (1, 2, 3)
    _reduce = staticmethod(tf.reduce_max)


class UpSampling3D(Layer):
    """Repeat each depth, row and column of NDHWC volumes."""

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        require_channels_last(data_format, "UpSampling3D")
        self.size = _triple(size, "UpSampling3D size")

    def call(self, inputs):
        _known(inputs, self, (1, 2, 3, 4))
        for axis, times in enumerate(self.size, 1):
            inputs = _repeat_axis(inputs, axis, times)
        return inputs

    def get_config(self):
        return {**super().get_config(), "size": list(self.size)}


class ZeroPadding3D(Layer):
    """int, 3 ints, or 3 (before, after) pairs over depth, rows, columns."""

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        require_channels_last(data_format, "ZeroPadding3D")
        self.padding = _pairs(padding, 3, "ZeroPadding3D padding")

    def call(self, inputs):
        return tf.pad(inputs, [[0, 0]] + [list(p) for p in self.padding] + [[0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": [list(p) for p in self.padding]}


class Cropping3D(Layer):
    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        require_channels_last(data_format, "Cropping3D")
        self.cropping = _pairs(cropping, 3, "Cropping3D cropping")

    def call(self, inputs):
        dims = _known(inputs, self, (1, 2, 3))
        if any(a + b >= dims[i + 1] for i, (a, b) in enumerate(self.cropping)):
            raise ValueError(with_location(
                f"Cropping3D {self.name}: cropping {self.cropping} leaves nothing of shape {list(dims)}"))
        (a, b), (c, d), (e, f) = self.cropping
        return inputs[:, a:dims[1] - b, c:dims[2] - d, e:dims[3] - f, :]

    def get_config(self):
        return {**super().get_config(), "cropping": [list(p) for p in self.cropping]}


# Keras's other spellings.
Convolution2D = Conv2D
Convolution3D = Conv3D
SeparableConvolution2D = SeparableConv2D
Convolution1DTranspose = Conv1DTranspose
Convolution3DTranspose = Conv3DTranspose
MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool3D = GlobalMaxPooling3D

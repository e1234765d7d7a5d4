"""tf.nn's rank-generic and dilated entry points over the convolutions:
conv_transpose (1-, 2- or 3-D by the length of output_shape), atrous_conv2d and
atrous_conv2d_transpose (a 2-D convolution with dilation `rate`)."""
from tapeflow.nn_volumetric import conv1d_transpose, conv3d_transpose
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops.conv_ops import conv2d
from tapeflow.runtime.ops.conv_variants import conv2d_transpose


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    shape = output_shape.numpy().tolist() if hasattr(output_shape, "numpy") else list(output_shape)
    n = len(shape) - 2
    transposes = {1: (conv1d_transpose, "NWC"), 2: (conv2d_transpose, "NHWC"), 3: (conv3d_transpose, "NDHWC")}
    if n not in transposes:
        raise ValueError(with_location(f"conv_transpose: output_shape must have 3, 4 or 5 entries, got {shape}"))
    fn, default_format = transposes[n]
    return fn(input, filters, output_shape, strides, padding=padding, data_format=data_format or default_format,
              dilations=dilations)


def _rate(rate, op):
    rate = int(rate)
    if rate < 1:
        raise ValueError(with_location(f"{op}: rate must be >= 1, got {rate}"))
    return rate


def atrous_conv2d(value, filters, rate, padding, name=None):
    rate = _rate(rate, "atrous_conv2d")
    return conv2d(value, filters, 1, padding, dilations=[rate, rate])


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    rate = _rate(rate, "atrous_conv2d_transpose")
    return conv2d_transpose(value, filters, output_shape, 1, padding=padding, dilations=[rate, rate])

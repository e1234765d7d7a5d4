"""The raw convolution ops TF exports: tf.conv (2-D/3-D Conv with leading batch dims) and
tf.nn.depthwise_conv2d_backprop_input / _filter, the vector-Jacobian products of the forward op
taken with a tape over it (so they trace and have second-order gradients); explicit padding
pads the input and runs VALID.  tf.conv2d_backprop_input_v2 / filter_v2 raise NotFoundError:
TensorFlow 2.21 registers no kernel for them (measured)."""
import tapeflow as tf
from tapeflow.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError, with_location


def _explicit(padding, explicit_paddings, channels_last, rank):
    """(padding string, [[before, after]] per input axis or None)."""
    if isinstance(padding, (list, tuple)):
        return "VALID", [list(p) for p in padding]
    if str(padding).upper() != "EXPLICIT":
        return str(padding).upper(), None
    flat = list(explicit_paddings)
    if len(flat) != 2 * rank:
        raise InvalidArgumentError(with_location(
            f"explicit_paddings must hold {2 * rank} values (a pair per dimension), got {len(flat)}"))
    pairs = [flat[i:i + 2] for i in range(0, len(flat), 2)]
    if any(pairs[0]) or any(pairs[-1] if channels_last else pairs[1]):
        raise InvalidArgumentError(with_location("explicit_paddings must be zero on the batch and channel axes"))
    return "VALID", pairs


def _conv2d(x, w, strides, padding, explicit_paddings, data_format, dilations, depthwise=False):
    pad_mode, pairs = _explicit(padding, explicit_paddings, data_format == "NHWC", 4)
    if pairs is not None:
        x = tf.pad(x, pairs)
    if depthwise:
        return tf.nn.depthwise_conv2d(x, w, list(strides), pad_mode, data_format=data_format, dilations=dilations[1:3]
                                      if data_format == "NHWC" else dilations[2:])
    return tf.nn.conv2d(x, w, list(strides), pad_mode, data_format=data_format, dilations=list(dilations))


def _vjp(forward, at, out_backprop):
    with tf.GradientTape() as tape:
        tape.watch(at)
        y = forward(at)
    return tape.gradient(y, at, output_gradients=tf.cast(out_backprop, y.dtype))


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                             explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """TF 2.21 registers no kernel for Conv2DBackpropInputV2: NotFoundError, as there."""
    raise NotFoundError(with_location("conv2d_backprop_input_v2: TensorFlow has no kernel for "
                                      "Conv2DBackpropInputV2 (use tf.nn.conv2d_transpose or a GradientTape)"))


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                              explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """TF 2.21 registers no kernel for Conv2DBackpropFilterV2: NotFoundError, as there."""
    raise NotFoundError(with_location("conv2d_backprop_filter_v2: TensorFlow has no kernel for "
                                      "Conv2DBackpropFilterV2 (use a GradientTape)"))


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                    data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to an input of shape `input_sizes`."""
    f = tf.convert_to_tensor(filter)
    x = tf.zeros(input_sizes, f.dtype)
    return _vjp(lambda v: _conv2d(v, f, strides, padding, (), data_format, dilations, True), x, out_backprop)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                     data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to a filter of shape `filter_sizes`."""
    x = tf.convert_to_tensor(input)
    w = tf.zeros(filter_sizes, x.dtype)
    return _vjp(lambda v: _conv2d(x, v, strides, padding, (), data_format, dilations, True), w, out_backprop)


def conv(input, filter, strides, padding, explicit_paddings=(), data_format="CHANNELS_LAST",  # noqa: A002
         dilations=(), batch_dims=1, groups=1, name=None):
    """The raw N-D Conv op: len(strides) - 2 spatial axes after `batch_dims` batch axes."""
    x, w = tf.convert_to_tensor(input), tf.convert_to_tensor(filter)
    if groups != 1:
        raise UnimplementedError(with_location("conv: Grouped/Depthwise Convolutions are not supported yet."))
    spatial = len(strides) - 2
    if spatial not in (2, 3):
        raise InvalidArgumentError(with_location(f"conv: The input must have 2 or 3 spatial dimensions but got "
                                                 f"{spatial}"))
    channels_last = data_format == "CHANNELS_LAST"
    if x.shape.rank != spatial + batch_dims + 1:
        raise InvalidArgumentError(with_location(
            f"conv: input must have rank {spatial + batch_dims + 1} (batch_dims={batch_dims}, {spatial} spatial "
            f"axes, channels), got {list(x.shape)}"))
    lead = tf.shape(x)[:batch_dims]
    x = tf.reshape(x, tf.concat([[-1], tf.shape(x)[batch_dims:]], 0))
    if not channels_last:
        x = tf.transpose(x, [0] + list(range(2, spatial + 2)) + [1])
    pad_mode, pairs = _explicit(padding, explicit_paddings, True, spatial + 2)
    if pairs is not None:
        pairs = pairs if channels_last else [pairs[0]] + pairs[2:] + [pairs[1]]
        x = tf.pad(x, pairs)
    rates = list(dilations)[1:-1] if len(dilations) else [1] * spatial
    if not channels_last and len(dilations):
        rates = list(dilations)[2:]
    steps = list(strides)[1:-1] if channels_last else list(strides)[2:]
    y = tf.nn.convolution(x, w, strides=steps, padding=pad_mode, dilations=rates)
    if not channels_last:
        y = tf.transpose(y, [0, spatial + 1] + list(range(1, spatial + 1)))
    return tf.reshape(y, tf.concat([lead, tf.shape(y)[1:]], 0))

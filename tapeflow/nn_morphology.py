"""tf.nn.dilation2d / erosion2d (grayscale morphology, NHWC) and
batch_norm_with_global_normalization.  Dilation is a composite: the window's shifted slices
plus the filter, the first maximum picked by a mask (so the gradient reaches only it, as
TensorFlow's); erosion is TensorFlow's -dilation2d(-x, reversed filters)."""
from tapeflow.nn_pool_argmax import shifted_windows
from tapeflow.runtime.errors import InvalidArgumentError, UnimplementedError, with_location


def _tf():
    import tapeflow
    return tapeflow


def _four(value, name, op):
    values = [int(v) for v in value]
    if len(values) != 4 or min(values) <= 0:
        raise InvalidArgumentError(with_location(f"{op}: {name} must be 4 positive ints, got {values}"))
    if values[0] != 1 or values[3] != 1:
        raise UnimplementedError(with_location(f"{op}: {name} over the batch or depth is not supported, got {values}"))
    return values[1:3]


def dilation2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """out[b, y, x, c] = max over (dy, dx) of input[b, y*sh + dy*rh - top, x*sw + dx*rw - left, c]
    + filters[dy, dx, c] (padding never wins)."""
    tf = _tf()
    op = "dilation2d"
    x, f = tf.convert_to_tensor(input), tf.convert_to_tensor(filters)
    if data_format != "NHWC":
        raise ValueError(with_location(f"{op}: data_format must be 'NHWC', got {data_format!r}"))
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(with_location(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}"))
    if x.shape.rank != 4 or None in x.shape.as_list()[1:] or f.shape.rank != 3 or x.shape[3] != f.shape[2]:
        raise InvalidArgumentError(with_location(
            f"{op}: input must be [batch, h, w, depth] and filters [fh, fw, depth], got {list(x.shape)} and "
            f"{list(f.shape)}"))
    if f.dtype != x.dtype:
        raise InvalidArgumentError(with_location(f"{op}: filters must be {x.dtype.name}, got {f.dtype.name}"))
    size = f.shape.as_list()[:2]
    rates = _four(dilations or [1, 1, 1, 1], "dilations", op)
    shifted, _ = shifted_windows(tf, x, size, _four(strides, "strides", op), rates, padding, op)
    sums = shifted + tf.reshape(f, [size[0] * size[1], 1, 1, 1, -1])
    first = tf.one_hot(tf.argmax(sums, axis=0), size[0] * size[1], on_value=True, off_value=False, axis=0)
    return tf.reduce_sum(tf.where(first, sums, tf.zeros_like(sums)), 0)


def erosion2d(value, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """-dilation2d(-value, filters reversed in both spatial axes)."""
    tf = _tf()
    return -dilation2d(-tf.convert_to_tensor(value), tf.reverse(filters, [0, 1]), strides, padding, data_format,
                       dilations)


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,
                                         scale_after_normalization, name=None):
    """batch_normalization with gamma applied only when scale_after_normalization."""
    return _tf().nn.batch_normalization(input, mean, variance, beta, gamma if scale_after_normalization else None,
                                        variance_epsilon)

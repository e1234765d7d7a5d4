"""tf.nn.max_pool_with_argmax: 2-D max pooling (NHWC) that also returns where each maximum
came from, flattened as ((b * height + y) * width + x) * channels + c (b only with
include_batch_in_index).  A composite: the window's shifted strided slices of the input padded
with -inf, an argmax over them (the first maximum in row-major window order, as TensorFlow),
and the output gathered at the argmax, so the gradient reaches only that element."""
import collections

from tapeflow.runtime.errors import InvalidArgumentError, with_location


def _tf():
    import tapeflow
    return tapeflow


MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def _window(value, name):
    values = [value] if isinstance(value, int) else [int(v) for v in value]
    if len(values) == 1:
        values = values * 2
    if len(values) == 4:
        if values[0] != 1 or values[3] != 1:
            raise InvalidArgumentError(with_location(
                f"max_pool_with_argmax: {name} over the batch or channel dimension is not supported, got {values}"))
        values = values[1:3]
    if len(values) != 2 or min(values) <= 0:
        raise ValueError(with_location(f"max_pool_with_argmax: {name} must be 1, 2 or 4 positive ints, got {value}"))
    return values


def _pads(size, k, s, padding):
    if padding == "VALID":
        return (size - k) // s + 1, 0
    out = -(-size // s)
    return out, max((out - 1) * s + k - size, 0) // 2


def shifted_windows(tf, x, size, strides, rates, padding, op):
    """[kh * kw, b, oh, ow, c]: for each window offset (row-major) the strided slice of x
    (padded with its lowest value) it meets, and the (top, left) padding."""
    (kh, kw), (sh, sw), (rh, rw) = size, strides, rates
    _, h, w, _ = x.shape.as_list()
    (oh, top), (ow, left) = _pads(h, (kh - 1) * rh + 1, sh, padding), _pads(w, (kw - 1) * rw + 1, sw, padding)
    if oh <= 0 or ow <= 0:
        raise ValueError(with_location(f"{op}: window {[kh, kw]} larger than the input {[h, w]}"))
    span_h, span_w = (oh - 1) * sh + (kh - 1) * rh + 1, (ow - 1) * sw + (kw - 1) * rw + 1
    low = tf.cast(float("-inf"), x.dtype) if x.dtype.is_floating else x.dtype.min
    padded = tf.pad(x, [[0, 0], [top, max(span_h - h - top, 0)], [left, max(span_w - w - left, 0)], [0, 0]],
                    constant_values=low)
    return tf.stack([padded[:, dy * rh:dy * rh + (oh - 1) * sh + 1:sh, dx * rw:dx * rw + (ow - 1) * sw + 1:sw]
                     for dy in range(kh) for dx in range(kw)], 0), (top, left)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", output_dtype="int64",
                         include_batch_in_index=False, name=None):
    """(output [b, oh, ow, c], argmax [b, oh, ow, c] of output_dtype)."""
    tf = _tf()
    x = tf.convert_to_tensor(input)
    if data_format != "NHWC":
        raise ValueError(with_location(f"max_pool_with_argmax: data_format must be 'NHWC', got {data_format!r}"))
    if x.shape.rank != 4 or None in x.shape.as_list()[1:]:
        raise ValueError(with_location(
            f"max_pool_with_argmax: input must be 4-D [batch, height, width, channels] with a static size, "
            f"got {list(x.shape)}"))
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(with_location(f"max_pool_with_argmax: padding must be 'SAME' or 'VALID', got {padding!r}"))
    (kh, kw), (sh, sw) = _window(ksize, "ksize"), _window(strides, "strides")
    _, h, w, c = x.shape.as_list()
    shifted, (top, left) = shifted_windows(tf, x, (kh, kw), (sh, sw), (1, 1), padding, "max_pool_with_argmax")
    oh, ow = shifted.shape[2], shifted.shape[3]
    k = tf.argmax(shifted, axis=0, output_type=tf.int64)
    y = tf.range(oh, dtype=tf.int64)[:, None, None] * sh - top + k // kw
    xx = tf.range(ow, dtype=tf.int64)[None, :, None] * sw - left + k % kw
    flat = (y * w + xx) * c + tf.range(c, dtype=tf.int64)
    batch = tf.range(tf.shape(x, out_type=tf.int64)[0])[:, None, None, None] * (h * w * c)
    output = tf.reshape(tf.gather(tf.reshape(x, [-1]), flat + batch), tf.shape(k))
    argmax = flat + batch if include_batch_in_index else flat
    return MaxPoolWithArgmax(output, tf.cast(argmax, tf.dtypes.as_dtype(output_dtype)))

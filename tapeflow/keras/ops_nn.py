"""keras.ops nn functions, crossentropies, convolution/pooling (NHWC), moments and
control flow (cond, while_loop, fori_loop, scan, vectorized_map), over tapeflow ops.

Keras's crossentropy ops differ from keras.losses: binary_crossentropy is
elementwise (no mean over the last axis), the categorical ones reduce `axis`.
"""
import numpy as np

import tapeflow as tf
from tapeflow.keras.activations import (  # noqa: F401  (the same functions as keras.activations')
    celu, glu, hard_shrink, hard_sigmoid, hard_silu, hard_tanh, leaky_relu, log_sigmoid, log_softmax, relu,
    relu6, selu, sigmoid, silu, soft_shrink, softmax, softplus, softsign, sparse_plus, sparse_sigmoid,
    sparsemax, squareplus, swish, tanh_shrink, threshold,
)
from tapeflow.ctc_decode import ctc_decode  # noqa: F401 - keras.ops.ctc_decode (greedy)
from tapeflow.runtime.errors import with_location

_EPSILON = 1e-7

__all__ = ["relu", "relu6", "sigmoid", "softmax", "log_softmax", "gelu", "silu", "swish", "softplus",
           "leaky_relu", "elu", "binary_crossentropy", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "conv", "max_pool", "average_pool", "moments", "cond",
           "while_loop", "fori_loop", "scan", "vectorized_map", "ctc_decode", "celu", "glu", "hard_shrink",
           "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "log_sigmoid", "selu", "soft_shrink", "softsign",
           "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "tanh_shrink", "threshold", "normalize",
           "multi_hot", "batch_normalization", "psnr", "layer_normalization", "rms_normalization",
           "dot_product_attention", "depthwise_conv", "separable_conv", "conv_transpose", "depth_to_space",
           "space_to_depth", "unfold", "fold"]
# keras.ops.nn: these, with one_hot (ops.py) and polar (ops_signal.py)
NN_NAMES = [n for n in __all__ if n not in ("cond", "while_loop", "fori_loop", "scan", "vectorized_map")] + [
    "one_hot", "polar"]
hard_swish = hard_silu


def _channels_last_op(op, x, block_size, data_format):
    """The NHWC op; channels_first input is moved to NHWC and back, as Keras 3 does."""
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={data_format}")
    if data_format == "channels_last":
        return op(x, block_size)
    return tf.transpose(op(tf.transpose(x, [0, 2, 3, 1]), block_size), [0, 3, 1, 2])


def space_to_depth(x, block_size, data_format="channels_last"):
    return _channels_last_op(tf.nn.space_to_depth, x, block_size, data_format)


def depth_to_space(x, block_size, data_format="channels_last"):
    return _channels_last_op(tf.nn.depth_to_space, x, block_size, data_format)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """torch's unfold (im2col) on NCHW input, as Keras 3: (N, C * kH * kW, L) with the channel
    slowest, then the kernel row and column; L counts the blocks row by row."""
    x = tf.convert_to_tensor(x)
    if x.shape.rank != 4:
        raise ValueError(f"Input must be a 4D tensor. Received: input.shape={x.shape}")
    (kh, kw), d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    n, c = x.shape[0], x.shape[1]
    x = tf.transpose(tf.pad(x, [[0, 0], [0, 0], [p[0], p[0]], [p[1], p[1]]]), [0, 2, 3, 1])
    patches = tf.image.extract_patches(x, sizes=[1, kh, kw, 1], strides=[1, s[0], s[1], 1],
                                       rates=[1, d[0], d[1], 1], padding="VALID")
    nh, nw = patches.shape[1], patches.shape[2]
    patches = tf.transpose(tf.reshape(patches, [-1, nh, nw, kh, kw, c]), [0, 5, 3, 4, 1, 2])
    return tf.reshape(patches, [-1 if n is None else n, c * kh * kw, nh * nw])


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """torch's fold (col2im), unfold's adjoint: each block's values added back where unfold took
    them, (N, C * kH * kW, L) -> (N, C, oH, oW)."""
    x = tf.convert_to_tensor(x)
    if x.shape.rank != 3:
        raise ValueError(f"Input must be a 3D tensor. Received: input.shape={x.shape}")
    (kh, kw), (oh, ow), d, p, s = _pair(kernel_size), _pair(output_size), _pair(dilation), _pair(padding), \
        _pair(stride)
    c = x.shape[1] // (kh * kw)
    nh = (oh + 2 * p[0] - d[0] * (kh - 1) - 1) // s[0] + 1
    nw = (ow + 2 * p[1] - d[1] * (kw - 1) - 1) // s[1] + 1
    # blocks as (kH, kW, nH, nW, N, C): scatter-added into a (oH + 2p, oW + 2p, N, C) canvas
    blocks = tf.transpose(tf.reshape(x, tf.stack([tf.shape(x)[0], c, kh, kw, nh, nw])), [2, 3, 4, 5, 0, 1])
    canvas = tf.zeros(tf.stack([oh + 2 * p[0], ow + 2 * p[1], tf.shape(x)[0], c]), x.dtype)
    rows, cols = np.meshgrid(np.arange(nh) * s[0], np.arange(nw) * s[1], indexing="ij")
    for i in range(kh):
        for j in range(kw):
            where = np.stack([rows + i * d[0], cols + j * d[1]], -1).reshape(-1, 2).astype(np.int32)
            update = tf.reshape(blocks[i, j], tf.concat([[nh * nw], tf.shape(blocks)[4:]], 0))
            canvas = tf.tensor_scatter_nd_add(canvas, where, update)
    return tf.transpose(canvas, [2, 3, 0, 1])[:, :, p[0]:p[0] + oh, p[1]:p[1] + ow]


def gelu(x, approximate=True):  # Keras 3's ops.gelu defaults to the tanh approximation
    return tf.nn.gelu(x, approximate=approximate)


def elu(x, alpha=1.0):
    x = tf.convert_to_tensor(x)
    return tf.where(x > 0, x, alpha * tf.math.expm1(tf.minimum(x, 0.0)))


def binary_crossentropy(target, output, from_logits=False):
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    target = tf.cast(target, output.dtype)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = tf.clip_by_value(output, _EPSILON, 1.0 - _EPSILON)
    return -(target * tf.math.log(output) + (1.0 - target) * tf.math.log(1.0 - output))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if target.shape.rank != output.shape.rank:
        raise ValueError(with_location(f"keras.ops.categorical_crossentropy: target shape {target.shape} and "
                                       f"output shape {output.shape} differ in rank"))
    target = tf.cast(target, output.dtype)
    if from_logits:
        log_prob = tf.nn.log_softmax(output, axis=axis)
    else:
        output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
        log_prob = tf.math.log(tf.clip_by_value(output, _EPSILON, 1.0 - _EPSILON))
    return -tf.reduce_sum(target * log_prob, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    output = tf.convert_to_tensor(output)
    target = tf.convert_to_tensor(target)
    if target.shape.rank == output.shape.rank and target.shape[-1] == 1:
        target = tf.squeeze(target, -1)
    depth = output.shape[axis]
    return categorical_crossentropy(tf.one_hot(tf.cast(target, "int32"), depth, axis=axis, dtype=output.dtype),
                                    output, from_logits=from_logits, axis=axis)


def _check_channels_last(op, data_format):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(with_location(f"keras.ops.{op}: only data_format='channels_last' is supported"))


def _tuple(v, n):
    return [int(v)] * n if isinstance(v, int) else [int(i) for i in v]


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    _check_channels_last("conv", data_format)
    inputs = tf.convert_to_tensor(inputs)
    n = inputs.shape.rank - 2
    pad = padding.upper()
    if n == 1:
        return tf.nn.conv1d(inputs, kernel, _tuple(strides, 1)[0], pad, dilations=_tuple(dilation_rate, 1)[0])
    if n == 2:
        return tf.nn.conv2d(inputs, kernel, _tuple(strides, 2), pad, dilations=_tuple(dilation_rate, 2))
    raise NotImplementedError(with_location(f"keras.ops.conv: {n}-D convolution is not supported (1-D and 2-D are)"))


def _check_input_channels(op, inputs, kernel, kernel_axis):
    """Keras's check: the input's channels are the kernel's axis -2 (conv, depthwise,
    separable) or -1 (conv_transpose: spatial..., out_channels, in_channels)."""
    channels, kernel_channels = inputs.shape[-1], kernel.shape[kernel_axis]
    if channels is not None and kernel_channels is not None and channels != kernel_channels:
        raise ValueError(with_location(f"keras.ops.{op}: the number of input channels must match the kernel's "
                                       f"input channels; received input shape {inputs.shape} (channels "
                                       f"{channels}) and kernel shape {kernel.shape} (input channels "
                                       f"{kernel_channels})"))


def _as_2d(op, inputs, kernels, strides, dilation_rate):
    """1-D inputs and kernels with a unit height (Keras runs the 2-D op on them), the 2-D strides
    and dilations; None for inputs that are neither 1-D nor 2-D."""
    n = inputs.shape.rank - 2
    if n not in (1, 2):
        raise ValueError(with_location(f"keras.ops.{op}: inputs rank must be 3 (1-D) or 4 (2-D); received "
                                       f"shape {inputs.shape}"))
    strides, dilation_rate = _tuple(strides, n), _tuple(dilation_rate, n)
    if n == 1:
        inputs, kernels = tf.expand_dims(inputs, 1), [tf.expand_dims(k, 0) for k in kernels]
        strides, dilation_rate = strides * 2, [1] + dilation_rate
    return n, inputs, kernels, [1] + strides + [1], dilation_rate


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    _check_channels_last("depthwise_conv", data_format)
    inputs, kernel = tf.convert_to_tensor(inputs), tf.convert_to_tensor(kernel)
    _check_input_channels("depthwise_conv", inputs, kernel, -2)
    n, x, (k,), strides, dilations = _as_2d("depthwise_conv", inputs, [kernel], strides, dilation_rate)
    out = tf.nn.depthwise_conv2d(x, k, strides, padding.upper(), dilations=dilations)
    return tf.squeeze(out, [1]) if n == 1 else out


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    _check_channels_last("separable_conv", data_format)
    inputs = tf.convert_to_tensor(inputs)
    depthwise_kernel, pointwise_kernel = tf.convert_to_tensor(depthwise_kernel), tf.convert_to_tensor(pointwise_kernel)
    _check_input_channels("separable_conv", inputs, depthwise_kernel, -2)
    n, x, (dk, pk), strides, dilations = _as_2d("separable_conv", inputs, [depthwise_kernel, pointwise_kernel],
                                                strides, dilation_rate)
    out = tf.nn.separable_conv2d(x, dk, pk, strides, padding.upper(), dilations=dilations)
    return tf.squeeze(out, [1]) if n == 1 else out


def _transposed_size(size, kernel, stride, padding, output_padding, dilation):
    """Keras's conv_transpose output length of one spatial axis."""
    kernel = (kernel - 1) * dilation + 1
    if padding == "valid":
        extra = max(kernel, stride) - kernel if output_padding is None else output_padding
        return (size - 1) * stride + kernel + extra
    if output_padding is None:
        return size * stride
    return (size - 1) * stride + kernel % 2 + output_padding


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None, data_format=None,
                   dilation_rate=1):
    _check_channels_last("conv_transpose", data_format)
    inputs, kernel = tf.convert_to_tensor(inputs), tf.convert_to_tensor(kernel)
    _check_input_channels("conv_transpose", inputs, kernel, -1)
    padding = padding.lower()
    if padding not in ("valid", "same"):
        raise ValueError(with_location(f"keras.ops.conv_transpose: padding must be 'valid' or 'same'; received "
                                       f"{padding!r}"))
    n = inputs.shape.rank - 2
    strides, dilation_rate = _tuple(strides, n), _tuple(dilation_rate, n)
    pads = [None] * n if output_padding is None else _tuple(output_padding, n)
    dynamic = tf.shape(inputs)
    spatial = [_transposed_size(inputs.shape[1 + i] if inputs.shape[1 + i] is not None else dynamic[1 + i],
                                kernel.shape[i], strides[i], padding, pads[i], dilation_rate[i]) for i in range(n)]
    output_shape = tf.stack([dynamic[0]] + spatial + [kernel.shape[-2]])
    return tf.nn.conv_transpose(inputs, kernel, output_shape, strides, padding.upper(), dilations=dilation_rate)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    _check_channels_last("max_pool", data_format)
    n = tf.convert_to_tensor(inputs).shape.rank - 2
    size = _tuple(pool_size, n)
    return tf.nn.max_pool(inputs, size, size if strides is None else _tuple(strides, n), padding.upper())


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    _check_channels_last("average_pool", data_format)
    n = tf.convert_to_tensor(inputs).shape.rank - 2
    size = _tuple(pool_size, n)
    return tf.nn.avg_pool(inputs, size, size if strides is None else _tuple(strides, n), padding.upper())


def moments(x, axes, keepdims=False, synchronized=False):
    return tf.nn.moments(x, axes=list(axes) if isinstance(axes, (tuple, list)) else [axes], keepdims=keepdims)


# --- control flow -----------------------------------------------------------------------
def cond(pred, true_fn, false_fn):
    return tf.cond(pred, true_fn, false_fn)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Keras: a tuple/list of loop_vars is unpacked into cond(*vars) and body(*vars)."""
    if isinstance(loop_vars, (tuple, list)):
        out = tf.while_loop(cond, body, tuple(loop_vars), maximum_iterations=maximum_iterations)
        return tuple(out) if isinstance(out, (tuple, list)) else (out,)

    def single_body(v):
        out = body(v)
        return out[0] if isinstance(out, (tuple, list)) and len(out) == 1 else out
    out = tf.while_loop(cond, single_body, (loop_vars,), maximum_iterations=maximum_iterations)
    return out[0] if isinstance(out, (tuple, list)) else out


def fori_loop(lower, upper, body_fun, init_val):
    """body_fun(i, val) -> val for i in [lower, upper)."""
    lower = tf.convert_to_tensor(lower, "int32")
    _, out = tf.while_loop(lambda i, _v: i < upper, lambda i, v: (i + 1, body_fun(i, v)), (lower, init_val))
    return out


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Keras/JAX scan: f(carry, x) -> (carry, y); returns (final carry, stacked ys).

    The first step runs outside tf.scan so its y fixes the accumulator's structure.
    """
    if xs is None:
        if length is None:
            raise ValueError(with_location("keras.ops.scan: give xs or length"))
        xs_flat, steps = None, int(length)
    else:
        xs_flat = [tf.convert_to_tensor(x) for x in tf.nest.flatten(xs)]
        steps = int(xs_flat[0].shape[0]) if length is None else int(length)
        if reverse:
            xs_flat = [tf.reverse(x, [0]) for x in xs_flat]
    if steps == 0:
        raise ValueError(with_location("keras.ops.scan: zero-length scans are not supported"))

    def x_at(i):
        return None if xs_flat is None else tf.nest.pack_sequence_as(xs, [x[i] for x in xs_flat])
    carry, y0 = f(init, x_at(0))
    if steps == 1:
        ys = tf.nest.map_structure(lambda y: tf.expand_dims(y, 0), y0)
    else:
        rest = tf.range(1, steps) if xs_flat is None else [x[1:] for x in xs_flat]

        def step(acc, elem):
            x = None if xs_flat is None else tf.nest.pack_sequence_as(xs, list(elem))
            return f(acc[0], x)
        carries, ys_rest = tf.scan(step, rest, initializer=(carry, y0))
        carry = tf.nest.map_structure(lambda c: c[-1], carries)
        ys = tf.nest.map_structure(lambda a, b: tf.concat([tf.expand_dims(a, 0), b], 0), y0, ys_rest)
    if reverse:
        ys = tf.nest.map_structure(lambda y: tf.reverse(y, [0]), ys)
    return carry, ys


def vectorized_map(function, elements):
    return tf.vectorized_map(function, elements)


def normalize(x, axis=-1, order=2, epsilon=None):
    """x over its `order`-norm along axis (Keras 3: L2 as x * min(rsqrt(sum x^2), 1 / epsilon))."""
    if not isinstance(order, int) or order < 1:
        raise ValueError(with_location(f"Argument `order` must be an int >= 1. Received: order={order}"))
    x = tf.convert_to_tensor(x)
    x = tf.reshape(x, [1]) if x.shape.rank == 0 else x
    epsilon = _EPSILON if epsilon is None else epsilon
    if order == 2:
        inv = tf.math.rsqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=True))
        return x * tf.minimum(inv, 1.0 / epsilon)
    return x / tf.maximum(tf.norm(x, ord=order, axis=axis, keepdims=True), epsilon)


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """One sample's ids (rank 1) or a batch's (rank 2) as one row of 0 / 1 each, as Keras 3."""
    num_classes = kwargs.pop("num_tokens", num_classes)  # Keras's older argument name
    if sparse:
        raise ValueError(with_location("keras.ops.multi_hot: sparse=True is not supported"))
    x = tf.convert_to_tensor(inputs)
    hot = tf.one_hot(x, num_classes, axis=axis, dtype=dtype or "float32")
    return tf.reduce_max(hot, axis=1 if x.shape.rank > 1 else 0)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    x = tf.convert_to_tensor(x)
    if axis != -1:  # 1-D statistics laid along `axis`
        shape = [1] * x.shape.rank
        shape[axis] = -1
        mean, variance = tf.reshape(mean, shape), tf.reshape(variance, shape)
        offset = None if offset is None else tf.reshape(offset, shape)
        scale = None if scale is None else tf.reshape(scale, shape)
    return tf.nn.batch_normalization(x, mean, variance, offset, scale, epsilon)


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio in dB: 20 log10(max_val) - 10 log10(mean squared error)."""
    x1, x2 = tf.convert_to_tensor(x1), tf.convert_to_tensor(x2)
    if x1.shape != x2.shape:
        raise ValueError(with_location(f"Input shapes {x1.shape} and {x2.shape} must match for PSNR calculation."))
    log10 = lambda v: tf.math.log(v) / tf.math.log(tf.constant(10.0, x2.dtype))  # noqa: E731
    return 20 * log10(tf.cast(max_val, x2.dtype)) - 10 * log10(tf.reduce_mean(tf.square(x1 - x2)))


def _wide(x):
    """x in at least float32 (Keras 3 normalizes half precision in float32), and its dtype."""
    x = tf.convert_to_tensor(x)
    return (tf.cast(x, "float32") if x.dtype in (tf.float16, tf.bfloat16) or not x.dtype.is_floating else x), x.dtype


def _along(v, x, axes):
    """A 1-D scale or offset laid along the normalized axes (as-is when they are only the last)."""
    if v is None:
        return None
    v = tf.cast(v, x.dtype)
    if v.shape.rank == x.shape.rank or axes == [x.shape.rank - 1]:
        return v
    return tf.reshape(v, [x.shape[a] if a in axes else 1 for a in range(x.shape.rank)])


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, rms_scaling=False, **kwargs):
    x, original = _wide(x)
    epsilon = _EPSILON if epsilon is None else epsilon
    axes = sorted(a % x.shape.rank for a in (axis if isinstance(axis, (list, tuple)) else [axis]))
    gamma, beta = _along(gamma, x, axes), _along(beta, x, axes)
    if rms_scaling:
        out = x * tf.math.rsqrt(tf.math.reduce_variance(x, axis=axes, keepdims=True) + epsilon)
        out = out if gamma is None else out * gamma
    else:
        mean, variance = tf.nn.moments(x, axes=axes, keepdims=True)
        inv = tf.math.rsqrt(variance + epsilon)
        inv = inv if gamma is None else inv * gamma
        shift = -mean * inv
        out = x * inv + (shift if beta is None else shift + beta)
    return tf.cast(out, original)


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    x, original = _wide(x)
    x = tf.reshape(x, [1]) if x.shape.rank == 0 else x
    epsilon = _EPSILON if epsilon is None else epsilon
    out = x * tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=axis, keepdims=True) + epsilon)
    return tf.cast(out if scale is None else out * tf.cast(scale, out.dtype), original)


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    """softmax(q k^T * scale + bias, masked) v over (batch, seq, heads, head_dim) inputs, as Keras 3's
    TensorFlow backend computes it (grouped key/value heads repeated; the softmax in float32)."""
    if flash_attention:
        raise ValueError(with_location("Flash attention is not supported in tensorflow backend."))
    query, key, value = (tf.convert_to_tensor(t) for t in (query, key, value))
    if query.shape.rank != 4:
        raise ValueError(with_location(
            f"`dot_product_attention` only supports 4D inputs. Received: query.shape={tuple(query.shape)}, "
            f"key.shape={tuple(key.shape)}, value.shape={tuple(value.shape)}."))
    heads, kv_heads = query.shape[2], key.shape[2]
    if heads is not None and kv_heads is not None and heads > kv_heads > 1:
        key, value = tf.repeat(key, heads // kv_heads, axis=2), tf.repeat(value, heads // kv_heads, axis=2)
    scale = 1.0 / float(key.shape[-1]) ** 0.5 if scale is None else scale
    logits = tf.einsum("BTNH,BSNH->BNTS", query, key)
    logits = tf.cast(logits, "float32") if logits.dtype in (tf.float16, tf.bfloat16) else logits
    logits = logits * tf.cast(scale, logits.dtype)
    if bias is not None:
        logits = logits + tf.cast(bias, logits.dtype)
    keep = None if mask is None else tf.cast(mask, "bool")
    if is_causal:
        t, s = logits.shape[2], logits.shape[3]
        causal = tf.linalg.band_part(tf.ones((t, s), "bool"), -1, 0)[None, None]
        keep = causal if keep is None else tf.logical_and(keep, causal)
    if keep is not None:
        low = (65500.0 if logits.dtype == tf.float16 else 3.38953e38) * -0.7
        logits = tf.where(tf.logical_and(keep, tf.ones_like(logits, "bool")), logits, tf.cast(low, logits.dtype))
    probs = tf.cast(tf.nn.softmax(logits, axis=-1), key.dtype)
    return tf.einsum("BNTS,BSNH->BTNH", probs, value)

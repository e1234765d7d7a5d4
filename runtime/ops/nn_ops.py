"""tf.nn: activations, softmax, losses, normalization and dropout.

Only softplus is a primitive (its stable formula's natural gradient is wrong
at 0); the rest are composites.  Composites written with `where` take care
that the branch not chosen stays finite: its gradient is multiplied by zero,
and 0 * inf would be NaN.
"""
import math

import numpy as np

from .. import dtypes
from ..errors import dtype_not_supported, with_location
from ..registry import bind, defprim
from .. import shape_rules as R
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import math_ops as M
from . import reduce_ops as RD


def _softplus_impl(xp, x):
    # log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)): no overflow in either tail.
    return (xp.maximum(x, 0) + xp.log1p(xp.exp(-xp.abs(x)))).astype(x.dtype, copy=False)


SOFTPLUS = defprim("softplus", _softplus_impl, R.floating, lambda g, out, x: g * M.sigmoid(x), kind="unary")


def _floating(x, op, error=None):
    """x as a float tensor; else TF's error for the op: `error` where TF's Python raises one
    before its kernel (ValueError, TypeError), otherwise the kernel's InvalidArgumentError."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        if error is not None:
            raise error(with_location(f"{op}: expects a floating-point tensor, got {x.dtype.name}{list(x.shape)}"))
        raise dtype_not_supported(op, x)
    return x


def softplus(features, name=None):
    return bind(SOFTPLUS, (_floating(features, "softplus"),), {})


relu = M.relu
sigmoid = M.sigmoid
tanh = M.tanh


def relu6(features, name=None):
    x = convert_to_tensor(features)
    # The gradient is 1 strictly inside (0, 6), as TensorFlow's.
    return A.where(M.less(x, 6), M.relu(x), 6)


def leaky_relu(features, alpha=0.2, name=None):
    x = convert_to_tensor(features)
    if x.dtype.is_integer:
        x = M.cast(x, dtypes.float32)     # TF casts integer features to float32
    return A.where(M.greater(x, 0), x, x * alpha)


def elu(features, name=None):
    x = _floating(features, "elu")
    return A.where(M.less(x, 0), M.expm1(M.minimum(x, 0)), x)  # x < 0 as TF's kernel: elu(-0.0) is -0.0


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(features, name=None):
    x = _floating(features, "selu")
    return A.where(M.less(x, 0), M.expm1(M.minimum(x, 0)) * (_SELU_SCALE * _SELU_ALPHA), x * _SELU_SCALE)


def gelu(features, approximate=False, name=None):
    x = _floating(features, "gelu", ValueError)
    if approximate:
        inner = (x + M.pow(x, 3) * 0.044715) * math.sqrt(2 / math.pi)
        return x * 0.5 * (M.tanh(inner) + 1)
    return x * 0.5 * (M.erf(x * (1 / math.sqrt(2))) + 1)


def softsign(features, name=None):
    x = _floating(features, "softsign")
    return x / (M.abs(x) + 1)


def silu(features, beta=1.0, name=None):
    x = _floating(features, "silu")
    return x * M.sigmoid(x * beta) if beta != 1.0 else x * M.sigmoid(x)


swish = silu


# --- softmax family -------------------------------------------------------------------
def _shifted(logits, axis):
    """logits minus their (constant) max along axis: exp of it cannot overflow.
    As in TensorFlow, a row whose max is +-inf becomes all NaN (inf - inf); hiding a
    non-finite max (shifting by 0 instead) gave [nan, 0, 0, 0] for a row with +inf."""
    return logits - A.stop_gradient(RD.reduce_max(logits, axis, keepdims=True))


def _in_float32(fn, x, axis):
    """Half-precision logits: TF's Softmax kernel computes in float32 and rounds once."""
    if x.dtype is dtypes.bfloat16 or x.dtype is dtypes.float16:
        return M.cast(fn(M.cast(x, dtypes.float32), axis), x.dtype)
    return fn(x, axis)


def _softmax(x, axis):
    e = M.exp(_shifted(x, axis))
    return e / RD.reduce_sum(e, axis, keepdims=True)


def _log_softmax(x, axis):
    s = _shifted(x, axis)
    return s - M.log(RD.reduce_sum(M.exp(s), axis, keepdims=True))


def softmax(logits, axis=None, name=None):
    return _in_float32(_softmax, _floating(logits, "softmax"), -1 if axis is None else axis)


def log_softmax(logits, axis=None, name=None):
    # not in float32: TF's bfloat16 LogSoftmax rounds each step as this composite does (measured)
    return _log_softmax(_floating(logits, "log_softmax"), -1 if axis is None else axis)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    logits = _floating(logits, "softmax_cross_entropy_with_logits")
    labels = M.cast(convert_to_tensor(labels), logits.dtype)
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError(with_location(
            f"softmax_cross_entropy_with_logits: labels {list(labels.shape)} and logits "
            f"{list(logits.shape)} must have the same shape"))
    return -RD.reduce_sum(labels * log_softmax(logits, axis), axis)


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    logits = _floating(logits, "sparse_softmax_cross_entropy_with_logits")
    labels = convert_to_tensor(labels)
    rank = logits.shape.rank
    if not labels.dtype.is_integer or labels.shape.rank != rank - 1 or \
            not labels.shape.is_compatible_with(logits.shape[:-1]):
        raise ValueError(with_location(
            f"sparse_softmax_cross_entropy_with_logits: labels must be integers of shape "
            f"{list(logits.shape[:-1])}, got {labels.dtype.name}{list(labels.shape)}"))
    logp = log_softmax(logits)
    picked = G.gather(logp, A.expand_dims(labels, -1), axis=rank - 1, batch_dims=rank - 1)
    return -A.squeeze(picked, [-1])


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), written as TensorFlow writes it."""
    x = _floating(logits, "sigmoid_cross_entropy_with_logits")
    z = convert_to_tensor(labels, x.dtype) if not hasattr(labels, "dtype") else convert_to_tensor(labels)
    if z.dtype is not x.dtype or not z.shape.is_compatible_with(x.shape):
        raise ValueError(with_location(
            f"sigmoid_cross_entropy_with_logits: labels {z.dtype.name}{list(z.shape)} must match "
            f"logits {x.dtype.name}{list(x.shape)}"))
    nonneg = M.greater_equal(x, 0)
    zeros = A.zeros_like(x)
    relu_logits = A.where(nonneg, x, zeros)
    neg_abs = A.where(nonneg, -x, x)
    return relu_logits - x * z + M.log1p(M.exp(neg_abs))


# --- normalization, dropout, misc -------------------------------------------------------
def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), finite for large |x|."""
    return M.negative(softplus(M.negative(x)))


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    x = _floating(x, "l2_normalize", TypeError)
    axis = dim if axis is None else axis
    sq = RD.reduce_sum(x * x, axis, keepdims=True)
    return x * M.rsqrt(M.maximum(sq, epsilon))


def l2_loss(t, name=None):
    t = _floating(t, "l2_loss")
    return RD.reduce_sum(t * t) / 2


def moments(x, axes, shift=None, keepdims=False, name=None):
    """Mean and variance over `axes` (the variance measured from a stopped mean, as TensorFlow)."""
    x = convert_to_tensor(x)
    mean = RD.reduce_mean(x, axes, keepdims=True)
    variance = RD.reduce_mean(M.squared_difference(x, A.stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:
        axes = RD.normalize_axes(axes, x.shape.rank, "moments")
        mean = A.squeeze(mean, list(axes))
        variance = A.squeeze(variance, list(axes))
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """Mean and variance over `axes` with each element counted frequency_weights times
    (broadcast against x); float16 is computed in float32, as TensorFlow."""
    x = convert_to_tensor(x)
    half = x.dtype is dtypes.float16
    if half:
        x = M.cast(x, dtypes.float32)
    w = M.cast(convert_to_tensor(frequency_weights), x.dtype)
    total = RD.reduce_sum(w + A.zeros_like(x), axes, keepdims=True)
    mean = M.div_no_nan(RD.reduce_sum(w * x, axes, keepdims=True), total)
    variance = M.div_no_nan(RD.reduce_sum(w * M.squared_difference(x, mean), axes, keepdims=True), total)
    if not keepdims:
        axes = list(RD.normalize_axes(axes, x.shape.rank, "weighted_moments"))
        mean, variance = A.squeeze(mean, axes), A.squeeze(variance, axes)
    if half:
        mean, variance = M.cast(mean, dtypes.float16), M.cast(variance, dtypes.float16)
    return mean, variance


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum of x - shift, sum of (x - shift)^2, shift) over `axes`: what
    normalize_moments turns into a mean and variance."""
    x = convert_to_tensor(x)
    axes = list(RD.normalize_axes(axes, x.shape.rank, "sufficient_statistics"))
    dims = [x.shape.dims[d] for d in axes]
    if None not in dims:
        count = A.constant(float(np.prod(dims)), x.dtype)
    else:
        count = M.cast(RD.reduce_prod(G.gather(A.shape(x), axes)), x.dtype)
    if shift is not None:
        shift = convert_to_tensor(shift)
        m_ss, v_ss = x - shift, M.squared_difference(x, shift)
    else:
        m_ss, v_ss = x, M.square(x)
    return count, RD.reduce_sum(m_ss, axes, keepdims=keepdims), RD.reduce_sum(v_ss, axes, keepdims=keepdims), shift


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    inv = M.rsqrt(variance + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    y = x * inv
    shift = -mean * inv
    return y + (shift + offset if offset is not None else shift)


def bias_add(value, bias, data_format=None, name=None):
    x = convert_to_tensor(value)
    b = convert_to_tensor(bias)
    channel = 1 if data_format and data_format.startswith("NC") else -1
    if b.shape.rank != 1 or x.shape.rank < 2 or \
            (x.shape[channel] is not None and b.shape[0] not in (None, x.shape[channel])):
        raise ValueError(with_location(
            f"bias_add: bias of shape {list(b.shape)} must be a vector matching dimension {channel} "
            f"of value {list(x.shape)}"))
    if channel == 1:
        b = A.reshape(b, [-1] + [1] * (x.shape.rank - 2))
    return M.add(x, b)


def _dropout(x, rate, noise_shape, draw_uniform, op):
    """TF's dropout: x scaled by 1 / (1 - rate), then zeroed where a uniform draw
    of `noise_shape` falls below `rate`.  The scale is the float 1 / keep_prob
    rounded to x's dtype and multiplied in, as TF does (not x / (1 - rate),
    which differs in the last bit)."""
    x = _floating(x, op, ValueError)
    if isinstance(rate, (int, float)):
        if not 0 <= rate < 1:
            raise ValueError(with_location(f"{op}: rate must be in [0, 1), got {rate}"))
        if rate == 0:
            return x
        scaled = M.multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
    else:
        rate = M.cast(convert_to_tensor(rate), x.dtype)
        scaled = M.divide(x, 1 - rate)
    shape = A.shape(x) if noise_shape is None else noise_shape
    keep = M.greater_equal(draw_uniform(shape, x.dtype), rate)
    return A.where(keep, scaled, A.zeros_like(x))


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero entries with probability `rate`, scale the rest by 1 / (1 - rate)."""
    from . import random_ops
    return _dropout(x, rate, noise_shape, lambda shape, dtype: random_ops.uniform(shape, dtype=dtype, seed=seed),
                    "dropout")


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """tf.nn.experimental.general_dropout: dropout whose mask is uniform_sampler(shape=, dtype=) >= rate."""
    return _dropout(x, rate, noise_shape, lambda shape, dtype: uniform_sampler(shape=shape, dtype=dtype),
                    "general_dropout")


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """tf.nn.experimental.stateless_dropout: dropout whose mask is the stateless
    uniform draw of `seed` (the same mask for the same seed)."""
    from . import random_generator
    alg = "auto_select" if rng_alg is None else rng_alg
    return _dropout(x, rate, noise_shape,
                    lambda shape, dtype: random_generator.stateless_uniform(shape, seed, dtype=dtype, alg=alg),
                    "stateless_dropout")


def embedding_lookup(params, ids, max_norm=None, name=None):
    rows = G.gather(params, ids)
    if max_norm is None:
        return rows
    # TF clips each looked-up embedding (the axes after the ids') to L2 norm max_norm.
    axes = list(range(convert_to_tensor(ids).shape.rank, rows.shape.rank))
    norm = M.sqrt(RD.reduce_sum(M.square(rows), axis=axes, keepdims=True))
    limit = M.cast(max_norm, rows.dtype)
    return rows * limit / M.maximum(norm, limit)



def crelu(features, axis=-1, name=None):
    """relu(x) and relu(-x) concatenated along axis."""
    from . import join_ops
    x = convert_to_tensor(features)
    return join_ops.concat([M.relu(x), M.relu(-x)], axis)


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets, plus Stirling's term for targets > 1 when full."""
    c = _floating(log_input, "log_poisson_loss")
    z = M.cast(convert_to_tensor(targets), c.dtype)
    loss = M.exp(c) - c * z
    if not compute_full_loss:
        return loss
    big = M.greater(z, 1)
    safe = A.where(big, z, A.ones_like(z))
    stirling = safe * M.log(safe) - safe + M.log(safe * (2 * math.pi)) * 0.5
    return loss + A.where(big, stirling, A.zeros_like(z))


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross entropy with the positive term weighted by pos_weight (stable form)."""
    x = _floating(logits, "weighted_cross_entropy_with_logits", TypeError)
    z = M.cast(convert_to_tensor(labels), x.dtype)
    log_weight = (M.cast(convert_to_tensor(pos_weight), x.dtype) - 1) * z + 1
    return (1 - z) * x + log_weight * (M.log1p(M.exp(-M.abs(x))) + M.relu(-x))


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """Mean and variance from sufficient statistics (sums of x - shift and of its square)."""
    mean_ss = convert_to_tensor(mean_ss)
    divisor = M.reciprocal(M.cast(convert_to_tensor(counts), mean_ss.dtype))
    shifted_mean = M.multiply(mean_ss, divisor)
    mean = shifted_mean if shift is None else M.add(shifted_mean, M.cast(convert_to_tensor(shift), mean_ss.dtype))
    variance = M.subtract(M.multiply(convert_to_tensor(variance_ss), divisor), M.square(shifted_mean))
    return mean, variance


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """x / (bias + alpha * sum of x^2 over the 2r+1 nearest channels) ** beta (NHWC)."""
    from . import join_ops
    x = _floating(input, "local_response_normalization")
    if x.shape.rank != 4:
        raise ValueError(with_location(f"local_response_normalization: expects a 4-D NHWC tensor, got shape "
                                       f"{list(x.shape)}"))
    r = int(depth_radius)
    squared = join_ops.pad(M.square(x), [[0, 0], [0, 0], [0, 0], [r, r]])
    depth = x.shape[3] if x.shape[3] is not None else A.shape(x)[3]
    # The window sum along channels, slice by slice (a cumulative-sum difference
    # would lose float32 digits): 2r + 1 shifted views of the padded squares.
    window = squared[..., 0:depth]
    for k in range(1, 2 * r + 1):
        window = M.add(window, squared[..., k:k + depth])
    return M.divide(x, M.pow(M.add(bias, M.multiply(alpha, window)), beta))


def zero_fraction(value, name=None):
    """The fraction of entries equal to zero, as float32."""
    v = convert_to_tensor(value)
    return RD.reduce_mean(M.cast(M.equal(v, A.zeros_like(v)), "float32"))

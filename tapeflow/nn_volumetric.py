"""Volumetric (NDHWC) convolution and pooling, conv1d_transpose, and the
rank-generic tf.nn.convolution / tf.nn.pool, all composites of the 2-D ops.

A 3-D window is KD 2-D windows at depths i * dilation + stride * j of the
(depth-padded) input: conv3d sums KD conv2d's of depth slices folded into the
batch, pooling reduces KD 2-D pools, and conv3d_transpose spreads KD
conv2d_transpose's back onto the depths they came from.  Gradients, of any
order, come from the 2-D ops, slices and pads.
"""
import numpy as np

from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import conv_ops as C
from tapeflow.runtime.ops import pool_ops as P
from tapeflow.runtime.ops import conv_variants as V
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD


def _triple(v, name, op, channels_last=True):
    return C.spatial_sizes(v, name, op, 3, channels_last)


def _ndhwc(x, data_format, op):
    x = convert_to_tensor(x)
    if data_format not in (None, "NDHWC", "NCDHW"):
        raise ValueError(with_location(f"{op}: data_format must be NDHWC or NCDHW, got {data_format!r}"))
    if x.shape.rank != 5 or any(d is None for d in x.shape.dims[1:]):
        raise InvalidArgumentError(with_location(
            f"{op}: input must be rank 5 ({data_format or 'NDHWC'}) with known non-batch sizes, "
            f"got shape {list(x.shape)}"))
    return A.transpose(x, [0, 2, 3, 4, 1]) if data_format == "NCDHW" else x


def _back3(y, data_format):
    return A.transpose(y, [0, 4, 1, 2, 3]) if data_format == "NCDHW" else y


def _depth_slices(x, k, stride, dilation, padding, pad_value=0):
    """The k depth slices (N, OD, ...) of x's depth windows, x depth-padded as `padding` asks."""
    od, (pb, pa) = C._out_size(x.shape[1], k, stride, dilation, padding)
    if pb or pa:
        x = J.pad(x, [[0, 0], [pb, pa]] + [[0, 0]] * (x.shape.rank - 2), constant_values=pad_value)
    return [x[:, i * dilation:i * dilation + stride * (od - 1) + 1:stride] for i in range(k)], od


def _fold(x):
    """(N, D, H, W, C) -> (N * D, H, W, C)."""
    return A.reshape(x, [-1] + list(x.shape.dims[2:]))


def _unfold(y, depth, dims=None):
    """(N * D, ...) -> (N, D, ...); `dims` when y's static shape lost them (a dynamic batch)."""
    return A.reshape(y, [-1, depth] + list(dims or y.shape.dims[1:]))


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    """(N, D, H, W, C) * (KD, KH, KW, C, O) -> (N, OD, OH, OW, O).  Dilations work here although
    TensorFlow's CPU kernel refuses them (its GPU kernel takes them)."""
    cl = data_format != "NCDHW"
    x = _ndhwc(input, data_format, "conv3d")
    w = convert_to_tensor(filters)
    if w.dtype is not x.dtype:
        raise TypeError(with_location(
            f"conv3d: input is {x.dtype.name} but filters are {w.dtype.name}; cast one with tf.cast"))
    if w.shape.rank != 5 or w.shape[3] != x.shape[4]:
        raise InvalidArgumentError(with_location(
            f"conv3d: filters of shape {list(w.shape)} (DHWIO) do not fit input of shape {list(x.shape)} (NDHWC)"))
    s, d = _triple(strides, "strides", "conv3d", cl), _triple(dilations, "dilations", "conv3d", cl)
    p = C._padding(padding, "conv3d")
    slices, od = _depth_slices(x, w.shape[0], s[0], d[0], p)
    total = None
    for i, sl in enumerate(slices):
        y = C.conv2d(_fold(sl), w[i], s[1:], p, dilations=d[1:])
        total = y if total is None else total + y
    return _back3(_unfold(total, od), data_format)


def _pool3d(input, ksize, strides, padding, data_format, op):  # noqa: A002
    cl = data_format != "NCDHW"
    x = _ndhwc(input, data_format, op)
    return x, _triple(ksize, "ksize", op, cl), _triple(strides, "strides", op, cl), C._padding(padding, op)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    x, k, s, p = _pool3d(input, ksize, strides, padding, data_format, "max_pool3d")
    low = float("-inf") if x.dtype.is_floating else int(np.iinfo(x.dtype.np).min)
    slices, od = _depth_slices(x, k[0], s[0], 1, p, low)
    out = None
    for sl in slices:
        y = P.max_pool2d(_fold(sl), k[1:], s[1:], p)
        out = y if out is None else M.maximum(out, y)
    return _back3(_unfold(out, od), data_format)


def _window_sum(x, k, s, p):
    slices, od = _depth_slices(x, k[0], s[0], 1, p)
    total = None
    for sl in slices:
        y = RD.reduce_sum(C.extract_patches(_fold(sl), k[1:], s[1:], (1, 1), p), [3, 4])
        total = y if total is None else total + y
    return _unfold(total, od)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    x, k, s, p = _pool3d(input, ksize, strides, padding, data_format, "avg_pool3d")
    if not x.dtype.is_floating:
        raise TypeError(with_location(f"avg_pool3d expects a floating-point tensor, got {x.dtype.name}"))
    total = _window_sum(x, k, s, p)
    if p == "VALID":
        return _back3(total / float(k[0] * k[1] * k[2]), data_format)
    # SAME: border windows average only the real voxels, as TensorFlow's.
    return _back3(total / _window_sum(A.ones_like(x[:1, :, :, :, :1]), k, s, p), data_format)


def _static_shape(output_shape, op):
    if isinstance(output_shape, TensorBase):
        output_shape = output_shape.numpy()
    try:
        # The batch may be None (a Keras layer on a symbolic batch): it follows the input's.
        return [None if i == 0 and d is None else int(d.numpy() if isinstance(d, TensorBase) else d)
                for i, d in enumerate(output_shape)]
    except Exception as e:
        raise ValueError(with_location(f"{op}: output_shape must be known, got {output_shape!r}")) from e


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose (input gradient) of conv3d: filters are (KD, KH, KW, out_channels, in_channels)."""
    op, cl = "conv3d_transpose", data_format != "NCDHW"
    y = _ndhwc(input, data_format, op)
    w = convert_to_tensor(filters)
    shape = _static_shape(output_shape, op)
    if cl is False and len(shape) == 5:
        shape = [shape[0]] + shape[2:] + [shape[1]]
    s, d = _triple(strides, "strides", op, cl), _triple(dilations, "dilations", op, cl)
    p = C._padding(padding, op)
    if w.shape.rank != 5 or len(shape) != 5 or w.shape[4] != y.shape[4] or w.shape[3] != shape[4]:
        raise InvalidArgumentError(with_location(
            f"{op}: filters {list(w.shape)} (DHW out in), input {list(y.shape)} and output_shape {shape} disagree"))
    n, depth = shape[0], shape[1]
    od, (pb, pa) = C._out_size(depth, w.shape[0], s[0], d[0], p)
    if od != y.shape[1]:
        raise InvalidArgumentError(with_location(
            f"{op}: output_shape {shape} does not give input {list(y.shape)} under strides {s} and padding {p}"))
    full, flat = depth + pb + pa, _fold(y)
    rows = A.shape(flat)[0] if n is None or flat.shape[0] is None else n * od
    total = None
    for i in range(w.shape[0]):
        z = _unfold(V.conv2d_transpose(flat, w[i], [rows] + shape[2:], s[1:], p, dilations=d[1:]), od, shape[2:])
        if s[0] > 1:  # spread the od depths s[0] apart, zeros between
            z = J.stack([z] + [A.zeros_like(z)] * (s[0] - 1), 2)
            z = A.reshape(z, [-1, od * s[0]] + shape[2:])[:, :s[0] * (od - 1) + 1]
        start = i * d[0]
        z = J.pad(z, [[0, 0], [start, full - start - z.shape[1]], [0, 0], [0, 0], [0, 0]])
        total = z if total is None else total + z
    return _back3(total[:, pb:pb + depth], data_format)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose of conv1d: filters (K, out_channels, in_channels)."""
    op = "conv1d_transpose"
    y = V._nwc(input, data_format, op)
    shape = _static_shape(output_shape, op)
    if data_format == "NCW" and len(shape) == 3:
        shape = [shape[0], shape[2], shape[1]]
    if len(shape) != 3:
        raise ValueError(with_location(f"{op}: output_shape must have 3 entries, got {shape}"))
    z = V.conv2d_transpose(A.expand_dims(y, 1), A.expand_dims(convert_to_tensor(filters), 0),
                           [A.shape(y)[0] if shape[0] is None else shape[0], 1, shape[1], shape[2]], [1, V._one(strides, "strides", op)], padding,
                           dilations=[1, V._one(dilations, "dilations", op)])
    return V._back1(z, data_format)


def _rank_of(input, op):  # noqa: A002
    r = convert_to_tensor(input).shape.rank
    if r not in (3, 4, 5):
        raise ValueError(with_location(f"{op}: input must be rank 3, 4 or 5, got rank {r}"))
    return r


def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,  # noqa: A002
                name=None):
    """N-D convolution: conv1d, conv2d or conv3d by the input's rank."""
    r = _rank_of(input, "convolution")
    if r == 3:
        return V.conv1d(input, filters, strides, padding, data_format or "NWC", dilations)
    if r == 4:
        return C.conv2d(input, filters, strides, padding, data_format or "NHWC", dilations)
    return conv3d(input, filters, strides, padding, data_format or "NDHWC", dilations)


_POOLS = {("MAX", 3): V.max_pool1d, ("AVG", 3): V.avg_pool1d, ("MAX", 4): P.max_pool2d,
          ("AVG", 4): P.avg_pool2d, ("MAX", 5): max_pool3d, ("AVG", 5): avg_pool3d}
_FORMATS = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    """N-D max or average pooling by the input's rank."""
    r = _rank_of(input, "pool")
    kind = str(pooling_type).upper()
    if (kind, r) not in _POOLS:
        raise ValueError(with_location(f"pool: pooling_type must be 'MAX' or 'AVG', got {pooling_type!r}"))
    if dilations is not None and any(int(v) != 1 for v in np.ravel(dilations)):
        raise ValueError(with_location("pool: dilations other than 1 are not supported"))
    return _POOLS[kind, r](input, window_shape, 1 if strides is None else strides, padding,
                           data_format or _FORMATS[r])

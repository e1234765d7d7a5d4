"""Convolution variants on top of conv_ops' patch primitives: conv1d,
conv2d_transpose, depthwise_conv2d, separable_conv2d and the 1-D pools.

conv2d_transpose is conv2d's input gradient: the input's channels are spread
back over the filter windows (a tensordot) and the windows summed onto an
image of the output shape (patches_grad).  Gradients come from those ops' own rules.

depthwise_conv2d is a primitive: a sum over the window's taps of the shifted
image times each tap's (C, M) weights, accumulated in place (an einsum over the
patches runs NumPy's generic loop, several times slower).  Its input gradient is
a depthwise convolution of the gradient with the flipped filters (stride 1) or
the windows summed back with patches_grad; the filter gradient a primitive of its
own (one pass per tap: the product of patches and gradient is window-sized, and
a compiled kernel reducing it over the leading axes is slow).  Their VJPs are made
of these primitives, so gradients of any order follow.
"""
import numpy as np

from .. import dtypes
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import TensorBase, convert_to_tensor
from . import array_ops as A
from . import conv_ops as C
from . import join_ops as J
from . import math_ops as M
from . import pool_ops as P
from . import reduce_ops as RD

# The compiler layer sets this when it loads (compiler/depthwise_c.py): native(kernel, dtype) ->
# a C kernel ("depthwise", "depthwise_filter_grad", "depthwise_input_grad") on the unpadded
# image, or None (no C compiler, another dtype).
native = None


def _one(v, name, op):
    """stride / dilation of a 1-D op: an int or a list of 1 or 3 ints (N, W, C)."""
    if v is None:
        return 1
    v = [int(a) for a in (v if isinstance(v, (list, tuple)) else [v])]
    if len(v) == 3:
        v = v[1:2]
    if len(v) != 1 or v[0] < 1:
        raise ValueError(with_location(f"{op}: {name} must be a positive int or [1, s, 1], got {v}"))
    return v[0]


def _nwc(x, data_format, op):
    x = convert_to_tensor(x)
    if data_format not in (None, "NWC", "NCW"):
        raise ValueError(with_location(f"{op}: data_format must be NWC or NCW, got {data_format!r}"))
    if x.shape.rank != 3:
        raise ValueError(with_location(f"{op}: input must be rank 3 ({data_format or 'NWC'}), got {list(x.shape)}"))
    return A.transpose(x, [0, 2, 1]) if data_format == "NCW" else x


def _back1(y, data_format):
    y = A.squeeze(y, [1])
    return A.transpose(y, [0, 2, 1]) if data_format == "NCW" else y


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    """(N, W, C) * (K, C, O) -> (N, OW, O), as a conv2d over a height-1 image."""
    x = _nwc(input, data_format, "conv1d")
    w = convert_to_tensor(filters)
    if w.shape.rank != 3:
        raise ValueError(with_location(f"conv1d: filters must be rank 3 (WIO), got shape {list(w.shape)}"))
    y = C.conv2d(A.expand_dims(x, 1), A.expand_dims(w, 0), [1, _one(stride, "stride", "conv1d")], padding,
                 dilations=[1, _one(dilations, "dilations", "conv1d")])
    return _back1(y, data_format)


def _pool1d(pool, input, ksize, strides, padding, data_format, op):  # noqa: A002
    x = _nwc(input, data_format, op)
    k, s = _one(ksize, "ksize", op), _one(strides, "strides", op)
    return _back1(pool(A.expand_dims(x, 1), [1, k], [1, s], padding), data_format)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _pool1d(P.max_pool2d, input, ksize, strides, padding, data_format, "max_pool1d")


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _pool1d(P.avg_pool2d, input, ksize, strides, padding, data_format, "avg_pool1d")


def _output_like(output_shape, dtype, data_format):
    """Zeros of the NHWC output shape (a list, possibly holding tensors, or a tensor)."""
    if isinstance(output_shape, TensorBase) or any(isinstance(d, TensorBase) for d in output_shape):
        if not isinstance(output_shape, TensorBase):
            output_shape = [M.cast(d, dtypes.int32) if isinstance(d, TensorBase) else int(d) for d in output_shape]
        like = A.fill(M.cast(convert_to_tensor(output_shape), dtypes.int32), convert_to_tensor(0, dtype))
    else:
        like = A.zeros([int(d) for d in output_shape], dtype)
    return A.transpose(like, [0, 2, 3, 1]) if data_format == "NCHW" else like


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose (input gradient) of conv2d: filters are (KH, KW, out_channels, in_channels)."""
    cl = data_format != "NCHW"
    y, w = C.conv_operands(input, filters, data_format, "conv2d_transpose", 3, "HW out in")
    like = _output_like(output_shape, y.dtype, data_format)
    attrs = {"ksize": (w.shape[0], w.shape[1]), "strides": C._pair(strides, "strides", "conv2d_transpose", cl),
             "dilations": C._pair(dilations, "dilations", "conv2d_transpose", cl),
             "padding": C._padding(padding, "conv2d_transpose"), "pad_value": 0}
    expect = C.patches_rule(Aval(like.shape.dims, like.dtype), **attrs).shape
    if like.shape[3] not in (None, w.shape[2]) or any(
            a is not None and b is not None and a != b for a, b in zip(expect[1:3], y.shape.dims[1:3])):
        raise ValueError(with_location(
            f"conv2d_transpose: output_shape {list(like.shape)} does not give input {list(y.shape)} under "
            f"strides {attrs['strides']} and padding {attrs['padding']}"))
    return C._back(C.input_grad(y, w, like, attrs), data_format)


def _depthwise_impl(xp, x, w, strides, dilations, padding):
    kh, kw, c, m = w.shape
    # native: one pass, no padded copy, rounding as the loop below does (same bits).
    fn = native and xp is np and x.dtype == w.dtype and native("depthwise", x.dtype)
    if fn:
        oh, ow, ph, pw = C.geometry(x.shape, (kh, kw), strides, dilations, padding)
        return fn(x, w, oh, ow, strides, dilations, ph, pw)
    patches = C.patches_view(xp, x, (kh, kw), strides, dilations, padding, 0, transient=True)
    n, oh, ow = patches.shape[:3]
    out = xp.empty((n, oh, ow, c, m), dtype=xp.result_type(x, w))
    tmp = xp.empty_like(out)
    for i in range(kh):
        for j in range(kw):
            xp.multiply(patches[:, :, :, i, j, :, None], w[i, j], out=tmp if i or j else out)
            if i or j:
                out += tmp
    return out.reshape(n, oh, ow, c * m)


def _depthwise_rule(x, w, strides, dilations, padding):
    if x.dtype is not w.dtype:
        raise TypeError(f"dtypes {x.dtype.name} and {w.dtype.name} do not match")
    if len(w.shape) != 4 or None in w.shape:
        raise ValueError(f"filters must be rank 4 (HW in multiplier) of known shape, got {list(w.shape)}")
    n, oh, ow = C.patches_rule(x, w.shape[:2], strides, dilations, padding, 0).shape[:3]
    return Aval((n, oh, ow, w.shape[2] * w.shape[3]), x.dtype)


def _depthwise_vjp(g, out, x, w, strides, dilations, padding, needs=(True, True)):
    attrs = {"ksize": tuple(w.shape.dims[:2]), "strides": strides, "dilations": dilations, "padding": padding,
             "pad_value": 0}
    # `needs` (vjp_needs): the input of a first layer is data and needs no gradient.
    return (_depthwise_input_grad(g, x, w, attrs) if needs[0] else None,
            _depthwise_filter_grad(x, g, w.shape.dims, attrs) if needs[1] else None)


def _depthwise_input_grad(g, x, w, attrs):
    kh, kw, c, m = w.shape.dims
    pads = C.flip_pads(x, attrs)
    if pads is None and x.dtype in (dtypes.float32, dtypes.float64):  # strided: one primitive
        return bind(DEPTHWISE_INPUT_GRAD, (g, w, x), {k: attrs[k] for k in ("strides", "dilations", "padding")})
    if pads is None:  # half types: through patches_grad, the multiplier summed as reduce_sum sums
        oh, ow = g.shape.dims[1:3]
        windows = A.reshape(g, [-1, oh, ow, 1, 1, c, m]) * w  # (N, OH, OW, KH, KW, C, M)
        return bind(C.PATCHES_GRAD, (_sum_multiplier(windows, m), x), attrs)
    flipped = A.reshape(J.reverse(w, [0, 1]), [kh, kw, c * m, 1])
    y = bind(DEPTHWISE, (g, flipped), {"strides": (1, 1), "dilations": attrs["dilations"], "padding": pads})
    return _sum_multiplier(A.reshape(y, [-1, *x.shape.dims[1:3], c, m]), m)


def _depthwise_filter_grad(x, g, wshape, attrs):
    return bind(DEPTHWISE_FILTER_GRAD, (x, g), dict(attrs, multiplier=wshape[3]))


def _filter_grad_impl(xp, x, g, ksize, strides, dilations, padding, pad_value, multiplier):
    fn = native and xp is np and native("depthwise_filter_grad", x.dtype)
    if fn:  # one pass per output row, the sums in double (rounding differs from the einsums')
        _, _, ph, pw = C.geometry(x.shape, ksize, strides, dilations, padding)
        return fn(x, g, (*ksize, x.shape[3], multiplier), strides, dilations, ph, pw)
    patches = C.patches_view(xp, x, ksize, strides, dilations, padding, 0, transient=True)
    n, oh, ow, kh, kw, c = patches.shape
    g5 = g.reshape(n, oh, ow, c, multiplier)
    out = xp.empty((kh, kw, c, multiplier), dtype=g.dtype)
    for i in range(kh):  # one pass per tap over the image, no window-sized product
        for j in range(kw):
            out[i, j] = xp.einsum("nhwc,nhwcm->cm", patches[:, :, :, i, j], g5)
    return out


def _filter_grad_rule(x, g, ksize, multiplier, **attrs):
    return Aval((ksize[0], ksize[1], x.shape[3], multiplier), g.dtype)


def _filter_grad_vjp(gw, out, x, g, ksize, strides, dilations, padding, pad_value, multiplier, needs=(True, True)):
    # <filter_grad(x, g), gw> = <depthwise(x, gw), g>: both are linear in each operand.
    attrs = {"ksize": ksize, "strides": strides, "dilations": dilations, "padding": padding, "pad_value": 0}
    return (_depthwise_input_grad(g, x, gw, attrs) if needs[0] else None,
            bind(DEPTHWISE, (x, gw), {"strides": strides, "dilations": dilations, "padding": padding})
            if needs[1] else None)


def _input_grad_impl(xp, g, w, like, strides, dilations, padding):
    """The windows' route of the input gradient: g * w per window tap (the multiplier
    summed), added back tap after tap over the whole output (patches_grad's order)."""
    kh, kw, c, m = w.shape
    fn = native and xp is np and g.dtype == w.dtype and native("depthwise_input_grad", g.dtype)
    if fn:  # one pass, no window-sized array; the same sums in the same order
        _, _, ph, pw = C.geometry(like.shape, (kh, kw), strides, dilations, padding)
        return fn(g, w, like.shape, strides, dilations, ph, pw)
    n, oh, ow = g.shape[:3]
    windows = (g.reshape(n, oh, ow, 1, 1, c, m) * w).sum(axis=-1)  # (N, OH, OW, KH, KW, C)
    attrs = {"ksize": (kh, kw), "strides": strides, "dilations": dilations, "padding": padding, "pad_value": 0}
    return C.PATCHES_GRAD.impl(xp, windows, like, **attrs)


def _input_grad_vjp(gx, out, g, w, like, strides, dilations, padding, needs=(True, True, True)):
    # <input_grad(g, w), gx> = <depthwise(gx, w), g>: bilinear in g and w.
    attrs = {"strides": strides, "dilations": dilations, "padding": padding}
    return (bind(DEPTHWISE, (gx, w), attrs) if needs[0] else None,
            _depthwise_filter_grad(gx, g, w.shape.dims, dict(attrs, ksize=tuple(w.shape.dims[:2]), pad_value=0))
            if needs[1] else None, None)


def _sum_multiplier(y, m):
    """Sum the trailing depth-multiplier axis away."""
    return A.squeeze(y, [-1]) if m == 1 else RD.reduce_sum(y, [-1])


DEPTHWISE = defprim("depthwise_conv2d", _depthwise_impl, _depthwise_rule, _depthwise_vjp, vjp_needs=True)
# The filter gradient: (x, gradient) -> (KH, KW, C, M); attrs those of extract_patches.
DEPTHWISE_FILTER_GRAD = defprim("depthwise_filter_grad", _filter_grad_impl, _filter_grad_rule, _filter_grad_vjp,
                                vjp_needs=True)
# The strided input gradient: (gradient, filters, the input giving its shape) -> the input's shape.
DEPTHWISE_INPUT_GRAD = defprim("depthwise_input_grad", _input_grad_impl,
                               lambda g, w, like, **attrs: Aval(like.shape, g.dtype), _input_grad_vjp, vjp_needs=True)


def depthwise(x, w, strides, dilations, padding):
    """The primitive on NHWC x and (KH, KW, C, M) w, attrs already normalized."""
    x, w = convert_to_tensor(x), convert_to_tensor(w)
    if None in x.shape.dims[1:]:
        raise ValueError(with_location("depthwise_conv2d: the spatial and channel sizes must be known"))
    return bind(DEPTHWISE, (x, w), {"strides": tuple(strides), "dilations": tuple(dilations), "padding": padding})


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):  # noqa: A002
    """Each input channel convolved with its own M filters: (KH, KW, C, M) -> C * M channels."""
    cl = data_format != "NCHW"
    x, w = C.conv_operands(input, filter, data_format, "depthwise_conv2d", 2, "HW in multiplier")
    y = depthwise(x, w, C._pair(strides, "strides", "depthwise_conv2d", cl),
                  C._pair(dilations, "dilations", "depthwise_conv2d", cl),
                  C._padding(padding, "depthwise_conv2d", True, cl))
    return C._back(y, data_format)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """depthwise_conv2d followed by a 1x1 conv2d with pointwise_filter (1, 1, C * M, O)."""
    depth = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations)
    return C.conv2d(depth, pointwise_filter, 1, "VALID", data_format=data_format or "NHWC")

"""Convolution over NHWC images (pooling: pool_ops.py).

A primitive pair carries the convolution variants: `extract_patches` turns
(N, H, W, C) into the windows (N, OH, OW, KH, KW, C) (a strided view, no copy, when
unpadded) and `patches_grad` adds windows back onto an image (its transpose, col2im).

conv2d is a primitive of its own (im2col, then one GEMM through NumPy's BLAS), so
that its gradients can take the fast routes: the input gradient of a stride-1
convolution is the correlation of the padded gradient with the flipped filters (one
more conv2d: a GEMM over KH*KW*O, where the windows' route is a GEMM over only O
into an image-sized (N*OH*OW, KH*KW*C) buffer, then col2im); strided ones take the
windows' route (conv2d_input_grad, also conv2d_transpose); the filter gradient is
im2col^T @ gradient.  All of it is made of primitives, so gradients of any order
follow.  With C (compiler/conv_c.py) the three run tile by tile: a tile of im2col
rows (or of windows) stays in cache between its copy and its GEMM, where the whole
buffer (75 MB for the ResNet block's 3x3 conv) streamed through memory twice.
"""
import threading

import numpy as np

from .. import blas_threads, dtypes
from ..errors import bad_shape_error, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import join_ops as J

# The compiler layer sets this when it loads (compiler/conv_c.py): native(kernel, dtype) ->
# a C kernel ("patches_grad", "im2col": the NumPy path's bits; "conv_gemm",
# "conv_filter_gemm", "conv_input_gemm": conv2d and its filter and input gradients tile
# by tile, within rounding of the NumPy path), or None (no C compiler, another dtype,
# no BLAS to call).
native = None


def _out_size(size, k, stride, dilation, padding):
    """Output length and (before, after) padding of one spatial axis; `padding` is
    "SAME", "VALID" or this axis's explicit (before, after) pair."""
    span = (k - 1) * dilation + 1
    if isinstance(padding, tuple):
        return max((size + sum(padding) - span) // stride + 1, 0), padding
    if padding == "VALID":
        return max((size - span) // stride + 1, 0), (0, 0)
    out = -(-size // stride)
    total = max((out - 1) * stride + span - size, 0)
    return out, (total // 2, total - total // 2)


def geometry(shape, ksize, strides, dilations, padding):
    """padding: "SAME", "VALID" or explicit ((top, bottom), (left, right))."""
    (oh, ph), (ow, pw) = (_out_size(shape[1 + i], ksize[i], strides[i], dilations[i], _axis_pad(padding, i))
                          for i in (0, 1))
    return oh, ow, ph, pw


def _axis_pad(padding, i):
    return padding if isinstance(padding, str) else padding[i]


def padded_image(xp, x, ksize, strides, dilations, padding, pad_value, transient=False):
    """(x padded for these windows, OH, OW).  transient: the caller reads it before it
    returns and keeps no view of it, so it may live in this thread's reused buffer
    (NumPy only)."""
    oh, ow, ph, pw = geometry(x.shape, ksize, strides, dilations, padding)
    if ph != (0, 0) or pw != (0, 0):
        x = _padded(x, ph, pw, pad_value) if transient and xp is np else \
            xp.pad(x, ((0, 0), ph, pw, (0, 0)), constant_values=pad_value)
    return x, oh, ow


def patches_view(xp, x, ksize, strides, dilations, padding, pad_value, transient=False):
    x, oh, ow = padded_image(xp, x, ksize, strides, dilations, padding, pad_value, transient)
    sn, sh, sw, sc = x.strides
    shape = (x.shape[0], oh, ow, ksize[0], ksize[1], x.shape[3])
    view = (sn, sh * strides[0], sw * strides[1], sh * dilations[0], sw * dilations[1], sc)
    return xp.lib.stride_tricks.as_strided(x, shape, view)


def _patches_grad_impl(xp, g, like, ksize, strides, dilations, padding, pad_value):
    n, h, w, c = like.shape
    oh, ow, ph, pw = geometry(like.shape, ksize, strides, dilations, padding)
    fn = native and xp is np and native("patches_grad", g.dtype)
    if fn:
        out = fn(g, (n, h + sum(ph), w + sum(pw), c), strides, dilations)
        return out[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w, :]
    out = xp.zeros((n, h + sum(ph), w + sum(pw), c), dtype=g.dtype)
    for i in range(ksize[0]):
        r0 = i * dilations[0]
        for j in range(ksize[1]):
            c0 = j * dilations[1]
            out[:, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                c0:c0 + strides[1] * (ow - 1) + 1:strides[1], :] += g[:, :, :, i, j, :]
    return out[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w, :]


def patches_rule(x, ksize, strides, dilations, padding, pad_value):
    if len(x.shape) != 4:
        raise ValueError(f"expects a rank-4 NHWC tensor, got shape {list(x.shape)}")
    n, h, w, c = x.shape
    oh = None if h is None else _out_size(h, ksize[0], strides[0], dilations[0], _axis_pad(padding, 0))[0]
    ow = None if w is None else _out_size(w, ksize[1], strides[1], dilations[1], _axis_pad(padding, 1))[0]
    return Aval((n, oh, ow, ksize[0], ksize[1], c), x.dtype)


EXTRACT_PATCHES = defprim("extract_patches", patches_view, patches_rule,
                          lambda g, out, x, **attrs: bind(PATCHES_GRAD, (g, x), attrs))
# The transpose of extract_patches: windows summed back onto the image.  Its own transpose
# is the linear part of extract_patches, which pads with zeros whatever the forward
# padded with (max_pool pads with -inf; -inf cotangents would poison every JVP).
PATCHES_GRAD = defprim("patches_grad", _patches_grad_impl,
                       lambda g, like, **attrs: Aval(like.shape, g.dtype),
                       lambda gg, out, g, like, **attrs: (
                           bind(EXTRACT_PATCHES, (gg,), dict(attrs, pad_value=0)), None))


# --- conv2d: im2col + GEMM ---------------------------------------------------------------
class _Scratch(threading.local):
    """Per thread, one im2col buffer (`rows`) and one padded image (`padded`), reused by
    every conv2d call: a fresh array of that size costs a page fault per page on first
    touch, more than its copy (np.pad's fresh image took as long as the im2col copy).
    Both are consumed before the call returns (the GEMM's output is a new array), so no
    result ever aliases them; buffers over SCRATCH_LIMIT bytes are not kept."""
    rows = None
    padded = None


_SCRATCH = _Scratch()
SCRATCH_LIMIT = 1 << 28


def _scratch(slot, shape, dtype):
    """This thread's `slot` buffer as a C-order array of `shape`, or None when too large."""
    size = int(np.prod(shape))
    if size * np.dtype(dtype).itemsize > SCRATCH_LIMIT:
        return None
    buf = getattr(_SCRATCH, slot)
    if buf is None or buf.dtype != dtype or buf.size < size:
        setattr(_SCRATCH, slot, None)  # let the old one go before the new one is made
        buf = np.empty(size, dtype)
        setattr(_SCRATCH, slot, buf)
    return buf[:size].reshape(shape)


def _padded(x, ph, pw, value):
    """np.pad of an NHWC image by (before, after) pairs ph, pw, in the reused buffer:
    the border is rewritten on every call (the buffer's last user may have had
    another shape or pad value)."""
    n, h, w, c = x.shape
    out = _scratch("padded", (n, h + sum(ph), w + sum(pw), c), x.dtype)
    if out is None:
        return np.pad(x, ((0, 0), ph, pw, (0, 0)), constant_values=value)
    top, left = ph[0], pw[0]
    out[:, :top] = value
    out[:, top + h:] = value
    out[:, top:top + h, :left] = value
    out[:, top:top + h, left + w:] = value
    out[:, top:top + h, left:left + w] = x
    return out


def _rows(xp, windows, strides):
    """(N, OH, OW, KH, KW, C) windows -> contiguous (N*OH*OW, KH*KW*C) rows."""
    n, oh, ow, kh, kw, c = windows.shape
    shape = (n * oh * ow, kh * kw * c)
    rows = None
    if xp is np and not (kh * kw == 1 and strides == (1, 1)):
        rows = _scratch("rows", windows.shape, windows.dtype)
    if rows is None:
        return windows.reshape(shape)  # 1x1, stride 1: already rows (a view of a C-order image)
    np.copyto(rows, windows)
    return rows.reshape(shape)


def _im2col(xp, x, ksize, strides, dilations, padding):
    """(rows (N*OH*OW, KH*KW*C) of x's zero-padded windows, (N, OH, OW)), the rows in
    this thread's reused buffer (the caller is done with them before it returns).
    In C (conv_c.py) without the padded copy of the image when it is there; a 1x1
    stride-1 unpadded image is its own rows (a view)."""
    oh, ow, ph, pw = geometry(x.shape, ksize, strides, dilations, padding)
    n, kk = x.shape[0], ksize[0] * ksize[1]
    fn = native and xp is np and not (kk == 1 and strides == (1, 1) and ph == pw == (0, 0)) and \
        native("im2col", x.dtype)
    rows = _scratch("rows", (n, oh, ow, ksize[0], ksize[1], x.shape[3]), x.dtype) if fn else None
    if rows is None:
        windows = patches_view(xp, x, ksize, strides, dilations, padding, 0, transient=True)
        return _rows(xp, windows, strides), (n, oh, ow)
    fn(x, rows, strides, dilations, (ph[0], pw[0]))
    return rows.reshape(n * oh * ow, kk * x.shape[3]), (n, oh, ow)


def _tiled(xp, kernel, shape, dtype, ksize, strides, dilations, padding, plain_1x1=True):
    """(conv_c's tiled im2col + GEMM `kernel` for an image of `shape`, OH, OW, top and left
    pads) when it applies: NumPy arrays of a dtype it has, a non-empty product, and
    (plain_1x1) not a 1x1 stride-1 unpadded convolution (its image is already the rows:
    one GEMM, no copy).  The BLAS is set to one thread: the kernel's team shares out the
    tiles."""
    oh, ow, ph, pw = geometry(shape, ksize, strides, dilations, padding)
    if not (native and xp is np) or 0 in shape or oh * ow == 0 or \
            (plain_1x1 and ksize == (1, 1) and strides == (1, 1) and ph == pw == (0, 0)):
        return None
    fn = native(kernel, dtype)
    if fn:
        blas_threads.for_work(0)
    return fn and (fn, oh, ow, (ph[0], pw[0]))


def _conv_impl(xp, x, w, strides, dilations, padding):
    kh, kw, c, o = w.shape
    tiled = o and _tiled(xp, "conv_gemm", x.shape, x.dtype, (kh, kw), strides, dilations, padding)
    if tiled:
        fn, oh, ow, before = tiled
        return fn(x, w, strides, dilations, before, (oh, ow))
    rows, (n, oh, ow) = _im2col(xp, x, (kh, kw), strides, dilations, padding)
    filters = w.reshape(kh * kw * c, o)
    if xp is np:  # the BLAS thread count for this GEMM's size, as matmul's
        blas_threads.for_matmul(rows, filters)
    wide = dtypes.product_accumulator(x.dtype)  # half types: products summed in float32, as TF
    y = xp.matmul(rows, filters) if wide is None else xp.matmul(rows.astype(wide), filters.astype(wide))
    return y.reshape(n, oh, ow, o).astype(x.dtype, copy=False)


def _conv_rule(x, w, strides, dilations, padding):
    if x.dtype is not w.dtype:
        raise TypeError(f"dtypes {x.dtype.name} and {w.dtype.name} do not match")
    if len(w.shape) != 4 or w.shape[0] is None or w.shape[1] is None:
        raise ValueError(f"filters must be rank 4 (HWIO) with known height and width, got {list(w.shape)}")
    n, oh, ow = patches_rule(x, w.shape[:2], strides, dilations, padding, 0).shape[:3]
    return Aval((n, oh, ow, w.shape[3]), x.dtype)


def _conv_vjp(g, out, x, w, strides, dilations, padding, needs=(True, True)):
    ksize = tuple(w.shape.dims[:2])
    attrs = {"ksize": ksize, "strides": strides, "dilations": dilations, "padding": padding, "pad_value": 0}
    # `needs` (vjp_needs): the input of a first layer is data and needs no gradient.
    return (conv_input_grad(g, x, w, attrs) if needs[0] else None,
            _conv_filter_grad(g, x, w, attrs) if needs[1] else None)


def flip_pads(x, attrs):
    """The padding under which the correlation of the output gradient with the flipped
    filters gives back the input's extent: (span - 1) minus the forward's padding, on
    each side.  None when that route does not apply: strided, unknown spatial size, an
    empty output (its size was clamped at 0) or a padding past span - 1 (cropping)."""
    h, wd = x.shape.dims[1:3]
    if attrs["strides"] != (1, 1) or h is None or wd is None:
        return None
    oh, ow, ph, pw = geometry(x.shape.dims, attrs["ksize"], (1, 1), attrs["dilations"], attrs["padding"])
    if oh == 0 or ow == 0:
        return None
    spans = [(k - 1) * d for k, d in zip(attrs["ksize"], attrs["dilations"])]
    pads = tuple((s - p[0], s - p[1]) for s, p in zip(spans, (ph, pw)))
    return pads if min(min(p) for p in pads) >= 0 else None


def conv_input_grad(g, x, w, attrs):
    pads = flip_pads(x, attrs)
    if pads is None:
        return input_grad(g, w, x, attrs)
    flipped = A.transpose(J.reverse(w, [0, 1]), [0, 1, 3, 2])
    return bind(CONV2D, (g, flipped), {"strides": (1, 1), "dilations": attrs["dilations"], "padding": pads})


def input_grad(g, w, like, attrs):
    """The image-shaped (like `like`) sum of g (N, OH, OW, O) @ w^T's windows:
    conv2d's input gradient by the windows' route, and conv2d_transpose."""
    return bind(CONV2D_INPUT_GRAD, (convert_to_tensor(g), convert_to_tensor(w), like),
                {k: attrs[k] for k in ("strides", "dilations", "padding")})


def _input_grad_impl(xp, g, w, like, strides, dilations, padding):
    """g (N*OH*OW, O) @ w^T gives the windows, col2im adds them up: in C tile by tile
    (the windows of a tile in cache), in NumPy one GEMM into a window-sized buffer."""
    kh, kw, c, o = w.shape
    tiled = _tiled(xp, "conv_input_gemm", like.shape, g.dtype, (kh, kw), strides, dilations, padding, False)
    if tiled and o:
        return tiled[0](g, w, like.shape, strides, dilations, tiled[3])
    rows, filters = g.reshape(-1, o), w.reshape(-1, o).T
    if xp is np:
        blas_threads.for_matmul(rows, filters)
    wide = dtypes.product_accumulator(g.dtype)  # half types: products summed in float32, as TF
    windows = xp.matmul(rows, filters) if wide is None else xp.matmul(rows.astype(wide), filters.astype(wide))
    windows = windows.astype(g.dtype, copy=False).reshape(g.shape[:3] + (kh, kw, c))
    return _patches_grad_impl(xp, windows, like, (kh, kw), strides, dilations, padding, 0)


def _input_grad_rule(g, w, like, strides, dilations, padding):
    if g.dtype is not w.dtype:
        raise TypeError(f"dtypes {g.dtype.name} and {w.dtype.name} do not match")
    return Aval(like.shape, g.dtype)


def _input_grad_vjp(gx, out, g, w, like, strides, dilations, padding, needs=(True, True, False)):
    # bilinear: <input_grad(g, w), gx> = <g, conv2d(gx, w)> = <w, filter_grad(gx, g)>
    attrs = {"strides": strides, "dilations": dilations, "padding": padding}
    return (bind(CONV2D, (gx, w), attrs) if needs[0] else None,
            bind(CONV2D_FILTER_GRAD, (gx, g), dict(attrs, ksize=tuple(w.shape.dims[:2]), pad_value=0))
            if needs[1] else None, None)


def _conv_filter_grad(g, x, w, attrs):
    return bind(CONV2D_FILTER_GRAD, (x, g), attrs)


def _filter_grad_impl(xp, x, g, ksize, strides, dilations, padding, pad_value):
    """dW[a, b, c, o] = sum over n, i, j of x_padded[n, i*s + a*d, j*s + b*d, c] g[n, i, j, o]:
    the forward's im2col rows (through the reused buffers), transposed, @ the gradient
    as (N*OH*OW, O) -- one GEMM, no transposed copy of the image or the gradient (in C:
    tile by tile, each tile's rows in cache)."""
    tiled = g.shape[3] and _tiled(xp, "conv_filter_gemm", x.shape, x.dtype, ksize, strides, dilations, padding)
    if tiled:
        return tiled[0](x, g, ksize, strides, dilations, tiled[3])
    rows = _im2col(xp, x, ksize, strides, dilations, padding)[0]
    grads = g.reshape(rows.shape[0], g.shape[3])
    if xp is np:
        blas_threads.for_matmul(rows.T, grads)
    wide = dtypes.product_accumulator(x.dtype)  # half types: products summed in float32, as TF
    out = xp.matmul(rows.T, grads) if wide is None else xp.matmul(rows.T.astype(wide), grads.astype(wide))
    return out.reshape(ksize[0], ksize[1], x.shape[3], g.shape[3]).astype(x.dtype, copy=False)


def _filter_grad_rule(x, g, ksize, **attrs):
    return Aval((ksize[0], ksize[1], x.shape[3], g.shape[3]), g.dtype)


def _filter_grad_vjp(gw, out, x, g, ksize, strides, dilations, padding, pad_value, needs=(True, True)):
    # <filter_grad(x, g), gw> = <conv2d(x, gw), g>: bilinear, so each operand's
    # gradient is the other route of conv2d's own.
    attrs = {"ksize": ksize, "strides": strides, "dilations": dilations, "padding": padding, "pad_value": 0}
    return (conv_input_grad(g, x, gw, attrs) if needs[0] else None,
            bind(CONV2D, (x, gw), {"strides": strides, "dilations": dilations, "padding": padding})
            if needs[1] else None)


CONV2D = defprim("conv2d", _conv_impl, _conv_rule, _conv_vjp, vjp_needs=True)
# conv2d's input gradient: (gradient (N, OH, OW, O), filters, like: an image of the input's shape).
CONV2D_INPUT_GRAD = defprim("conv2d_input_grad", _input_grad_impl, _input_grad_rule, _input_grad_vjp,
                            vjp_needs=True)
# The filter gradient: (x, gradient) -> (KH, KW, C, O); attrs those of extract_patches.
CONV2D_FILTER_GRAD = defprim("conv2d_filter_grad", _filter_grad_impl, _filter_grad_rule, _filter_grad_vjp,
                             vjp_needs=True)


# --- argument normalization --------------------------------------------------------------
def spatial_sizes(v, name, op, n, channels_last=True):
    """TensorFlow's int / [n sizes] / [1, n sizes, 1] spellings of strides, dilations or
    window sizes over n spatial axes -> an n-tuple."""
    if v is None:
        return (1,) * n
    v = [int(a) for a in (v if isinstance(v, (list, tuple)) else [v])]
    if len(v) == 1:
        v = v * n
    elif len(v) == n + 2:
        v = v[1:n + 1] if channels_last else v[2:]
    if len(v) != n or min(v) < 1:
        raise ValueError(with_location(f"{op}: {name} must be 1, {n} or {n + 2} positive integers, got {v}"))
    return tuple(v)


def _pair(v, name, op, channels_last=True):
    return spatial_sizes(v, name, op, 2, channels_last)


def _padding(padding, op, explicit=False, channels_last=True):
    """"SAME" / "VALID", or with `explicit` (conv2d, depthwise_conv2d) TF's list of four
    (before, after) pairs -> ((top, bottom), (left, right)); the batch and channel
    pairs are ignored, as TF does."""
    if explicit and isinstance(padding, (list, tuple)):
        if len(padding) != 4:
            raise ValueError(with_location(f"When padding is a list, it must be of size 4. Received: "
                                           f"padding={padding!r} of size {len(padding)}"))
        pads = tuple((int(a), int(b)) for a, b in (padding[1:3] if channels_last else padding[2:4]))
        if min(min(p) for p in pads) < 0:
            raise ValueError(with_location(f"{op}: explicit paddings must not be negative, got {padding!r}"))
        return pads
    p = padding.upper() if isinstance(padding, str) else padding
    if explicit and p == "EXPLICIT":
        raise ValueError(with_location("'EXPLICIT' is not a valid value for `padding`. To use explicit "
                                       "padding, `padding` must be a list."))
    if p not in ("SAME", "VALID"):
        raise ValueError(with_location(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}"))
    return p


def _nhwc(x, data_format, op):
    x = convert_to_tensor(x)
    if data_format not in (None, "NHWC", "NCHW"):
        raise ValueError(with_location(f"{op}: data_format must be NHWC or NCHW, got {data_format!r}"))
    if x.shape.rank != 4:
        raise ValueError(with_location(
            f"{op}: input must be rank 4 ({data_format or 'NHWC'}), got shape {list(x.shape)}"))
    return A.transpose(x, [0, 2, 3, 1]) if data_format == "NCHW" else x


def _back(y, data_format):
    return A.transpose(y, [0, 3, 1, 2]) if data_format == "NCHW" else y


def extract_patches(x, ksize, strides, dilations, padding, pad_value=0):
    """(N, H, W, C) -> (N, OH, OW, KH, KW, C) windows."""
    attrs = {"ksize": ksize, "strides": strides, "dilations": dilations, "padding": padding,
             "pad_value": pad_value}
    return bind(EXTRACT_PATCHES, (x,), attrs)


# --- public ops -------------------------------------------------------------------------------
def conv_operands(input, filters, data_format, op, channel_axis, layout):  # noqa: A002
    """The input as NHWC and the rank-4 filters, checked: one dtype, and the
    filters' `channel_axis` (laid out as `layout`) matching the input's channels."""
    x = _nhwc(input, data_format, op)
    w = convert_to_tensor(filters)
    if w.dtype is not x.dtype:
        raise TypeError(with_location(
            f"{op}: input is {x.dtype.name} but filters are {w.dtype.name}; cast one with tf.cast"))
    if w.shape.rank != 4 or (x.shape[3] is not None and w.shape[channel_axis] != x.shape[3]):
        raise bad_shape_error()(with_location(
            f"{op}: filters of shape {list(w.shape)} ({layout}) do not fit input of shape {list(x.shape)} (NHWC)"))
    return x, w


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    cl = data_format != "NCHW"
    x, w = conv_operands(input, filters, data_format, "conv2d", 2, "HWIO")
    attrs = {"strides": _pair(strides, "strides", "conv2d", cl),
             "dilations": _pair(dilations, "dilations", "conv2d", cl), "padding": _padding(padding, "conv2d", True, cl)}
    return _back(bind(CONV2D, (x, w), attrs), data_format)


def image_extract_patches(images, sizes, strides, rates, padding, name=None):
    """tf.image.extract_patches: (N, OH, OW, KH * KW * C)."""
    x = _nhwc(images, "NHWC", "extract_patches")
    k = _pair(sizes, "sizes", "extract_patches")
    p = extract_patches(x, k, _pair(strides, "strides", "extract_patches"),
                        _pair(rates, "rates", "extract_patches"), _padding(padding, "extract_patches"))
    n, oh, ow, kh, kw, c = p.shape.dims
    return A.reshape(p, [-1 if n is None else n, -1 if oh is None else oh, ow, kh * kw * c])


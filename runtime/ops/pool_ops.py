"""Max and average pooling over NHWC images: tf.nn.max_pool2d / avg_pool2d.

max_pool gives the windows' maxima and each window's first maximum (TensorFlow's
tie rule); max_pool_route moves values between windows and their first maxima (the
gradient, and its transpose).  avg_pool (float32 / float64) is a linear
primitive, its gradient avg_pool_grad its transpose; other float dtypes (half
types) average through conv_ops' patches and reduce_sum, which sum as reduce_sum
does (bfloat16 in float32).  compiler/pool_c.py sets `native` to C kernels that
give the NumPy paths' bits.
"""
import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, with_location
from ..registry import Aval, bind, defprim
from . import array_ops as A
from . import conv_ops as C
from . import reduce_ops as RD

# The compiler layer sets this when it loads (compiler/pool_c.py): native(kernel, dtype) ->
# a C kernel ("max_pool", "max_pool_route", "avg_pool") giving the NumPy paths' bits, or
# None (no C compiler, another dtype).
native = None


# --- max pooling: each window's first maximum --------------------------------------------
def _taps(image, ksize, strides, oh, ow):
    """The (N, OH, OW, C) view of each window position (i, j), in row-major order."""
    return [image[:, i:i + strides[0] * (oh - 1) + 1:strides[0], j:j + strides[1] * (ow - 1) + 1:strides[1]]
            for i in range(ksize[0]) for j in range(ksize[1])]


def _lowest(dtype):
    return dtypes.as_dtype(np.dtype(dtype)).min    # ml_dtypes' bfloat16 has no np.finfo


def _window_max(xp, taps, low):
    """The windows' maxima: a `>` scan from the dtype's lowest value (NaN never wins)."""
    best = xp.full(taps[0].shape, low, taps[0].dtype)
    for tap in taps:
        xp.copyto(best, tap, where=tap > best)
    return best


def _first_max_tap(xp, taps, real):
    """Each window's tap number of its first maximum: a `>` scan over the window's
    real pixels from the first of them (a NaN there keeps the place), as TensorFlow's
    MaxPoolGrad.  real[t]: (OH, OW) masks of the positions where tap t is no padding,
    or None when nothing is padded."""
    best, arg = taps[0].copy(), xp.zeros(taps[0].shape, np.int16 if len(taps) < 1 << 15 else np.int32)
    seen = None if real is None else xp.broadcast_to(real[0][:, :, None], taps[0].shape).copy()
    for t, tap in enumerate(taps[1:], 1):
        better = tap > best
        if real is not None:
            ok = real[t][:, :, None]
            better = (better | ~seen) & ok
            seen |= ok
        xp.copyto(best, tap, where=better)
        xp.copyto(arg, t, where=better)
    return arg


def _real_taps(xp, shape, ksize, strides, oh, ow, ph, pw):
    rows = [(i + strides[0] * np.arange(oh) - ph[0] >= 0) & (i + strides[0] * np.arange(oh) - ph[0] < shape[1])
            for i in range(ksize[0])]
    cols = [(j + strides[1] * np.arange(ow) - pw[0] >= 0) & (j + strides[1] * np.arange(ow) - pw[0] < shape[2])
            for j in range(ksize[1])]
    return [xp.asarray(r[:, None] & c[None, :]) for r in rows for c in cols]


def _max_pool_impl(xp, x, ksize, strides, padding):
    """(the windows' maxima, each window's first maximum as a pixel of the image: row * W
    + column, int32).  TensorFlow's semantics: see _window_max and _first_max_tap
    (row-major window order, a tie goes to the first; an all -inf window gives -FLT_MAX)."""
    oh, ow, ph, pw = C.geometry(x.shape, ksize, strides, (1, 1), padding)
    if x.shape[1] * x.shape[2] >= 1 << 31:
        raise ValueError(f"max_pool2d: images of {x.shape[1]} x {x.shape[2]} pixels have more than 2**31 "
                         "(the positions of the maxima are int32)")
    fn = native and xp is np and native("max_pool", x.dtype)
    if fn:
        return fn("max", x, None, ksize, strides, oh, ow, ph, pw)
    low = _lowest(x.dtype)
    image = C.padded_image(xp, x, ksize, strides, (1, 1), padding, low, transient=True)[0]
    taps = _taps(image, ksize, strides, oh, ow)
    real = None if ph == pw == (0, 0) else _real_taps(xp, x.shape, ksize, strides, oh, ow, ph, pw)
    tap = _first_max_tap(xp, taps, real).astype(np.int32)
    rows = (strides[0] * xp.arange(oh, dtype=np.int32) - ph[0])[:, None, None] + tap // ksize[1]
    cols = (strides[1] * xp.arange(ow, dtype=np.int32) - pw[0])[None, :, None] + tap % ksize[1]
    return _window_max(xp, taps, low), rows * np.int32(x.shape[2]) + cols


def _max_pool_rule(x, ksize, strides, padding):
    y = C.patches_rule(x, ksize, strides, (1, 1), padding, 0)
    shape = y.shape[:3] + (x.shape[3],)
    return Aval(shape, x.dtype), Aval(shape, dtypes.int32)


def _max_pool_vjp(g, out, x, **attrs):
    return bind(MAX_POOL_ROUTE, (out[1], g[0], x), {"mode": "scatter"})


# The arg output keeps each window's first maximum for the gradient (as TF's MaxPoolGrad
# finds it: the forward's pass, not a second one).
MAX_POOL = defprim("max_pool", _max_pool_impl, _max_pool_rule, _max_pool_vjp, multiple_results=True)


def _route_impl(xp, arg, v, *like, mode):
    """mode "scatter": (arg, g, like) adds each window's g onto its first maximum (like's
    shape), the windows of an image in reverse row-major order, so that a pixel that is
    the maximum of several windows sums them tap after tap; "gather": (arg, h) takes h at
    each window's first maximum (arg's shape).  Each other's transpose."""
    fn = native and xp is np and native("max_pool_route", v.dtype)
    if fn:
        return fn(mode, arg, v, like[0].shape if like else None)
    n, h, w, c = like[0].shape if like else v.shape
    image = xp.arange(n, dtype=np.int64)[:, None, None, None] * (h * w)
    index = (image + arg) * c + xp.arange(c, dtype=np.int64)  # into the flat image
    if mode == "gather":
        return xp.take(v.reshape(-1), index)
    out = xp.zeros((n, h, w, c), v.dtype)
    xp.add.at(out.reshape(-1), index[:, ::-1, ::-1].reshape(-1), v[:, ::-1, ::-1].reshape(-1))  # in index order
    return out


def _route_rule(arg, v, *like, mode):
    return Aval(like[0].shape if mode == "scatter" else arg.shape, v.dtype)


def _route_vjp(g, out, arg, v, *like, mode):
    # arg only picks the positions (piecewise constant): no gradient flows into it.
    back = bind(MAX_POOL_ROUTE, (arg, g), {"mode": "gather"}) if mode == "scatter" else \
        bind(MAX_POOL_ROUTE, (arg, g, v), {"mode": "scatter"})  # v: the image gathered from
    return (None, back) + (None,) * len(like)


MAX_POOL_ROUTE = defprim("max_pool_route", _route_impl, _route_rule, _route_vjp)


# --- average pooling: the mean of each window's real pixels -----------------------------------
def window_counts(xp, shape, ksize, strides, oh, ow, ph, pw, dtype):
    """(OH, OW, 1): the number of real pixels of each window (TF's divisor)."""
    def axis(size, k, s, out, pad):
        start = s * np.arange(out) - pad[0]
        return np.minimum(start + k, size) - np.maximum(start, 0)
    rows, cols = axis(shape[1], ksize[0], strides[0], oh, ph), axis(shape[2], ksize[1], strides[1], ow, pw)
    return xp.asarray((rows[:, None] * cols[None, :])[:, :, None], dtype)


def _avg_pool_impl(xp, x, ksize, strides, padding):
    """+0, then each tap added in row-major window order (the padding adds +0, which
    changes no sum that starts from +0), divided by the window's count: TF's AvgPool."""
    oh, ow, ph, pw = C.geometry(x.shape, ksize, strides, (1, 1), padding)
    fn = native and xp is np and native("avg_pool", x.dtype)
    if fn:
        return fn("avg", x, x.shape, ksize, strides, oh, ow, ph, pw)
    image = C.padded_image(xp, x, ksize, strides, (1, 1), padding, 0, transient=True)[0]
    total = xp.zeros((x.shape[0], oh, ow, x.shape[3]), x.dtype)
    for tap in _taps(image, ksize, strides, oh, ow):
        total += tap
    return total / window_counts(xp, x.shape, ksize, strides, oh, ow, ph, pw, x.dtype)


def _avg_pool_grad_impl(xp, g, like, ksize, strides, padding):
    """Each window's g / count added onto its real pixels, tap after tap over the whole
    output (a pixel of several windows sums them in that order)."""
    oh, ow, ph, pw = C.geometry(like.shape, ksize, strides, (1, 1), padding)
    fn = native and xp is np and native("avg_pool", g.dtype)
    if fn:
        return fn("grad", g, like.shape, ksize, strides, oh, ow, ph, pw)
    n, h, w, c = like.shape
    share = g / window_counts(xp, like.shape, ksize, strides, oh, ow, ph, pw, g.dtype)
    out = xp.zeros((n, h + sum(ph), w + sum(pw), c), g.dtype)
    for tap in _taps(out, ksize, strides, oh, ow):
        tap += share
    return out[:, ph[0]:ph[0] + h, pw[0]:pw[0] + w]


def _avg_pool_rule(x, ksize, strides, padding):
    return _max_pool_rule(x, ksize, strides, padding)[0]


AVG_POOL = defprim("avg_pool", _avg_pool_impl, _avg_pool_rule,
                   lambda g, out, x, **attrs: bind(AVG_POOL_GRAD, (g, x), attrs))
# The transpose of avg_pool (x only gives the image's shape).
AVG_POOL_GRAD = defprim("avg_pool_grad", _avg_pool_grad_impl, lambda g, like, **attrs: Aval(like.shape, g.dtype),
                        lambda gg, out, g, like, **attrs: (bind(AVG_POOL, (gg,), attrs), None))


# --- public ops ---------------------------------------------------------------------------------
def _pool(x, ksize, strides, padding, data_format, op):
    cl = data_format != "NCHW"
    x = C._nhwc(x, data_format, op)
    return (x, C.spatial_sizes(ksize, "ksize", op, 2, cl), C.spatial_sizes(strides, "strides", op, 2, cl),
            C._padding(padding, op))


def _explicit_pool_padding(padding, ksize, data_format, op):
    """TF's MaxPool explicit paddings: four non-negative (before, after) pairs, zero for the
    batch and channels, each smaller than its window -> ((top, bottom), (left, right))."""
    if len(padding) != 4:
        raise ValueError(with_location(f"When padding is a list, it must be of size 4. Received: "
                                       f"padding={padding!r} of size {len(padding)}"))
    pads = [tuple(int(v) for v in pair) for pair in padding]
    if min(min(p) for p in pads) < 0:
        raise InvalidArgumentError(with_location(f"{op}: explicit paddings must be non-negative, got {padding!r}"))
    spatial = (1, 2) if data_format != "NCHW" else (2, 3)
    if any(pads[i] != (0, 0) for i in range(4) if i not in spatial):
        raise InvalidArgumentError(with_location(
            f"{op}: nonzero explicit padding in the batch or channel dimensions is not supported, got {padding!r}"))
    out = tuple(pads[i] for i in spatial)
    for (before, after), window, side in zip(out, ksize, ("top/bottom", "left/right")):
        if max(before, after) >= window:
            raise InvalidArgumentError(with_location(
                f"{op}: {side} padding {before, after} must be smaller than the window size {window}"))
    return out


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    explicit = isinstance(padding, (list, tuple))
    x, k, s, p = _pool(input, ksize, strides, "VALID" if explicit else padding, data_format, "max_pool2d")
    if explicit:
        p = _explicit_pool_padding(padding, k, data_format, "max_pool2d")
    return C._back(bind(MAX_POOL, (x,), {"ksize": k, "strides": s, "padding": p})[0], data_format)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    if isinstance(padding, (list, tuple)):
        raise TypeError(with_location(f"avg_pool2d: padding must be 'SAME' or 'VALID' (TF's AvgPool has no "
                                      f"explicit paddings), got {padding!r}"))
    x, k, s, p = _pool(input, ksize, strides, padding, data_format, "avg_pool2d")
    if not x.dtype.is_floating:
        raise InvalidArgumentError(with_location(f"avg_pool2d expects a floating-point tensor, got {x.dtype.name}"))
    if x.dtype in (dtypes.float32, dtypes.float64):
        y = bind(AVG_POOL, (x,), {"ksize": k, "strides": s, "padding": p})
    else:
        total = RD.reduce_sum(C.extract_patches(x, k, s, (1, 1), p), [3, 4])
        ones = A.ones_like(x[:1, :, :, :1])  # SAME: windows at the border average only the real pixels
        y = total / RD.reduce_sum(C.extract_patches(ones, k, s, (1, 1), p), [3, 4])
    return C._back(y, data_format)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    return max_pool2d(input, ksize, strides, padding, data_format or "NHWC")


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    return avg_pool2d(input, ksize, strides, padding, data_format or "NHWC")

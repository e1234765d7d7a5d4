"""tf.image colour spaces and adjustments: rgb_to_hsv, hsv_to_rgb, adjust_hue,
adjust_saturation, adjust_gamma, YIQ and YUV.  Composites (their gradients come from the ops), float
images with the channels last (3 of them for the HSV functions).  adjust_hue and
adjust_saturation follow TF's float32 CPU kernels step by step (their own hue arithmetic,
not rgb_to_hsv's), so they give TF's bits."""
import numpy as np

from tapeflow.runtime.errors import InvalidArgumentError, NotFoundError, with_location
from tapeflow.runtime.tensor import Tensor, convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops.image_ops import convert_image_dtype


def _rgb(images, op, error=TypeError):
    x = convert_to_tensor(images)
    if not x.dtype.is_floating:
        raise error(with_location(f"{op}: expects float images, got {x.dtype.name}"))
    if x.shape.rank < 1 or x.shape[-1] != 3:
        raise ValueError(with_location(f"{op}: the last dimension must be 3, got shape {list(x.shape)}"))
    return x


def rgb_to_hsv(images, name=None):
    x = _rgb(images, "rgb_to_hsv", InvalidArgumentError)  # TF: the kernel refuses
    r, g, b = J.unstack(x, axis=-1)
    v = RD.reduce_max(x, -1)
    spread = v - RD.reduce_min(x, -1)
    s = M.div_no_nan(spread, v)
    hr = M.div_no_nan(g - b, spread)
    hg = M.div_no_nan(b - r, spread) + 2.0
    hb = M.div_no_nan(r - g, spread) + 4.0
    h = A.where(M.equal(v, r), hr, A.where(M.equal(v, g), hg, hb)) / 6.0
    h = A.where(M.equal(spread, 0), A.zeros_like(h), h)
    h = A.where(M.less(h, 0), h + 1.0, h)
    return J.stack([h, s, v], axis=-1)


def hsv_to_rgb(images, name=None):
    x = _rgb(images, "hsv_to_rgb", InvalidArgumentError)
    h, s, v = J.unstack(x, axis=-1)
    dh = h * 6.0
    dr = M.clip_by_value(M.abs(dh - 3.0) - 1.0, 0.0, 1.0)
    dg = M.clip_by_value(2.0 - M.abs(dh - 2.0), 0.0, 1.0)
    db = M.clip_by_value(2.0 - M.abs(dh - 4.0), 0.0, 1.0)
    one_minus_s = 1.0 - s
    return J.stack([(one_minus_s + s * c) * v for c in (dr, dg, db)], axis=-1)


def _float_then_back(image, fn, op):
    x = convert_to_tensor(image)
    if x.dtype.is_floating:
        return fn(x)
    return convert_image_dtype(fn(convert_image_dtype(x, "float32")), x.dtype, saturate=True)


# TF's AdjustHue kernel works on (hue category 0-5, position in it) and the channels' min
# and max, which come back unchanged: the picks below, per category, are its switch cases.
_MAX_MID_MIN = ("rggbbr", "grbgrb", "bbrrgg")     # (v_max, v_mid, v_min) channel per category
_RGB_FROM = ("xmnnmx", "mxxmnn", "nnmxxm")        # r, g, b per category: max, mid or min


def _pick(category, options):
    out = options[5]
    for k in range(4, -1, -1):
        out = A.where(M.equal(category, float(k)), options[k], out)
    return out


def _rotate_hue(x, delta):
    """TF's CPU kernel, float32: hue in [0, 6) from the channels' order, delta * 6 added,
    wrapped by whole turns as the kernel's loops do."""
    r, g, b = J.unstack(x, axis=-1)
    channel = {"r": r, "g": g, "b": b}
    category = A.where(M.less(r, g), A.where(M.less(b, r), 1.0, A.where(M.greater(b, g), 3.0, 2.0)),
                       A.where(M.less(b, g), 0.0, A.where(M.greater(b, r), 4.0, 5.0)))
    v_max, v_mid, v_min = (_pick(category, [channel[c] for c in row]) for row in _MAX_MID_MIN)
    spread = v_max - v_min
    ratio = M.div_no_nan(v_mid - v_min, spread)
    even = M.equal(M.floormod(category, 2.0), 0.0)
    h = A.where(M.equal(spread, 0.0), A.zeros_like(r), category + A.where(even, ratio, 1.0 - ratio))
    turns = 3
    if isinstance(delta, (int, float)) or type(delta) is Tensor:
        delta = float(delta)
        turns = int(abs(delta)) + 2
        h = h + float(np.float32(delta) * np.float32(6))
    else:
        h = h + M.cast(delta, x.dtype) * 6.0
    for _ in range(turns):
        h = A.where(M.less(h, 0.0), h + 6.0, h)
    for _ in range(turns):
        h = A.where(M.greater_equal(h, 6.0), h - 6.0, h)
    category = M.floor(h)
    ratio = h - category
    ratio = A.where(M.equal(M.floormod(category, 2.0), 0.0), ratio, 1.0 - ratio)
    v_mid = v_min + ratio * spread
    value = {"x": v_max, "m": v_mid, "n": v_min}
    return J.stack([_pick(category, [value[c] for c in row]) for row in _RGB_FROM], axis=-1)


def adjust_hue(image, delta, name=None):
    """Rotate the hue by delta (in [-1, 1], a fraction of the colour circle), as TF's kernel:
    float32 (other types converted there and back; TF's CPU build has no float16 kernel)."""
    if (isinstance(delta, (int, float)) or type(delta) is Tensor) and not -1.0 <= float(delta) <= 1.0:
        raise ValueError(with_location(f"adjust_hue: delta must be in [-1, 1], got {delta}"))
    return _float32_kernel(image, lambda x: _rotate_hue(x, delta), "adjust_hue")


def _scale_saturation(x, factor):
    """TF's AdjustSaturation CPU kernel, float32: its own HSV round trip (the hue offsets
    2/6 and 4/6 are added in double, as the C++ literals are), the saturation scaled and
    clipped to [0, 1]."""
    r, g, b = J.unstack(x, axis=-1)
    v = M.maximum(r, M.maximum(g, b))
    spread = v - M.minimum(r, M.minimum(g, b))
    s = A.where(M.greater(v, 0.0), M.div_no_nan(spread, v), A.zeros_like(v))
    norm = M.div_no_nan(A.ones_like(spread), 6.0 * spread)

    def offset(t, sixths):
        return M.cast(M.cast(t, "float64") + sixths / 6.0, x.dtype)
    h = A.where(M.equal(r, v), norm * (g - b), A.where(M.equal(g, v), offset(norm * (b - r), 2.0),
                                                      offset(norm * (r - g), 4.0)))
    h = A.where(M.less_equal(spread, 0.0), A.zeros_like(h), h)
    h = A.where(M.less(h, 0.0), h + 1.0, h)
    s = M.minimum(1.0, M.maximum(0.0, s * M.cast(convert_to_tensor(factor), x.dtype)))
    c = s * v
    m = v - c
    dh = h * 6.0
    category = M.floor(dh)
    fmodu = A.where(M.less_equal(dh, 0.0), dh + 2.0, dh)
    for _ in range(3):
        fmodu = A.where(M.greater_equal(fmodu, 2.0), fmodu - 2.0, fmodu)
    part = c * (1.0 - M.abs(fmodu - 1.0))
    zero = A.zeros_like(c)
    value = {"c": c, "x": part, "0": zero}
    out = []
    for row in ("cx00xc", "xccx00", "00xccx"):          # r, g, b per category 0-5; 6: zeros
        pick = _pick(category, [value[k] for k in row])
        out.append(A.where(M.equal(category, 6.0), zero, pick) + m)
    return J.stack(out, axis=-1)


def _float32_kernel(image, fn, op):
    """TF's dtype handling around its float32-only CPU colour kernels: float32 in place,
    float16 refused (no CPU kernel: NotFoundError), other types converted there and back."""
    x = convert_to_tensor(image)
    if x.dtype.name == "float16":
        raise NotFoundError(with_location(f"{op}: no CPU kernel for float16 images (TF has float32 only)"))
    if x.shape.rank is not None and (x.shape.rank < 3 or x.shape[-1] not in (None, 3)):
        raise InvalidArgumentError(with_location(
            f"{op}: images must be at least 3-D with 3 channels last, got shape {list(x.shape)}"))
    flt = x if x.dtype.name == "float32" else convert_image_dtype(x, "float32")
    return convert_image_dtype(fn(flt), x.dtype)


def adjust_saturation(image, saturation_factor, name=None):
    """Scale the saturation (clipped to [0, 1]), as TF's kernel."""
    return _float32_kernel(image, lambda x: _scale_saturation(x, saturation_factor), "adjust_saturation")


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma (integer images scaled to [0, 1] and back)."""
    if float(gamma) < 0:
        raise ValueError(with_location(f"adjust_gamma: gamma must be non-negative, got {gamma}"))
    return _float_then_back(image, lambda x: M.cast(gain, x.dtype) * M.pow(x, M.cast(gamma, x.dtype)),
                            "adjust_gamma")


# TensorFlow's matrices (rows: R, G, B in; columns: the new channels out).
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _linear_colour(images, matrix, op):
    x = _rgb(images, op)
    return L.tensordot(x, A.constant(matrix, x.dtype), [[x.shape.rank - 1], [0]])


def rgb_to_yiq(images):
    return _linear_colour(images, _RGB_TO_YIQ, "rgb_to_yiq")


def yiq_to_rgb(images):
    return _linear_colour(images, _YIQ_TO_RGB, "yiq_to_rgb")


def rgb_to_yuv(images):
    return _linear_colour(images, _RGB_TO_YUV, "rgb_to_yuv")


def yuv_to_rgb(images):
    return _linear_colour(images, _YUV_TO_RGB, "yuv_to_rgb")

"""tf.image colour spaces and adjustments: rgb_to_hsv, hsv_to_rgb, adjust_hue,
adjust_saturation, adjust_gamma, YIQ and YUV.  Composites (their gradients come from the ops), float
images with the channels last (3 of them for the HSV functions)."""
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops.image_ops import convert_image_dtype


def _rgb(images, op):
    x = convert_to_tensor(images)
    if not x.dtype.is_floating:
        raise TypeError(with_location(f"{op}: expects float images, got {x.dtype.name}"))
    if x.shape.rank < 1 or x.shape[-1] != 3:
        raise ValueError(with_location(f"{op}: the last dimension must be 3, got shape {list(x.shape)}"))
    return x


def rgb_to_hsv(images, name=None):
    x = _rgb(images, "rgb_to_hsv")
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
    x = _rgb(images, "hsv_to_rgb")
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


def adjust_hue(image, delta, name=None):
    """Rotate the hue by delta (in [-1, 1], a fraction of the colour circle)."""
    if not -1.0 <= float(delta) <= 1.0:
        raise ValueError(with_location(f"adjust_hue: delta must be in [-1, 1], got {delta}"))

    def shift(x):
        h, s, v = J.unstack(rgb_to_hsv(x), axis=-1)
        h = M.floormod(h + float(delta), 1.0)
        return hsv_to_rgb(J.stack([h, s, v], axis=-1))
    return _float_then_back(image, shift, "adjust_hue")


def adjust_saturation(image, saturation_factor, name=None):
    """Scale the saturation (clipped to [0, 1])."""
    def scale(x):
        h, s, v = J.unstack(rgb_to_hsv(x), axis=-1)
        s = M.clip_by_value(s * M.cast(convert_to_tensor(saturation_factor), x.dtype), 0.0, 1.0)
        return hsv_to_rgb(J.stack([h, s, v], axis=-1))
    return _float_then_back(image, scale, "adjust_saturation")


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

"""tf.image basics over NHWC (or HWC) images: flips, random flips, resize
(bilinear and nearest, TensorFlow 2's half-pixel centers), per-image
standardization, grayscale and dtype conversion.

resize is two gathers (rows, then columns) with indices and weights computed from
the sizes (NumPy for static ones, tapeflow ops for sizes only known when a graph
runs), so its gradient is gather's.
"""
import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, with_location
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import image_resample
from . import join_ops as J
from . import math_ops as M
from . import reduce_ops as RD


def _images(images, op):
    x = convert_to_tensor(images)
    if x.shape.rank not in (3, 4):
        raise ValueError(with_location(f"{op}: images must be rank 3 (HWC) or 4 (NHWC), got {list(x.shape)}"))
    return x


def _axes(x):
    """(height axis, width axis)."""
    return (0, 1) if x.shape.rank == 3 else (1, 2)


def flip_left_right(image):
    x = _images(image, "flip_left_right")
    return J.reverse(x, [_axes(x)[1]])


def flip_up_down(image):
    x = _images(image, "flip_up_down")
    return J.reverse(x, [_axes(x)[0]])


def _source_positions(n_in, n_out, xp, nearest):
    """TF 2's half-pixel source coordinate of each output pixel, in float32 as TF's kernels
    compute it: (i + 0.5) * (n_in / n_out), minus 0.5 for bilinear.  n_in is an int (NumPy
    arithmetic) or a scalar tensor (the same float32 operations in tapeflow ops), so a
    traced resize of an image of unknown size equals the eager one."""
    f32 = np.float32
    if xp is np:
        scale = f32(n_in) / f32(n_out)
        src = (np.arange(n_out, dtype=f32) + f32(0.5)) * scale
        return src if nearest else src - f32(0.5)
    scale = M.divide(M.cast(n_in, dtypes.float32), A.constant(f32(n_out)))
    src = (A.constant(np.arange(n_out, dtype=f32)) + A.constant(f32(0.5))) * scale
    return src if nearest else src - A.constant(f32(0.5))


class _Taps:
    """Index and weight arithmetic on NumPy arrays (a static size) or tensors (a traced one)."""

    def __init__(self, x, axis):
        n = x.shape[axis]
        self.xp = np if n is not None else None
        self.n = n if n is not None else A.shape(x)[axis]

    def floor(self, v):
        return np.floor(v) if self.xp is np else M.floor(v)

    def ceil(self, v):
        return np.ceil(v) if self.xp is np else M.ceil(v)

    def index(self, v, low=0):
        """int32 indices clipped to [low, n - 1]."""
        if self.xp is np:
            return np.clip(v, low, self.n - 1).astype(np.int32)
        top = M.cast(self.n - 1, dtypes.float32)
        return M.cast(M.minimum(M.maximum(v, float(low)), top), dtypes.int32)

    def weights(self, frac, axis, rank, dtype):
        shape = [1] * rank
        shape[axis] = -1
        if self.xp is np:
            return A.constant(frac.reshape(shape).astype(dtype.np))
        return A.reshape(M.cast(frac, dtype), shape)


class ResizeMethod:
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"


def resize(images, size, method="bilinear", preserve_aspect_ratio=False, antialias=False, name=None):
    """Resize to size = [new_height, new_width].  Bilinear returns float32 (as TensorFlow);
    nearest keeps the dtype.  The input's height and width may be unknown while tracing."""
    x = _images(images, "resize")
    new = [int(s) for s in (size.numpy().tolist() if hasattr(size, "numpy") else size)]
    if len(new) != 2:
        raise ValueError(with_location(f"resize: size must be two ints, got {new}"))
    hw = _axes(x)
    if preserve_aspect_ratio:
        # TF's arithmetic: the smaller of the two float32 scale factors, the sizes rounded
        # half to even.
        height, width = (x.shape.dims[a] for a in hw)
        if height is None or width is None:
            raise NotImplementedError(with_location(
                "resize: preserve_aspect_ratio needs the image's height and width while tracing"))
        scale = min(np.float32(new[0]) / np.float32(height), np.float32(new[1]) / np.float32(width))
        new = [int(np.round(np.float32(scale * np.float32(d)))) for d in (height, width)]
    if min(new) < 1:
        raise InvalidArgumentError(with_location(f"resize: output dimensions must be positive, got {new} "
                                                 f"for an image of shape {list(x.shape)}"))
    if method == "nearest":
        antialias = False  # TF ignores it there
    if method in ("area", "bicubic") or method in image_resample.KERNELS and (antialias or method != "bilinear"):
        return image_resample.resize_sampled(M.cast(x, dtypes.float32), new, method, antialias, hw)
    if antialias or method not in ("bilinear", "nearest"):
        raise NotImplementedError(with_location(
            f"resize: method {method!r} with antialias={antialias} is not supported (bilinear, nearest; "
            f"lanczos3/5, gaussian, mitchellcubic; antialiased bilinear/bicubic)"))
    if method == "nearest":
        for axis, n_out in zip(hw, new):
            taps = _Taps(x, axis)
            src = _source_positions(taps.n, n_out, taps.xp, nearest=True)
            x = G.gather(x, taps.index(taps.floor(src)), axis=axis)
        return x
    x = M.cast(x, dtypes.float32)
    for axis, n_out in zip(hw, new):
        taps = _Taps(x, axis)
        src = _source_positions(taps.n, n_out, taps.xp, nearest=False)
        floor = taps.floor(src)
        a = G.gather(x, taps.index(floor), axis=axis)
        b = G.gather(x, taps.index(taps.ceil(src)), axis=axis)
        x = a + (b - a) * taps.weights(src - floor, axis, x.shape.rank, x.dtype)
    return x


def rgb_to_grayscale(images, name=None):
    """TF's: the weighted sum in float32 (every input converted there by convert_image_dtype)
    and converted back to the input's dtype."""
    x = convert_to_tensor(images)
    weights = A.constant(np.array([0.2989, 0.5870, 0.1140]), dtypes.float32)
    gray = RD.reduce_sum(convert_image_dtype(x, dtypes.float32) * weights, -1, keepdims=True)
    return convert_image_dtype(gray, x.dtype)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """TF's conversions: integers scale to [0, 1] floats by 1 / max and back by max + 0.5
    (truncating); between integer types by the ratio of (max + 1)s -- a division then a
    cast going down, a cast then a multiplication going up (both wrap unless `saturate`);
    floats just cast."""
    from .cast_ops import saturate_cast
    x = convert_to_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    cast = saturate_cast if saturate else M.cast
    if x.dtype is dtype:
        return x
    if x.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = int(x.dtype.max), int(dtype.max)
        if scale_in > scale_out:
            return cast(M.floordiv(x, convert_to_tensor((scale_in + 1) // (scale_out + 1), x.dtype)), dtype)
        return M.multiply(cast(x, dtype), convert_to_tensor((scale_out + 1) // (scale_in + 1), dtype))
    if x.dtype.is_integer and dtype.is_floating:
        return M.cast(x, dtype) * convert_to_tensor(1.0 / float(x.dtype.max), dtype)
    if x.dtype.is_floating and dtype.is_integer:
        # TensorFlow's rule: scale by max + 0.5, then truncate (0.5 -> 128 for uint8, 1.0 -> 255)
        scaled = M.multiply(x, convert_to_tensor(float(dtype.max) + 0.5, x.dtype))
        if saturate:
            return saturate_cast(scaled, dtype)
        # Out-of-range floats have no defined cast in TF; clipping keeps them in range.
        return M.cast(M.clip_by_value(x, 0.0, 1.0) * (float(dtype.max) + 0.5), dtype)
    if x.dtype.is_floating and dtype.is_floating:
        return M.cast(x, dtype)
    raise NotImplementedError(with_location(
        f"convert_image_dtype: {x.dtype.name} to {dtype.name} is not supported"))


def per_image_standardization(image, name=None):
    """(x - mean) / max(stddev, 1 / sqrt(N)) over each image's pixels and channels."""
    x = M.cast(_images(image, "per_image_standardization"), dtypes.float32)   # float32 always, as TF
    axes = [-3, -2, -1]
    mean = RD.reduce_mean(x, axes, keepdims=True)
    std = RD.reduce_std(x, axes, keepdims=True)
    n = 1
    for d in x.shape.dims[-3:]:
        n = n * d if d is not None and n is not None else None
    if n is None:
        raise ValueError(with_location("per_image_standardization: the image size must be known"))
    return (x - mean) / M.maximum(std, float(np.float32(1) / np.sqrt(np.float32(n))))  # rsqrt in float32

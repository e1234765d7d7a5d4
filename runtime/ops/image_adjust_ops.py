"""tf.image adjustments and crops used for data augmentation: brightness,
contrast (fixed and random), resize_with_crop_or_pad, central_crop, random_crop,
rot90.  Height and width must be static (they decide slice sizes); random
draws are one per call, as TensorFlow's (random_crop draws one offset per call)."""
from .. import dtypes
from ..errors import with_location
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import join_ops as J
from . import math_ops as M
from . import random_ops as RO
from . import reduce_ops as RD
from .image_ops import _axes, _images


def _float_images(image, op):
    x = _images(image, op)
    if not x.dtype.is_floating:
        raise TypeError(with_location(
            f"{op}: expected floating-point images, got {x.dtype.name} (use tf.image.convert_image_dtype first)"))
    return x


def _static_hw(x, op):
    h_axis, w_axis = _axes(x)
    h, w = x.shape[h_axis], x.shape[w_axis]
    if h is None or w is None:
        raise ValueError(with_location(f"{op}: the image height and width must be known, got {list(x.shape)}"))
    return h, w


def adjust_brightness(image, delta):
    x = _float_images(image, "adjust_brightness")
    return x + M.cast(convert_to_tensor(delta), x.dtype)


def random_brightness(image, max_delta, seed=None):
    if max_delta < 0:
        raise ValueError(with_location(f"random_brightness: max_delta must be non-negative, got {max_delta}"))
    x = _float_images(image, "random_brightness")
    return x + RO.uniform([], -max_delta, max_delta, dtype=x.dtype, seed=seed)


def adjust_contrast(images, contrast_factor):
    """(x - mean) * factor + mean, the mean over each image's pixels per channel."""
    x = _float_images(images, "adjust_contrast")
    mean = RD.reduce_mean(x, list(_axes(x)), keepdims=True)
    return (x - mean) * M.cast(convert_to_tensor(contrast_factor), x.dtype) + mean


def random_contrast(image, lower, upper, seed=None):
    if not 0 <= lower < upper:
        raise ValueError(with_location(f"random_contrast: need 0 <= lower < upper, got {lower}, {upper}"))
    x = _float_images(image, "random_contrast")
    return adjust_contrast(x, RO.uniform([], lower, upper, dtype=x.dtype, seed=seed))


def resize_with_crop_or_pad(image, target_height, target_width):
    """Centre-crop the larger sides and zero-pad the smaller ones (pad/crop offsets
    (difference) // 2, as TensorFlow)."""
    x = _images(image, "resize_with_crop_or_pad")
    h, w = _static_hw(x, "resize_with_crop_or_pad")
    for axis, n, target in zip(_axes(x), (h, w), (target_height, target_width)):
        if target <= 0:
            raise ValueError(with_location(f"resize_with_crop_or_pad: target sizes must be positive, got {target}"))
        if n > target:
            x = G.gather(x, A.range_((n - target) // 2, (n - target) // 2 + target), axis=axis)
        elif n < target:
            pads = [[0, 0]] * x.shape.rank
            pads[axis] = [(target - n) // 2, target - n - (target - n) // 2]
            x = J.pad(x, pads)
    return x


def central_crop(image, central_fraction):
    if not 0.0 < central_fraction <= 1.0:
        raise ValueError(with_location(f"central_crop: central_fraction must be in (0, 1], got {central_fraction}"))
    x = _images(image, "central_crop")
    h, w = _static_hw(x, "central_crop")
    for axis, n in zip(_axes(x), (h, w)):
        start = int((n - n * central_fraction) / 2)
        x = G.gather(x, A.range_(start, n - start), axis=axis)
    return x


def random_crop(value, size, seed=None, name=None):
    """A window of static `size` at one random offset (uniform per dimension)."""
    x = convert_to_tensor(value)
    size = [int(s) for s in size]
    dims = x.shape.dims
    if len(size) != len(dims) or any(d is None or s > d or s < 0 for d, s in zip(dims, size)):
        raise ValueError(with_location(f"random_crop: size {size} does not fit in shape {list(dims)}"))
    for axis, (d, s) in enumerate(zip(dims, size)):
        if s < d:
            start = RO.uniform([], 0, d - s + 1, dtype=dtypes.int32, seed=seed)
            x = G.gather(x, start + A.range_(s), axis=axis)
    return x


def rot90(image, k=1, name=None):
    """Rotate counter-clockwise by k quarter turns (k a Python int)."""
    x = _images(image, "rot90")
    h_axis, w_axis = _axes(x)
    perm = list(range(x.shape.rank))
    perm[h_axis], perm[w_axis] = w_axis, h_axis
    for _ in range(int(k) % 4):
        x = A.transpose(J.reverse(x, [w_axis]), perm)
    return x

"""tf.image adjustments and crops used for data augmentation: brightness, contrast,
resize_with_crop_or_pad, central_crop, rot90.  Height and width must be static (they
decide slice sizes).  The random forms are in tapeflow/image_random.py."""
from .. import dtypes
from ..errors import NotFoundError, with_location
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import join_ops as J
from . import math_ops as M
from . import reduce_ops as RD
from .image_ops import _axes, _images, convert_image_dtype


def _static_hw(x, op):
    h_axis, w_axis = _axes(x)
    h, w = x.shape[h_axis], x.shape[w_axis]
    if h is None or w is None:
        raise ValueError(with_location(f"{op}: the image height and width must be known, got {list(x.shape)}"))
    return h, w


def _in_float(image, op, adjust):
    """TensorFlow's rule for the adjust_* ops: float16/float32 images are adjusted as they
    are, others (integers, float64) in float32 and converted back (saturating)."""
    x = _images(image, op) if op != "adjust_brightness" else convert_to_tensor(image)
    if x.dtype in (dtypes.float16, dtypes.float32):
        return adjust(x)
    return convert_image_dtype(adjust(convert_image_dtype(x, dtypes.float32)), x.dtype, saturate=True)


def adjust_brightness(image, delta):
    return _in_float(image, "adjust_brightness", lambda x: x + M.cast(convert_to_tensor(delta), x.dtype))


def adjust_contrast(images, contrast_factor):
    """(x - mean) * factor + mean, the mean over each image's pixels per channel."""
    if convert_to_tensor(images).dtype is dtypes.float16:
        raise NotFoundError(with_location("adjust_contrast: no CPU kernel for float16 images (TF: AdjustContrastv2)"))
    def adjust(x):
        mean = RD.reduce_mean(x, list(_axes(x)), keepdims=True)
        return (x - mean) * M.cast(convert_to_tensor(contrast_factor), x.dtype) + mean
    return _in_float(images, "adjust_contrast", adjust)


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


def rot90(image, k=1, name=None):
    """Rotate counter-clockwise by k quarter turns (k a Python int)."""
    x = _images(image, "rot90")
    h_axis, w_axis = _axes(x)
    perm = list(range(x.shape.rank))
    perm[h_axis], perm[w_axis] = w_axis, h_axis
    for _ in range(int(k) % 4):
        x = A.transpose(J.reverse(x, [w_axis]), perm)
    return x

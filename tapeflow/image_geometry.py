"""tf.image boxes, layout and image measures: crop_to_bounding_box, pad_to_bounding_box,
resize_with_pad, grayscale_to_rgb, transpose, total_variation, image_gradients, psnr.  Composites of
slice / pad / reductions (their gradients come from those).  Box offsets and sizes are
Python ints checked against the static image size (ValueError, as TensorFlow's static
checks)."""
import math

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops.image_adjust_ops import _static_hw
from tapeflow.runtime.ops.image_ops import _axes, _images, convert_image_dtype


def _box(x, op, offset_height, offset_width, target_height, target_width):
    vals = [int(v) for v in (offset_height, offset_width, target_height, target_width)]
    if vals[0] < 0 or vals[1] < 0:
        raise ValueError(with_location(f"{op}: offsets must be >= 0, got {vals[:2]}"))
    if vals[2] <= 0 or vals[3] <= 0:
        raise ValueError(with_location(f"{op}: target sizes must be > 0, got {vals[2:]}"))
    return vals


def _image_and_box(image, op, *box):
    """The image tensor, the checked box (offsets, target sizes) and the image's own size."""
    x = _images(image, op)
    return (x, *_box(x, op, *box), *_static_hw(x, op))


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """image[offset_height:+target_height, offset_width:+target_width] (3-D or batched 4-D)."""
    x, oh, ow, th, tw, h, w = _image_and_box(image, "crop_to_bounding_box", offset_height, offset_width,
                                             target_height, target_width)
    if oh + th > h or ow + tw > w:
        raise ValueError(with_location(
            f"crop_to_bounding_box: the box [{oh}:{oh + th}, {ow}:{ow + tw}] does not fit in a {h}x{w} image"))
    begin, size = [0] * x.shape.rank, [-1] * x.shape.rank
    h_axis, w_axis = _axes(x)
    begin[h_axis], begin[w_axis], size[h_axis], size[w_axis] = oh, ow, th, tw
    return J.slice(x, begin, size)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Zeros around image so that it sits at (offset_height, offset_width) of a target-sized one."""
    x, oh, ow, th, tw, h, w = _image_and_box(image, "pad_to_bounding_box", offset_height, offset_width,
                                             target_height, target_width)
    if oh + h > th or ow + w > tw:
        raise ValueError(with_location(
            f"pad_to_bounding_box: a {h}x{w} image at offset ({oh}, {ow}) does not fit in {th}x{tw}"))
    pads = [[0, 0]] * x.shape.rank
    h_axis, w_axis = _axes(x)
    pads[h_axis], pads[w_axis] = [oh, th - oh - h], [ow, tw - ow - w]
    return J.pad(x, pads)


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resize into the target box keeping the aspect ratio, then zero-pad around it.  TF's
    arithmetic in float32: the scale is the larger of the two size ratios, the resized
    size floored, the top/left padding floor((target - resized_float) / 2)."""
    import numpy as np
    from tapeflow.runtime.ops.image_ops import resize
    x = _images(image, "resize_with_pad")
    h, w = _static_hw(x, "resize_with_pad")
    th, tw = int(target_height), int(target_width)
    if th <= 0 or tw <= 0:
        raise ValueError(with_location(f"resize_with_pad: target sizes must be > 0, got {[th, tw]}"))
    f = np.float32
    ratio = max(f(w) / f(tw), f(h) / f(th))
    rh, rw = f(h) / ratio, f(w) / ratio
    pad_h, pad_w = max(0, int(np.floor((f(th) - rh) / f(2)))), max(0, int(np.floor((f(tw) - rw) / f(2))))
    resized = resize(x, [int(np.floor(rh)), int(np.floor(rw))], method=method, antialias=antialias)
    return pad_to_bounding_box(resized, pad_h, pad_w, th, tw)


def grayscale_to_rgb(images, name=None):
    x = convert_to_tensor(images)
    if x.shape.rank < 2 or x.shape[-1] != 1:
        raise ValueError(with_location(f"grayscale_to_rgb: the last dimension must be 1, got shape {list(x.shape)}"))
    return J.tile(x, [1] * (x.shape.rank - 1) + [3])


def transpose(image, name=None):
    """Swap height and width."""
    x = _images(image, "transpose")
    perm = list(range(x.shape.rank))
    h_axis, w_axis = _axes(x)
    perm[h_axis], perm[w_axis] = w_axis, h_axis
    return A.transpose(x, perm)


def _diff(x, axis):
    n = x.shape[axis]
    begin, size = [0] * x.shape.rank, [-1] * x.shape.rank
    size[axis] = n - 1
    lo = J.slice(x, begin, size)
    begin[axis] = 1
    return J.slice(x, begin, size) - lo


def total_variation(images, name=None):
    """Sum of |neighbour differences| along height and width: a scalar for one image,
    one value per image for a batch."""
    x = _images(images, "total_variation")
    h_axis, w_axis = _axes(x)
    axes = [0, 1, 2] if x.shape.rank == 3 else [1, 2, 3]
    return RD.reduce_sum(M.abs(_diff(x, h_axis)), axes) + RD.reduce_sum(M.abs(_diff(x, w_axis)), axes)


def image_gradients(image):
    """(dy, dx): forward differences of a [batch, h, w, d] image, 0 in the last row / column."""
    x = _images(image, "image_gradients")
    if x.shape.rank != 4:
        raise ValueError(with_location(f"image_gradients: expects a 4-D [batch, h, w, d] tensor, got {list(x.shape)}"))
    dy = J.pad(_diff(x, 1), [[0, 0], [0, 1], [0, 0], [0, 0]])
    dx = J.pad(_diff(x, 2), [[0, 0], [0, 0], [0, 1], [0, 0]])
    return dy, dx


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio in dB over the last three axes, in float32 (integer images
    are scaled to [0, 1] first, as TensorFlow does, and max_val with them)."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if a.dtype is not b.dtype:
        raise TypeError(with_location(f"psnr: the images must have one dtype, got {a.dtype.name} and {b.dtype.name}"))
    max_val = M.cast(convert_to_tensor(max_val), a.dtype)
    max_val = convert_image_dtype(max_val, dtypes.float32)
    a, b = convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32)
    mse = RD.reduce_mean(M.squared_difference(a, b), [-3, -2, -1])
    return (20.0 / math.log(10.0)) * M.log(max_val) - (10.0 / math.log(10.0)) * M.log(mse)

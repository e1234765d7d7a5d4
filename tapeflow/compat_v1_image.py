"""tf.compat.v1.image's legacy resizes, as TF 2.21 runs them: resize_bilinear /
resize_nearest_neighbor (and resize_images with those methods) sample without TF2's half-pixel
offset: source = destination * in/out, or with align_corners the corners' centres line up
(source = destination * (in - 1) / (out - 1)).  Bilinear gives float32; nearest keeps the dtype.
Built from gathers, so it traces and has gradients.  Bicubic and area are not provided."""
import numpy as np

import tapeflow
from tapeflow.runtime.errors import InvalidArgumentError, with_location


def _sources(n_in, n_out, align_corners):
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    return np.arange(n_out, dtype=np.float64) * scale


def _size(op, size):
    size = [int(s) for s in (size.numpy().tolist() if hasattr(size, "numpy") else size)]
    if len(size) != 2 or min(size) <= 0:
        raise ValueError(with_location(f"tf.compat.v1.image.{op}: size must be 2 positive ints, got {size}"))
    return size


def _batched(op, images, rank4_only):
    images = tapeflow.convert_to_tensor(images)
    rank = images.shape.rank
    if rank != 4 and (rank4_only or rank != 3):
        raise (InvalidArgumentError if rank4_only else ValueError)(with_location(f"tf.compat.v1.image.{op}: expected a [batch, height, width, channels] "
                                       f"tensor{'' if rank4_only else ' (or one image)'}, got shape {images.shape}"))
    return (images, False) if rank == 4 else (images[None], True)


def _bilinear(images, size, align_corners):
    x = tapeflow.cast(images, "float32")
    for axis, n_out in ((1, size[0]), (2, size[1])):
        n_in = int(x.shape[axis])
        src = _sources(n_in, n_out, align_corners)
        lo = np.floor(src).astype(np.int64)
        hi = np.minimum(lo + 1, n_in - 1)
        frac = (src - lo).astype(np.float32).reshape([-1 if a == axis else 1 for a in range(4)])
        a, b = tapeflow.gather(x, lo, axis=axis), tapeflow.gather(x, hi, axis=axis)
        x = a + (b - a) * tapeflow.constant(frac)
    return x


def _nearest(images, size, align_corners):
    x = images
    for axis, n_out in ((1, size[0]), (2, size[1])):
        n_in = int(x.shape[axis])
        src = _sources(n_in, n_out, align_corners)
        idx = np.floor(src + 0.5) if align_corners else np.floor(src)  # rounds half away from 0, as TF
        x = tapeflow.gather(x, np.minimum(idx.astype(np.int64), n_in - 1), axis=axis)
    return x


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    if half_pixel_centers:
        return tapeflow.cast(tapeflow.image.resize(images, size, method="bilinear"), "float32")
    images, _ = _batched("resize_bilinear", images, True)
    return _bilinear(images, _size("resize_bilinear", size), align_corners)


def resize_nearest_neighbor(images, size, align_corners=False, name=None, half_pixel_centers=False):
    if half_pixel_centers:
        return tapeflow.image.resize(images, size, method="nearest")
    images, _ = _batched("resize_nearest_neighbor", images, True)
    return _nearest(images, _size("resize_nearest_neighbor", size), align_corners)


class ResizeMethod:
    BILINEAR, NEAREST_NEIGHBOR, BICUBIC, AREA = 0, 1, 2, 3


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False, preserve_aspect_ratio=False,
                  name=None):
    """TF1's resize (also tf.compat.v1.image.resize): one image or a batch."""
    if preserve_aspect_ratio:
        raise NotImplementedError(with_location("tf.compat.v1.image.resize_images: preserve_aspect_ratio=True "
                                                "is not supported"))
    method = {"bilinear": 0, "nearest": 1, "bicubic": 2, "area": 3}.get(method, method)
    if method not in (ResizeMethod.BILINEAR, ResizeMethod.NEAREST_NEIGHBOR):
        raise NotImplementedError(with_location(f"tf.compat.v1.image.resize_images: method {method!r} (bicubic, "
                                                f"area) is not provided; use tf.image.resize"))
    batch, single = _batched("resize_images", images, False)
    size = _size("resize_images", size)
    out = _bilinear(batch, size, align_corners) if method == ResizeMethod.BILINEAR else \
        _nearest(batch, size, align_corners)
    return out[0] if single else out


def extract_glimpse(input, size, offsets, centered=True, normalized=True, uniform_noise=True, name=None):  # noqa: A002
    """TF1's glimpse: the offset always names the glimpse's centre (tf.image's: its corner unless
    normalized and centered); outside pixels are uniform or Gaussian noise."""
    from tapeflow.image_boxes import glimpse
    return glimpse(input, size, offsets, centered, normalized, "uniform" if uniform_noise else "gaussian",
                   legacy=True)


def namespace():
    """tf.compat.v1.image: these names first, then tf.image's."""
    from tapeflow.compat_v1_ops import FallbackNamespace
    return FallbackNamespace("tapeflow.compat.v1.image", tapeflow.image, resize_bilinear=resize_bilinear,
                     resize_nearest_neighbor=resize_nearest_neighbor, resize_images=resize_images,
                     resize=resize_images, ResizeMethod=ResizeMethod, extract_glimpse=extract_glimpse)

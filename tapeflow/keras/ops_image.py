"""keras.ops.image (Keras 3): image ops with Keras's argument names and data_format.
extract_patches(_3d) are Keras's convolution with an identity kernel (patch values in
(row, column, channel) order); gaussian_blur and ssim build Keras's Gaussian kernels."""
import numpy as np

import tapeflow as tf
from tapeflow.image_projective import FILL_MODES, INTERPOLATIONS, projective_transform
from tapeflow.keras.layers.image_preprocessing import resize as _resize
from tapeflow.runtime.errors import with_location

__all__ = ["affine_transform", "resize", "rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb", "pad_images",
           "extract_patches", "extract_patches_3d", "sobel_edges", "gaussian_blur", "ssim", "perspective_transform"]


def _data_format(data_format):
    if data_format is None:
        from tapeflow.keras import backend
        return backend.image_data_format()
    return data_format


def _as_last(images, data_format, fn):
    """Run fn on channels_last images (a channels_first batch or image is transposed around it)."""
    images = tf.convert_to_tensor(images)
    if _data_format(data_format) != "channels_first":
        return fn(images)
    perm = [0, 2, 3, 1] if images.shape.rank == 4 else [1, 2, 0]
    back = [0, 3, 1, 2] if images.shape.rank == 4 else [2, 0, 1]
    return tf.transpose(fn(tf.transpose(images, perm)), back)


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0,
                     data_format=None):
    """Resample images through projective transform rows [a0 a1 a2 b0 b1 b2 c0 c1] (one or one per
    image) that map output pixels to input points, as TF's ImageProjectiveTransformV3."""
    if interpolation not in INTERPOLATIONS:
        raise ValueError(with_location(f"affine_transform: invalid value for argument `interpolation`: expected "
                                       f"one of {INTERPOLATIONS}, got interpolation={interpolation!r}"))
    if fill_mode not in FILL_MODES:
        raise ValueError(with_location(f"affine_transform: invalid value for argument `fill_mode`: expected one "
                                       f"of {FILL_MODES}, got fill_mode={fill_mode!r}"))
    images, transform = tf.convert_to_tensor(images), tf.convert_to_tensor(transform)
    if images.shape.rank not in (3, 4) or transform.shape.rank not in (1, 2):
        raise ValueError(with_location(
            f"affine_transform: expected images of rank 3 or 4 and a transform of rank 1 or 2, got "
            f"images.shape={images.shape}, transform.shape={transform.shape}"))
    rows = transform[None] if transform.shape.rank == 1 else transform

    def run(x):
        single = x.shape.rank == 3
        y = projective_transform(x[None] if single else x, rows, interpolation, fill_mode, fill_value)
        return y[0] if single else y

    return _as_last(images, data_format, run)


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    if fill_mode != "constant":
        raise ValueError(with_location(f"resize: only fill_mode='constant' is supported, got {fill_mode!r}"))
    return _as_last(images, data_format, lambda x: _resize(
        x, size, interpolation, antialias, crop_to_aspect_ratio, pad_to_aspect_ratio, fill_value))


def rgb_to_grayscale(images, data_format=None):
    return _as_last(images, data_format, tf.image.rgb_to_grayscale)


def rgb_to_hsv(images, data_format=None):
    return _as_last(images, data_format, tf.image.rgb_to_hsv)


def hsv_to_rgb(images, data_format=None):
    return _as_last(images, data_format, tf.image.hsv_to_rgb)


def _rank_3_or_4(images, what="images"):
    if images.shape.rank not in (3, 4):
        raise ValueError(with_location(f"Invalid {what} rank: expected rank 3 (single image) or rank 4 (batch of "
                                       f"images). Received input with shape: {what}.shape={images.shape}"))


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None, right_padding=None,
               target_height=None, target_width=None, data_format=None):
    """Zeros around the images: of each (top, bottom, target_height) and (left, right,
    target_width) exactly two are given, the third inferred."""
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    for names, given in ((("top_padding", "bottom_padding", "target_height"), (top_padding, bottom_padding,
                                                                                 target_height)),
                         (("left_padding", "right_padding", "target_width"), (left_padding, right_padding,
                                                                               target_width))):
        if given.count(None) != 1:
            raise ValueError(with_location(f"Must specify exactly two of {', '.join(names)}. Received: " +
                                           ", ".join(f"{n}={v}" for n, v in zip(names, given))))
    last = _data_format(data_format) == "channels_last"
    height, width = (images.shape[-3], images.shape[-2]) if last else (images.shape[-2], images.shape[-1])
    top = target_height - bottom_padding - height if top_padding is None else top_padding
    bottom = target_height - top - height if bottom_padding is None else bottom_padding
    left = target_width - right_padding - width if left_padding is None else left_padding
    right = target_width - left - width if right_padding is None else right_padding
    for name, value in (("top_padding", top), ("left_padding", left), ("right_padding", right),
                        ("bottom_padding", bottom)):
        if value < 0:
            raise ValueError(with_location(f"{name} must be >= 0. Received: {name}={value}"))
    pads = [[top, bottom], [left, right]]
    pads = pads + [[0, 0]] if last else [[0, 0]] + pads
    return tf.pad(images, ([[0, 0]] if images.shape.rank == 4 else []) + pads)


def _patches(images, size, strides, dilation_rate, padding, data_format, spatial):
    images = tf.convert_to_tensor(images)
    size = (size,) * spatial if isinstance(size, int) else tuple(size)
    if len(size) != spatial:
        raise TypeError(f"Invalid `size` argument. Expected an int or a tuple of length {spatial}. Received: "
                        f"size={size}")
    last = _data_format(data_format) == "channels_last"
    channels = images.shape[-1] if last else images.shape[-1 - spatial]
    out_dim = int(np.prod(size)) * channels
    kernel = tf.reshape(tf.eye(out_dim, dtype=images.dtype), size + (channels, out_dim))
    unbatched = images.shape.rank == spatial + 1
    if unbatched:
        images = tf.expand_dims(images, 0)
    to_last = [0] + list(range(2, spatial + 2)) + [1]
    if not last:
        images = tf.transpose(images, to_last)
    patches = tf.nn.convolution(images, kernel, strides=strides or size, padding=padding.upper(),
                                dilations=dilation_rate)
    if not last:
        patches = tf.transpose(patches, [0, spatial + 1] + list(range(1, spatial + 1)))
    return tf.squeeze(patches, 0) if unbatched else patches


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    spatial = 3 if not isinstance(size, int) and len(size) == 3 else 2
    return _patches(images, size, strides, dilation_rate, padding, data_format, spatial)


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    return _patches(volumes, size, strides, dilation_rate, padding, data_format, 3)


def sobel_edges(images, data_format=None):
    """tf.image.sobel_edges: (..., channels, 2), dy then dx; channels_first gives (N, C, H, W, 2)."""
    images = tf.convert_to_tensor(images)
    if _data_format(data_format) != "channels_first":
        return tf.image.sobel_edges(images)
    return tf.transpose(tf.image.sobel_edges(tf.transpose(images, [0, 2, 3, 1])), [0, 3, 1, 2, 4])


def _gaussian_1d(size, sigma, dtype):
    x = tf.range(size, dtype=dtype) - (size - 1) / 2
    kernel = tf.exp(-0.5 * (x / sigma) ** 2)
    return kernel / tf.reduce_sum(kernel)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """A depthwise 'SAME' convolution with Keras's separable Gaussian kernel (kernel_size and
    sigma per (height, width); computed in the images' dtype)."""
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)

    def blur(batch):
        rows = _gaussian_1d(kernel_size[1], tf.cast(sigma[1], batch.dtype), batch.dtype)
        cols = _gaussian_1d(kernel_size[0], tf.cast(sigma[0], batch.dtype), batch.dtype)
        kernel = tf.reshape(tf.tensordot(rows, cols, axes=0), [kernel_size[0], kernel_size[1], 1, 1])
        kernel = tf.tile(kernel, [1, 1, batch.shape[-1], 1])
        return tf.nn.depthwise_conv2d(batch, kernel, strides=[1, 1, 1, 1], padding="SAME")

    if images.shape.rank == 3:
        return tf.squeeze(_as_last(tf.expand_dims(images, 0), data_format, blur), 0)
    return _as_last(images, data_format, blur)


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """Keras 3's SSIM: per channel, 'VALID' Gaussian windows, the map averaged over space and
    then channels; integer images are computed in float32 and the result cast back (as Keras)."""
    image1, image2 = tf.convert_to_tensor(image1), tf.convert_to_tensor(image2)
    _rank_3_or_4(image1, "image1")
    _rank_3_or_4(image2, "image2")
    original = image1.dtype
    compute = original if original.is_floating else tf.float32
    image1, image2 = tf.cast(image1, compute), tf.cast(image2, compute)
    unbatched = image1.shape.rank == 3
    if unbatched:
        image1, image2 = tf.expand_dims(image1, 0), tf.expand_dims(image2, 0)
    if _data_format(data_format) == "channels_first":
        image1, image2 = tf.transpose(image1, [0, 2, 3, 1]), tf.transpose(image2, [0, 2, 3, 1])
    gauss = _gaussian_1d(filter_size, tf.cast(filter_sigma, compute), compute)
    kernel = tf.reshape(tf.tensordot(gauss, gauss, axes=0), [filter_size, filter_size, 1, 1])
    shape = tf.shape(image1)

    def per_channel(x):  # (B, H, W, C) -> (B*C, H, W, 1)
        return tf.reshape(tf.transpose(x, [0, 3, 1, 2]), tf.stack([-1, shape[1], shape[2], 1]))

    def window_mean(x):
        return tf.nn.conv2d(x, kernel, strides=1, padding="VALID")

    a, b = per_channel(image1), per_channel(image2)
    mu1, mu2 = window_mean(a), window_mean(b)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    sigma1 = window_mean(a * a) - mu1 * mu1
    sigma2 = window_mean(b * b) - mu2 * mu2
    sigma12 = window_mean(a * b) - mu1 * mu2
    ssim_map = ((2.0 * mu1 * mu2 + c1) * (2.0 * sigma12 + c2)) / ((mu1 * mu1 + mu2 * mu2 + c1) *
                                                                     (sigma1 + sigma2 + c2))
    per_channel_ssim = tf.reshape(tf.reduce_mean(ssim_map, axis=[1, 2, 3]), tf.stack([shape[0], shape[3]]))
    per_image = tf.reduce_mean(per_channel_ssim, axis=-1)
    return tf.cast(tf.squeeze(per_image, 0) if unbatched else per_image, original)


def _homography(start, end):
    """The 8 projective coefficients mapping output pixels (end points) to input ones (start
    points): per image, the 8 x 8 linear system of the four point pairs, solved in float32."""
    rows, target = [], []
    for k in range(4):
        sx, sy, ex, ey = start[:, k, 0], start[:, k, 1], end[:, k, 0], end[:, k, 1]
        one, zero = tf.ones_like(ex), tf.zeros_like(ex)
        rows.append(tf.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], -1))
        rows.append(tf.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], -1))
        target += [sx, sy]
    solved = tf.linalg.solve(tf.stack(rows, 1), tf.expand_dims(tf.stack(target, -1), -1))
    return tf.reshape(solved, [-1, 8])


def perspective_transform(images, start_points, end_points, interpolation="bilinear", fill_value=0,
                          data_format=None):
    """Warp so that the four start_points (x, y) land on end_points ((4, 2) or (N, 4, 2)); pixels
    from outside the image are fill_value."""
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(with_location(f"Invalid value for argument `interpolation`. Expected of one ('nearest', "
                                       f"'bilinear'). Received: interpolation={interpolation}"))
    images = tf.convert_to_tensor(images)
    _rank_3_or_4(images)
    start, end = tf.cast(tf.convert_to_tensor(start_points), "float32"), tf.cast(tf.convert_to_tensor(end_points),
                                                                                 "float32")
    for name, points in (("start_points", start), ("end_points", end)):
        if points.shape.rank not in (2, 3) or tuple(points.shape[-2:]) != (4, 2):
            raise ValueError(with_location(f"Invalid {name} shape: expected (4,2) for a single image or (N,4,2) "
                                           f"for a batch. Received shape: {points.shape}"))
    if start.shape != end.shape:
        raise ValueError(with_location(f"start_points and end_points must have the same shape. Received "
                                       f"start_points.shape={start.shape}, end_points.shape={end.shape}"))
    transform = _homography(start[None] if start.shape.rank == 2 else start, end[None] if end.shape.rank == 2
                            else end)

    def warp(batch):
        return projective_transform(batch, transform, interpolation, "constant", fill_value)

    if images.shape.rank == 3:
        return tf.squeeze(_as_last(tf.expand_dims(images, 0), data_format, warp), 0)
    return _as_last(images, data_format, warp)

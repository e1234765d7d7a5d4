"""keras.ops.image (Keras 3): image ops with Keras's argument names and data_format."""
import tapeflow as tf
from tapeflow.image_projective import FILL_MODES, INTERPOLATIONS, projective_transform
from tapeflow.keras.layers.image_preprocessing import resize as _resize
from tapeflow.runtime.errors import with_location

__all__ = ["affine_transform", "resize", "rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb"]


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

"""Image preprocessing layers that are not random: Resizing and CenterCrop
(channels_last), with Keras 3's crop- and pad-to-aspect-ratio arithmetic."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


def _aspect_box(height, width, target_height, target_width, grow):
    """Keras's box of the target aspect ratio inside (crop) or around (pad) an
    image: sizes through float32 division, truncated, start offsets centred."""
    box_h = tf.cast(tf.cast(width * target_height, "float32") / target_width, "int32")
    box_w = tf.cast(tf.cast(height * target_width, "float32") / target_height, "int32")
    if grow:
        return tf.maximum(height, box_h), tf.maximum(width, box_w)
    return tf.maximum(tf.minimum(height, box_h), 1), tf.maximum(tf.minimum(width, box_w), 1)


# The methods Keras 3's image.resize accepts (TensorFlow backend), checked before tf.image.resize.
RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_value=0.0):
    if interpolation not in RESIZE_INTERPOLATIONS:
        raise ValueError(with_location(f"Invalid value for argument `interpolation`. Expected of one "
                                       f"{RESIZE_INTERPOLATIONS}. Received: interpolation={interpolation}"))
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError(with_location("Resizing: only one of crop_to_aspect_ratio and pad_to_aspect_ratio "
                                       "can be True"))
    images = tf.convert_to_tensor(images)
    target_height, target_width = size
    shape = tf.shape(images)
    height, width = shape[-3], shape[-2]
    if crop_to_aspect_ratio:
        box_h, box_w = _aspect_box(height, width, target_height, target_width, grow=False)
        top = tf.cast(tf.cast(height - box_h, "float32") / 2, "int32")
        left = tf.cast(tf.cast(width - box_w, "float32") / 2, "int32")
        images = images[..., top:top + box_h, left:left + box_w, :]
    elif pad_to_aspect_ratio:
        box_h, box_w = _aspect_box(height, width, target_height, target_width, grow=True)
        top = tf.cast(tf.cast(box_h - height, "float32") / 2, "int32")
        left = tf.cast(tf.cast(box_w - width, "float32") / 2, "int32")
        pads = [[top, box_h - height - top], [left, box_w - width - left], [0, 0]]
        if images.shape.rank == 4:
            pads = [[0, 0]] + pads
        images = tf.pad(images, pads, constant_values=fill_value)
    return tf.image.resize(images, [target_height, target_width], method=interpolation, antialias=antialias)


class Resizing(Layer):
    """Resize images to (height, width); integer images come back rounded and
    saturated to their dtype, as Keras does."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, antialias=False,
                 data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError(with_location(f"Resizing: only channels_last data is supported here, got "
                                           f"data_format={data_format!r}"))
        self.height, self.width = int(height), int(width)
        self.interpolation, self.antialias = interpolation, antialias
        self.crop_to_aspect_ratio, self.pad_to_aspect_ratio = crop_to_aspect_ratio, pad_to_aspect_ratio
        self.fill_mode, self.fill_value = fill_mode, fill_value

    def call(self, inputs):
        images = tf.convert_to_tensor(inputs)
        out = resize(images, (self.height, self.width), self.interpolation, self.antialias,
                     self.crop_to_aspect_ratio, self.pad_to_aspect_ratio, self.fill_value)
        if out.dtype == images.dtype:
            return out
        if images.dtype.is_integer:
            out = tf.round(out)
        return tf.saturate_cast(out, images.dtype)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width,
                "interpolation": self.interpolation, "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": self.pad_to_aspect_ratio, "fill_mode": self.fill_mode,
                "fill_value": self.fill_value, "antialias": self.antialias}


class CenterCrop(Layer):
    """The central (height, width) window; an image smaller than that is resized
    to it instead (cropped to the aspect ratio first), as Keras does."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError(with_location(f"CenterCrop: only channels_last data is supported here, got "
                                           f"data_format={data_format!r}"))
        self.height, self.width = int(height), int(width)

    def call(self, inputs):
        images = tf.cast(tf.convert_to_tensor(inputs), self.dtype)
        h, w = images.shape[-3], images.shape[-2]
        if h is not None and w is not None and (h < self.height or w < self.width):
            return resize(images, (self.height, self.width), crop_to_aspect_ratio=True)
        shape = tf.shape(images)
        top, left = (shape[-3] - self.height) // 2, (shape[-2] - self.width) // 2
        return images[..., top:top + self.height, left:left + self.width, :]

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width}

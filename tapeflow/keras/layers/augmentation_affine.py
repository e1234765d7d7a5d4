"""Keras 3's affine augmentation layers: RandomRotation, RandomZoom and RandomTranslation.
Each draws its parameters from its SeedGenerator (Keras's order: rotation one angle per
image; zoom height then width; translation height then width), builds Keras's float32
transform rows and resamples through keras.ops.image.affine_transform (TF's projective
transform kernel, tapeflow/image_projective.py)."""
import math

import tapeflow as tf
from tapeflow.image_projective import FILL_MODES, INTERPOLATIONS, projective_transform
from tapeflow.keras.layers.augmentation import ImageAugmentation
from tapeflow.runtime.errors import with_location


class _AffineAugmentation(ImageAugmentation):
    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        for what, value, allowed in (("fill_mode", fill_mode, FILL_MODES),
                                     ("interpolation", interpolation, INTERPOLATIONS)):
            if value not in allowed:  # Keras raises NotImplementedError here
                raise NotImplementedError(with_location(
                    f"{type(self).__name__}: unknown `{what}` {value}. Expected one of {allowed}."))
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def augment(self, x, batch):
        rows = tf.cast(self.transform_rows(batch, x.shape[1], x.shape[2]), tf.float32)
        return projective_transform(x, rows, self.interpolation, self.fill_mode, self.fill_value)

    def get_config(self):
        return {**super().get_config(), "fill_mode": self.fill_mode, "interpolation": self.interpolation,
                "fill_value": self.fill_value}


def _rows(batch, *columns):
    """(batch, 8) transform rows from columns that are (batch, 1) tensors or numbers."""
    ones = tf.ones(tf.stack([batch, 1]), tf.float32)
    return tf.concat([c * ones for c in columns], axis=1)


class RandomRotation(_AffineAugmentation):
    """Rotate each image by a random angle, `factor` a fraction of a full turn (0.2: up to
    +-72 degrees), around the image centre."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = self._factor(factor)

    def transform_rows(self, batch, height, width):
        angle = self.uniform(tf.reshape(batch, [1]), self.factor[0] * 360.0, self.factor[1] * 360.0)
        angle = (angle * tf.constant(math.pi / 180.0, tf.float32))[:, None]
        cx, cy = 0.5 * (width - 1), 0.5 * (height - 1)
        cos, sin = tf.cos(angle), tf.sin(angle)
        # Keras's matrix with scale 1 and no shear: a0 = cos, a1 = -sin, b0 = sin, b1 = cos.
        return _rows(batch, cos, -sin, cx - cx * cos - cy * -sin, sin, cos, cy - cx * sin - cy * cos, 0.0, 0.0)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


def _zoom_factor(layer, factor, name, open_low):
    """Keras's RandomZoom/RandomTranslation factor: a number f is (-f, f); each end in
    (-1, 1] for zoom (open_low) or [-1, 1] for translation."""
    pair = tuple(factor) if isinstance(factor, (tuple, list)) else None
    values = pair if pair is not None else (factor,)
    ok = (pair is None or len(pair) == 2) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and v <= 1.0 and (v > -1.0 if open_low else v >= -1.0)
        for v in values)
    if not ok:
        raise ValueError(with_location(
            f"{type(layer).__name__}: {name} should be a number (or a list of two numbers) in the range "
            f"{'(-1, 1]' if open_low else '[-1, 1]'}, got {name}={factor!r}"))
    return tuple(sorted(float(v) for v in pair)) if pair else (-abs(float(factor)), abs(float(factor)))


class RandomZoom(_AffineAugmentation):
    """Zoom each image by a random factor per axis: height_factor -0.3 zooms in by up to 30%,
    0.3 out; width_factor None keeps the aspect ratio (the height zoom for both)."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear",
                 seed=None, fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_factor(self, height_factor, "height_factor", open_low=True)
        self._width = None if width_factor is None else _zoom_factor(self, width_factor, "width_factor", True)

    def transform_rows(self, batch, height, width):
        shape = tf.stack([batch, 1])
        zy = self.uniform(shape, 1.0 + self._height[0], 1.0 + self._height[1])
        zx = zy if self._width is None else self.uniform(shape, 1.0 + self._width[0], 1.0 + self._width[1])
        return _rows(batch, zx, 0.0, (width - 1.0) / 2.0 * (1.0 - zx), 0.0, zy,
                     (height - 1.0) / 2.0 * (1.0 - zy), 0.0, 0.0)

    def get_config(self):
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor}


class RandomTranslation(_AffineAugmentation):
    """Shift each image by a random fraction of its height and width."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear",
                 seed=None, fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height = _zoom_factor(self, height_factor, "height_factor", open_low=False)
        self._width = _zoom_factor(self, width_factor, "width_factor", open_low=False)

    def transform_rows(self, batch, height, width):
        shape = tf.stack([batch, 1])
        dy = self.uniform(shape, self._height[0], self._height[1]) * float(height)
        dx = self.uniform(shape, self._width[0], self._width[1]) * float(width)
        return _rows(batch, 1.0, 0.0, -dx, 0.0, 1.0, -dy, 0.0, 0.0)

    def get_config(self):
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor}

"""Keras 3's batch-mixing augmentations, MixUp and CutMix, and AutoContrast: layers that take
a batch of images or a dict {"images", "labels", ...} and return the same structure.

Traps, all Keras's own: a direct call trains (`training` defaults to True); MixUp draws its
permutation and weights even when not training (its generator advances, the images pass
unchanged); CutMix draws nothing when not training or for a single (rank-3) image. The draws of
one call, in order -- MixUp: shuffle, beta; CutMix: uniform alpha, beta, x start, y start,
shuffle -- come from the layer's SeedGenerator, so seeded layers give Keras's numbers.
AutoContrast stretches each image's channels to the value range (min / max over height and
width, axes 1 and 2 whatever the data_format) and answers in the compute dtype.
"""
import tapeflow as tf
from tapeflow.keras.layers.augmentation import ImageAugmentation
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


def _as_tensors(data):
    if isinstance(data, dict):
        return {k: tf.convert_to_tensor(v) for k, v in data.items()}
    return tf.convert_to_tensor(data)


def _is_batched(layer, images):
    rank = images.shape.rank
    if rank not in (3, 4):
        raise ValueError(with_location(f"{type(layer).__name__} {layer.name}: expected image tensor to have rank 3 "
                                       f"(single image) or 4 (batch of images); received shape {images.shape}"))
    return rank == 4


def apply_to_data(layer, data, training):
    """Keras's BaseImagePreprocessingLayer.call: one transformation for the whole call, applied
    to the images and (when present) the labels; single images and labels go through as a
    batch of one."""
    transformation = layer.random_transformation(data, training)
    images = data["images"] if isinstance(data, dict) else data
    batched = _is_batched(layer, images)

    def apply(fn, value):
        if batched:
            return fn(value, transformation, training)
        return tf.squeeze(fn(tf.expand_dims(value, 0), transformation, training), 0)

    if not isinstance(data, dict):
        return apply(layer.transform_images, data)
    if "bounding_boxes" in data or "segmentation_masks" in data:
        raise NotImplementedError(with_location(f"{type(layer).__name__}: bounding_boxes and segmentation_masks "
                                                f"are not supported"))
    out = dict(data)
    out["images"] = apply(layer.transform_images, data["images"])
    if "labels" in data:
        out["labels"] = apply(layer.transform_labels, data["labels"])
    return out


class DataAugmentation(ImageAugmentation):
    """A seeded augmentation over images or a dict of images and labels (Keras casts nothing on
    the way in: each transform casts the images itself)."""

    def _convert_inputs(self, inputs):
        return _as_tensors(inputs)

    def call(self, inputs, training=True):
        return apply_to_data(self, inputs, training is not False)

    def compute_output_shape(self, input_shape):
        return input_shape


def _mix(weight, first, second):
    """weight * first + (1 - weight) * second (float weights with integer labels: TF's
    InvalidArgumentError, as Keras's TF back end gives)."""
    return weight * first + (1.0 - weight) * second


class MixUp(DataAugmentation):
    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.alpha = alpha

    def random_transformation(self, data, training):
        from tapeflow.keras import random as krandom
        images = data["images"] if isinstance(data, dict) else data
        batch = 1 if images.shape.rank == 3 else tf.shape(images)[0]
        order = krandom.shuffle(tf.range(0, batch, dtype="int64"), seed=self.generator)
        weight = krandom.beta(tf.reshape(batch, [1]), self.alpha, self.alpha, seed=self.generator)
        return {"mix_weight": weight, "permutation_order": order}

    def transform_images(self, images, transformation, training):
        if not training:
            return images
        images = tf.cast(images, self._compute_dtype)
        weight = tf.cast(tf.reshape(transformation["mix_weight"], [-1, 1, 1, 1]), self._compute_dtype)
        others = tf.gather(images, transformation["permutation_order"], axis=0)
        return weight * images + (1.0 - weight) * others

    def transform_labels(self, labels, transformation, training):
        if not training:
            return labels
        weight = tf.reshape(transformation["mix_weight"], [-1, 1])
        return _mix(weight, labels, tf.gather(labels, transformation["permutation_order"], axis=0))

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class CutMix(DataAugmentation):

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = self._keras_factor(factor)
        first = self.data_format == "channels_first"
        self.height_axis, self.width_axis, self.channel_axis = (-2, -1, -3) if first else (-3, -2, -1)

    @staticmethod
    def _keras_factor(factor):
        """Keras's _set_factor over the bounds (0, 1): a number f is (max(-f, 0), f), the 0 an int."""
        message = f"CutMix: the `factor` argument should be a number (or a list of two numbers) in [0, 1]; " \
                  f"received factor={factor!r}"
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > 1 or factor[1] < 0:
                raise ValueError(with_location(message))
            return tuple(sorted(factor))
        if isinstance(factor, (int, float)) and not isinstance(factor, bool) and 0 <= factor <= 1:
            return (max(-abs(factor), 0), abs(factor))
        raise ValueError(with_location(message))

    def random_transformation(self, data, training):
        from tapeflow.keras import random as krandom
        images = data["images"] if isinstance(data, dict) else data
        if not training or images.shape.rank == 3:
            return None
        dtype = self._compute_dtype
        shape = tf.shape(images)
        batch, height, width = shape[0], shape[self.height_axis], shape[self.width_axis]
        alpha = krandom.uniform((), self.factor[0], self.factor[1], dtype=dtype, seed=self.generator) + 1e-6
        weight = krandom.beta(tf.reshape(batch, [1]), alpha, alpha, dtype=dtype, seed=self.generator)
        ratio = tf.sqrt(1.0 - weight)
        x0, x1 = self._crop_bounds(batch, width, ratio)
        y0, y1 = self._crop_bounds(batch, height, ratio)
        grid_y, grid_x = tf.meshgrid(tf.range(height), tf.range(width), indexing="ij")
        grid_y, grid_x = tf.cast(grid_y, dtype), tf.cast(grid_x, dtype)
        spatial = [1, height, width, 1] if self.data_format == "channels_last" else [1, 1, height, width]
        grid_y, grid_x = tf.reshape(grid_y, spatial), tf.reshape(grid_x, spatial)
        corners = [tf.reshape(c, [-1, 1, 1, 1]) for c in (x0, x1, y0, y1)]
        masks = ((grid_x >= corners[0]) & (grid_x < corners[1]) & (grid_y >= corners[2]) & (grid_y < corners[3]))
        area = tf.cast(width * height, dtype)
        weight = 1.0 - (x1 - x0) * (y1 - y0) / area
        order = krandom.shuffle(tf.range(0, batch, dtype="int32"), seed=self.generator)
        return {"permutation_order": order, "batch_masks": masks, "mix_weight": weight}

    def _crop_bounds(self, batch, length, ratio):
        from tapeflow.keras import random as krandom
        dtype = self._compute_dtype
        crop = tf.cast(ratio * tf.cast(length, ratio.dtype), dtype)
        start = krandom.uniform(tf.reshape(batch, [1]), 0.0, 1.0, dtype=dtype, seed=self.generator) * (
            tf.cast(length, dtype) - crop)
        return start, start + crop

    def transform_images(self, images, transformation, training):
        images = tf.cast(images, self._compute_dtype)
        if training and transformation is not None:
            others = tf.gather(images, transformation["permutation_order"], axis=0)
            masks = tf.broadcast_to(transformation["batch_masks"], tf.shape(images))
            images = tf.where(masks, others, images)
        return images

    def transform_labels(self, labels, transformation, training):
        if not training or transformation is None:
            return labels
        weight = tf.reshape(transformation["mix_weight"], [-1, 1])
        return _mix(weight, labels, tf.gather(labels, transformation["permutation_order"], axis=0))

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class AutoContrast(Layer):
    _allow_non_tensor_positional_args = True

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        from tapeflow.keras import backend
        self.data_format = backend.image_data_format()
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError(with_location(f"AutoContrast: the `value_range` argument should be a list of two "
                                           f"numbers; received value_range={value_range!r}"))
        self.value_range = sorted(value_range)

    def _convert_inputs(self, inputs):
        return _as_tensors(inputs)

    def call(self, inputs, training=True):
        return apply_to_data(self, inputs, training is not False)

    def random_transformation(self, data, training):
        return None

    def _rescale(self, images, source, target):
        if tuple(source) == tuple(target):
            return images
        dtype = self._compute_dtype
        images = tf.cast(images, dtype)
        low, high = tf.cast(source[0], dtype), tf.cast(source[1], dtype)
        unit = (images - low) / (high - low)
        return unit * (tf.cast(target[1], dtype) - tf.cast(target[0], dtype)) + tf.cast(target[0], dtype)

    def transform_images(self, images, transformation, training):
        original = images
        images = tf.cast(self._rescale(images, self.value_range, (0, 255)), self._compute_dtype)
        low = tf.reduce_min(images, axis=(1, 2), keepdims=True)
        high = tf.reduce_max(images, axis=(1, 2), keepdims=True)
        scale = 255.0 / (high - low)
        stretched = tf.clip_by_value(images * scale - low * scale, 0.0, 255.0)
        results = self._rescale(stretched, (0, 255), self.value_range)
        # a flat channel (high == low) gives NaN: Keras keeps the original values there
        return tf.where(tf.math.is_nan(results), tf.cast(original, results.dtype), results)

    def transform_labels(self, labels, transformation, training):
        return labels

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "value_range": self.value_range}

"""Keras 3's image augmentation layers that need no resampling: RandomFlip, RandomBrightness,
RandomCrop and RandomContrast (the affine ones are in augmentation_affine.py).

Traps, all Keras's own: a direct call trains (`training` defaults to True; None means no
training context, so it trains too); each layer draws from its own SeedGenerator, one draw
per call in a fixed order, so seeded layers give Keras's numbers; an unseeded layer's seed
comes from Python's generator at construction (reseeded by keras.utils.set_random_seed)."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.image_preprocessing import resize
from tapeflow.runtime.errors import InvalidArgumentError, with_location

_MODES = {"horizontal": (-2,), "vertical": (-3,), "horizontal_and_vertical": (-2, -3)}


class ImageAugmentation(Layer):
    """Keras 3's BaseImagePreprocessingLayer: the seed generator, data_format, the
    factor range, and NHWC batches.  A subclass defines `augment(images, batch)` on a
    (batch, height, width, channels) tensor (channels_first inputs are transposed around
    it) and `cast_inputs` (Keras casts images to the layer dtype before transforming)."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays
    _FACTOR_BOUNDS = (-1.0, 1.0)
    cast_inputs = True

    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        from tapeflow.keras import backend, random as krandom
        self.data_format = data_format or backend.image_data_format()
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError(with_location(f"{type(self).__name__}: data_format must be channels_last or "
                                           f"channels_first, got {data_format!r}"))
        self.seed = seed
        self.generator = krandom.SeedGenerator(seed)

    def _factor(self, factor, name="factor"):
        """(lower, upper) from a number f (-f, f, clipped to the bounds) or a pair, as Keras."""
        low, high = self._FACTOR_BOUNDS
        message = (f"{type(self).__name__}: {name} should be a number (or a list of two numbers) in the "
                   f"range [{low}, {high}], got {name}={factor!r}")
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > high or factor[1] < low:
                raise ValueError(with_location(message))
            return tuple(sorted(float(f) for f in factor))
        if isinstance(factor, (int, float)) and not isinstance(factor, bool) and low <= factor <= high:
            return max(-abs(float(factor)), low), abs(float(factor))
        raise ValueError(with_location(message))

    def uniform(self, shape, low, high):
        from tapeflow.keras import random as krandom
        return krandom.uniform(shape, low, high, seed=self.generator)

    def call(self, inputs, training=True):
        x = tf.convert_to_tensor(inputs)
        if x.shape.rank not in (3, 4):
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expected a rank 3 (single image) or rank 4 (batch of "
                f"images) input, got shape {x.shape}"))
        if self.cast_inputs:
            x = tf.cast(x, self.dtype)
        if training is False:
            return self.infer(x)
        single = x.shape.rank == 3
        if single:
            x = tf.expand_dims(x, 0)
        if self.data_format == "channels_first":
            x = tf.transpose(x, [0, 2, 3, 1])
        y = self.augment(x, 1 if single else tf.shape(x)[0])
        if self.data_format == "channels_first":
            y = tf.transpose(y, [0, 3, 1, 2])
        return y[0] if single else y

    def infer(self, x):
        return x

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "seed": self.seed, "data_format": self.data_format}


class RandomFlip(ImageAugmentation):
    """Flip each image left-right and/or up-down with probability 1/2; one draw per image
    decides both flips (Keras's: the same coin for the two axes)."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if mode not in _MODES:
            raise ValueError(with_location(f"RandomFlip: mode must be one of {sorted(_MODES)}, got {mode!r}"))
        self.mode = mode

    def augment(self, x, batch):
        flips = self.uniform(tf.stack([batch, 1, 1, 1]), 0.0, 1.0) <= 0.5
        for axis in _MODES[self.mode]:
            x = tf.where(flips, tf.reverse(x, [axis]), x)
        return x

    def get_config(self):
        return {**super().get_config(), "mode": self.mode}


class RandomBrightness(ImageAugmentation):
    """Add one random delta per image, a fraction in `factor` of the value range, then clip
    to value_range.  Keras leaves the dtype alone here (no cast to the layer dtype)."""
    cast_inputs = False

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = self._factor(factor)
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError(with_location(f"RandomBrightness: value_range should be a list of two numbers, "
                                           f"got value_range={value_range!r}"))
        self.value_range = sorted(value_range)

    def augment(self, x, batch):
        delta = self.uniform(tf.stack([batch, 1, 1, 1]), self.factor[0], self.factor[1])
        delta = tf.cast(delta * (self.value_range[1] - self.value_range[0]), x.dtype)
        return tf.clip_by_value(x + delta, self.value_range[0], self.value_range[1])

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


class RandomCrop(ImageAugmentation):
    """Crop a random (height, width) window, the same for the whole batch.  Keras's traps:
    an image not larger than the crop in both dimensions is cut from a centred start and
    resized instead; at inference the input passes through unchanged (whatever its size)."""

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        from tapeflow.keras import random as krandom
        if seed is None:  # Keras draws a seed for the config, then another for the generator
            seed_for_config = krandom.make_default_seed()
        super().__init__(seed=seed, data_format=data_format, name=name, **kwargs)
        self.seed = seed if seed is not None else seed_for_config
        self.height, self.width = int(height), int(width)

    def augment(self, x, batch):
        in_h, in_w = x.shape[1], x.shape[2]
        if in_h is None or in_w is None:
            raise ValueError(with_location(f"RandomCrop requires the input to have a fully defined height and "
                                           f"width, got images.shape={x.shape}"))
        if in_h > self.height and in_w > self.width:
            top = tf.cast(self.uniform((), 0.0, float(in_h - self.height + 1)), tf.int32)
            left = tf.cast(self.uniform((), 0.0, float(in_w - self.width + 1)), tf.int32)
            return x[:, top:top + self.height, left:left + self.width, :]
        # Keras's centre box of the crop's aspect ratio gives only the start: the slice still
        # takes (height, width) from there (cut short by the image), then resizes.
        crop_h = max(min(in_h, int(float(in_w * self.height) / self.width)), 1)
        crop_w = max(min(in_w, int(float(in_h * self.width) / self.height)), 1)
        top, left = int(float(in_h - crop_h) / 2), int(float(in_w - crop_w) / 2)
        x = x[:, top:top + self.height, left:left + self.width, :]
        if tuple(x.shape[1:3]) != (self.height, self.width):
            x = tf.cast(resize(x, (self.height, self.width)), self.dtype)
        return x

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        h_axis, w_axis = (-3, -2) if self.data_format == "channels_last" else (-2, -1)
        shape[h_axis], shape[w_axis] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width}


class RandomContrast(Layer):
    """Keras 3's RandomContrast: per image a factor drawn from keras.random.uniform over
    [1 - lower, 1 + upper] with the layer's SeedGenerator, (x - mean over H, W) * factor + mean,
    clipped to value_range.  Traps (Keras's own): a single float f means (lower, upper) =
    (0, f), so contrast only grows; a direct call trains (training defaults to True)."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        from tapeflow.keras import random as krandom
        if isinstance(factor, (list, tuple)):
            if len(factor) != 2 or factor[0] > 1 or factor[1] < 0:
                raise ValueError(with_location(f"RandomContrast: factor must be in [0, 1], got {factor!r}"))
            self._range = tuple(sorted(float(f) for f in factor))
        elif isinstance(factor, (int, float)) and 0 <= factor <= 1:
            self._range = (0.0, float(factor))
        else:
            raise ValueError(with_location(f"RandomContrast: factor must be in [0, 1], got {factor!r}"))
        self.factor, self.value_range, self.seed = factor, tuple(value_range), seed
        self.generator = krandom.SeedGenerator(seed)

    def call(self, inputs, training=True):
        from tapeflow.keras import random as krandom
        x = tf.convert_to_tensor(inputs)
        if not x.dtype.is_floating:  # Keras fails inside its Sub op on integer images
            raise InvalidArgumentError(with_location(
                f"RandomContrast {self.name}: expects floating-point images, got {x.dtype.name}; cast them first"))
        if training is False:  # None (no training context) trains, as Keras's signature default
            return x
        if x.shape.rank not in (3, 4):
            raise ValueError(with_location(
                f"RandomContrast {self.name}: expected a rank 3 or 4 image input, got shape {x.shape}"))
        shape = (1, 1, 1) if x.shape.rank == 3 else tf.stack([tf.shape(x)[0], 1, 1, 1])
        factor = krandom.uniform(shape, 1.0 - self._range[0], 1.0 + self._range[1], dtype=x.dtype,
                                 seed=self.generator)
        mean = tf.reduce_mean(tf.reduce_mean(x, axis=-3, keepdims=True), axis=-2, keepdims=True)
        return tf.clip_by_value((x - mean) * factor + mean, self.value_range[0], self.value_range[1])

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": list(self.value_range),
                "seed": self.seed}

"""Keras 3's per-image colour augmentations without resampling: Solarization, RandomInvert,
RandomGrayscale, RandomColorDegeneration, RandomPosterization, RandomSaturation, RandomHue,
RandomSharpness (images or a dict of images and labels, as augmentation_mixing.apply_to_data
runs them).

Traps, all Keras's own: which layers draw when not training differs (Solarization and
RandomInvert draw nothing then; RandomGrayscale, RandomColorDegeneration and
RandomPosterization draw anyway, so their generators advance); Solarization draws its addition
from [lower, upper * 255] (the lower end is not scaled); RandomPosterization's number factor f
means bits in [1, f) (Keras's factor bounds make it (1, f)); each factor keeps the type Keras
gives it (an int 0 where Keras writes max(-f, 0)); RandomSaturation works on the HSV values
of the images as given (not rescaled) and clips the saturation to value_range.
"""
import tapeflow as tf
from tapeflow.keras.layers.augmentation_mixing import DataAugmentation
from tapeflow.runtime.errors import with_location


def _batch(images):
    return 1 if images.shape.rank == 3 else tf.shape(images)[0]


def _images(data):
    return data["images"] if isinstance(data, dict) else data


def _value_range(cls, value_range):
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(with_location(f"{cls}: the `value_range` argument should be a list of two numbers; "
                                       f"received value_range={value_range!r}"))
    return sorted(value_range)


def _base_factor(cls, factor, bounds):
    """Keras's _set_factor: a pair sorted, a number f as (max(-f, low), f), both within bounds."""
    message = (f"{cls}: the `factor` argument should be a number (or a list of two numbers) in the range "
               f"[{bounds[0]}, {bounds[1]}]; received factor={factor!r}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(with_location(message))
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(with_location(message))
        return (max(-abs(factor), bounds[0]), abs(factor))
    raise ValueError(with_location(message))


class _ColorAugmentation(DataAugmentation):
    def transform_labels(self, labels, transformation, training):
        return labels

    def _rescale(self, images, source, target):
        """Keras's _transform_value_range, in the compute dtype."""
        if tuple(source) == tuple(target):
            return images
        dtype = self._compute_dtype
        unit = (tf.cast(images, dtype) - tf.cast(source[0], dtype)) / (tf.cast(source[1], dtype) -
                                                                       tf.cast(source[0], dtype))
        return unit * (tf.cast(target[1], dtype) - tf.cast(target[0], dtype)) + tf.cast(target[0], dtype)


class Solarization(_ColorAugmentation):
    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.addition_factor = self._unit_factor(addition_factor, "addition_factor")
        self.threshold_factor = self._unit_factor(threshold_factor, "threshold_factor")
        self.value_range = _value_range("Solarization", value_range)

    @staticmethod
    def _unit_factor(factor, name):
        message = (f"Solarization: the `addition_factor` and `threshold_factor` arguments should be a number (or a "
                   f"list of two numbers) in the range [0, 1]; received {name}={factor!r}")
        values = list(factor) if isinstance(factor, (tuple, list)) else [factor]
        if len(values) not in (1, 2) or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1
                                            for v in values):
            raise ValueError(with_location(message))
        return tuple(sorted(values)) if len(values) == 2 else (0, values[0])

    def random_transformation(self, data, training):
        if not training:
            return None
        from tapeflow.keras import random as krandom
        images = _images(data)
        shape = (1, 1, 1) if images.shape.rank == 3 else tf.stack([tf.shape(images)[0], 1, 1, 1])
        dtype = self._compute_dtype
        additions = krandom.uniform(shape, self.addition_factor[0], self.addition_factor[1] * 255, dtype=dtype,
                                    seed=self.generator)
        thresholds = krandom.uniform(shape, self.threshold_factor[0], self.threshold_factor[1] * 255, dtype=dtype,
                                     seed=self.generator)
        return {"additions": additions, "thresholds": thresholds}

    def transform_images(self, images, transformation, training):
        images = tf.cast(images, self._compute_dtype)
        if not training or transformation is None:
            return images
        images = self._rescale(images, self.value_range, (0, 255))
        results = tf.clip_by_value(images + transformation["additions"], 0.0, 255.0)
        results = tf.where(results < transformation["thresholds"], results, 255.0 - results)
        return self._rescale(results, (0, 255), self.value_range)

    def get_config(self):
        return {**super().get_config(), "value_range": self.value_range, "addition_factor": self.addition_factor,
                "threshold_factor": self.threshold_factor}


class RandomInvert(_ColorAugmentation):
    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _base_factor("RandomInvert", factor, (0, 1))
        self.value_range = value_range

    def random_transformation(self, data, training):
        if not training:
            return None
        from tapeflow.keras import random as krandom
        batch = tf.reshape(_batch(_images(data)), [1])
        probability = krandom.uniform(batch, self.factor[0], self.factor[1], seed=self.generator)
        threshold = krandom.uniform(batch, 0, 1, seed=self.generator)
        return {"apply_inversion": threshold < probability}

    def transform_images(self, images, transformation, training):
        if not training:
            return images
        images = tf.cast(images, self._compute_dtype)
        flip = tf.reshape(transformation["apply_inversion"], [-1, 1, 1, 1])
        return tf.where(flip, tf.cast(self.value_range[1], images.dtype) - images, images)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


class RandomGrayscale(_ColorAugmentation):
    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(with_location(f"RandomGrayscale: `factor` should be between 0 and 1; received "
                                           f"factor={factor}"))
        self.factor = factor

    def random_transformation(self, data, training):
        from tapeflow.keras import random as krandom
        values = krandom.uniform(tf.reshape(_batch(_images(data)), [1]), 0, 1, seed=self.generator)
        return tf.reshape(values < self.factor, [-1, 1, 1, 1])

    def transform_images(self, images, transformation, training):
        if not training:
            return images
        from tapeflow.keras import ops
        gray = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        return tf.where(transformation, tf.broadcast_to(gray, tf.shape(images)), images)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class RandomColorDegeneration(_ColorAugmentation):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _base_factor("RandomColorDegeneration", factor, (-1, 1))
        self.value_range = _value_range("RandomColorDegeneration", value_range)

    def random_transformation(self, data, training):
        from tapeflow.keras import random as krandom
        shape = tf.stack([_batch(_images(data)), 1, 1, 1])
        return {"factor": krandom.uniform(shape, self.factor[0], self.factor[1], seed=self.generator)}

    def transform_images(self, images, transformation, training):
        if not training:
            return images
        from tapeflow.keras import ops
        images = tf.cast(images, self._compute_dtype)
        factor = tf.cast(transformation["factor"], self._compute_dtype)
        gray = ops.image.rgb_to_grayscale(images, data_format=self.data_format)
        images = images + factor * (gray - images)
        return tf.clip_by_value(images, self.value_range[0], self.value_range[1])

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


class RandomPosterization(_ColorAugmentation):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _base_factor("RandomPosterization", factor, (1, 8))
        self.value_range = _value_range("RandomPosterization", value_range)

    def random_transformation(self, data, training):
        from tapeflow.keras import random as krandom
        batch = _batch(_images(data))
        if self.factor[0] != self.factor[1]:
            bits = krandom.randint(tf.reshape(batch, [1]), self.factor[0], self.factor[1], dtype="uint8",
                                   seed=self.generator)
        else:
            bits = tf.ones(tf.reshape(batch, [1]), "uint8") * tf.cast(self.factor[0], "uint8")
        return {"shift_factor": tf.cast(8, "uint8") - bits}

    def transform_images(self, images, transformation, training):
        if not training:
            return images
        shift = tf.reshape(transformation["shift_factor"], [-1, 1, 1, 1])
        images = tf.cast(self._rescale(images, self.value_range, (0, 255)), "uint8")
        images = tf.bitwise.left_shift(tf.bitwise.right_shift(images, shift), shift)
        return self._rescale(tf.cast(images, self._compute_dtype), (0, 255), self.value_range)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


def _per_image(layer, data, low, high):
    from tapeflow.keras import random as krandom
    return krandom.uniform(tf.reshape(_batch(_images(data)), [1]), low, high, seed=layer.generator)


class RandomSaturation(_ColorAugmentation):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _base_factor("RandomSaturation", factor, (-1, 1))
        self.value_range = _value_range("RandomSaturation", value_range)

    def random_transformation(self, data, training):
        factor = _per_image(self, data, self.factor[0], self.factor[1])
        return {"factor": factor / (1 - factor + 1e-7)}  # Keras's epsilon()

    def transform_images(self, images, transformation, training):
        if not training:
            return images
        from tapeflow.keras import ops
        factor = tf.reshape(tf.cast(transformation["factor"], self._compute_dtype), [-1, 1, 1])
        axis = 1 if self.data_format == "channels_first" else -1
        hsv = tf.unstack(ops.image.rgb_to_hsv(images, data_format=self.data_format), axis=axis)
        saturation = tf.clip_by_value(hsv[1] * factor, self.value_range[0], self.value_range[1])
        return ops.image.hsv_to_rgb(tf.stack([hsv[0], saturation, hsv[2]], axis=axis), data_format=self.data_format)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


class RandomHue(_ColorAugmentation):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _base_factor("RandomHue", factor, (0, 1))
        self.value_range = value_range

    def random_transformation(self, data, training):
        invert = _per_image(self, data, 0.0, 1.0)
        invert = tf.where(invert > 0.5, -tf.ones_like(invert), tf.ones_like(invert))
        return {"factor": invert * _per_image(self, data, self.factor[0], self.factor[1]) * 0.5}

    def transform_images(self, images, transformation, training):
        if not training:
            return images
        from tapeflow.keras import ops
        images = self._rescale(tf.cast(images, self._compute_dtype), self.value_range, (0, 1))
        shift = tf.reshape(tf.cast(transformation["factor"], images.dtype), [-1, 1, 1])
        axis = 1 if self.data_format == "channels_first" else -1
        hsv = tf.unstack(ops.image.rgb_to_hsv(images, data_format=self.data_format), axis=axis)
        hue = hsv[0] + shift
        hue = tf.where(hue > 1.0, hue - 1.0, hue)
        hue = tf.where(hue < 0.0, hue + 1.0, hue)
        images = ops.image.hsv_to_rgb(tf.stack([hue, hsv[1], hsv[2]], axis=axis), data_format=self.data_format)
        return tf.cast(self._rescale(tf.clip_by_value(images, 0.0, 1.0), (0, 1), self.value_range), self._compute_dtype)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}


class RandomSharpness(_ColorAugmentation):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _base_factor("RandomSharpness", factor, (0, 1))
        self.value_range = _value_range("RandomSharpness", value_range)

    def random_transformation(self, data, training):
        return {"factor": _per_image(self, data, self.factor[0], self.factor[1])}

    def transform_images(self, images, transformation, training):
        dtype = self._compute_dtype
        images = tf.cast(images, dtype)
        if not training:
            return images
        first = self.data_format == "channels_first"
        if first:
            images = tf.experimental.numpy.swapaxes(images, -3, -1)
        sharpness = tf.reshape(tf.cast(transformation["factor"] * 2, dtype), [-1, 1, 1, 1])
        a, b = 1.0 / 13.0, 5.0 / 13.0
        kernel = tf.reshape(tf.constant([[a, a, a], [a, b, a], [a, a, a]], dtype), [3, 3, 1, 1])
        kernel = tf.tile(kernel, [1, 1, images.shape[-1], 1])
        smoothed = tf.nn.depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME")
        images = tf.clip_by_value(images + (1.0 - sharpness) * (smoothed - images), self.value_range[0],
                                  self.value_range[1])
        return tf.experimental.numpy.swapaxes(images, -3, -1) if first else images

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range}

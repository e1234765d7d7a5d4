"""Image augmentation layers that act only in training (training=True, as in
fit); at inference they pass their input through unchanged."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import InvalidArgumentError, with_location

_MODES = {"horizontal": (2,), "vertical": (1,), "horizontal_and_vertical": (2, 1)}


def _image_batch(layer, inputs, known_size):
    """(an NHWC batch, whether `inputs` was one HWC image); known_size: height and width
    must be static (the layer builds matrices of that size)."""
    x = inputs
    single = x.shape.rank == 3
    if single:
        x = tf.expand_dims(x, 0)
    if x.shape.rank != 4 or (known_size and (x.shape[1] is None or x.shape[2] is None)):
        size = " with known height and width" if known_size else " or (height, width, channels)"
        raise ValueError(with_location(
            f"{type(layer).__name__} {layer.name}: expected images (batch, height, width, channels){size}, "
            f"got shape {x.shape}"))
    return x, single


class RandomFlip(Layer):
    """Flip each image of an NHWC batch (or a single HWC image) left-right and/or
    up-down, each example independently with probability 1/2."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, mode="horizontal_and_vertical", seed=None, **kwargs):
        super().__init__(**kwargs)
        if mode not in _MODES:
            raise ValueError(with_location(f"RandomFlip: mode must be one of {sorted(_MODES)}, got {mode!r}"))
        self.mode, self.seed = mode, seed

    def call(self, inputs, training=None):
        if not training:
            return inputs
        x, single = _image_batch(self, inputs, known_size=False)
        for axis in _MODES[self.mode]:
            # One draw per example: (batch, 1, 1, 1) broadcasts over the image.
            coin = tf.random.uniform(tf.stack([tf.shape(x)[0], 1, 1, 1]), seed=self.seed)
            x = tf.where(coin < 0.5, tf.reverse(x, [axis]), x)
        return x[0] if single else x

    def get_config(self):
        return {**super().get_config(), "mode": self.mode, "seed": self.seed}


def _factor_range(factor, name):
    low, high = (-factor, factor) if isinstance(factor, (int, float)) else tuple(factor)
    if not -1.0 <= low <= high <= 1.0:
        raise ValueError(with_location(
            f"RandomTranslation: {name} must be a float or (lower, upper) in [-1, 1], got {factor!r}"))
    return float(low), float(high)


def _source_index(idx, n, fill_mode):
    """Integer source positions outside [0, n) mapped by the fill mode
    (reflect: d c b a | a b c d | d c b a; wrap; nearest; constant: clipped, masked by the caller)."""
    if fill_mode == "reflect":
        m = tf.math.floormod(idx, 2 * n)
        return tf.where(m >= n, 2 * n - 1 - m, m)
    if fill_mode == "wrap":
        return tf.math.floormod(idx, n)
    return tf.clip_by_value(idx, 0, n - 1)


class RandomTranslation(Layer):
    """Shift each image of an NHWC batch by a random fraction of its height and
    width (per example), bilinear between pixels.  The shift is separable, so it
    is applied as two per-example (n, n) interpolation matrices (rows, then
    columns); out-of-image pixels come from fill_mode.  Identity unless training."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear",
                 seed=None, fill_value=0.0, **kwargs):
        super().__init__(**kwargs)
        if fill_mode not in ("reflect", "wrap", "nearest", "constant"):
            raise ValueError(with_location(
                f"RandomTranslation: fill_mode must be reflect, wrap, nearest or constant, got {fill_mode!r}"))
        if interpolation != "bilinear":
            raise ValueError(with_location(
                f"RandomTranslation: only interpolation='bilinear' is supported, got {interpolation!r}"))
        self.height_factor, self.width_factor = height_factor, width_factor
        self._height_range = _factor_range(height_factor, "height_factor")
        self._width_range = _factor_range(width_factor, "width_factor")
        self.fill_mode, self.interpolation, self.seed, self.fill_value = fill_mode, interpolation, seed, fill_value

    def _shift_matrix(self, batch, n, bounds, dtype):
        """(batch, n, n): row i holds the bilinear weights of the source pixels of output pixel i."""
        shift = tf.random.uniform(tf.stack([batch, 1]), bounds[0] * n, bounds[1] * n, dtype=dtype, seed=self.seed)
        src = tf.cast(tf.range(n), dtype)[None, :] - shift
        lo = tf.floor(src)
        frac = src - lo
        lo = tf.cast(lo, "int32")
        matrix, total = 0.0, 0.0
        for idx, weight in ((lo, 1.0 - frac), (lo + 1, frac)):
            if self.fill_mode == "constant":
                weight = weight * tf.cast((idx >= 0) & (idx < n), dtype)
            matrix = matrix + tf.one_hot(_source_index(idx, n, self.fill_mode), n, dtype=dtype) * weight[..., None]
            total = total + weight
        return matrix, total

    def call(self, inputs, training=None):
        if not training:
            return inputs
        x, single = _image_batch(self, inputs, known_size=True)
        batch, height, width = tf.shape(x)[0], x.shape[1], x.shape[2]
        rows, row_total = self._shift_matrix(batch, height, self._height_range, x.dtype)
        cols, col_total = self._shift_matrix(batch, width, self._width_range, x.dtype)
        y = tf.einsum("bij,bjwc->biwc", rows, x)
        y = tf.einsum("bkw,biwc->bikc", cols, y)
        if self.fill_mode == "constant" and self.fill_value:
            inside = row_total[:, :, None, None] * col_total[:, None, :, None]
            y = y + self.fill_value * (1.0 - inside)
        return y[0] if single else y

    def get_config(self):
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor,
                "fill_mode": self.fill_mode, "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value}


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

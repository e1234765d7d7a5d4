"""Image augmentation layers that act only in training (training=True, as in
fit); at inference they pass their input through unchanged."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location

_MODES = {"horizontal": (2,), "vertical": (1,), "horizontal_and_vertical": (2, 1)}


class RandomFlip(Layer):
    """Flip each image of an NHWC batch (or a single HWC image) left-right and/or
    up-down, each example independently with probability 1/2."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, **kwargs):
        super().__init__(**kwargs)
        if mode not in _MODES:
            raise ValueError(with_location(f"RandomFlip: mode must be one of {sorted(_MODES)}, got {mode!r}"))
        self.mode, self.seed = mode, seed

    def call(self, inputs, training=None):
        if not training:
            return inputs
        x = inputs
        single = x.shape.rank == 3
        if single:
            x = tf.expand_dims(x, 0)
        if x.shape.rank != 4:
            raise ValueError(with_location(
                f"RandomFlip {self.name}: expected images (batch, height, width, channels) or "
                f"(height, width, channels), got shape {x.shape}"))
        for axis in _MODES[self.mode]:
            # One draw per example: (batch, 1, 1, 1) broadcasts over the image.
            coin = tf.random.uniform(tf.stack([tf.shape(x)[0], 1, 1, 1]), seed=self.seed)
            x = tf.where(coin < 0.5, tf.reverse(x, [axis]), x)
        return x[0] if single else x

    def get_config(self):
        return {**super().get_config(), "mode": self.mode, "seed": self.seed}

"""keras.layers.Masking: steps whose features all equal `mask_value` are padding."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer


class Masking(Layer):
    """Zero the padded steps of (batch, steps, features) and attach the mask
    `any(x != mask_value, axis=-1)` for the layers after it (RNNs skip masked steps)."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return tf.reduce_any(tf.not_equal(inputs, tf.cast(self.mask_value, inputs.dtype)), axis=-1)

    def call(self, inputs):
        keep = self.compute_mask(inputs)
        return inputs * tf.expand_dims(tf.cast(keep, inputs.dtype), -1)

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}

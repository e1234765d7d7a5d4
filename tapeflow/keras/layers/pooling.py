"""1-D pooling (over (batch, steps, channels), through the 2-D ops with a unit
height) and global pooling."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.conv import require_channels_last, _padding
from tapeflow.runtime.errors import with_location


def _int(value, what):
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            raise ValueError(with_location(f"{what} must be an int, got {value!r}"))
        value = value[0]
    return int(value)


class _Pooling1D(Layer):
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        name = type(self).__name__
        require_channels_last(data_format, name)
        self.pool_size = _int(pool_size, f"{name} pool_size")
        self.strides = _int(strides, f"{name} strides") if strides is not None else self.pool_size
        self.padding = _padding(padding, name)

    def call(self, inputs):
        if inputs.shape.rank != 3:
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expects (batch, steps, channels), got {list(inputs.shape)}"))
        x = tf.expand_dims(inputs, 1)
        y = self._pool(x, (1, self.pool_size), (1, self.strides), self.padding)
        return tf.squeeze(y, 1)

    def get_config(self):
        return {**super().get_config(), "pool_size": self.pool_size, "strides": self.strides,
                "padding": self.padding.lower()}


class MaxPooling1D(_Pooling1D):
    _pool = staticmethod(tf.nn.max_pool2d)


class AveragePooling1D(_Pooling1D):
    _pool = staticmethod(tf.nn.avg_pool2d)


class _GlobalPooling(Layer):
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    axes = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        require_channels_last(data_format, type(self).__name__)
        self.keepdims = keepdims

    def call(self, inputs):
        want = len(self.axes) + 2
        if inputs.shape.rank != want:
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expects a rank-{want} input, got {list(inputs.shape)}"))
        return self._reduce(inputs, axis=list(self.axes), keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "keepdims": self.keepdims}


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over the steps; with a mask (batch, steps), the mean of the unmasked steps."""
    axes = (1,)
    _reduce = staticmethod(tf.reduce_mean)
    supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        if inputs.shape.rank != 3:
            raise ValueError(with_location(
                f"GlobalAveragePooling1D {self.name}: expects (batch, steps, channels), got {list(inputs.shape)}"))
        weights = tf.expand_dims(tf.cast(mask, inputs.dtype), 2)
        total = tf.reduce_sum(inputs * weights, axis=1, keepdims=self.keepdims)
        return total / tf.reduce_sum(weights, axis=1, keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None  # the steps axis is gone


class GlobalMaxPooling1D(_GlobalPooling):
    axes = (1,)
    _reduce = staticmethod(tf.reduce_max)


class GlobalMaxPooling2D(_GlobalPooling):
    axes = (1, 2)
    _reduce = staticmethod(tf.reduce_max)


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D

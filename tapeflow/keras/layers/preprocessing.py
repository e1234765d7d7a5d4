"""Preprocessing layers: Rescaling (x * scale + offset) and Normalization
((x - mean) / sqrt(variance), statistics given or learned by `adapt`)."""
import numpy as np

import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import TensorBase


class Rescaling(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays
    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        x = tf.cast(inputs, self.dtype)
        return x * tf.cast(self.scale, x.dtype) + tf.cast(self.offset, x.dtype)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}


class Normalization(Layer):
    """Feature-wise standardization over `axis` (kept axes; the others are reduced
    by `adapt`).  The statistics are non-trainable weights, saved with the model.
    invert=True maps normalized values back."""
    _checkpoint_names = {"mean": "adapt_mean", "variance": "adapt_variance"}
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            self.axis = ()
        else:
            self.axis = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        if (mean is None) != (variance is None):
            raise ValueError(with_location("Normalization: give both mean and variance, or neither"))
        self.input_mean, self.input_variance = mean, variance
        self.invert = invert

    def _stat_shape(self, shape):
        rank = len(shape)
        keep = {a % rank for a in self.axis}
        if any(shape[a] is None for a in keep):
            raise ValueError(with_location(
                f"Normalization {self.name}: the kept axes {self.axis} of shape {list(shape)} must be known"))
        return tuple(shape[a] if a in keep else 1 for a in range(rank))

    def build(self, input_shape):
        shape = self._stat_shape(tuple(input_shape.dims))
        self._broadcast_shape = shape
        if self.input_mean is not None:  # Keras 3: given statistics are constants, not weights
            self.__dict__["_stats"] = tuple(tf.constant(np.broadcast_to(np.asarray(v, np.float32), shape))
                                            for v in (self.input_mean, self.input_variance))
        else:  # as Keras 3: the weights have the kept axes' shape, `mean` the broadcast one
            kept = tuple(shape[a % len(shape)] for a in sorted({a % len(shape) for a in self.axis}))
            self.adapt_mean = self.add_weight("mean", kept, initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight("variance", kept, initializer="ones", trainable=False)
            self.count = self.add_weight("count", (), dtype="int64", initializer="zeros", trainable=False)
            self.__dict__["_stats"] = None

    @property
    def mean(self):
        """The mean, shaped to broadcast against the input (a weight of the kept axes' shape)."""
        stats = self.__dict__.get("_stats")
        return stats[0] if stats is not None else tf.reshape(self.adapt_mean, self._broadcast_shape)

    @property
    def variance(self):
        stats = self.__dict__.get("_stats")
        return stats[1] if stats is not None else tf.reshape(self.adapt_variance, self._broadcast_shape)

    def adapt(self, data, batch_size=None, steps=None):
        """Set mean and variance from `data` (an array, tensor or Dataset of batches)."""
        from tapeflow.data import Dataset
        if isinstance(data, Dataset):
            parts = [np.asarray(b[0] if isinstance(b, tuple) else b) for b in data]
            array = np.concatenate(parts, axis=0)
        else:
            array = np.asarray(data.numpy() if isinstance(data, TensorBase) else data, np.float64)
        if array.ndim == 1:
            array = array[:, None]
        if not self.built:
            self._build_from(tf.constant(array.astype(np.float32)))
        shape = self._broadcast_shape
        reduce_axes = tuple(a for a in range(array.ndim) if shape[a] == 1)
        kept = tuple(self.adapt_mean.shape)
        self.adapt_mean.assign(array.mean(axis=reduce_axes).reshape(kept).astype(np.float32))
        self.adapt_variance.assign(array.var(axis=reduce_axes).reshape(kept).astype(np.float32))

    def call(self, inputs):
        x = tf.cast(inputs, self.dtype)
        if self.invert:
            return x * tf.sqrt(self.variance) + self.mean
        return (x - self.mean) / tf.maximum(tf.sqrt(self.variance), 1e-7)

    def get_config(self):
        listed = lambda v: np.asarray(v).tolist() if v is not None else None  # noqa: E731
        return {**super().get_config(), "axis": tuple(self.axis), "invert": self.invert,
                "mean": listed(self.input_mean), "variance": listed(self.input_variance)}

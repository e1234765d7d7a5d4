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
    by `adapt`), as Keras 3: the statistics are non-trainable weights `mean` and `variance` of
    the kept axes' shape, saved with the model; `layer.mean` / `layer.variance` are tensors in
    the input's broadcast shape, taken from those weights when the layer is built, adapted or
    loaded (so assigning the weights alone changes nothing, as in Keras).
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

    def build(self, input_shape):
        shape = tuple(input_shape.dims)
        rank = len(shape)
        if any(a < -rank or a >= rank for a in self.axis):
            raise ValueError(with_location(f"All `axis` values must be in the range [-ndim, ndim). Received inputs "
                                           f"with ndim={rank}, while axis={self.axis}"))
        keep = self._keep = sorted(a % rank for a in self.axis)
        if any(shape[a] is None for a in keep):
            raise ValueError(with_location(
                f"Normalization {self.name}: the kept axes {self.axis} of shape {list(shape)} must be known"))
        self._broadcast_shape = tuple(shape[a] if a in keep else 1 for a in range(rank))
        self._reduce_axes = tuple(a for a in range(rank) if a not in keep)
        if self.input_mean is not None:  # Keras 3: given statistics are constants, not weights
            self._set_statistics(self.input_mean, self.input_variance)
            return
        stats = tuple(shape[a] for a in keep)
        self.adapt_mean = self.add_weight("mean", stats, initializer="zeros", trainable=False)
        self.adapt_variance = self.add_weight("variance", stats, initializer="ones", trainable=False)
        self.count = self.add_weight("count", (), dtype="int64", initializer="zeros", trainable=False)
        self._set_statistics(self.adapt_mean, self.adapt_variance)

    def _set_statistics(self, mean, variance):
        """layer.mean / layer.variance: each statistic's dimensions laid on the kept axes (the
        last on the last), broadcast to the input's rank, as Keras 3."""
        for name, value in (("mean", mean), ("variance", variance)):
            value = np.asarray(value.numpy() if isinstance(value, TensorBase) else value, np.float32)
            layout = [1] * len(self._broadcast_shape)
            for i in range(1, value.ndim + 1):
                layout[self._keep[-i]] = value.shape[-i]
            self.__dict__[name] = tf.constant(np.broadcast_to(value.reshape(layout), self._broadcast_shape))

    def finalize_state(self):
        if self.input_mean is None and self.built:
            self._set_statistics(self.adapt_mean, self.adapt_variance)

    def load_own_variables(self, store):
        super().load_own_variables(store)
        self.finalize_state()

    def adapt(self, data, batch_size=None, steps=None):
        """Set mean and variance from `data` (an array, tensor or Dataset of batches; a Dataset
        of single rows is batched first, as Keras does)."""
        from tapeflow.data import Dataset
        if isinstance(data, Dataset):
            parts = [np.asarray(b[0] if isinstance(b, tuple) else b) for b in data]
            rows = bool(parts) and parts[0].ndim == 1
            array = np.stack(parts) if rows else np.concatenate(parts, axis=0)
        else:
            array = np.asarray(data.numpy() if isinstance(data, TensorBase) else data, np.float64)
        if not self.built:
            self._build_from(tf.constant(array.astype(np.float32)))
        self.adapt_mean.assign(array.mean(axis=self._reduce_axes).astype(np.float32))
        self.adapt_variance.assign(array.var(axis=self._reduce_axes).astype(np.float32))
        self.finalize_state()

    def call(self, inputs):
        x = tf.cast(inputs, self.dtype)
        if self.invert:
            return x * tf.sqrt(self.variance) + self.mean
        return (x - self.mean) / tf.maximum(tf.sqrt(self.variance), 1e-7)

    def get_config(self):
        listed = lambda v: np.asarray(v).tolist() if v is not None else None  # noqa: E731
        return {**super().get_config(), "axis": tuple(self.axis), "invert": self.invert,
                "mean": listed(self.input_mean), "variance": listed(self.input_variance)}

"""TF 2's own initializers (tf.zeros_initializer, tf.ones_initializer,
tf.constant_initializer, tf.random_normal_initializer, tf.random_uniform_initializer),
as tf.Module code uses them: `init(shape, dtype)` gives a tensor.  A seeded random
initializer is a stateless draw with seed [seed, 0] (the same values on every
call); an unseeded one draws from tf.random's stateful stream -- TF's rule."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import random_generator, random_ops
from tapeflow.runtime.tensor import convert_to_tensor


def _shape(shape):
    return [int(d) for d in (shape.as_list() if hasattr(shape, "as_list") else shape)]


class _Initializer:
    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class zeros_initializer(_Initializer):
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return convert_to_tensor(np.zeros(_shape(shape), dtypes.as_dtype(dtype).np))


class ones_initializer(_Initializer):
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return convert_to_tensor(np.ones(_shape(shape), dtypes.as_dtype(dtype).np))


class constant_initializer(_Initializer):
    """A scalar fills the shape; a list or array must have the shape's size (it is reshaped)."""

    def __init__(self, value=0):
        self.value = value

    def get_config(self):
        return {"value": self.value}

    def __call__(self, shape, dtype=None, **kwargs):
        dims = _shape(shape)
        # The value converts as tf.constant converts it (Python floats -> float32, ints -> int32).
        value = convert_to_tensor(self.value, dtype=dtype).numpy()
        if value.ndim == 0:
            return convert_to_tensor(np.full(dims, value, value.dtype))
        if value.size != int(np.prod(dims)):
            raise TypeError(with_location(f"constant_initializer: {value.size} values do not fill shape {dims}"))
        return convert_to_tensor(value.reshape(dims))


class _Random(_Initializer):
    def __init__(self, a, b, seed):
        self.a, self.b, self.seed = a, b, seed

    def draw(self, name, shape, dtype):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating and name != "uniform":
            raise ValueError(with_location(f"{type(self).__name__}: expected a floating dtype, got {dtype.name}"))
        if self.seed is not None:
            op = getattr(random_generator, "stateless_" + name)
            return op(_shape(shape), [self.seed, 0], self.a, self.b, dtype=dtype)
        return getattr(random_ops, name)(_shape(shape), self.a, self.b, dtype=dtype)


class random_normal_initializer(_Random):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(mean, stddev, seed)

    def get_config(self):
        return {"mean": self.a, "stddev": self.b, "seed": self.seed}

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return self.draw("normal", shape, dtype)


class random_uniform_initializer(_Random):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(minval, maxval, seed)

    def get_config(self):
        return {"minval": self.a, "maxval": self.b, "seed": self.seed}

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return self.draw("uniform", shape, dtype)

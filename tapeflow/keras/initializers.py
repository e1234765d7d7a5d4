"""Weight initializers, drawing the numbers Keras 3 draws on TensorFlow.

A random initializer made without a seed takes one from Python's generator when
it is constructed (keras.random.make_default_seed, which set_random_seed makes
reproducible); each call is a stateless draw with that seed, so an initializer
gives the same values on every call -- Keras 3's rule.  A SeedGenerator seed
gives new values per call.  Values are tensors, as Keras returns them."""
import math

import numpy as np

from tapeflow.runtime import dtypes


class Initializer:
    def __call__(self, shape, dtype=None):
        raise NotImplementedError(f"{type(self).__name__} must define __call__")

    def get_config(self):
        return {}


def _keras_random():
    from tapeflow.keras import random  # keras.random imports tapeflow whole: import on first draw
    return random


class _Seeded(Initializer):
    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = _keras_random().make_default_seed()
        elif isinstance(seed, dict):
            seed = _keras_random().SeedGenerator.from_config(seed.get("config", seed))
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer, _keras_random().SeedGenerator)):
            raise ValueError(f"{type(self).__name__}: seed must be an int or a keras.random.SeedGenerator, "
                             f"got seed={seed!r}")
        self.seed = seed

    def draw(self, name, shape, a, b, dtype):
        return getattr(_keras_random(), name)(tuple(shape), a, b, dtype=_dtype_name(dtype), seed=self.seed)

    def get_config(self):
        return {"seed": self._init_seed}


def _np_dtype(dtype):
    return dtypes.as_dtype(dtype or "float32").np


def _dtype_name(dtype):
    return dtypes.as_dtype(dtype or "float32").name


def _fans(shape):
    """Keras's fan-in/fan-out: the last two axes are (in, out), leading axes are the receptive field."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


def _tensor(array):
    from tapeflow.runtime.tensor import convert_to_tensor
    return convert_to_tensor(array)


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return _tensor(np.zeros(tuple(shape), _np_dtype(dtype)))


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return _tensor(np.ones(tuple(shape), _np_dtype(dtype)))


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def get_config(self):
        return {"value": self.value}

    def __call__(self, shape, dtype=None):
        return _tensor(np.full(tuple(shape), self.value, _np_dtype(dtype)))


class RandomUniform(_Seeded):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self._init_seed}

    def __call__(self, shape, dtype=None):
        return self.draw("uniform", shape, self.minval, self.maxval, dtype)


class RandomNormal(_Seeded):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self._init_seed}

    def __call__(self, shape, dtype=None):
        return self.draw("normal", shape, self.mean, self.stddev, dtype)


class VarianceScaling(_Seeded):
    """Samples with variance scale / n, n = fan_in, fan_out or their mean."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        super().__init__(seed)
        # Keras 3.12: fans as the products of these axes' sizes (EinsumDense sets them from its equation)
        self.input_axes, self.output_axes = input_axes, output_axes
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"VarianceScaling: mode must be fan_in, fan_out or fan_avg, got {mode!r}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"  # Keras's alias
        if scale <= 0.0:
            raise ValueError(f"VarianceScaling: scale must be positive, got {scale}")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"VarianceScaling: unknown distribution {distribution!r}")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def get_config(self):
        axes = {"input_axes": self.input_axes, "output_axes": self.output_axes}
        if type(self) is not VarianceScaling:
            return {"seed": self._init_seed, **axes}  # the subclasses fix scale, mode and distribution
        return {"seed": self._init_seed, "scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                **axes}

    def __call__(self, shape, dtype=None):
        if self.input_axes is not None and self.output_axes is not None:
            fan_in = int(np.prod([shape[a] for a in self.input_axes], dtype=np.int64))
            fan_out = int(np.prod([shape[a] for a in self.output_axes], dtype=np.int64))
        else:
            fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        var = self.scale / max(1.0, n)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * var)
            return self.draw("uniform", shape, -limit, limit, dtype)
        if self.distribution == "truncated_normal":
            # 0.8796... is the stddev of a unit normal truncated to [-2, 2].
            return self.draw("truncated_normal", shape, 0.0, math.sqrt(var) / 0.8796256610342398, dtype)
        return self.draw("normal", shape, 0.0, math.sqrt(var), dtype)


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "uniform", seed, input_axes, output_axes)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, input_axes, output_axes)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "uniform", seed, input_axes, output_axes)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "uniform", seed, input_axes, output_axes)


class TruncatedNormal(_Seeded):
    """Normal(mean, stddev) samples redrawn until within two standard deviations."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None):
        return self.draw("truncated_normal", shape, self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self._init_seed}


class Identity(Initializer):
    """gain * the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={tuple(shape)} of rank {len(shape)}.")
        return _tensor((self.gain * np.eye(*shape)).astype(_np_dtype(dtype)))

    def get_config(self):
        return {"gain": self.gain}


class Orthogonal(_Seeded):
    """A (scaled) random orthogonal matrix over the last axis and the rest flattened."""

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def get_config(self):
        return {"gain": self.gain, "seed": self._init_seed}

    def __call__(self, shape, dtype=None):
        shape = tuple(int(d) for d in shape)
        if len(shape) < 2:
            raise ValueError(f"Orthogonal initializer: the shape must be at least 2-D, got {shape}")
        rows = int(np.prod(shape[:-1]))
        cols = shape[-1]
        # Keras: QR of a normal draw, signs fixed by diag(r) so the result is unique.
        a = self.draw("normal", (max(rows, cols), min(rows, cols)), 0.0, 1.0, dtype).numpy()
        q, r = np.linalg.qr(a.astype(np.float64))
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return _tensor((self.gain * q.reshape(shape)).astype(_np_dtype(dtype)))


_BY_NAME = {
    "zeros": Zeros, "ones": Ones, "constant": Constant,
    "random_uniform": RandomUniform, "random_normal": RandomNormal,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
    "he_uniform": HeUniform, "he_normal": HeNormal, "lecun_normal": LecunNormal,
    "orthogonal": Orthogonal, "variance_scaling": VarianceScaling,
    "lecun_uniform": LecunUniform, "truncated_normal": TruncatedNormal, "identity": Identity,
    "uniform": RandomUniform, "normal": RandomNormal,
}
_BY_CLASS_NAME = {cls.__name__: cls for cls in _BY_NAME.values()}
_BY_CLASS_NAME.update(IdentityInitializer=Identity, OrthogonalInitializer=Orthogonal)

# ---- keras.initializers names: the lowercase aliases of the classes (one per line) ----
zeros = Zeros
ones = Ones
constant = Constant
random_uniform = RandomUniform
random_normal = RandomNormal
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
he_uniform = HeUniform
he_normal = HeNormal
lecun_uniform = LecunUniform
lecun_normal = LecunNormal
identity = IdentityInitializer = Identity
orthogonal = OrthogonalInitializer = Orthogonal
# ---- end of keras.initializers names ----


def get(identifier):
    """An initializer from a name, an instance, a class or a callable(shape, dtype)."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier in _BY_CLASS_NAME:
            return _BY_CLASS_NAME[identifier]()
        key = identifier.lower()
        if key not in _BY_NAME:
            raise ValueError(f"Unknown initializer {identifier!r}; known: {sorted(_BY_NAME)}")
        return _BY_NAME[key]()
    if isinstance(identifier, dict) and identifier.get("class_name") in _BY_CLASS_NAME:
        return _BY_CLASS_NAME[identifier["class_name"]](**identifier.get("config", {}))
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    import tapeflow as tf
    if tf.is_tensor(identifier) or isinstance(identifier, (np.ndarray, np.generic)):
        return _fixed_value_initializer(identifier)
    raise ValueError(f"Could not interpret initializer {identifier!r}")


def _fixed_value_initializer(value):
    """Keras 3: a tensor or array given as initializer is the value itself (cast to the dtype);
    asking for another shape is an error."""
    import tapeflow as tf

    def initialize_fn(shape, dtype=None):
        if tuple(shape) != tuple(np.shape(value)):
            raise ValueError(f"Expected `shape` to be {tuple(np.shape(value))} for direct tensor as "
                             f"initializer. Received shape={tuple(shape)}")
        return tf.cast(value, dtype or "float32")
    return initialize_fn


def serialize(initializer):
    """{"class_name", "config"} for a keras.initializers object (get() reads it back)."""
    if initializer is None:
        return None
    if type(initializer).__name__ in _BY_CLASS_NAME:
        return {"module": "keras.initializers", "class_name": type(initializer).__name__,
                "config": initializer.get_config(), "registered_name": None}
    return initializer  # a user's callable: usable to copy a layer, not saved as JSON


def deserialize(config, custom_objects=None):
    """The initializer a serialize() dict or a name describes."""
    if custom_objects and isinstance(config, dict) and config.get("class_name") in custom_objects:
        return custom_objects[config["class_name"]](**config.get("config", {}))
    return get(config)

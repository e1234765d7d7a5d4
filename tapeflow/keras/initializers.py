"""Weight initializers.  Initial values are computed eagerly with NumPy (as
TensorFlow lifts initializers out of functions), from one global generator that
`keras.utils.set_random_seed` reseeds, or from the initializer's own `seed`."""
import math

import numpy as np

from tapeflow.runtime import dtypes

_global = {"rng": np.random.default_rng()}


def set_seed(seed):
    _global["rng"] = np.random.default_rng(seed)


class Initializer:
    def __call__(self, shape, dtype=None):
        raise NotImplementedError(f"{type(self).__name__} must define __call__")

    def get_config(self):
        return {}


class _Seeded(Initializer):
    def __init__(self, seed=None):
        self.seed = seed
        # A seeded initializer gives one sequence across calls, as Keras 3's SeedGenerator.
        self._rng = np.random.default_rng(seed) if seed is not None else None

    def rng(self):
        return self._rng if self._rng is not None else _global["rng"]

    def get_config(self):
        return {"seed": self.seed}


def _np_dtype(dtype):
    return dtypes.as_dtype(dtype or "float32").np


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


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return np.zeros(tuple(shape), _np_dtype(dtype))


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return np.ones(tuple(shape), _np_dtype(dtype))


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def get_config(self):
        return {"value": self.value}

    def __call__(self, shape, dtype=None):
        return np.full(tuple(shape), self.value, _np_dtype(dtype))


class RandomUniform(_Seeded):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}

    def __call__(self, shape, dtype=None):
        return self.rng().uniform(self.minval, self.maxval, tuple(shape)).astype(_np_dtype(dtype))


class RandomNormal(_Seeded):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}

    def __call__(self, shape, dtype=None):
        return self.rng().normal(self.mean, self.stddev, tuple(shape)).astype(_np_dtype(dtype))


def _truncated_normal(rng, shape, stddev):
    """Normal samples redrawn until within two standard deviations."""
    out = rng.normal(0.0, 1.0, shape)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.normal(0.0, 1.0, int(bad.sum()))
        bad = np.abs(out) > 2
    return out * stddev


class VarianceScaling(_Seeded):
    """Samples with variance scale / n, n = fan_in, fan_out or their mean."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        super().__init__(seed)
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"VarianceScaling: mode must be fan_in, fan_out or fan_avg, got {mode!r}")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"VarianceScaling: unknown distribution {distribution!r}")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def get_config(self):
        if type(self) is not VarianceScaling:
            return {"seed": self.seed}  # the subclasses fix scale, mode and distribution
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution, "seed": self.seed}

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        var = self.scale / max(1.0, n)
        shape = tuple(shape)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * var)
            out = self.rng().uniform(-limit, limit, shape)
        elif self.distribution == "truncated_normal":
            # 0.8796... is the stddev of a unit normal truncated to [-2, 2].
            out = _truncated_normal(self.rng(), shape, math.sqrt(var) / 0.87962566103423978)
        else:
            out = self.rng().normal(0.0, math.sqrt(var), shape)
        return out.astype(_np_dtype(dtype))


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "uniform", seed)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "uniform", seed)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "uniform", seed)


class TruncatedNormal(_Seeded):
    """Normal(mean, stddev) samples redrawn until within two standard deviations."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None):
        return (self.mean + _truncated_normal(self.rng(), tuple(shape), self.stddev)).astype(_np_dtype(dtype))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class Identity(Initializer):
    """gain * the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={tuple(shape)} of rank {len(shape)}.")
        return (self.gain * np.eye(*shape)).astype(_np_dtype(dtype))

    def get_config(self):
        return {"gain": self.gain}


class Orthogonal(_Seeded):
    """A (scaled) random orthogonal matrix over the last axis and the rest flattened."""

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        rows = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
        cols = shape[-1]
        a = self.rng().normal(0.0, 1.0, (max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q.reshape(shape)).astype(_np_dtype(dtype))


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
    raise ValueError(f"Could not interpret initializer {identifier!r}")


def serialize(initializer):
    """{"class_name", "config"} for a keras.initializers object (get() reads it back)."""
    if initializer is None:
        return None
    if type(initializer).__name__ in _BY_CLASS_NAME:
        return {"class_name": type(initializer).__name__, "config": initializer.get_config()}
    return initializer  # a user's callable: usable to copy a layer, not saved as JSON


def deserialize(config, custom_objects=None):
    """The initializer a serialize() dict or a name describes."""
    if custom_objects and isinstance(config, dict) and config.get("class_name") in custom_objects:
        return custom_objects[config["class_name"]](**config.get("config", {}))
    return get(config)

"""tf.compat.v1 variables as TensorFlow 2 runs them eagerly: get_variable, variable_scope and
the v1 initializers.

Eagerly TensorFlow keeps no variable store: every get_variable call makes a new variable (reuse
finds nothing, so a call without a shape or initializer raises), named by the enclosing
variable scopes only (tf.name_scope does not reach it), and the global collections stay empty.
The v1 initializers draw with stateful seeded ops (global seed + op seed, a new draw per call),
not TF2's stateless draws: the same seed gives other numbers than tf.initializers' classes."""
import math
import threading

import tapeflow
from tapeflow.keras.initializers import _fans
from tapeflow.module import name_scope
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location


# ---------------------------------------------------------------- v1 initializers

class _V1Initializer:
    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def _dtype(self, dtype):
        return self.dtype if dtype is None else dtypes.as_dtype(dtype)

    def get_config(self):
        return {"dtype": self.dtype.name}


class random_normal_initializer(_V1Initializer):  # noqa: N801 - TensorFlow's name
    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        super().__init__(dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None, partition_info=None):
        return tapeflow.random.normal(shape, self.mean, self.stddev, self._dtype(dtype), seed=self.seed)


class truncated_normal_initializer(random_normal_initializer):  # noqa: N801 - TensorFlow's name
    def __call__(self, shape, dtype=None, partition_info=None):
        return tapeflow.random.truncated_normal(shape, self.mean, self.stddev, self._dtype(dtype), seed=self.seed)


class random_uniform_initializer(_V1Initializer):  # noqa: N801 - TensorFlow's name
    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
        super().__init__(dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None, partition_info=None):
        return tapeflow.random.uniform(shape, self.minval, self.maxval, self._dtype(dtype), seed=self.seed)


class variance_scaling_initializer(_V1Initializer):  # noqa: N801 - TensorFlow's name
    """TF1's VarianceScaling: "normal" means the truncated normal, as in TensorFlow 1."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=dtypes.float32):
        super().__init__(dtype)
        if scale <= 0.0:
            raise ValueError(with_location(f"variance_scaling_initializer: `scale` must be positive, got {scale}"))
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(with_location(f"variance_scaling_initializer: invalid `mode` argument: {mode!r}"))
        distribution = distribution.lower()
        if distribution not in ("normal", "uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(with_location(
                f"variance_scaling_initializer: invalid `distribution` argument: {distribution!r}"))
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._dtype(dtype)
        fan_in, fan_out = _fans([int(d) for d in shape])
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        var = self.scale / max(1.0, n)
        if self.distribution in ("normal", "truncated_normal"):
            # 0.8796... is the stddev of a unit normal truncated to [-2, 2].
            return tapeflow.random.truncated_normal(shape, 0.0, math.sqrt(var) / 0.87962566103423978, dtype,
                                                    seed=self.seed)
        if self.distribution == "untruncated_normal":
            return tapeflow.random.normal(shape, 0.0, math.sqrt(var), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * var)
        return tapeflow.random.uniform(shape, -limit, limit, dtype, seed=self.seed)


class glorot_uniform_initializer(variance_scaling_initializer):  # noqa: N801 - TensorFlow's name
    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)


class glorot_normal_initializer(variance_scaling_initializer):  # noqa: N801 - TensorFlow's name
    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)


def _variance_scaling(scale, mode, distribution):
    class Preset(variance_scaling_initializer):
        def __init__(self, seed=None, dtype=dtypes.float32):
            super().__init__(scale, mode, distribution, seed, dtype)
    return Preset


he_normal = _variance_scaling(2.0, "fan_in", "truncated_normal")
he_uniform = _variance_scaling(2.0, "fan_in", "uniform")
lecun_normal = _variance_scaling(1.0, "fan_in", "truncated_normal")
lecun_uniform = _variance_scaling(1.0, "fan_in", "uniform")


class orthogonal_initializer(_V1Initializer):  # noqa: N801 - TensorFlow's name
    """Q of the QR of a seeded normal (rows = product of all but the last dim), signs fixed by
    R's diagonal, transposed when there are fewer rows than columns, times gain."""

    def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
        super().__init__(dtype)
        self.gain, self.seed = gain, seed

    def __call__(self, shape, dtype=None, partition_info=None):
        shape = [int(d) for d in shape]
        if len(shape) < 2:
            raise ValueError(with_location(f"The tensor to initialize must be at least two-dimensional. "
                                           f"Received: shape={shape} of rank {len(shape)}."))
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = tapeflow.random.normal((max(rows, cols), min(rows, cols)), dtype=self._dtype(dtype), seed=self.seed)
        q, r = tapeflow.linalg.qr(a)
        q = q * tapeflow.sign(tapeflow.linalg.diag_part(r))
        if rows < cols:
            q = tapeflow.transpose(q)
        return self.gain * tapeflow.reshape(q, shape)


class identity_initializer(_V1Initializer):  # noqa: N801 - TensorFlow's name
    def __init__(self, gain=1.0, dtype=dtypes.float32):
        super().__init__(dtype)
        self.gain = gain

    def __call__(self, shape, dtype=None, partition_info=None):
        shape = [int(d) for d in shape]
        if len(shape) != 2:
            raise ValueError(with_location(f"The tensor to initialize, specified by argument `shape` must be at "
                                           f"least two-dimensional. Received shape={shape}"))
        return self.gain * tapeflow.eye(*shape, dtype=self._dtype(dtype))


# ---------------------------------------------------------------- variable scopes

_local = threading.local()


def _scopes():
    if not hasattr(_local, "stack"):
        _local.stack, _local.used = [], {}
    return _local.stack


class VariableScope:
    def __init__(self, name, reuse=None, initializer=None, dtype=dtypes.float32):
        self.name, self.reuse, self.initializer, self.dtype = name, reuse, initializer, dtype
        self.original_name_scope = name + "/" if name else ""


class variable_scope:  # noqa: N801 - TensorFlow's name
    """Names the variables get_variable makes ("outer/inner/w:0") and opens a tf.name_scope of the
    same name; `default_name` is made unique among its siblings ("d", "d_1", ...)."""

    def __init__(self, name_or_scope=None, default_name=None, values=None, initializer=None, regularizer=None,
                 reuse=None, dtype=None, **unused):
        if name_or_scope is None and default_name is None:
            raise TypeError(with_location("variable_scope: if default_name is None then name_or_scope is required"))
        self._name, self._default = name_or_scope, default_name
        self._initializer, self._reuse, self._dtype = initializer, reuse, dtype

    def __enter__(self):
        stack = _scopes()
        parent = stack[-1] if stack else VariableScope("")
        if isinstance(self._name, VariableScope):
            full = self._name.name
        else:
            leaf = self._name if self._name is not None else self._unique(parent.name, self._default)
            full = f"{parent.name}/{leaf}" if parent.name else str(leaf)
        scope = VariableScope(full, self._reuse or parent.reuse, self._initializer or parent.initializer,
                              dtypes.as_dtype(self._dtype) if self._dtype is not None else parent.dtype)
        stack.append(scope)
        self._names = name_scope(full + "/")
        self._names.__enter__()
        return scope

    @staticmethod
    def _unique(parent, default):
        used = _local.used.setdefault(parent, {})
        count = used.get(default, 0)
        used[default] = count + 1
        return default if count == 0 else f"{default}_{count}"

    def __exit__(self, *exc):
        self._names.__exit__(*exc)
        _scopes().pop()
        return False


def get_variable_scope():
    stack = _scopes()
    return stack[-1] if stack else VariableScope("")


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None, synchronization=None,
                 aggregation=None):
    """A new variable named by the enclosing variable scopes (eagerly nothing is reused).  The
    initializer is a tensor / Python value (then no shape) or a callable of (shape, dtype); none:
    the scope's, else glorot_uniform for floats and zeros for integers and booleans."""
    scope = get_variable_scope()
    full = f"{scope.name}/{name}" if scope.name else name
    initializer = scope.initializer if initializer is None else initializer
    if initializer is not None and not callable(initializer):
        if shape is not None:
            raise ValueError(with_location("If initializer is a constant, do not specify shape."))
        value = tapeflow.convert_to_tensor(initializer, dtype=dtype)
    else:
        if shape is None:
            raise ValueError(with_location(
                f"Variable {full} did not get an initializer, so its `shape` argument must be specified."))
        dtype = dtypes.as_dtype(dtype) if dtype is not None else scope.dtype
        if initializer is None:
            initializer = glorot_uniform_initializer() if dtype.is_floating else tapeflow.zeros_initializer()
        shape = [int(d) for d in (shape.as_list() if hasattr(shape, "as_list") else shape)]
        value = initializer(shape, dtype=dtype)
    with name_scope("/"):  # only variable scopes name it, not tf.name_scope
        return tapeflow.Variable(value, name=full, trainable=True if trainable is None else trainable,
                                 constraint=constraint)


def _empty_collection(scope=None):
    """Eagerly TensorFlow collects no variables: the v1 collection functions give []."""
    return []


def _initializers_namespace():
    """tf.compat.v1.initializers: the v1 classes (stateful seeded draws, TF1's defaults)."""
    import types
    return types.SimpleNamespace(
        zeros=tapeflow.zeros_initializer, ones=tapeflow.ones_initializer, constant=tapeflow.constant_initializer,
        random_normal=random_normal_initializer, truncated_normal=truncated_normal_initializer,
        random_uniform=random_uniform_initializer, variance_scaling=variance_scaling_initializer,
        glorot_uniform=glorot_uniform_initializer, glorot_normal=glorot_normal_initializer, he_normal=he_normal,
        he_uniform=he_uniform, lecun_normal=lecun_normal, lecun_uniform=lecun_uniform,
        orthogonal=orthogonal_initializer, identity=identity_initializer,
        global_variables=lambda: None, local_variables=lambda: None, tables_initializer=lambda: None)


NAMES = dict(
    initializers=_initializers_namespace(), orthogonal_initializer=orthogonal_initializer,
    get_variable=get_variable, variable_scope=variable_scope, get_variable_scope=get_variable_scope,
    VariableScope=VariableScope, random_normal_initializer=random_normal_initializer,
    truncated_normal_initializer=truncated_normal_initializer, random_uniform_initializer=random_uniform_initializer,
    variance_scaling_initializer=variance_scaling_initializer, glorot_uniform_initializer=glorot_uniform_initializer,
    glorot_normal_initializer=glorot_normal_initializer, trainable_variables=_empty_collection,
    global_variables=_empty_collection, local_variables=_empty_collection, model_variables=_empty_collection)

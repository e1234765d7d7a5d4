"""BatchNormalization, LayerNormalization, GroupNormalization and UnitNormalization
(Keras 3 defaults: epsilon 1e-3, BatchNormalization momentum 0.99)."""
import tapeflow as tf
from tapeflow.keras import initializers
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.variables import autocast
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import math_ops


def _axes_except(rank, axis):
    axis = axis % rank
    return [a for a in range(rank) if a != axis], axis


class BatchNormalization(Layer):
    """Training: normalize with the batch's mean and (biased) variance and move the
    running statistics: moving = moving * momentum + batch * (1 - momentum).
    Inference (training falsy): normalize with the running statistics."""

    autocast = False  # Keras 3: statistics in float32 under mixed precision (layers/base.py)
    _normalizes_in_float32 = True

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis = int(axis)
        self.momentum, self.epsilon = float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        self._inits = [initializers.get(i) for i in (gamma_initializer, beta_initializer,
                                                     moving_mean_initializer, moving_variance_initializer)]

    def build(self, input_shape):
        rank = input_shape.rank
        _, axis = _axes_except(rank, self.axis)
        dim = input_shape[axis]
        if dim is None:
            raise ValueError(with_location(
                f"BatchNormalization {self.name}: axis {self.axis} of the input must be known, got {input_shape}"))
        gamma_i, beta_i, mean_i, var_i = self._inits
        self.gamma = self.add_weight("gamma", (dim,), initializer=gamma_i) if self.scale else None
        self.beta = self.add_weight("beta", (dim,), initializer=beta_i) if self.center else None
        self.moving_mean = self.add_weight("moving_mean", (dim,), initializer=mean_i, trainable=False)
        self.moving_variance = self.add_weight("moving_variance", (dim,), initializer=var_i, trainable=False)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale}

    def _broadcast(self, v, rank, axis):
        shape = [1] * rank
        shape[axis] = -1
        return tf.reshape(v, shape)

    def call(self, inputs, training=None):
        if inputs.dtype in (tf.float16, tf.bfloat16):
            # Keras 3: half-precision statistics overflow, so BN runs in float32 (its variables
            # read as themselves, not autocast) and casts the result back
            with autocast(None):
                return tf.cast(self._normalize(tf.cast(inputs, tf.float32), training), inputs.dtype)
        return self._normalize(inputs, training)

    def _normalize(self, inputs, training):
        rank = inputs.shape.rank
        reduce_axes, axis = _axes_except(rank, self.axis)
        if training and self.trainable:
            mean = tf.reduce_mean(inputs, axis=reduce_axes)
            variance = tf.reduce_mean(tf.square(inputs - self._broadcast(mean, rank, axis)), axis=reduce_axes)
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + tf.stop_gradient(mean) * (1 - m))
            self.moving_variance.assign(self.moving_variance * m + tf.stop_gradient(variance) * (1 - m))
        else:
            mean, variance = self.moving_mean.read_value(), self.moving_variance.read_value()
        inv = math_ops.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            inv = inv * self.gamma
        y = (inputs - self._broadcast(mean, rank, axis)) * self._broadcast(inv, rank, axis)
        if self.beta is not None:
            y = y + self._broadcast(self.beta, rank, axis)
        return y


class LayerNormalization(Layer):
    """Normalize each example over `axis` (default the last):
    (x - mean) / sqrt(var + epsilon) * gamma + beta."""

    autocast = False  # Keras 3: statistics in float32 under mixed precision (layers/base.py)
    _normalizes_in_float32 = True
    supports_masking = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis = axis if isinstance(axis, (list, tuple)) else [axis]
        self.epsilon = float(epsilon)
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)

    def build(self, input_shape):
        rank = input_shape.rank
        self._axes = sorted(a % rank for a in self.axis)
        shape = tuple(input_shape[a] for a in self._axes)
        if None in shape:
            raise ValueError(with_location(
                f"LayerNormalization {self.name}: the normalized axes must be known, got {input_shape}"))
        self.gamma = self.add_weight("gamma", shape, initializer=self.gamma_initializer) if self.scale else None
        self.beta = self.add_weight("beta", shape, initializer=self.beta_initializer) if self.center else None

    def get_config(self):
        return {**super().get_config(), "axis": list(self.axis), "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale}

    def _broadcast(self, v, rank):
        shape = [1] * rank
        for a, d in zip(self._axes, v.shape.dims):
            shape[a] = d
        return tf.reshape(v, shape)

    def call(self, inputs):
        if inputs.dtype in (tf.float16, tf.bfloat16):
            return self._half(inputs)
        rank = inputs.shape.rank
        mean = tf.reduce_mean(inputs, axis=self._axes, keepdims=True)
        centered = inputs - mean
        variance = tf.reduce_mean(tf.square(centered), axis=self._axes, keepdims=True)
        y = centered * math_ops.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            y = y * self._broadcast(self.gamma, rank)
        if self.beta is not None:
            y = y + self._broadcast(self.beta, rank)
        return y

    def _half(self, inputs):
        """Keras 3 under mixed precision: in float32 as x * inv + (beta - mean * inv), cast back."""
        x, rank = tf.cast(inputs, tf.float32), inputs.shape.rank
        mean = tf.reduce_mean(x, axis=self._axes, keepdims=True)
        variance = tf.reduce_mean(tf.square(x - mean), axis=self._axes, keepdims=True)
        inv = math_ops.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            inv = inv * tf.cast(self._broadcast(self.gamma, rank), tf.float32)
        shift = -mean * inv
        if self.beta is not None:
            shift = shift + tf.cast(self._broadcast(self.beta, rank), tf.float32)
        return tf.cast(x * inv + shift, inputs.dtype)


class GroupNormalization(Layer):
    """Normalize each example over groups of channels along `axis` (Keras 3's
    arithmetic: x * inv + (beta - mean * inv), statistics in float32 or wider)."""

    autocast = False  # Keras 3: statistics in float32 under mixed precision (layers/base.py)
    _normalizes_in_float32 = True
    supports_masking = True

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(groups, bool) or not isinstance(groups, int) or (groups <= 0 and groups != -1):
            raise ValueError(with_location(f"GroupNormalization: groups must be a positive int or -1, "
                                           f"got groups={groups}"))
        self.groups, self.axis, self.epsilon = groups, axis, float(epsilon)
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(with_location(f"GroupNormalization {self.name}: axis {self.axis} of input shape "
                                           f"{input_shape} must be known"))
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups or dim % self.groups:
            raise ValueError(with_location(f"GroupNormalization {self.name}: {dim} channels cannot be split into "
                                           f"{self.groups} groups (input shape {input_shape})"))
        self._rank = input_shape.rank
        self.gamma = self.add_weight("gamma", (dim,), initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight("beta", (dim,), initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer,
                                    constraint=self.beta_constraint) if self.center else None

    def get_config(self):
        return {**super().get_config(), "groups": self.groups, "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale}

    def call(self, inputs):
        rank = inputs.shape.rank
        axis = self.axis % rank
        shape = tf.shape(inputs)
        per_group = inputs.shape[axis] // self.groups
        dims = [shape[i] for i in range(rank)]
        grouped_shape = dims[:axis] + [self.groups, per_group] + dims[axis + 1:]
        x = tf.reshape(inputs, tf.stack(grouped_shape))
        stats_dtype = "float64" if inputs.dtype.name == "float64" else "float32"
        x = tf.cast(x, stats_dtype)
        axes = [a for a in range(1, rank + 1) if a != axis]  # every axis but batch and the group axis
        mean, variance = tf.nn.moments(x, axes=axes, keepdims=True)
        inv = math_ops.rsqrt(variance + self.epsilon)
        broadcast = [1] * (rank + 1)
        broadcast[axis], broadcast[axis + 1] = self.groups, per_group
        if self.gamma is not None:
            inv = inv * tf.cast(tf.reshape(self.gamma, broadcast), stats_dtype)
        offset = -mean * inv
        if self.beta is not None:
            offset = offset + tf.cast(tf.reshape(self.beta, broadcast), stats_dtype)
        y = tf.cast(x * inv + offset, inputs.dtype)
        return tf.reshape(y, shape)


class UnitNormalization(Layer):
    """Scale each example to unit L2 norm over `axis`."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    supports_masking = True

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}

    def call(self, inputs):
        x = tf.convert_to_tensor(inputs)
        # Keras's L2 case: x * min(rsqrt(sum x^2), 1 / epsilon), epsilon 1e-12
        inv_norm = math_ops.rsqrt(tf.reduce_sum(tf.square(x), axis=self.axis, keepdims=True))
        return x * tf.minimum(inv_norm, 1.0 / 1e-12)


class RMSNormalization(Layer):
    """x * rsqrt(mean(x^2 over `axis`) + epsilon) * scale, computed in at least float32.
    Trap (Keras's own): `scale` (the axes' sizes) multiplies by plain broadcasting, against
    the trailing axes, not reshaped onto `axis`."""

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def build(self, input_shape):
        axes = sorted(self.axis) if isinstance(self.axis, (list, tuple)) else [self.axis]
        self._axes = axes
        self.scale = self.add_weight("scale", tuple(input_shape[a] for a in axes), initializer="ones")

    def call(self, inputs):
        dtype = inputs.dtype
        x = inputs if dtype in (tf.float32, tf.float64) else tf.cast(inputs, tf.float32)
        rrms = math_ops.rsqrt(tf.reduce_mean(tf.square(x), axis=self._axes, keepdims=True) + self.epsilon)
        return tf.cast(x * rrms * tf.cast(self.scale, x.dtype), dtype)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}

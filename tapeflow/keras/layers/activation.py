"""Activation layers: ReLU, LeakyReLU, ELU, PReLU, Softmax (Keras 3 defaults)."""
import tapeflow as tf
from tapeflow.keras import initializers, regularizers
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


class ReLU(Layer):
    """max_value if x >= max_value; x if threshold < x; else negative_slope * (x - threshold)
    (keras.activations.relu with the layer's arguments)."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0:
            raise ValueError(with_location(f"ReLU: max_value must be >= 0, got {max_value}"))
        if negative_slope is None or negative_slope < 0:
            raise ValueError(with_location(f"ReLU: negative_slope must be >= 0, got {negative_slope}"))
        self.max_value, self.negative_slope, self.threshold = max_value, float(negative_slope), float(threshold)

    def call(self, inputs):
        from tapeflow.keras.activations import relu
        return relu(inputs, self.negative_slope, self.max_value, self.threshold)

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value, "negative_slope": self.negative_slope,
                "threshold": self.threshold}


class LeakyReLU(Layer):
    """x if x > 0 else negative_slope * x (Keras 3 default 0.3; `alpha` is the TF2 spelling)."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    def __init__(self, negative_slope=0.3, **kwargs):
        alpha = kwargs.pop("alpha", None)
        super().__init__(**kwargs)
        self.negative_slope = float(alpha if alpha is not None else negative_slope)

    def call(self, inputs):
        return tf.nn.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ELU(Layer):
    """x if x > 0 else alpha * (exp(x) - 1)."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs):
        y = tf.nn.elu(inputs)
        return y if self.alpha == 1.0 else tf.where(inputs > 0, y, y * self.alpha)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class PReLU(Layer):
    """relu(x) - alpha * relu(-x) with a learned alpha per feature (shared over `shared_axes`)."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = alpha_constraint
        if shared_axes is None:
            self.shared_axes = ()
        else:
            self.shared_axes = tuple(shared_axes) if isinstance(shared_axes, (list, tuple)) else (shared_axes,)

    def build(self, input_shape):
        shape = list(input_shape.dims[1:])
        for axis in self.shared_axes:
            shape[axis - 1] = 1
        if None in shape:
            raise ValueError(with_location(
                f"PReLU {self.name}: every non-batch dimension must be known (or shared), got {input_shape}"))
        self.alpha = self.add_weight("alpha", tuple(shape), initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)

    def call(self, inputs):
        return tf.nn.relu(inputs) - self.alpha * tf.nn.relu(-inputs)


class Softmax(Layer):
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)
    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            inputs = inputs + (1.0 - tf.cast(mask, inputs.dtype)) * -1e9
        if isinstance(self.axis, (list, tuple)):
            return tf.exp(inputs - tf.reduce_logsumexp(inputs, axis=list(self.axis), keepdims=True))
        return tf.nn.softmax(inputs, axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}

"""The Keras guide "Making new layers and models via subclassing": add_weight in __init__ and in build,
non-trainable weights, layers tracking layers, add_loss, get_config/from_config, the training argument,
and a weightless model compiled with and without a loss (Keras warns and trains nothing)."""
import warnings

import numpy as np
import tapeflow as tf
from tapeflow import keras


class Linear(keras.layers.Layer):
    def __init__(self, units=32, input_dim=32):
        super().__init__()
        self.w = self.add_weight(shape=(input_dim, units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class ComputeSum(keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = self.add_weight(initializer="zeros", shape=(input_dim,), trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


class LazyLinear(keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal",
                                 trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


class MLPBlock(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.linear_1 = LazyLinear(32)
        self.linear_2 = LazyLinear(32)
        self.linear_3 = LazyLinear(1)

    def call(self, inputs):
        x = tf.nn.relu(self.linear_1(inputs))
        x = tf.nn.relu(self.linear_2(x))
        return self.linear_3(x)


class ActivityRegularizationLayer(keras.layers.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_mean(inputs))
        return inputs


class OuterLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.activity_reg = ActivityRegularizationLayer(1e-2)

    def call(self, inputs):
        return self.activity_reg(inputs)


class CustomDropout(keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs, training=None):
        if training:
            return tf.nn.dropout(inputs, rate=self.rate)
        return inputs


def test_weights_in_init_and_non_trainable():
    x = tf.ones((2, 2))
    layer = Linear(4, 2)
    y = layer(x)
    assert y.shape == (2, 4) and len(layer.weights) == 2
    np.testing.assert_allclose(y.numpy(), np.ones((2, 2)) @ layer.w.numpy(), rtol=1e-6)
    s = ComputeSum(2)
    np.testing.assert_allclose(s(x).numpy(), [2.0, 2.0])
    np.testing.assert_allclose(s(x).numpy(), [4.0, 4.0])
    assert len(s.weights) == 1 and len(s.non_trainable_weights) == 1 and len(s.trainable_weights) == 0


def test_nested_layers_tracked_and_config_round_trip():
    mlp = MLPBlock()
    assert mlp(tf.ones((3, 64))).shape == (3, 1)
    assert len(mlp.weights) == 6 and len(mlp.trainable_weights) == 6
    config = LazyLinear(64).get_config()
    assert config["units"] == 64
    again = LazyLinear.from_config(config)
    assert isinstance(again, LazyLinear) and again.units == 64 and again.name == config["name"]


def test_add_loss_reset_per_call_and_regularizer_losses():
    layer = OuterLayer()
    assert len(layer.losses) == 0
    layer(tf.ones((1, 1)))
    assert len(layer.losses) == 1
    layer(tf.ones((1, 1)))
    assert len(layer.losses) == 1  # losses from the previous call are cleared
    np.testing.assert_allclose(float(layer.losses[0]), 1e-2, rtol=1e-6)

    dense = keras.layers.Dense(32, kernel_regularizer=keras.regularizers.l2(1e-3))
    dense(tf.zeros((1, 1)))
    assert len(dense.losses) == 1
    np.testing.assert_allclose(float(dense.losses[0]), 1e-3 * np.sum(dense.kernel.numpy() ** 2), rtol=1e-5)


def test_weightless_model_fits_with_and_without_compiled_loss():
    rng = np.random.RandomState(0)
    inputs = keras.Input(shape=(3,))
    outputs = ActivityRegularizationLayer()(inputs)
    model = keras.Model(inputs, outputs)
    x, y = rng.random_sample((2, 3)), rng.random_sample((2, 3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.compile(optimizer="adam", loss="mse")
        hist = model.fit(x, y, verbose=0)
        expected = np.mean((x - y) ** 2) + 1e-2 * np.mean(x)
        np.testing.assert_allclose(hist.history["loss"][0], expected, rtol=1e-5)
        model.compile(optimizer="adam")
        hist = model.fit(x, y, verbose=0)
        np.testing.assert_allclose(hist.history["loss"][0], 1e-2 * np.mean(x), rtol=1e-5)
    assert any("trainable weights" in str(w.message) for w in caught)


def test_training_argument():
    d = CustomDropout(0.5)
    x = tf.ones((8, 16))
    np.testing.assert_array_equal(d(x).numpy(), np.ones((8, 16)))
    out = d(x, training=True).numpy()
    assert set(np.unique(out)) <= {0.0, 2.0} and 0 < np.count_nonzero(out) < out.size

"""A Keras-3-guide-style program: a custom layer written with keras.ops and a VAE
sampling layer drawing keras.random.normal from a SeedGenerator, trained with fit."""
import numpy as np

import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import ops


class Sampling(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs):
        z_mean, z_log_var = inputs
        eps = keras.random.normal(shape=ops.shape(z_mean)[1:], seed=self.seed_generator)
        return z_mean + ops.exp(0.5 * z_log_var) * eps


class OpsDense(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, x):
        return ops.silu(ops.matmul(x, self.w) + self.b)


def test_custom_ops_layers_train_with_fit():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((256, 4)).astype(np.float32)
    y = (x[:, :1] * 2.0 - x[:, 1:2]).astype(np.float32)
    inputs = keras.Input((4,))
    h = OpsDense(16)(inputs)
    z_mean = keras.layers.Dense(2)(h)
    z_log_var = keras.layers.Dense(2)(h)
    z = Sampling()([z_mean, z_log_var])
    out = keras.layers.Dense(1)(keras.layers.Concatenate()([z, h]))
    model = keras.Model(inputs, out)
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    hist = model.fit(x, y, epochs=15, batch_size=32, verbose=0)
    losses = hist.history["loss"]
    assert np.all(np.isfinite(losses)) and losses[-1] < 0.5 * losses[0], losses

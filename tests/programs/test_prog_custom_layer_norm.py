"""Regression with Normalization.adapt preprocessing and a custom layer (add_weight + get_config)
saved with model.save(".keras") and reloaded with load_model(custom_objects=...)."""
import os

import numpy as np
import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers

@keras.saving.register_keras_serializable(package="demo")
class ScaledDense(layers.Layer):
    def __init__(self, units, scale=1.0, **kwargs):
        super().__init__(**kwargs)
        self.units, self.scale = units, scale
    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(input_shape[-1], self.units), initializer="glorot_uniform", trainable=True)
        self.b = self.add_weight(name="b", shape=(self.units,), initializer="zeros")
    def call(self, x):
        return self.scale * (tf.matmul(x, self.w) + self.b)
    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units, "scale": self.scale})
        return config



def test_normalized_regression_with_custom_layer_save_and_reload(tmp_path):
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = (rng.normal(size=(200, 3)) * [1, 10, 100] + [0, 5, -50]).astype("float32")
    y = (x @ np.array([[1.0], [0.1], [0.01]]) + 0.5).astype("float32")
    norm = layers.Normalization()
    norm.adapt(x)
    np.testing.assert_allclose(np.ravel(norm.mean.numpy()), x.mean(0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.ravel(norm.variance.numpy()), x.var(0), rtol=1e-4)
    z = norm(x[:10]).numpy()
    np.testing.assert_allclose(z, (x[:10] - x.mean(0)) / x.std(0), rtol=1e-3, atol=1e-4)

    inp = keras.Input((3,))
    h = ScaledDense(16, scale=0.5, name="sd")(norm(inp))
    out = layers.Dense(1)(layers.Activation("relu")(h))
    model = keras.Model(inp, out)
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse", metrics=["mae"])
    hist = model.fit(x, y, epochs=30, batch_size=32, verbose=0)
    assert hist.history["loss"][-1] < 0.01 * hist.history["loss"][0], hist.history["loss"]
    assert len(model.get_layer("sd").trainable_weights) == 2

    path = os.path.join(tmp_path, "regressor.keras")
    model.save(path)
    reloaded = keras.models.load_model(path, custom_objects={"ScaledDense": ScaledDense})
    layer = reloaded.get_layer("sd")
    assert type(layer) is ScaledDense and layer.scale == 0.5 and layer.units == 16
    np.testing.assert_allclose(reloaded.predict(x[:8], verbose=0), model.predict(x[:8], verbose=0),
                               rtol=1e-5, atol=1e-6)
    # registered with register_keras_serializable: loads without custom_objects too
    again = keras.models.load_model(path)
    assert type(again.get_layer("sd")) is ScaledDense

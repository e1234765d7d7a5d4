"""model.save + keras.models.load_model + predict, for Sequential, functional and subclassed
(registered, with get_config) models; save_weights/load_weights."""
import numpy as np
import tapeflow as tf
from tapeflow import keras


@keras.saving.register_keras_serializable(package="progs")
class ScaledDense(keras.layers.Layer):
    def __init__(self, units, scale=1.0, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.scale = scale

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform",
                                 trainable=True, name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True, name="b")

    def call(self, inputs):
        return self.scale * (tf.matmul(inputs, self.w) + self.b)

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units, "scale": self.scale})
        return config


def data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(128, 4)).astype("float32")
    y = (x[:, :1] * 2 - x[:, 1:2] + 0.5).astype("float32")
    return x, y


def test_sequential_save_load_keeps_predictions_and_optimizer(tmp_path):
    keras.utils.set_random_seed(0)
    x, y = data()
    model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dropout(0.1), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse", metrics=["mae"])
    model.fit(x, y, epochs=3, verbose=0)
    path = str(tmp_path / "model.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
    # compiled state comes back: evaluate works and training continues from the saved state
    res = restored.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(res["loss"], model.evaluate(x, y, verbose=0, return_dict=True)["loss"], rtol=1e-5)
    before = restored.evaluate(x, y, verbose=0, return_dict=True)["loss"]
    restored.fit(x, y, epochs=3, verbose=0)
    assert restored.evaluate(x, y, verbose=0, return_dict=True)["loss"] < before


def test_functional_with_custom_layer_round_trip(tmp_path):
    keras.utils.set_random_seed(1)
    x, y = data(1)
    inputs = keras.Input(shape=(4,), name="features")
    h = ScaledDense(6, scale=0.5, name="scaled")(inputs)
    h = keras.layers.Activation("tanh")(h)
    outputs = keras.layers.Dense(1, name="head")(h)
    model = keras.Model(inputs, outputs, name="regressor")
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=2, verbose=0)
    path = str(tmp_path / "functional.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    assert restored.name == "regressor"
    assert isinstance(restored.get_layer("scaled"), ScaledDense)
    assert restored.get_layer("scaled").scale == 0.5
    np.testing.assert_allclose(restored(x).numpy(), model(x).numpy(), rtol=1e-6)


def test_save_and_load_weights(tmp_path):
    keras.utils.set_random_seed(2)
    x, _ = data(2)

    def make():
        return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(5, activation="relu"),
                                 keras.layers.BatchNormalization(), keras.layers.Dense(2)])

    a = make()
    a(x, training=True)  # moves the BN statistics
    path = str(tmp_path / "w.weights.h5")
    a.save_weights(path)
    b = make()
    assert not np.allclose(a.predict(x, verbose=0), b.predict(x, verbose=0))
    b.load_weights(path)
    np.testing.assert_allclose(a.predict(x, verbose=0), b.predict(x, verbose=0), rtol=1e-6)
    config = a.get_config()
    c = keras.Sequential.from_config(config)
    c.set_weights(a.get_weights())
    np.testing.assert_allclose(c.predict(x, verbose=0), a.predict(x, verbose=0), rtol=1e-6)

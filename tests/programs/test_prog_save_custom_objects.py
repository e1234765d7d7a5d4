"""Keras 3 "Serialization and saving" guide: a functional model with an unregistered custom
layer and a custom activation function is saved; load_model needs them in custom_objects
(or inside custom_object_scope) and raises a clear error without them; from_config clones."""
import numpy as np
import pytest
import tapeflow as tf
from tapeflow import keras


class CustomLayer(keras.layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {"factor": self.factor, **super().get_config()}


def custom_activation(x):
    return tf.nn.tanh(x) ** 2


CUSTOM = {"CustomLayer": CustomLayer, "custom_activation": custom_activation}


def build_and_train():
    keras.utils.set_random_seed(1)
    inputs = keras.Input(shape=(4,))
    x = keras.layers.Dense(8, activation=custom_activation)(inputs)
    x = CustomLayer(0.5)(x)
    outputs = keras.layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="mse")
    xs = np.random.RandomState(0).randn(32, 4).astype("float32")
    model.fit(xs, xs[:, :1], epochs=2, verbose=0)
    return model, xs


def test_custom_objects_required_and_honoured(tmp_path):
    model, xs = build_and_train()
    path = str(tmp_path / "m.keras")
    model.save(path)
    expected = model.predict(xs, verbose=0)
    with pytest.raises(ValueError, match="custom_activation|CustomLayer"):
        keras.models.load_model(path)
    restored = keras.models.load_model(path, custom_objects=CUSTOM)
    np.testing.assert_allclose(restored.predict(xs, verbose=0), expected, rtol=1e-5, atol=1e-6)
    assert restored.layers[2].factor == 0.5
    with keras.saving.custom_object_scope(CUSTOM):
        scoped = keras.models.load_model(path)
    np.testing.assert_allclose(scoped.predict(xs, verbose=0), expected, rtol=1e-5, atol=1e-6)


def test_from_config_clone_with_custom_objects():
    model, xs = build_and_train()
    clone = keras.Model.from_config(model.get_config(), custom_objects=CUSTOM)
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(xs, verbose=0), model.predict(xs, verbose=0), rtol=1e-5, atol=1e-6)


def test_to_json_and_model_from_json():
    model, xs = build_and_train()
    clone = keras.models.model_from_json(model.to_json(), custom_objects=CUSTOM)
    assert [type(l).__name__ for l in clone.layers] == [type(l).__name__ for l in model.layers]
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(xs, verbose=0), model.predict(xs, verbose=0), rtol=1e-5, atol=1e-6)

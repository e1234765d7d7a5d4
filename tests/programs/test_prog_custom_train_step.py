"""Subclassed Model overriding train_step / test_step (Keras 3 'customizing fit' guide style)."""
import numpy as np
import tapeflow as tf
from tapeflow import keras


class CustomModel(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = keras.layers.Dense(16, activation="tanh")
        self.out = keras.layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")

    def call(self, inputs, training=False):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = keras.losses.mean_squared_error(y, y_pred)
            loss = tf.reduce_mean(loss)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        loss = tf.reduce_mean(keras.losses.mean_squared_error(y, y_pred))
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae_metric]


class ComputeLossModel(keras.Model):
    """Second guide variant: uses self.compute_loss and the compiled metrics."""

    def train_step(self, data):
        x, y, sample_weight = keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred, sample_weight=sample_weight)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def make_data(seed=0, n=256):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(n, 3)).astype("float32")
    y = (np.sin(2 * x[:, :1]) + 0.5 * x[:, 1:2] * x[:, 2:3]).astype("float32")
    return x, y


def test_manual_train_step_and_test_step():
    tf.keras.utils.set_random_seed(0)
    x, y = make_data()
    model = CustomModel()
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.02))
    hist = model.fit(x, y, epochs=20, batch_size=32, verbose=0)
    assert set(hist.history) == {"loss", "mae"}
    assert hist.history["loss"][-1] < 0.1 * hist.history["loss"][0]
    res = model.evaluate(x, y, verbose=0, return_dict=True)
    pred = model.predict(x, verbose=0)
    np.testing.assert_allclose(res["loss"], np.mean((pred - y) ** 2), rtol=1e-3)
    np.testing.assert_allclose(res["mae"], np.mean(np.abs(pred - y)), rtol=1e-3)
    assert res["loss"] < 0.03


def test_compute_loss_train_step_functional_construction():
    tf.keras.utils.set_random_seed(1)
    x, y = make_data(1)
    inputs = keras.Input(shape=(3,))
    h = keras.layers.Dense(16, activation="relu")(inputs)
    outputs = keras.layers.Dense(1)(h)
    model = ComputeLossModel(inputs, outputs)
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    hist = model.fit(x, y, epochs=10, batch_size=32, verbose=0)
    assert "mae" in hist.history and "loss" in hist.history
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    pred = model.predict(x, verbose=0)
    res = model.evaluate(x, y, verbose=0, return_dict=True)
    assert keras.utils.unpack_x_y_sample_weight((x,)) [1:] == (None, None)
    np.testing.assert_allclose(res["mae"], np.mean(np.abs(pred - y)), rtol=1e-3)

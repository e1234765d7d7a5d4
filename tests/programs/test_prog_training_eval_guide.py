"""Keras guide "Training & evaluation with the built-in methods", written as a TF2 user writes it:
custom Metric subclass made with add_variable(shape=, initializer="zeros"), add_loss in a layer,
a learning-rate schedule, a callback overriding only on_batch_end, EarlyStopping, ModelCheckpoint,
class_weight / sample_weight, validation_split / validation_data, evaluate(return_dict=True)."""
import os

import numpy as np

import tapeflow as tf

keras = tf.keras
layers = keras.layers
ops = keras.ops


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(512, 8).astype("float32")
    y = np.argmax(x @ rng.randn(8, 3), axis=1).astype("int64")
    return x, y


class CategoricalTruePositives(keras.metrics.Metric):
    def __init__(self, name="categorical_true_positives", **kwargs):
        super().__init__(name=name, **kwargs)
        self.true_positives = self.add_variable(shape=(), name="ctp", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = ops.argmax(y_pred, axis=1)
        values = ops.cast(ops.cast(y_true, "int32") == ops.cast(y_pred, "int32"), "float32")
        if sample_weight is not None:
            values = ops.multiply(values, ops.cast(sample_weight, "float32"))
        self.true_positives.assign_add(ops.sum(values))

    def result(self):
        return self.true_positives

    def reset_state(self):
        self.true_positives.assign(0.0)


class ActivityRegularizationLayer(layers.Layer):
    def call(self, inputs):
        self.add_loss(ops.sum(inputs) * 1e-4)
        return inputs


def get_uncompiled_model():
    inputs = keras.Input(shape=(8,), name="digits")
    x = layers.Dense(32, activation="relu", name="dense_1")(inputs)
    x = ActivityRegularizationLayer()(x)
    x = layers.Dense(32, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(3, activation="softmax", name="predictions")(x)
    return keras.Model(inputs=inputs, outputs=outputs)


class LossHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.per_batch_losses = []

    def on_batch_end(self, batch, logs=None):
        self.per_batch_losses.append(logs.get("loss"))


def test_metric_subclass_schedule_and_callbacks(tmp_path):
    x, y = _data()
    model = get_uncompiled_model()
    lr = keras.optimizers.schedules.ExponentialDecay(1e-2, decay_steps=100, decay_rate=0.96, staircase=True)
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=lr),
                  loss=keras.losses.SparseCategoricalCrossentropy(),
                  metrics=[keras.metrics.SparseCategoricalAccuracy(), CategoricalTruePositives()])
    history = LossHistory()
    ckpt = keras.callbacks.ModelCheckpoint(filepath=os.path.join(tmp_path, "mymodel_{epoch}.keras"),
                                           save_best_only=True, monitor="val_loss", verbose=0)
    hist = model.fit(x, y, batch_size=64, epochs=5, validation_split=0.2, verbose=0,
                     callbacks=[keras.callbacks.EarlyStopping(monitor="val_loss", patience=2), history, ckpt])
    assert {"loss", "val_loss", "val_sparse_categorical_accuracy",
            "categorical_true_positives"} <= set(hist.history)
    epochs = len(hist.history["loss"])
    assert len(history.per_batch_losses) == epochs * 7          # 410 training rows / 64 per batch
    assert hist.history["loss"][-1] < 0.5 * hist.history["loss"][0]
    assert os.listdir(tmp_path)                                   # at least the first epoch saved

    result = model.evaluate(x, y, batch_size=512, verbose=0, return_dict=True)
    probs = model.predict(x, verbose=0)
    acc = np.mean(np.argmax(probs, 1) == y)
    assert acc > 0.85
    np.testing.assert_allclose(result["sparse_categorical_accuracy"], acc, rtol=1e-6)
    assert result["categorical_true_positives"] == np.sum(np.argmax(probs, 1) == y)
    as_list = model.evaluate(x, y, batch_size=512, verbose=0)
    np.testing.assert_allclose(as_list, [result["loss"], result["sparse_categorical_accuracy"],
                                         result["categorical_true_positives"]], rtol=1e-5)


def test_metric_variable_initializers_and_reset():
    m = CategoricalTruePositives()
    m.update_state(np.array([0, 1, 2]), np.eye(3, dtype="float32"))
    assert float(m.result()) == 3.0
    m.reset_state()
    assert float(m.result()) == 0.0

    class Ones(keras.metrics.Metric):
        def __init__(self):
            super().__init__(name="ones")
            self.v = self.add_variable(shape=(2,), initializer="ones", name="v")

        def update_state(self, a):
            self.v.assign_add(a)

        def result(self):
            return self.v

    o = Ones()
    o.update_state(np.array([1.0, 2.0], "float32"))
    np.testing.assert_allclose(o.result().numpy(), [2.0, 3.0])
    o.reset_state()
    np.testing.assert_allclose(o.result().numpy(), [1.0, 1.0])


def test_class_weight_sample_weight_and_custom_losses():
    x, y = _data()
    model = get_uncompiled_model()
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    model.fit(x, y, class_weight={0: 1.0, 1: 1.0, 2: 2.0}, batch_size=64, epochs=1, verbose=0)
    sw = np.ones((512,)); sw[y == 2] = 2.0
    model.fit(x, y, sample_weight=sw, batch_size=64, epochs=1, verbose=0)
    ds = tf.data.Dataset.from_tensor_slices((x, y, sw)).shuffle(100).batch(64)
    val_ds = tf.data.Dataset.from_tensor_slices((x[:100], y[:100])).batch(64)
    h = model.fit(ds, epochs=3, validation_data=val_ds, validation_steps=1, verbose=0)
    assert h.history["loss"][-1] < h.history["loss"][0]
    assert h.history["val_sparse_categorical_accuracy"][-1] > 0.5   # chance is 1/3; rmsprop lr 1e-3

    class CustomMSE(keras.losses.Loss):
        def __init__(self, regularization_factor=0.1, name="custom_mse"):
            super().__init__(name=name)
            self.regularization_factor = regularization_factor

        def call(self, y_true, y_pred):
            mse = ops.mean(ops.square(y_true - y_pred), axis=-1)
            reg = ops.mean(ops.square(0.5 - y_pred), axis=-1)
            return mse + reg * self.regularization_factor

    def custom_mean_squared_error(y_true, y_pred):
        return ops.mean(ops.square(y_true - y_pred), axis=-1)

    y_one_hot = ops.one_hot(y, num_classes=3)
    for loss in (custom_mean_squared_error, CustomMSE()):
        m2 = get_uncompiled_model()
        m2.compile(optimizer=keras.optimizers.Adam(), loss=loss)
        h = m2.fit(x, y_one_hot, batch_size=64, epochs=4, verbose=0)
        assert h.history["loss"][-1] < 0.9 * h.history["loss"][0]

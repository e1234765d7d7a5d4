"""Callbacks: EarlyStopping(restore_best_weights), ModelCheckpoint(save_best_only),
ReduceLROnPlateau and a custom Callback subclass."""
import os

import numpy as np
import tapeflow as tf
from tapeflow import keras


class LossHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.batch_losses = []
        self.epochs_seen = []
        self.lrs = []

    def on_train_batch_end(self, batch, logs=None):
        self.batch_losses.append(logs["loss"])

    def on_epoch_end(self, epoch, logs=None):
        self.epochs_seen.append(epoch)
        self.lrs.append(float(keras.backend.get_value(self.model.optimizer.learning_rate)))


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(200, 5)).astype("float32")
    y = (x @ np.array([1.0, -2.0, 0.5, 0.0, 1.5], "float32") + 0.1 * rng.normal(size=200)).astype("float32")
    return x, y[:, None]


def build():
    model = keras.Sequential([keras.Input(shape=(5,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    return model


def test_early_stopping_restores_best_weights(tmp_path):
    keras.utils.set_random_seed(0)
    x, y = make_data()
    xv, yv = make_data(1)
    yv = yv + 3.0  # a shifted validation set: val_loss gets worse as training fits the train set
    model = build()
    es = keras.callbacks.EarlyStopping(monitor="val_loss", patience=2, restore_best_weights=True)
    hist_cb = LossHistory()
    ckpt = str(tmp_path / "best.weights.h5")
    mc = keras.callbacks.ModelCheckpoint(ckpt, monitor="val_loss", save_best_only=True, save_weights_only=True)
    hist = model.fit(x, y, epochs=50, batch_size=20, validation_data=(xv, yv),
                     callbacks=[es, mc, hist_cb], verbose=0)
    n = len(hist.history["loss"])
    assert n < 50 and es.stopped_epoch > 0
    assert hist_cb.epochs_seen == list(range(n))
    assert len(hist_cb.batch_losses) == n * 10
    best = int(np.argmin(hist.history["val_loss"]))
    assert n == best + 1 + 2  # stopped after `patience` epochs without improvement
    restored = model.evaluate(xv, yv, verbose=0)
    np.testing.assert_allclose(restored, hist.history["val_loss"][best], rtol=1e-4)
    # the checkpoint holds the best weights too
    assert os.path.exists(ckpt)
    other = build()
    other.load_weights(ckpt)
    np.testing.assert_allclose(other.predict(xv, verbose=0), model.predict(xv, verbose=0), rtol=1e-5, atol=1e-6)


def test_reduce_lr_on_plateau_and_lambda_callback():
    keras.utils.set_random_seed(1)
    x, y = make_data()
    model = build()
    rl = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=10.0, min_lr=0.01)
    hist_cb = LossHistory()
    ends = []
    lam = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: ends.append(round(logs["loss"], 6)))
    hist = model.fit(x, y, epochs=5, batch_size=50, callbacks=[rl, hist_cb, lam], verbose=0)
    # min_delta is huge: no epoch counts as an improvement, the LR halves each epoch down to min_lr
    np.testing.assert_allclose(hist_cb.lrs, [0.05, 0.025, 0.0125, 0.01, 0.01], rtol=1e-6)
    assert "learning_rate" in hist.history or "lr" in hist.history
    assert ends == [round(v, 6) for v in hist.history["loss"]]


def test_custom_callback_stops_training():
    class StopAtLoss(keras.callbacks.Callback):
        def __init__(self, threshold):
            super().__init__()
            self.threshold = threshold

        def on_epoch_end(self, epoch, logs=None):
            if logs.get("loss") < self.threshold:
                self.model.stop_training = True

    keras.utils.set_random_seed(2)
    x, y = make_data()
    model = build()
    hist = model.fit(x, y, epochs=100, batch_size=20, callbacks=[StopAtLoss(0.5)], verbose=0)
    assert hist.history["loss"][-1] < 0.5
    assert all(v >= 0.5 for v in hist.history["loss"][:-1])
    assert len(hist.history["loss"]) < 100

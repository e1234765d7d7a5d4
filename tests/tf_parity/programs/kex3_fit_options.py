"""keras.io training options, scaled down: ModelCheckpoint (best only, weights only), a custom
stateful metric and F1Score / AUC in compile, fit with steps_per_epoch over a repeated dataset,
initial_epoch, validation_freq, and a custom callback reading the logs and the optimizer."""
import os

import numpy as np

from parity import tolerance
from _sweep import data, history, labels, set_weights, tmp

X, Y = data(n=12, d=3, seed=9)
XC, YC = labels(n=12, d=3, classes=2, seed=10)


@tolerance(rtol=1e-4, atol=1e-5)
def program_model_checkpoint_best_only(tf):
    keras = tf.keras
    folder = tmp()
    path = os.path.join(folder, "best.weights.h5")
    m = set_weights(keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)]))
    m.compile(keras.optimizers.SGD(0.3), "mse")
    ck = keras.callbacks.ModelCheckpoint(path, monitor="val_loss", save_best_only=True, save_weights_only=True)
    h = m.fit(X, Y, validation_data=(X[:4], Y[:4]), batch_size=4, epochs=4, verbose=0, shuffle=False,
              callbacks=[ck])
    fresh = set_weights(keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)]), 0.1)
    fresh.load_weights(path)
    fresh.compile(loss="mse")
    return {"hist": history(h), "best": float(ck.best), "loaded_eval": fresh.evaluate(X[:4], Y[:4], verbose=0),
            "files": sorted(os.listdir(folder))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_custom_metric_and_builtin_scores(tf):
    keras = tf.keras

    class CountAbove(keras.metrics.Metric):
        def __init__(self, threshold=0.5, name="count_above", **kw):
            super().__init__(name=name, **kw)
            self.threshold = threshold
            self.total = self.add_variable(shape=(), initializer="zeros", name="total")

        def update_state(self, y_true, y_pred, sample_weight=None):
            above = keras.ops.cast(y_pred > self.threshold, "float32")
            self.total.assign_add(keras.ops.sum(above))

        def result(self):
            return self.total

        def reset_state(self):
            self.total.assign(0.0)

    m = set_weights(keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")]))
    m.compile(keras.optimizers.Adam(0.05), "binary_crossentropy",
              metrics=[CountAbove(), keras.metrics.AUC(num_thresholds=20), keras.metrics.Precision(),
                       keras.metrics.Recall(), keras.metrics.F1Score(average="micro", threshold=0.5)])
    y = YC.astype("float32")[:, None]
    h = m.fit(XC, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "eval": m.evaluate(XC, y, verbose=0, return_dict=True)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_steps_per_epoch_initial_epoch_validation_freq(tf):
    keras = tf.keras
    m = set_weights(keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)]))
    m.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4).repeat()
    val = tf.data.Dataset.from_tensor_slices((X[:4], Y[:4])).batch(2)
    h = m.fit(ds, steps_per_epoch=2, epochs=5, initial_epoch=1, validation_data=val, validation_freq=2, verbose=0)
    return {"hist": history(h), "epochs": h.epoch, "params": h.params, "iters": m.optimizer.iterations}


@tolerance(rtol=1e-4, atol=1e-5)
def program_custom_callback_logs(tf):
    keras = tf.keras
    seen = []

    class Recorder(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            seen.append(("begin", sorted(logs or {})))

        def on_epoch_begin(self, epoch, logs=None):
            seen.append(("epoch", epoch, float(self.model.optimizer.learning_rate)))

        def on_train_batch_end(self, batch, logs=None):
            seen.append(("batch", batch, sorted(logs), float(logs["loss"])))

        def on_test_end(self, logs=None):
            seen.append(("test", sorted(logs)))

        def on_epoch_end(self, epoch, logs=None):
            seen.append(("end", epoch, {k: float(v) for k, v in logs.items()}))
            if epoch == 1:
                self.model.stop_training = True

    m = set_weights(keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)]))
    m.compile(keras.optimizers.SGD(keras.optimizers.schedules.ExponentialDecay(0.1, 2, 0.5)), "mse")
    h = m.fit(X, Y, validation_split=0.25, batch_size=3, epochs=5, verbose=0, shuffle=False,
              callbacks=[Recorder()])
    return {"seen": seen, "epochs": h.epoch}

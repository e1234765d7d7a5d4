"""Keras callbacks from the built-in training guide, with weights set from NumPy."""
import os
import tempfile

import numpy as np

X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [2.0, 1.0], [0.5, 2.0], [1.5, 0.5], [3.0, 1.0], [0.0, 0.0]],
             dtype="float32")
Y = (X @ np.array([[2.0], [-1.0]], dtype="float32") + 0.5).astype("float32")


def _model(tf, lr=0.05):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.layers[0].set_weights([np.array([[0.1], [-0.2]], "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(lr), loss="mse")
    return model


def _floats(xs):
    return [float(v) for v in xs]


def program_learning_rate_scheduler(tf):
    m = _model(tf)
    sched = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch > 0 else lr)
    h = m.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0, callbacks=[sched])
    return {"loss": _floats(h.history["loss"]), "lr": _floats(h.history["learning_rate"]),
            "final_lr": float(m.optimizer.learning_rate.numpy())}


def program_reduce_lr_on_plateau(tf):
    m = _model(tf, lr=0.5)
    cb = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=1e9, verbose=0)
    h = m.fit(X, Y, batch_size=4, epochs=4, shuffle=False, verbose=0, callbacks=[cb])
    return {"loss": _floats(h.history["loss"]), "lr": _floats(h.history["learning_rate"])}


def program_early_stopping(tf):
    m = _model(tf, lr=0.01)
    cb = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=1e9)
    h = m.fit(X, Y, batch_size=4, epochs=10, shuffle=False, verbose=0, callbacks=[cb])
    return {"epochs": len(h.history["loss"]), "stopped": cb.stopped_epoch}


def program_terminate_on_nan(tf):
    m = _model(tf, lr=1e6)
    h = m.fit(X * 100, Y * 100, batch_size=2, epochs=5, shuffle=False, verbose=0,
              callbacks=[tf.keras.callbacks.TerminateOnNaN()])
    return {"epochs": len(h.history["loss"]), "last_is_finite": bool(np.isfinite(h.history["loss"][-1]))}


def program_csv_logger(tf):
    m = _model(tf)
    path = os.path.join(tempfile.mkdtemp(), "log.csv")
    m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[tf.keras.callbacks.CSVLogger(path)])
    with open(path) as f:
        rows = [line.strip().split(",") for line in f if line.strip()]
    return {"header": rows[0], "epochs": [r[0] for r in rows[1:]],
            "loss": [round(float(r[rows[0].index("loss")]), 5) for r in rows[1:]]}


def program_lambda_callback(tf):
    seen = []
    m = _model(tf)
    cb = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, sorted(logs))))
    m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[cb])
    return {"seen": seen}


def program_custom_callback_batches(tf):
    events = []

    class Rec(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            events.append("train_begin")

        def on_epoch_begin(self, epoch, logs=None):
            events.append(f"epoch_begin {epoch}")

        def on_train_batch_end(self, batch, logs=None):
            events.append(f"batch_end {batch}")

        def on_epoch_end(self, epoch, logs=None):
            events.append(f"epoch_end {epoch}")

        def on_train_end(self, logs=None):
            events.append("train_end")
    m = _model(tf)
    m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[Rec()])
    return {"events": events}


def program_model_checkpoint_best(tf):
    m = _model(tf)
    d = tempfile.mkdtemp()
    path = os.path.join(d, "best.weights.h5")
    cb = tf.keras.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True, save_weights_only=True)
    m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[cb])
    return {"exists": os.path.exists(path)}


def program_backup_and_restore(tf):
    d = tempfile.mkdtemp()

    class Interrupt(tf.keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            if epoch == 2:
                raise RuntimeError("interrupted")
    m = _model(tf)
    try:
        m.fit(X, Y, batch_size=4, epochs=4, shuffle=False, verbose=0,
              callbacks=[tf.keras.callbacks.BackupAndRestore(d), Interrupt()])
    except RuntimeError:
        pass
    m2 = _model(tf)
    h = m2.fit(X, Y, batch_size=4, epochs=4, shuffle=False, verbose=0,
               callbacks=[tf.keras.callbacks.BackupAndRestore(d)])
    return {"epochs_run": len(h.history["loss"]), "loss": _floats(h.history["loss"]), "w": m2.layers[0].kernel}


def program_history_params(tf):
    m = _model(tf)
    h = m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"epoch": h.epoch, "steps": h.params.get("steps"), "epochs": h.params.get("epochs")}

"""Keras callbacks as the Keras 3 guides write them: EarlyStopping, ModelCheckpoint,
ReduceLROnPlateau, LearningRateScheduler, LambdaCallback and a custom Callback's hooks."""
import os

import numpy as np

from _sweep import data, history, set_weights, tmp


def _mlp(tf):
    inp = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(4, activation="tanh")(inp)
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(h)))
    return m


def _lr(m):
    return float(np.asarray(m.optimizer.learning_rate))


def program_early_stopping_patience_and_stopped_epoch(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.9), "mse")
    es = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1, min_delta=10.0)
    h = m.fit(x, y, epochs=10, batch_size=4, shuffle=False, verbose=0, callbacks=[es])
    return {"epochs": len(h.history["loss"]), "stopped": es.stopped_epoch, "wait": es.wait,
            "best": float(es.best)}


def program_early_stopping_restore_best_val(tf):
    x, y = data(16)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.4), "mse")
    es = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=2, restore_best_weights=True)
    h = m.fit(x[:12], y[:12], validation_data=(x[12:], y[12:]), epochs=8, batch_size=4,
              shuffle=False, verbose=0, callbacks=[es])
    val = m.evaluate(x[12:], y[12:], verbose=0)
    return {"h": history(h), "stopped": es.stopped_epoch, "best_epoch": es.best_epoch, "val_after": float(val)}


def program_early_stopping_baseline_and_mode(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.05), "mse", metrics=["mae"])
    es = tf.keras.callbacks.EarlyStopping(monitor="mae", mode="min", baseline=0.0001, patience=2)
    h = m.fit(x, y, epochs=6, batch_size=4, shuffle=False, verbose=0, callbacks=[es])
    return {"n": len(h.history["loss"]), "stopped": es.stopped_epoch}


def program_model_checkpoint_best_only_files(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    d = tmp()
    path = os.path.join(d, "ep{epoch:02d}-{loss:.3f}.weights.h5")
    ck = tf.keras.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True, save_weights_only=True)
    m.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0, callbacks=[ck])
    return {"files": sorted(os.listdir(d)), "best": float(ck.best)}


def program_model_checkpoint_full_model_and_reload(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    path = os.path.join(tmp(), "best.keras")
    ck = tf.keras.callbacks.ModelCheckpoint(path, monitor="val_loss", save_best_only=True)
    m.fit(x[:8], y[:8], validation_data=(x[8:], y[8:]), epochs=3, batch_size=4, shuffle=False,
          verbose=0, callbacks=[ck])
    back = tf.keras.models.load_model(path)
    return {"exists": os.path.exists(path), "pred": back.predict(x[:2], verbose=0)}


def program_reduce_lr_on_plateau_history_lr(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    cb = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=100.0, min_lr=0.02)
    h = m.fit(x, y, epochs=4, batch_size=4, shuffle=False, verbose=0, callbacks=[cb])
    return {"h": history(h), "lr": _lr(m)}


def program_learning_rate_scheduler_epoch_fn(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.2), "mse")

    def schedule(epoch, lr):
        return lr if epoch < 1 else lr * 0.5
    seen = []
    cb = tf.keras.callbacks.LearningRateScheduler(schedule)
    rec = tf.keras.callbacks.LambdaCallback(on_epoch_begin=lambda e, logs: seen.append(_lr(m)))
    h = m.fit(x, y, epochs=4, batch_size=4, shuffle=False, verbose=0, callbacks=[cb, rec])
    return {"seen": seen, "h": history(h)}


def program_lambda_callback_all_hooks(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile("sgd", "mse")
    ev = []
    cb = tf.keras.callbacks.LambdaCallback(
        on_train_begin=lambda logs: ev.append(("tb", sorted(logs or {}))),
        on_epoch_begin=lambda e, logs: ev.append(("eb", e)),
        on_batch_end=lambda b, logs: ev.append(("be", b, sorted(logs))),
        on_epoch_end=lambda e, logs: ev.append(("ee", e, sorted(logs))),
        on_train_end=lambda logs: ev.append(("te", sorted(logs or {}))))
    m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[cb])
    return {"ev": [list(e) for e in ev]}


def program_custom_callback_hook_order_fit_and_evaluate(tf):
    ev = []

    class Rec(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            ev.append("train_begin")

        def on_epoch_begin(self, epoch, logs=None):
            ev.append(f"epoch_begin_{epoch}")

        def on_train_batch_begin(self, batch, logs=None):
            ev.append(f"tb_{batch}")

        def on_train_batch_end(self, batch, logs=None):
            ev.append(f"te_{batch}:{sorted(logs)}")

        def on_test_begin(self, logs=None):
            ev.append("test_begin")

        def on_test_batch_end(self, batch, logs=None):
            ev.append(f"vb_{batch}")

        def on_test_end(self, logs=None):
            ev.append(f"test_end:{sorted(logs)}")

        def on_epoch_end(self, epoch, logs=None):
            ev.append(f"epoch_end_{epoch}:{sorted(logs)}")

        def on_train_end(self, logs=None):
            ev.append("train_end")

        def on_predict_begin(self, logs=None):
            ev.append("predict_begin")

        def on_predict_batch_end(self, batch, logs=None):
            ev.append(f"pb_{batch}:{sorted(logs)}")

        def on_predict_end(self, logs=None):
            ev.append("predict_end")
    x, y = data(8)
    m = _mlp(tf)
    m.compile("sgd", "mse", metrics=["mae"])
    m.fit(x, y, validation_data=(x[:4], y[:4]), epochs=1, batch_size=4, shuffle=False, verbose=0, callbacks=[Rec()])
    m.evaluate(x, y, batch_size=8, verbose=0, callbacks=[Rec()])
    m.predict(x, batch_size=4, verbose=0, callbacks=[Rec()])
    return {"ev": ev}


def program_callback_model_and_params(tf):
    got = {}

    class Peek(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            got["same"] = self.model is m
            got["params"] = {k: self.params[k] for k in sorted(self.params)}
    x, y = data(10)
    m = _mlp(tf)
    m.compile("sgd", "mse")
    m.fit(x, y, epochs=2, batch_size=4, verbose=0, callbacks=[Peek()])
    return got


def program_callback_stop_training_on_batch(tf):
    class StopAt(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 1:
                self.model.stop_training = True
    x, y = data(16)
    m = _mlp(tf)
    m.compile("sgd", "mse")
    h = m.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0, callbacks=[StopAt()])
    return {"n": len(h.history["loss"]), "h": history(h)}


def program_history_callback_in_list_and_epochs(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mse"])
    h = m.fit(x, y, epochs=3, batch_size=8, validation_split=0.5, shuffle=False, verbose=0)
    return {"keys": sorted(h.history), "epoch": h.epoch, "h": history(h)}


def program_csv_logger_contents(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    path = os.path.join(tmp(), "log.csv")
    m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[tf.keras.callbacks.CSVLogger(path)])
    with open(path) as f:
        rows = [line.strip().split(",") for line in f]
    return {"header": rows[0], "n": len(rows), "epochs": [r[0] for r in rows[1:]],
            "loss": [round(float(r[rows[0].index("loss")]), 5) for r in rows[1:]]}


def program_remote_style_custom_logs_mutation(tf):
    class AddKey(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["double_loss"] = logs["loss"] * 2
    x, y = data(8)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[AddKey()])
    return {"h": history(h)}

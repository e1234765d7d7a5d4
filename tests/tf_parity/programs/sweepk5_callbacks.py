"""Writing your own Keras 3 callbacks: every hook, its logs keys and values, self.model,
stop_training."""
import numpy as np

from _sweep import data, set_weights


def _model(tf, metrics=()):
    inp = tf.keras.Input((3,))
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(inp)))
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=list(metrics))
    return m


def _recorder(tf, calls):
    class Rec(tf.keras.callbacks.Callback):
        pass

    def hook(name):
        def f(self, *args, **kw):
            logs = args[-1] if args and isinstance(args[-1], dict) else kw.get("logs")
            ent = [name] + [a for a in args if isinstance(a, int)]
            ent.append(sorted(logs) if logs is not None else None)
            calls.append(ent)
        return f
    for n in ["on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
              "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_end",
              "on_test_batch_begin", "on_test_batch_end", "on_predict_begin", "on_predict_end",
              "on_predict_batch_begin", "on_predict_batch_end"]:
        setattr(Rec, n, hook(n))
    return Rec()


def program_fit_hook_order_and_log_keys(tf):
    x, y = data(8)
    m = _model(tf, ["mae"])
    calls = []
    m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[_recorder(tf, calls)])
    return {"calls": calls}


def program_fit_with_validation_hooks(tf):
    x, y = data(8)
    m = _model(tf)
    calls = []
    m.fit(x[:4], y[:4], validation_data=(x[4:], y[4:]), epochs=1, batch_size=2, shuffle=False,
          verbose=0, callbacks=[_recorder(tf, calls)])
    return {"calls": calls}


def program_evaluate_and_predict_hooks(tf):
    x, y = data(6)
    m = _model(tf, ["mae"])
    calls = []
    rec = _recorder(tf, calls)
    m.evaluate(x, y, batch_size=4, verbose=0, callbacks=[rec])
    m.predict(x, batch_size=4, verbose=0, callbacks=[rec])
    return {"calls": calls}


def program_epoch_end_log_values(tf):
    x, y = data(8)
    m = _model(tf, ["mae"])
    got = []

    class C(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            got.append({k: float(v) for k, v in logs.items()})

        def on_train_batch_end(self, batch, logs=None):
            got.append((batch, round(float(logs["loss"]), 5)))
    m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[C()])
    return {"got": got}


def program_stop_training_from_batch_end(tf):
    x, y = data(16)
    m = _model(tf)
    seen = []

    class C(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(batch)
            if batch == 1:
                self.model.stop_training = True
    h = m.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0, callbacks=[C()])
    return {"seen": seen, "epochs": len(h.history["loss"])}


def program_stop_training_from_epoch_end(tf):
    x, y = data(8)
    m = _model(tf)

    class C(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if logs["loss"] < 10:
                self.model.stop_training = True
    h = m.fit(x, y, epochs=5, batch_size=4, shuffle=False, verbose=0, callbacks=[C()])
    return {"epochs": len(h.history["loss"])}


def program_callback_model_and_params(tf):
    x, y = data(8)
    m = _model(tf)
    got = {}

    class C(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            got["same"] = self.model is m
            got["params"] = dict(self.params)
            got["lr"] = float(np.asarray(self.model.optimizer.learning_rate))
    m.fit(x, y, epochs=2, batch_size=3, verbose=0, callbacks=[C()])
    return got


def program_callback_changes_lr_each_epoch(tf):
    x, y = data(8)
    m = _model(tf)
    lrs = []

    class C(tf.keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            self.model.optimizer.learning_rate.assign(0.1 / (epoch + 1))

        def on_epoch_end(self, epoch, logs=None):
            lrs.append(float(np.asarray(self.model.optimizer.learning_rate)))
    h = m.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0, callbacks=[C()])
    return {"lrs": lrs, "loss": h.history["loss"]}


def program_callback_adds_to_logs(tf):
    x, y = data(8)
    m = _model(tf)

    class C(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["extra"] = epoch * 10.0
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[C()])
    return {"keys": sorted(h.history), "extra": h.history.get("extra")}


def program_lambda_callback_hooks(tf):
    x, y = data(8)
    m = _model(tf)
    ev = []
    cb = tf.keras.callbacks.LambdaCallback(on_epoch_begin=lambda e, logs: ev.append(("eb", e)),
                                           on_batch_end=lambda b, logs: ev.append(("be", b)),
                                           on_train_end=lambda logs: ev.append(("te",)))
    m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[cb])
    return {"ev": ev}


def program_history_object_fields(tf):
    x, y = data(8)
    m = _model(tf)
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"epoch": h.epoch, "params": dict(h.params), "is_model": h.model is m,
            "type": type(h).__name__}


def program_callback_list_container(tf):
    x, y = data(8)
    m = _model(tf)
    calls = []
    cl = tf.keras.callbacks.CallbackList([_recorder(tf, calls)], model=m)
    cl.on_train_begin()
    cl.on_epoch_begin(0)
    cl.on_epoch_end(0, {"loss": 1.0})
    return {"calls": calls}

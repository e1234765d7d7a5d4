"""Keras guide "training with built-in methods", written anew: weights, splits, callbacks, custom
losses and metrics, loss_weights, add_loss -- each with fixed starting weights."""
import numpy as np

from _sweep import data, history, labels, set_weights


def _mlp(tf, out=1, act=None, d=3):
    inp = tf.keras.Input((d,))
    h = tf.keras.layers.Dense(4, activation="relu")(inp)
    return set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(out, activation=act)(h)))


def program_fit_dict_sample_weight_and_val(tf):
    x, y = data(20)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae"], weighted_metrics=["mse"])
    sw = np.linspace(0.5, 2.0, 20).astype("float32")
    h = m.fit(x, y, sample_weight=sw, validation_split=0.2, epochs=3, batch_size=5, shuffle=False, verbose=0)
    return {"h": history(h), "w": m.get_weights()[-1]}


def program_class_weight_multiclass(tf):
    x, y = labels(18)
    m = _mlp(tf, 3, "softmax")
    m.compile(tf.keras.optimizers.SGD(0.2), tf.keras.losses.SparseCategoricalCrossentropy(),
              metrics=[tf.keras.metrics.SparseCategoricalAccuracy(name="acc")])
    h = m.fit(x, y, class_weight={0: 0.5, 1: 2.0, 2: 1.0}, epochs=2, batch_size=6, shuffle=False, verbose=0)
    return {"h": history(h), "pred": m.predict(x[:3], verbose=0)}


def program_evaluate_return_dict(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile("sgd", "mse", metrics=["mae", tf.keras.metrics.RootMeanSquaredError()])
    res = m.evaluate(x, y, batch_size=5, return_dict=True, verbose=0)
    lst = m.evaluate(x, y, batch_size=5, verbose=0)
    return {"dict": {k: float(v) for k, v in res.items()}, "list": [float(v) for v in lst],
            "names": list(m.metrics_names)}


def program_custom_loss_with_param(tf):
    def huberish(delta):
        def loss(y_true, y_pred):
            err = y_true - y_pred
            small = tf.abs(err) <= delta
            return tf.reduce_mean(tf.where(small, 0.5 * err ** 2, delta * (tf.abs(err) - 0.5 * delta)), axis=-1)
        return loss
    x, y = data(16)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), loss=huberish(0.2))
    h = m.fit(x, y * 3, epochs=3, batch_size=8, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_loss_subclass_with_config(tf):
    class ScaledMSE(tf.keras.losses.Loss):
        def __init__(self, factor=2.0, name="scaled_mse"):
            super().__init__(name=name)
            self.factor = factor

        def call(self, y_true, y_pred):
            return self.factor * tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)

        def get_config(self):
            return {"factor": self.factor, "name": self.name}
    loss = ScaledMSE(3.0)
    yt = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    yp = tf.constant([[1.5, 2.0], [2.0, 4.5]])
    return {"plain": loss(yt, yp), "weighted": loss(yt, yp, sample_weight=tf.constant([1.0, 0.0])),
            "cfg": loss.get_config(), "clone": ScaledMSE.from_config(loss.get_config())(yt, yp)}


def program_stateful_metric_subclass(tf):
    class CategoricalTruePositives(tf.keras.metrics.Metric):
        def __init__(self, name="ctp", **kwargs):
            super().__init__(name=name, **kwargs)
            self.true_positives = self.add_weight(name="ctp", initializer="zeros")

        def update_state(self, y_true, y_pred, sample_weight=None):
            y_pred = tf.reshape(tf.argmax(y_pred, axis=1), shape=(-1, 1))
            values = tf.cast(tf.cast(y_true, "int32") == tf.cast(y_pred, "int32"), "float32")
            if sample_weight is not None:
                values = tf.multiply(values, tf.cast(sample_weight, "float32"))
            self.true_positives.assign_add(tf.reduce_sum(values))

        def result(self):
            return self.true_positives

        def reset_state(self):
            self.true_positives.assign(0.0)
    x, y = labels(12)
    m = _mlp(tf, 3, "softmax")
    m.compile(tf.keras.optimizers.RMSprop(0.01), "sparse_categorical_crossentropy",
              metrics=[CategoricalTruePositives()])
    h = m.fit(x, y.reshape(-1, 1), batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_add_loss_activity_layer(tf):
    class ActivityRegularizationLayer(tf.keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs) * 0.01)
            return inputs
    inp = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(4, activation="relu")(inp)
    h = ActivityRegularizationLayer()(h)
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(h)))
    m.compile(tf.keras.optimizers.SGD(0.05), "mse")
    x, y = data(8)
    first = m(x)
    n_losses = len(m.losses)
    h = m.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": history(h), "n_losses": n_losses, "first": first}


def program_multi_output_loss_weights_dict(tf):
    inp = tf.keras.Input((3,), name="features")
    h = tf.keras.layers.Dense(4, activation="tanh")(inp)
    score = tf.keras.layers.Dense(1, name="score")(h)
    cls = tf.keras.layers.Dense(2, activation="softmax", name="cls")(h)
    m = set_weights(tf.keras.Model(inp, [score, cls]))
    m.compile(tf.keras.optimizers.SGD(0.05),
              loss={"score": "mse", "cls": "sparse_categorical_crossentropy"},
              loss_weights={"score": 1.0, "cls": 0.2}, metrics={"cls": ["accuracy"]})
    x, y = data(12)
    c = (y[:, 0] > 0).astype("int32")
    h = m.fit({"features": x}, {"score": y, "cls": c}, batch_size=6, epochs=2, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_callbacks_history_and_lr(tf):
    seen = []

    class Recorder(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            seen.append((epoch, sorted(logs), float(self.model.optimizer.learning_rate)))

    def schedule(epoch, lr):
        return lr if epoch < 1 else lr * 0.5
    x, y = data(10)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(x, y, epochs=3, batch_size=5, shuffle=False, verbose=0,
              callbacks=[tf.keras.callbacks.LearningRateScheduler(schedule), Recorder()])
    return {"h": history(h), "seen": seen, "epochs": h.epoch}


def program_early_stopping_restore_best(tf):
    x, y = data(10)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(1.5), "mse")
    es = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
    h = m.fit(x, y, epochs=8, batch_size=10, shuffle=False, verbose=0, callbacks=[es])
    return {"epochs": h.epoch, "stopped": es.stopped_epoch, "w": m.get_weights()[-1]}


def program_fit_dataset_with_validation_dataset(tf):
    x, y = data(16)
    train = tf.data.Dataset.from_tensor_slices((x[:12], y[:12])).batch(4)
    val = tf.data.Dataset.from_tensor_slices((x[12:], y[12:])).batch(2)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.Adam(0.02), "mae", metrics=["mse"])
    h = m.fit(train, validation_data=val, epochs=2, verbose=0)
    return {"h": history(h), "keys": sorted(h.history)}


def program_predict_on_batch_and_test_on_batch(tf):
    x, y = data(6)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    tr = m.train_on_batch(x, y)
    te = m.test_on_batch(x, y, return_dict=True)
    pr = m.predict_on_batch(x[:2])
    return {"tr": [float(v) for v in tr], "te": {k: float(v) for k, v in te.items()}, "pr": pr,
            "pr_type": type(pr).__name__}


def program_sample_weight_validation_tuple(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.05), "mse", weighted_metrics=["mae"])
    vw = np.array([1.0, 0.0, 2.0, 1.0], "float32")
    h = m.fit(x[:8], y[:8], validation_data=(x[8:], y[8:], vw), epochs=2, batch_size=4,
              shuffle=False, verbose=0)
    return {"h": history(h)}


def program_metrics_from_strings_resolve(tf):
    x, y = labels(9)
    m = _mlp(tf, 3, "softmax")
    m.compile("adam", "sparse_categorical_crossentropy",
              metrics=["accuracy", "sparse_top_k_categorical_accuracy"])
    res = m.evaluate(x, y, verbose=0, return_dict=True)
    return {"keys": sorted(res), "vals": {k: float(v) for k, v in res.items()}}

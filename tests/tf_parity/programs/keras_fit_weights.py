"""Keras guide "Training & evaluation with the built-in methods": weights, splits, custom
losses and metrics; weights set from NumPy so both libraries start from the same model."""
import numpy as np

X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [2.0, 1.0], [0.5, 2.0], [1.5, 0.5], [3.0, 1.0], [0.0, 0.0]],
             dtype="float32")
Y = (X @ np.array([[2.0], [-1.0]], dtype="float32") + 0.5).astype("float32")
LABELS = np.array([0, 1, 1, 0, 1, 0, 1, 0], dtype="int32")


def _linear(tf, units=1, activation=None):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(units, activation=activation)])
    k = np.arange(2 * units, dtype="float32").reshape(2, units) * 0.1 - 0.05
    model.layers[0].set_weights([k, np.zeros(units, "float32")])
    return model


def _history(h):
    return {k: [float(v) for v in vals] for k, vals in h.history.items()}


def program_fit_plain(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    h = m.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return {"h": _history(h), "w": m.layers[0].kernel}


def program_fit_sample_weight(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    sw = np.array([1, 2, 0, 1, 1, 0.5, 1, 3], dtype="float32")
    h = m.fit(X, Y, sample_weight=sw, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h), "w": m.layers[0].kernel}


def program_fit_class_weight(tf):
    m = _linear(tf, 2, "softmax")
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    h = m.fit(X, LABELS, class_weight={0: 1.0, 1: 3.0}, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_validation_split(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    h = m.fit(X, Y, validation_split=0.25, batch_size=3, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_validation_data(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    h = m.fit(X[:6], Y[:6], validation_data=(X[6:], Y[6:]), batch_size=2, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_custom_loss_function(tf):
    def my_loss(y_true, y_pred):
        return tf.reduce_mean(tf.abs(y_true - y_pred) * 2.0, axis=-1)
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=my_loss)
    h = m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_custom_loss_subclass(tf):
    class Scaled(tf.keras.losses.Loss):
        def __init__(self, factor=0.5, name="scaled"):
            super().__init__(name=name)
            self.factor = factor

        def call(self, y_true, y_pred):
            return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1) * self.factor
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=Scaled())
    h = m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_custom_metric_function(tf):
    def max_err(y_true, y_pred):
        return tf.reduce_max(tf.abs(y_true - y_pred), axis=-1)
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=[max_err])
    h = m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_custom_metric_subclass(tf):
    class CountAbove(tf.keras.metrics.Metric):
        def __init__(self, name="count_above", **kw):
            super().__init__(name=name, **kw)
            self.count = self.add_weight(name="count", initializer="zeros")

        def update_state(self, y_true, y_pred, sample_weight=None):
            self.count.assign_add(tf.reduce_sum(tf.cast(y_pred > 0.0, "float32")))

        def result(self):
            return self.count

        def reset_state(self):
            self.count.assign(0.0)
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=[CountAbove()])
    h = m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_evaluate_sample_weight(tf):
    m = _linear(tf)
    m.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    sw = np.array([1, 0, 0, 1, 1, 0.5, 1, 3], dtype="float32")
    return {"plain": m.evaluate(X, Y, batch_size=4, verbose=0),
            "weighted": m.evaluate(X, Y, sample_weight=sw, batch_size=4, verbose=0)}


def program_weighted_metrics(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"], weighted_metrics=["mse"])
    sw = np.array([1, 2, 0, 1, 1, 0.5, 1, 3], dtype="float32")
    h = m.fit(X, Y, sample_weight=sw, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return {"h": _history(h)}


def program_loss_weights_two_outputs(tf):
    inp = tf.keras.Input((2,))
    a = tf.keras.layers.Dense(1, name="a")(inp)
    b = tf.keras.layers.Dense(1, name="b")(inp)
    m = tf.keras.Model(inp, [a, b])
    m.get_layer("a").set_weights([np.array([[0.1], [0.2]], "float32"), np.zeros(1, "float32")])
    m.get_layer("b").set_weights([np.array([[-0.3], [0.1]], "float32"), np.zeros(1, "float32")])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss=["mse", "mae"], loss_weights=[1.0, 0.2])
    h = m.fit(X, [Y, Y * 2], batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"loss": [float(v) for v in h.history["loss"]]}


def program_add_loss_layer(tf):
    class Reg(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(0.1 * tf.reduce_sum(tf.square(x)))
            return x
    inp = tf.keras.Input((2,))
    d = tf.keras.layers.Dense(1)
    out = d(Reg()(inp))
    m = tf.keras.Model(inp, out)
    d.set_weights([np.array([[0.1], [0.2]], "float32"), np.zeros(1, "float32")])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    h = m.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h), "losses": len(m.losses)}


def program_steps_per_execution(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", steps_per_execution=2)
    h = m.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    return {"h": _history(h), "w": m.layers[0].kernel}


def program_train_on_batch(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    a = m.train_on_batch(X, Y)
    b = m.test_on_batch(X, Y)
    return {"train": a, "test": b, "pred": m.predict_on_batch(X[:2])}


def program_dataset_fit(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)
    h = m.fit(ds, epochs=2, verbose=0)
    return {"h": _history(h)}


def program_dataset_with_sample_weights(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    sw = np.array([1, 2, 0, 1, 1, 0.5, 1, 3], dtype="float32")
    ds = tf.data.Dataset.from_tensor_slices((X, Y, sw)).batch(4)
    h = m.fit(ds, epochs=2, verbose=0)
    return {"h": _history(h)}


def program_weighted_and_plain_same_metric(tf):
    m = _linear(tf)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mse"], weighted_metrics=["mse"])
    sw = np.array([1, 2, 0, 1, 1, 0.5, 1, 3], dtype="float32")
    h = m.fit(X, Y, sample_weight=sw, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return {"h": _history(h)}

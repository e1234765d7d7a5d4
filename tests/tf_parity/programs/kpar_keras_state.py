"""Keras 3 model state measured against TF 2.21 + Keras 3: the weights of adapted preprocessing
layers, resuming an interrupted fit with BackupAndRestore, reloading `.keras` files with a
registered custom layer."""
import os
import tempfile

import numpy as np

_X = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]], "float32")


def program_adapted_preprocessing_weights(tf):
    keras = tf.keras
    norm = keras.layers.Normalization(name="norm")
    norm.adapt(_X)
    look = keras.layers.StringLookup(name="look")
    look.adapt(np.array(["a", "b", "b", "c"]))
    x, s = keras.Input((2,)), keras.Input((1,), dtype="string")
    h = keras.layers.Concatenate()([norm(x), keras.ops.cast(look(s), "float32")])
    m = keras.Model([x, s], keras.layers.Dense(1, kernel_initializer="ones", name="d")(h))
    return {"weights": [[w.path, w.trainable, list(w.shape)] for w in m.weights],
            "non_trainable": [w.path for w in m.non_trainable_weights],
            "norm_weights": [w.numpy() for w in norm.weights], "mean": norm.mean, "variance": norm.variance,
            "lookup_weights": len(look.weights), "counts": [norm.count_params(), m.count_params()],
            "vocabulary": [str(v) for v in look.get_vocabulary()],
            "out": m([_X, np.array([["a"], ["c"], ["z"]])])}


def program_normalization_axes(tf):
    data = np.arange(24, dtype="float32").reshape(2, 3, 4)
    out = {}
    for key, axis in (("last", -1), ("none", None), ("two", (1, 2)), ("middle", 1)):
        layer = tf.keras.layers.Normalization(axis=axis)
        layer.adapt(data)
        out[key] = {"shapes": [list(w.shape) for w in layer.weights], "mean": layer.mean,
                    "y": layer(data)}
    given = tf.keras.layers.Normalization(mean=[1.0, 2.0], variance=[1.0, 4.0])
    out["given"] = {"y": given(np.ones((1, 2), "float32")), "weights": len(given.weights), "mean": given.mean}
    inverse = tf.keras.layers.Normalization(invert=True)
    inverse.adapt(data[0])
    out["invert"] = inverse(np.zeros((1, 4), "float32"))
    return out


def _small_model(tf):
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones", name="d")])
    m.compile(tf.keras.optimizers.SGD(0.01, momentum=0.5), "mse")
    return m


def program_backup_and_restore_resumes(tf):
    keras = tf.keras
    x, y = _X, np.array([[1.0], [0.0], [2.0]], "float32")
    backup = tempfile.mkdtemp()

    class Interrupt(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise RuntimeError("interrupted")

    first = _small_model(tf)
    try:
        first.fit(x, y, epochs=4, batch_size=2, shuffle=False, verbose=0,
                  callbacks=[keras.callbacks.BackupAndRestore(backup), Interrupt()])
    except RuntimeError:
        pass
    left = sorted(os.listdir(backup))
    second = _small_model(tf)
    h = second.fit(x, y, epochs=4, batch_size=2, shuffle=False, verbose=0,
                   callbacks=[keras.callbacks.BackupAndRestore(backup)])
    whole = _small_model(tf)
    whole.fit(x, y, epochs=4, batch_size=2, shuffle=False, verbose=0)
    return {"left": left, "epochs": h.epoch, "loss": h.history["loss"],
            "kernel": second.get_layer("d").kernel, "iterations": second.optimizer.iterations,
            "uninterrupted": whole.get_layer("d").kernel, "deleted": not os.path.exists(backup)}


def program_keras_file_reload_custom_layer(tf):
    keras = tf.keras

    @keras.utils.register_keras_serializable(package="kpar")
    class Scale(keras.layers.Layer):
        def __init__(self, k=2.0, **kwargs):
            super().__init__(**kwargs)
            self.k = k

        def build(self, shape):
            self.w = self.add_weight(name="w", shape=(shape[-1],), initializer="ones")

        def call(self, x):
            return x * self.w * self.k

        def get_config(self):
            return {**super().get_config(), "k": self.k}

    x = keras.Input((2,))
    m = keras.Model(x, keras.layers.Dense(1, kernel_initializer="ones", name="o")(Scale(3.0, name="sc")(x)))
    m.compile(optimizer="adam", loss="mse")
    m.fit(_X, np.zeros((3, 1), "float32"), epochs=2, batch_size=3, verbose=0)
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    m.save(path)
    r = keras.models.load_model(path)
    return {"pred": r.predict(_X, verbose=0), "orig": m.predict(_X, verbose=0),
            "layers": [[type(layer).__name__, layer.name] for layer in r.layers],
            "iterations": r.optimizer.iterations, "weights": [w.path for w in r.weights],
            "registered": keras.utils.get_registered_name(Scale), "k": r.get_layer("sc").k,
            "optimizer": [v.numpy() for v in r.optimizer.variables[2:]]}

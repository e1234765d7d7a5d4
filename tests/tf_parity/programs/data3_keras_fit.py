"""Keras fit(..., shuffle=True) on arrays: Keras 3 orders each epoch with tf.random.shuffle in
its tf.data pipeline, so a seeded fit gives TensorFlow's loss history (weights set from NumPy)."""
import numpy as np

X = np.linspace(-1.0, 1.0, 22, dtype="float32").reshape(11, 2)
Y = (X @ np.array([[1.5], [-0.5]], dtype="float32") + 0.25).astype("float32")


def _model(tf):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.layers[0].set_weights([np.array([[0.1], [-0.2]], "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    return model


def _history(h):
    return {k: [float(v) for v in vals] for k, vals in h.history.items()}


def program_fit_shuffle_seeded(tf):
    tf.keras.utils.set_random_seed(3)
    return _history(_model(tf).fit(X, Y, batch_size=3, epochs=3, shuffle=True, verbose=0))


def program_fit_shuffle_global_seed_zero(tf):
    tf.keras.utils.set_random_seed(0)
    return _history(_model(tf).fit(X, Y, batch_size=4, epochs=2, verbose=0))


def program_fit_shuffle_batch(tf):
    tf.keras.utils.set_random_seed(1)
    return _history(_model(tf).fit(X, Y, batch_size=4, epochs=2, shuffle="batch", verbose=0))


def program_fit_shuffle_validation_split(tf):
    tf.random.set_seed(7)
    return _history(_model(tf).fit(X, Y, batch_size=2, epochs=2, validation_split=0.3, shuffle=True, verbose=0))

"""MNIST-style MLP: Sequential + compile + fit + evaluate + predict on synthetic digits."""
import numpy as np
import tapeflow as tf


def make_data(n=600, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(0, 1, size=(10, 64)).astype("float32")
    y = rng.integers(0, 10, size=n)
    x = centers[y] + 0.35 * rng.normal(size=(n, 64)).astype("float32")
    return x.reshape(n, 8, 8).astype("float32"), y.astype("int64")


def test_mlp_sequential_fit_evaluate():
    tf.keras.utils.set_random_seed(1)
    x_train, y_train = make_data(600, 0)
    x_test, y_test = make_data(200, 0)
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(8, 8)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(10),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(x_train, y_train, epochs=5, batch_size=32, validation_split=0.1, verbose=0)
    assert set(history.history) >= {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert len(history.history["loss"]) == 5
    assert history.history["loss"][-1] < history.history["loss"][0] * 0.5
    test_loss, test_acc = model.evaluate(x_test, y_test, verbose=0)
    assert test_acc > 0.9
    probability_model = tf.keras.Sequential([model, tf.keras.layers.Softmax()])
    probs = probability_model.predict(x_test[:5], verbose=0)
    assert probs.shape == (5, 10)
    np.testing.assert_allclose(probs.sum(axis=1), np.ones(5), rtol=1e-5)
    logits = model(x_test[:5]).numpy()
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    np.testing.assert_allclose(probs, e / e.sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
    assert np.argmax(probs, axis=1).tolist() == np.argmax(logits, axis=1).tolist()
    model.summary(print_fn=lambda *a, **k: None)
    assert model.count_params() == 64 * 64 + 64 + 64 * 10 + 10

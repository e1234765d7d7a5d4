"""Model.compile/fit/evaluate/predict, History and callbacks on small problems."""
import os

import numpy as np
import pytest

import tapeflow as tf
from keras_helpers import needs

L = tf.keras.layers


def blobs(n=240, seed=0):
    """Three Gaussian clusters in 4-D: learnable to ~100% by a small MLP."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    centers = np.array([[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 2]], "float32")
    x = centers[y] + rng.normal(0, 0.5, (n, 4)).astype("float32")
    return x, y.astype("int64")


def mlp(seed=0):
    tf.keras.utils.set_random_seed(seed)
    return tf.keras.Sequential([L.Dense(16, activation="relu", input_shape=(4,)), L.Dense(3)])


def compile_clf(model, run_eagerly=True, lr=0.05):
    model.compile(optimizer=tf.keras.optimizers.Adam(lr),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], run_eagerly=run_eagerly)


def test_fit_reaches_accuracy_with_validation(capsys):
    x, y = blobs()
    model = mlp()
    compile_clf(model)
    history = model.fit(x, y, epochs=8, batch_size=32, validation_split=0.25, verbose=2)
    h = history.history
    assert set(h) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert len(h["loss"]) == 8 and h["loss"][-1] < h["loss"][0]
    assert h["accuracy"][-1] >= 0.95 and h["val_accuracy"][-1] >= 0.95
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 8 and out[0].startswith("Epoch 1/8") and "val_accuracy" in out[-1]
    loss, acc = model.evaluate(x, y, verbose=0)
    assert acc >= 0.95 and loss == pytest.approx(model.evaluate(x, y, verbose=0, return_dict=True)["loss"])
    pred = model.predict(x, batch_size=50)
    assert pred.shape == (240, 3) and (pred.argmax(1) == y).mean() >= 0.95


def test_fit_on_a_dataset_and_regression_with_sgd():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(128, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([L.Dense(1, input_shape=(3,))])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.5), loss="mse", metrics=["mae"],
                  run_eagerly=True)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
    history = model.fit(ds, epochs=15, verbose=0)
    assert history.history["loss"][-1] < 1e-3
    np.testing.assert_allclose(model.layers[0].kernel.numpy().ravel(), [1.0, -2.0, 0.5], atol=0.02)
    assert model.evaluate(ds, verbose=0, return_dict=True)["mae"] < 0.03


def test_early_stopping_and_lambda_callback():
    x, y = blobs()
    model = mlp()
    compile_clf(model, lr=0.0)  # nothing improves
    seen = []
    cb = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, logs["loss"])))
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, min_delta=1e-4)
    history = model.fit(x, y, epochs=20, verbose=0, callbacks=[stop, cb])
    assert len(history.history["loss"]) == 3 and [e for e, _ in seen] == [0, 1, 2]
    assert model.stop_training and stop.stopped_epoch == 2
    with pytest.warns(UserWarning, match="val_loss"):  # Keras 3 warns and trains on
        model.fit(x, y, epochs=1, verbose=0, callbacks=[tf.keras.callbacks.EarlyStopping()])


def test_early_stopping_restores_best_weights():
    x, y = blobs()
    model = mlp()
    compile_clf(model)
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True, min_delta=10)
    model.fit(x, y, epochs=5, verbose=0, callbacks=[stop])
    assert stop.best_weights is not None
    for got, want in zip(model.get_weights(), stop.best_weights):
        np.testing.assert_array_equal(got, want)


def test_model_checkpoint_saves_and_reloads(tmp_path):
    x, y = blobs()
    model = mlp()
    compile_clf(model)
    pattern = str(tmp_path / "w-{epoch:02d}.weights.h5")
    ckpt = tf.keras.callbacks.ModelCheckpoint(pattern, monitor="accuracy", save_best_only=True,
                                              save_weights_only=True)
    model.fit(x, y, epochs=3, verbose=0, callbacks=[ckpt])
    assert ckpt.saved and all(os.path.exists(p) for p in ckpt.saved)
    assert ckpt.saved[0].endswith("w-01.weights.h5")
    with pytest.raises(ValueError, match="must end in `.keras`"):  # Keras 3: a model file by default
        tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "w-{epoch}"))
    fresh = mlp(seed=5)
    fresh.load_weights(ckpt.saved[-1])
    model.load_weights(ckpt.saved[-1])
    np.testing.assert_array_equal(fresh.predict(x), model.predict(x))


def test_sample_weight_and_train_on_batch():
    x, y = blobs(64)
    model = mlp()
    compile_clf(model)
    logs = model.train_on_batch(x, y, return_dict=True)
    assert set(logs) == {"loss", "accuracy"}
    w = np.zeros(64, "float32")
    w[:32] = 1
    before = model.get_weights()
    model.fit(x, y, sample_weight=w, epochs=1, batch_size=64, verbose=0, shuffle=False)
    assert not all(np.array_equal(a, b) for a, b in zip(before, model.get_weights()))


def test_fit_errors_are_clear():
    model = mlp()
    with pytest.raises(ValueError, match=r"You must call `compile\(\)`"):
        model.fit(np.zeros((2, 4)), np.zeros(2))
    compile_clf(model)
    with pytest.raises(ValueError, match="x has 4 examples but y has 3"):
        model.fit(np.zeros((4, 4)), np.zeros(3), verbose=0)


@needs("function")
def test_compiled_fit_matches_eager_fit():
    x, y = blobs(96)
    results = []
    for eager in (True, False):
        model = mlp(seed=2)
        compile_clf(model, run_eagerly=eager)
        h = model.fit(x, y, epochs=2, batch_size=40, shuffle=False, verbose=0)
        results.append((h.history["loss"], model.get_weights()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_progress_bar_on_a_terminal():
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    x, y = blobs(64)
    model = mlp()
    compile_clf(model)
    screen = Terminal()
    bar = tf.keras.callbacks.ProgbarLogger(stream=screen)
    model.fit(x, y, epochs=2, batch_size=32, verbose=0, callbacks=[bar])
    text = screen.getvalue()
    assert text.startswith("Epoch 1/2\n") and "\r1/2 [" in text and "\r2/2 [==============================]" in text
    import re
    assert text.count("Epoch ") == 2
    assert re.fullmatch(r"\d+s - loss: \d+\.\d{4} - accuracy: \d\.\d{4}", text.rstrip().splitlines()[-1])


def test_train_step_gets_x_alone_when_there_is_no_y():
    seen = []

    class Unsupervised(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def train_step(self, data):
            seen.append(tuple(data.shape) if hasattr(data, "shape") else type(data).__name__)
            return {"total": tf.reduce_sum(data)}

    model = Unsupervised()
    model.compile(optimizer="sgd", run_eagerly=True)
    x = np.ones((64, 2), np.float32)
    model.fit(tf.data.Dataset.from_tensor_slices(x).batch(32), epochs=1, verbose=0)
    model.fit(x, batch_size=32, epochs=1, verbose=0)
    assert seen == [(32, 2)] * 4, seen

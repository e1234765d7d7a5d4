"""Small CNN classifier (Conv2D / BatchNormalization / MaxPooling2D / Dropout) on synthetic images."""
import numpy as np
import tapeflow as tf


def make_images(n, seed):
    # class 0: horizontal bar, class 1: vertical bar, class 2: diagonal; plus noise
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    x = 0.3 * rng.normal(size=(n, 12, 12, 1)).astype("float32")
    for i, c in enumerate(y):
        p = rng.integers(2, 10)
        if c == 0:
            x[i, p, :, 0] += 1.5
        elif c == 1:
            x[i, :, p, 0] += 1.5
        else:
            x[i, np.arange(12), np.arange(12), 0] += 1.5
    return x, y.astype("int32")


def build_model():
    return tf.keras.Sequential([
        tf.keras.Input(shape=(12, 12, 1)),
        tf.keras.layers.Conv2D(8, (3, 3), padding="same", use_bias=False),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Activation("relu"),
        tf.keras.layers.MaxPooling2D((2, 2)),
        tf.keras.layers.Conv2D(16, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dropout(0.25),
        tf.keras.layers.Dense(3, activation="softmax"),
    ])


def test_cnn_fit_and_batchnorm_inference():
    tf.keras.utils.set_random_seed(3)
    x, y = make_images(240, 0)
    xv, yv = make_images(90, 1)
    model = build_model()
    assert model.output_shape == (None, 3)
    assert model.layers[0].output.shape[1:] == (12, 12, 8) if hasattr(model.layers[0], "output") else True
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    hist = model.fit(x, y, batch_size=16, epochs=6, validation_data=(xv, yv), verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    _, acc = model.evaluate(xv, yv, verbose=0)
    assert acc > 0.85, hist.history

    bn = model.layers[1]
    assert isinstance(bn, tf.keras.layers.BatchNormalization)
    names = sorted(w.name for w in bn.weights)
    assert len(bn.trainable_weights) == 2 and len(bn.non_trainable_weights) == 2, names
    # moving statistics were updated during fit
    assert not np.allclose(bn.moving_mean.numpy(), 0.0)
    # inference is deterministic (dropout off, moving stats) and matches predict
    out1 = model(xv[:8], training=False).numpy()
    out2 = model.predict(xv[:8], verbose=0)
    np.testing.assert_allclose(out1, out2, rtol=1e-5, atol=1e-6)
    # BN inference formula against NumPy, using the conv output
    conv_out = model.layers[0](xv[:8]).numpy()
    gamma, beta, mm, mv = [w.numpy() for w in (bn.gamma, bn.beta, bn.moving_mean, bn.moving_variance)]
    ref = gamma * (conv_out - mm) / np.sqrt(mv + bn.epsilon) + beta
    np.testing.assert_allclose(bn(conv_out, training=False).numpy(), ref, rtol=1e-4, atol=1e-5)

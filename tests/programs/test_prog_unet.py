"""A small U-Net for segmentation (Conv2DTranspose, Concatenate / concatenate, UpSampling2D,
skip connections), Model(inputs=[...], outputs=[...]) with one output, eager vs compiled fit."""
import numpy as np
import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers


def build():
    inp = keras.Input((16, 16, 1))
    c1 = layers.Conv2D(8, 3, padding="same", activation="relu")(inp)
    p1 = layers.MaxPooling2D()(c1)
    c2 = layers.Conv2D(16, 3, padding="same", activation="relu")(p1)
    p2 = layers.MaxPooling2D()(c2)
    b = layers.Conv2D(16, 3, padding="same", activation="relu")(p2)
    u2 = layers.Conv2DTranspose(16, 2, strides=2, padding="same")(b)
    u2 = layers.Concatenate()([u2, c2])
    c3 = layers.Conv2D(16, 3, padding="same", activation="relu")(u2)
    u1 = layers.UpSampling2D(size=(2, 2))(c3)
    u1 = layers.concatenate([u1, c1], axis=-1)
    c4 = layers.Conv2D(8, 3, padding="same", activation="relu")(u1)
    out = layers.Conv2D(1, 1, activation="sigmoid")(c4)
    return keras.Model(inputs=[inp], outputs=[out])


def squares(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(scale=0.3, size=(n, 16, 16, 1)).astype("float32")
    masks = np.zeros_like(x)
    for i in range(n):
        r, c = rng.integers(2, 10, size=2)
        x[i, r:r + 5, c:c + 5, 0] += 1.0
        masks[i, r:r + 5, c:c + 5, 0] = 1.0
    return x, masks


def test_unet_shapes_and_eager_compiled_fit_agree():
    x, masks = squares(32, 0)
    losses = {}
    for eager in (True, False):
        keras.utils.set_random_seed(2)
        model = build()
        assert model.output_shape == (None, 16, 16, 1)
        assert model.get_layer(index=len(model.layers) - 1).output_shape == (None, 16, 16, 1)
        model.compile(optimizer=keras.optimizers.Adam(5e-3), loss="binary_crossentropy",
                      metrics=[keras.metrics.BinaryAccuracy()], run_eagerly=eager)
        hist = model.fit(x, masks, batch_size=8, epochs=10, shuffle=False, verbose=0)
        losses[eager] = hist.history["loss"]
    np.testing.assert_allclose(losses[True], losses[False], rtol=2e-4)
    assert losses[False][-1] < 0.5 * losses[False][0], losses

    xt, mt = squares(8, 1)
    pred = model.predict(xt, verbose=0)  # a one-output list model predicts one array (Keras unpacks)
    assert isinstance(pred, np.ndarray) and pred.shape == (8, 16, 16, 1)
    hit = (pred > 0.5) & (mt > 0.5)
    union = (pred > 0.5) | (mt > 0.5)
    assert hit.sum() / union.sum() > 0.5  # IoU of the predicted squares
    out = model(xt)
    assert not isinstance(out, (list, tuple)) and tuple(out.shape) == (8, 16, 16, 1)

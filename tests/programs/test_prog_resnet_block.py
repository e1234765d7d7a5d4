"""ResNet-style block net (functional API: Conv2D + BatchNormalization + Add + ReLU, projection
shortcut, GlobalAveragePooling2D), trained eagerly and compiled; plus model.summary() content."""
import re

import numpy as np
import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers


def res_block(x, filters, stride=1):
    shortcut = x
    y = layers.Conv2D(filters, 3, strides=stride, padding="same", use_bias=False)(x)
    y = layers.BatchNormalization()(y)
    y = layers.ReLU()(y)
    y = layers.Conv2D(filters, 3, padding="same", use_bias=False)(y)
    y = layers.BatchNormalization()(y)
    if stride != 1 or shortcut.shape[-1] != filters:
        shortcut = layers.Conv2D(filters, 1, strides=stride, use_bias=False)(shortcut)
        shortcut = layers.BatchNormalization()(shortcut)
    y = layers.Add()([y, shortcut])
    return layers.Activation("relu")(y)


def build():
    inp = keras.Input(shape=(8, 8, 3))
    x = layers.Conv2D(8, 3, padding="same")(inp)
    x = res_block(x, 8)
    x = res_block(x, 16, stride=2)
    x = layers.GlobalAveragePooling2D()(x)
    out = layers.Dense(2, activation="softmax")(x)
    return keras.Model(inp, out, name="tiny_resnet")


def data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 8, 8, 3)).astype("float32")
    y = (x[..., 0].mean(axis=(1, 2)) > 0).astype("int32")
    return x, y


def test_resnet_eager_and_compiled_agree_and_learn():
    x, y = data()
    losses = {}
    for eager in (True, False):
        keras.utils.set_random_seed(1)
        model = build()
        model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"], run_eagerly=eager)
        hist = model.fit(x, y, batch_size=16, epochs=5, shuffle=False, verbose=0)
        losses[eager] = hist.history["loss"]
    # eager and compiled convolutions sum in different orders; five epochs of Adam amplify
    # the float32 rounding (epoch 1 agrees to ~3e-5, epoch 5 to ~2e-3)
    np.testing.assert_allclose(losses[True][0], losses[False][0], rtol=1e-4)
    np.testing.assert_allclose(losses[True], losses[False], rtol=1e-2)
    assert losses[False][-1] < 0.3 * losses[False][0], losses
    assert hist.history["accuracy"][-1] > 0.9
    # BN layers in inference mode: predict is deterministic and equals a training=False call
    np.testing.assert_allclose(model.predict(x[:8], verbose=0), model(x[:8], training=False).numpy(),
                               rtol=1e-5, atol=1e-6)


def test_resnet_summary_content():
    model = build()
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert 'Model: "tiny_resnet"' in text
    # Keras names (a digit does not start a new word), in Keras 3's box-drawn table: a label
    # too long for its column is cut with an ellipsis, the class on the next line
    assert re.search(r"│ conv2d(_\d+)? \(Conv2D\) +│", text), text
    assert re.search(r"│ re_lu(_\d+)? \(ReLU\) +│", text), text
    assert "│ global_average_poo… │" in text and "│ (GlobalAveragePool… │" in text, text
    # 224 + 576 + 576 + 1152 + 2304 + 128 conv weights, 32+32+64+64+64 BN, 34 dense
    assert "Total params: 5,250 (20.51 KB)" in text, text
    assert "Trainable params: 5,122 (20.01 KB)" in text
    assert "Non-trainable params: 128 (512.00 B)" in text
    assert model.count_params() == 5250
    table = [ln for ln in text.splitlines() if ln[:1] in "┏┃┡│├└"]
    assert len({len(ln) for ln in table}) == 1, text  # every row as wide as the frame
    assert all(ln.count("│") == 5 for ln in table if ln.startswith("│")), text

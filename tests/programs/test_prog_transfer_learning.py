"""Transfer learning: pretrain a base, freeze it (layer.trainable = False), train a new head,
then unfreeze and fine-tune with a low learning rate (TF 'transfer learning' guide style)."""
import numpy as np
import tapeflow as tf
from tapeflow import keras


def make_task(n, seed, w):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 6)).astype("float32")
    feats = np.tanh(x @ w)
    return x, feats


def test_freeze_then_fine_tune():
    keras.utils.set_random_seed(0)
    w = np.random.default_rng(42).normal(size=(6, 4)).astype("float32")
    x, feats = make_task(512, 0, w)
    # 1) "pretrain" a base model on a related regression task
    base = keras.Sequential([keras.Input(shape=(6,)), keras.layers.Dense(16, activation="relu", name="d1"),
                             keras.layers.BatchNormalization(name="bn"),
                             keras.layers.Dense(8, activation="relu", name="d2")], name="base")
    pre = keras.Sequential([base, keras.layers.Dense(4)])
    pre.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
    pre.fit(x, feats, epochs=5, batch_size=64, verbose=0)

    # 2) freeze the base, put a new classification head on top
    base.trainable = False
    assert base.trainable_weights == [] and len(base.non_trainable_weights) == 8
    inputs = keras.Input(shape=(6,))
    h = base(inputs, training=False)
    outputs = keras.layers.Dense(1, activation="sigmoid")(h)
    model = keras.Model(inputs, outputs)
    assert len(model.trainable_weights) == 2
    labels = (feats[:, 0] + feats[:, 1] > 0).astype("float32")
    frozen = [v.numpy().copy() for v in base.weights]
    model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=keras.losses.BinaryCrossentropy(),
                  metrics=[keras.metrics.BinaryAccuracy()])
    hist = model.fit(x, labels, epochs=8, batch_size=64, verbose=0)
    for before, v in zip(frozen, base.weights):
        np.testing.assert_array_equal(before, v.numpy())  # also BN moving stats (training=False)
    acc_frozen = hist.history["binary_accuracy"][-1]
    assert acc_frozen > 0.75, hist.history

    # 3) unfreeze and fine-tune end to end; the model must be recompiled to take effect
    base.trainable = True
    assert len(model.trainable_weights) == 2 + 6
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=keras.losses.BinaryCrossentropy(),
                  metrics=[keras.metrics.BinaryAccuracy()])
    hist2 = model.fit(x, labels, epochs=8, batch_size=64, verbose=0)
    assert not np.allclose(frozen[0], base.get_layer("d1").kernel.numpy())
    # training=False in the call keeps BN in inference mode even while fine-tuning
    np.testing.assert_array_equal(frozen[4], base.get_layer("bn").moving_mean.numpy())
    assert hist2.history["binary_accuracy"][-1] >= acc_frozen - 0.02
    assert hist2.history["binary_accuracy"][-1] > 0.85


def test_freeze_single_layer_in_sequential():
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(4, name="a"),
                              keras.layers.Dense(1, name="b")])
    model.get_layer("a").trainable = False
    model.compile(optimizer="sgd", loss="mse")
    before = model.get_layer("a").kernel.numpy().copy()
    b_before = model.get_layer("b").kernel.numpy().copy()
    rng = np.random.default_rng(0)
    model.fit(rng.normal(size=(32, 3)), rng.normal(size=(32, 1)), epochs=2, verbose=0)
    np.testing.assert_array_equal(before, model.get_layer("a").kernel.numpy())
    assert not np.allclose(b_before, model.get_layer("b").kernel.numpy())
    assert [w.name for w in model.trainable_weights] != [] and len(model.trainable_weights) == 2

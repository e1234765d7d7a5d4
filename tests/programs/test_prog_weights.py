"""class_weight and sample_weight in fit / evaluate on an imbalanced problem."""
import numpy as np
import tapeflow as tf
from tapeflow import keras


def imbalanced(n=600, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype("int32")  # 10% positives
    x = rng.normal(size=(n, 2)).astype("float32") + y[:, None] * 1.2
    return x, y


def build():
    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=keras.optimizers.SGD(0.5), loss="binary_crossentropy",
                  metrics=[keras.metrics.Recall(name="recall")])
    return model


def test_class_weight_raises_recall_of_rare_class():
    x, y = imbalanced()
    keras.utils.set_random_seed(0)
    plain = build()
    plain.fit(x, y, epochs=20, batch_size=64, verbose=0)
    keras.utils.set_random_seed(0)
    weighted = build()
    neg, pos = np.bincount(y)
    class_weight = {0: (1 / neg) * (len(y) / 2.0), 1: (1 / pos) * (len(y) / 2.0)}
    weighted.fit(x, y, epochs=20, batch_size=64, class_weight=class_weight, verbose=0)
    r_plain = plain.evaluate(x, y, verbose=0, return_dict=True)["recall"]
    r_weighted = weighted.evaluate(x, y, verbose=0, return_dict=True)["recall"]
    assert r_weighted > r_plain + 0.3, (r_plain, r_weighted)
    assert r_weighted > 0.6


def test_sample_weight_equals_class_weight_and_weights_the_loss():
    x, y = imbalanced(256, 1)
    class_weight = {0: 0.5, 1: 4.0}
    sw = np.where(y == 1, 4.0, 0.5).astype("float32")
    keras.utils.set_random_seed(3)
    a = build()
    a.fit(x, y, epochs=3, batch_size=32, class_weight=class_weight, shuffle=False, verbose=0)
    keras.utils.set_random_seed(3)
    b = build()
    b.fit(x, y, epochs=3, batch_size=32, sample_weight=sw, shuffle=False, verbose=0)
    for wa, wb in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_allclose(wa, wb, rtol=1e-5, atol=1e-6)
    # weighted evaluate: sum(w * bce) / n (Keras "sum_over_batch_size"), one batch
    p = np.clip(b.predict(x, verbose=0)[:, 0], 1e-7, 1 - 1e-7)
    bce = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    loss = b.evaluate(x, y, sample_weight=sw, batch_size=len(y), verbose=0, return_dict=True)["loss"]
    np.testing.assert_allclose(loss, np.sum(sw * bce) / len(y), rtol=1e-4)

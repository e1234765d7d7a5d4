"""Losses and metrics against NumPy references (Keras 3 formulas)."""
import numpy as np
import pytest

import tapeflow as tf
from keras_helpers import numeric_grad

losses = tf.keras.losses
metrics = tf.keras.metrics
rng = np.random.default_rng(1)
EPS = 1e-7


def log_softmax(x):
    m = x.max(-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(-1, keepdims=True))


def test_regression_losses():
    y, p = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    assert float(losses.MeanSquaredError()(y, p)) == pytest.approx(((p - y) ** 2).mean())
    assert float(losses.MeanAbsoluteError()(y, p)) == pytest.approx(np.abs(p - y).mean())
    w = np.array([1.0, 0.0, 2.0, 1.0])
    per = ((p - y) ** 2).mean(-1)
    assert float(losses.MeanSquaredError()(y, p, sample_weight=w)) == pytest.approx((per * w).sum() / 4)
    np.testing.assert_allclose(losses.MeanSquaredError(reduction="none")(y, p).numpy(), per)
    assert float(losses.MeanSquaredError(reduction="sum")(y, p)) == pytest.approx(per.sum())


def test_binary_crossentropy_probabilities_and_logits():
    y = rng.integers(0, 2, size=(5, 2)).astype("float64")
    logits = rng.normal(size=(5, 2)) * 4
    prob = 1 / (1 + np.exp(-logits))
    ref_logits = (np.maximum(logits, 0) - logits * y + np.log1p(np.exp(-np.abs(logits)))).mean(-1).mean()
    # Keras 3 converts the inputs to the loss's dtype (floatx(), float32, unless given)
    assert losses.BinaryCrossentropy(from_logits=True)(y, logits).dtype == tf.float32
    assert float(losses.BinaryCrossentropy(from_logits=True, dtype="float64")(y, logits)) == \
        pytest.approx(ref_logits)
    pc = np.clip(prob, EPS, 1 - EPS)
    ref = (-(y * np.log(pc) + (1 - y) * np.log(1 - pc))).mean(-1).mean()  # Keras 3: no eps in the log
    assert float(losses.BinaryCrossentropy(dtype="float64")(y, prob)) == pytest.approx(ref, rel=1e-6)
    # far-off logits stay finite
    assert np.isfinite(float(losses.BinaryCrossentropy(from_logits=True)([[1.0]], [[-500.0]])))


def test_categorical_crossentropies():
    logits = rng.normal(size=(6, 4))
    labels = rng.integers(0, 4, size=6)
    onehot = np.eye(4)[labels]
    ref = -(onehot * log_softmax(logits)).sum(-1).mean()
    assert float(losses.CategoricalCrossentropy(from_logits=True)(onehot, logits)) == pytest.approx(ref)
    assert float(losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)) == pytest.approx(ref)
    assert float(losses.SparseCategoricalCrossentropy(from_logits=True)(labels[:, None], logits)) == \
        pytest.approx(ref)
    prob = np.exp(log_softmax(logits))
    assert float(losses.CategoricalCrossentropy()(onehot, prob)) == pytest.approx(ref, rel=1e-6)
    assert float(losses.SparseCategoricalCrossentropy()(labels, prob)) == pytest.approx(ref, rel=1e-6)
    smooth = onehot * 0.9 + 0.1 / 4
    ref_s = -(smooth * log_softmax(logits)).sum(-1).mean()
    assert float(losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)(onehot, logits)) == \
        pytest.approx(ref_s)


def test_sparse_crossentropy_gradient_and_bad_labels():
    labels = np.array([0, 2, 1])
    x0 = rng.normal(size=(3, 3))
    loss = losses.SparseCategoricalCrossentropy(from_logits=True, dtype="float64")
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss(labels, x)
    expected = numeric_grad(lambda a: float(loss(labels, tf.constant(a))), x0)
    np.testing.assert_allclose(tape.gradient(value, x).numpy(), expected, atol=1e-7)
    with pytest.raises(ValueError, match="do not match predictions"):
        loss(np.zeros((3, 2, 2), "int64"), x)


def test_loss_lookup_by_name_and_function():
    # Keras 3: a function's name gives the per-example function, a class name an instance
    assert losses.get("mse") is losses.mean_squared_error
    assert isinstance(losses.get("MeanSquaredError"), losses.MeanSquaredError)
    wrapped = losses.loss_object(lambda y, p: tf.reduce_mean(tf.abs(y - p), axis=-1))
    assert float(wrapped(np.zeros((2, 2)), np.ones((2, 2)))) == 1.0
    with pytest.raises(ValueError, match="Unknown loss"):
        losses.get("nope")


def test_mean_metric_and_reset():
    m = metrics.Mean()
    m.update_state([1.0, 2.0, 3.0])
    m.update_state(5.0, sample_weight=3.0)
    assert float(m.result()) == pytest.approx((6 + 15) / 6)
    m.reset_state()
    assert float(m.result()) == 0.0
    assert float(m([4.0, 6.0])) == 5.0


def test_accuracy_metrics():
    a = metrics.Accuracy()
    a.update_state([1, 2, 3, 4], [1, 2, 0, 4])
    assert float(a.result()) == 0.75
    b = metrics.BinaryAccuracy()
    b.update_state([[1.0], [0.0], [1.0]], [[0.7], [0.6], [0.2]])
    assert float(b.result()) == pytest.approx(1 / 3)
    c = metrics.CategoricalAccuracy()
    c.update_state(np.eye(3), [[0.8, 0.1, 0.1], [0.1, 0.2, 0.7], [0.0, 0.1, 0.9]])
    assert float(c.result()) == pytest.approx(2 / 3)
    s = metrics.SparseCategoricalAccuracy()
    s.update_state([0, 2, 2], [[0.8, 0.1, 0.1], [0.1, 0.2, 0.7], [0.0, 1.0, 0.0]])
    s.update_state([[1]], [[0.1, 0.8, 0.1]])
    assert float(s.result()) == pytest.approx(3 / 4)


def test_accuracy_resolution_follows_loss_and_shapes():
    get = metrics.get
    assert isinstance(get("accuracy", losses.SparseCategoricalCrossentropy()), metrics.SparseCategoricalAccuracy)
    assert isinstance(get("accuracy", losses.BinaryCrossentropy()), metrics.BinaryAccuracy)
    assert isinstance(get("accuracy", losses.MeanSquaredError(), (8, 3), (8, 3)), metrics.CategoricalAccuracy)
    assert isinstance(get("accuracy", losses.MeanSquaredError(), (8,), (8, 3)), metrics.SparseCategoricalAccuracy)
    assert get("accuracy", None, (8, 1), (8, 1)).name == "accuracy"


def test_labels_of_rank_one_against_predictions_of_shape_batch_by_one():
    # Keras aligns (batch,) labels with (batch, 1) predictions instead of broadcasting to (batch, batch)
    y = np.array([1.0, 0.0, 0.0, 1.0], "float32")
    p = np.array([[3.0], [-2.0], [1.0], [0.5]], "float32")
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)(y, p)
    np.testing.assert_allclose(float(bce), np.mean(np.log1p(np.exp(-p[:, 0] * (2 * y - 1)))), rtol=1e-5)
    np.testing.assert_allclose(float(tf.keras.losses.MeanSquaredError()(y, p)), np.mean((y - p[:, 0]) ** 2),
                               rtol=1e-6)
    np.testing.assert_allclose(float(tf.keras.losses.MeanSquaredError()(p, y)), np.mean((y - p[:, 0]) ** 2),
                               rtol=1e-6)
    acc = tf.keras.metrics.BinaryAccuracy(threshold=0.0)
    acc.update_state(y, p)
    assert float(acc.result()) == 0.75


def test_crossentropy_functions_refuse_unequal_ranks_where_loss_classes_match_them():
    # Keras 3 (measured): binary/categorical crossentropy functions and the BinaryCrossentropy
    # metric raise on (n,) labels against (n, 1) predictions; the loss classes match the ranks.
    y, p = np.array([0.0, 1.0]), np.array([[0.2], [0.7]], "float32")
    for fn in (tf.keras.losses.binary_crossentropy, tf.keras.losses.categorical_crossentropy,
               tf.keras.losses.binary_focal_crossentropy, tf.keras.metrics.BinaryCrossentropy().update_state):
        with pytest.raises(ValueError, match="same rank"):
            fn(y, p)
    want = -(np.log(0.8) + np.log(0.7)) / 2
    np.testing.assert_allclose(float(tf.keras.losses.BinaryCrossentropy()(y, p)), want, rtol=1e-5)
    np.testing.assert_allclose(tf.keras.losses.binary_crossentropy(y[:, None], p).numpy(),
                               [-np.log(0.8), -np.log(0.7)], rtol=1e-5)

"""Elementwise-heavy losses on a million elements (Huber, focal, smooth L1), written
by hand as in blog posts and via keras.losses; eager == tf.function == NumPy."""
import numpy as np
import tapeflow as tf

from perf_helpers import eager_vs_function

N = 1_000_000
RNG = np.random.default_rng(0)
Y_TRUE = RNG.normal(size=(N,)).astype(np.float32)
Y_PRED = (Y_TRUE + RNG.normal(scale=1.5, size=(N,))).astype(np.float32)
LABELS = (RNG.random(N) < 0.3).astype(np.float32)


def huber(y_true, y_pred, delta=1.0):
    err = y_true - y_pred
    abs_err = tf.abs(err)
    quadratic = 0.5 * tf.square(err)
    linear = delta * (abs_err - 0.5 * delta)
    return tf.reduce_mean(tf.where(abs_err <= delta, quadratic, linear))


def smooth_l1(y_true, y_pred, beta=0.5):
    diff = tf.abs(y_true - y_pred)
    return tf.reduce_sum(tf.where(diff < beta, 0.5 * diff ** 2 / beta, diff - 0.5 * beta)) / tf.cast(tf.size(diff), tf.float32)


def focal_loss(labels, logits, alpha=0.25, gamma=2.0):
    p = tf.sigmoid(logits)
    ce = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    p_t = labels * p + (1 - labels) * (1 - p)
    alpha_t = labels * alpha + (1 - labels) * (1 - alpha)
    return tf.reduce_sum(alpha_t * tf.pow(1.0 - p_t, gamma) * ce) / tf.maximum(tf.reduce_sum(labels), 1.0)


def test_huber_by_hand_and_keras():
    yt, yp = tf.constant(Y_TRUE), tf.constant(Y_PRED)
    got = eager_vs_function("huber 1e6", huber, yt, yp, rtol=1e-5)
    e = Y_TRUE.astype(np.float64) - Y_PRED
    expect = np.mean(np.where(np.abs(e) <= 1.0, 0.5 * e ** 2, np.abs(e) - 0.5))
    np.testing.assert_allclose(float(got), expect, rtol=1e-5)
    keras_huber = tf.keras.losses.Huber(delta=1.0)
    np.testing.assert_allclose(float(keras_huber(yt, yp)), expect, rtol=1e-5)
    np.testing.assert_allclose(float(tf.function(lambda a, b: keras_huber(a, b))(yt, yp)), expect, rtol=1e-5)


def test_smooth_l1():
    got = eager_vs_function("smooth l1 1e6", smooth_l1, tf.constant(Y_TRUE), tf.constant(Y_PRED), rtol=1e-5)
    d = np.abs(Y_TRUE.astype(np.float64) - Y_PRED)
    expect = np.where(d < 0.5, d ** 2, d - 0.25).mean()
    np.testing.assert_allclose(float(got), expect, rtol=1e-5)


def test_focal_loss_value_and_gradient():
    labels, logits = tf.constant(LABELS), tf.constant(Y_PRED)
    got = eager_vs_function("focal 1e6", focal_loss, labels, logits, rtol=1e-5)
    z = Y_PRED.astype(np.float64)
    p = 1 / (1 + np.exp(-z))
    ce = np.maximum(z, 0) - z * LABELS + np.log1p(np.exp(-np.abs(z)))
    p_t = LABELS * p + (1 - LABELS) * (1 - p)
    a_t = LABELS * 0.25 + (1 - LABELS) * 0.75
    np.testing.assert_allclose(float(got), np.sum(a_t * (1 - p_t) ** 2 * ce) / LABELS.sum(), rtol=1e-4)

    def grad(labels, logits):
        with tf.GradientTape() as tape:
            tape.watch(logits)
            loss = focal_loss(labels, logits)
        return tape.gradient(loss, logits)

    g = eager_vs_function("focal grad 1e6", grad, labels, logits, rtol=1e-4, atol=1e-9)
    # central differences on a few entries, in float64
    idx = [0, 17, 123456, N - 1]
    z64 = tf.constant(Y_PRED.astype(np.float64))
    lab64 = tf.constant(LABELS.astype(np.float64))
    for i in idx:
        h = np.zeros(N)
        h[i] = 1e-4
        up = float(focal_loss(lab64, z64 + h))
        down = float(focal_loss(lab64, z64 - h))
        np.testing.assert_allclose(g.numpy()[i], (up - down) / 2e-4, rtol=1e-3, atol=1e-10)

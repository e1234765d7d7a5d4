"""tf.nn composites: values against NumPy formulas, gradients against finite
differences, and TensorFlow's choices at the kinks."""
import math

import numpy as np
import pytest

import tapeflow as tf

from conftest import check_grads

rng = np.random.default_rng(5)
X = rng.uniform(-3, 3, size=(3, 4))
X[0, 0] = 0.3  # keep samples away from the kinks at 0 and 6


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


_erf = np.vectorize(math.erf)
SELU_A, SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946

ACTIVATIONS = [
    (tf.nn.relu6, lambda x: np.clip(x, 0, 6)),
    (lambda x: tf.nn.leaky_relu(x, 0.1), lambda x: np.where(x > 0, x, 0.1 * x)),
    (tf.nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    (tf.nn.elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    (tf.nn.selu, lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(x))),
    (tf.nn.gelu, lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2)))),
    (lambda x: tf.nn.gelu(x, approximate=True),
     lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    (tf.nn.softsign, lambda x: x / (1 + np.abs(x))),
    (tf.nn.silu, lambda x: x / (1 + np.exp(-x))),
    (tf.math.log_sigmoid, lambda x: -np.logaddexp(0, -x)),
    (tf.nn.softmax, np_softmax),
    (lambda x: tf.nn.softmax(x, axis=0), lambda x: np_softmax(x, 0)),
    (tf.nn.log_softmax, lambda x: np.log(np_softmax(x))),
    (lambda x: tf.nn.l2_normalize(x, 1), lambda x: x / np.sqrt((x * x).sum(1, keepdims=True))),
    (tf.nn.l2_loss, lambda x: (x * x).sum() / 2),
]


@pytest.mark.parametrize("fn, ref", ACTIVATIONS)
def test_activation_values_and_gradients(fn, ref):
    np.testing.assert_allclose(fn(tf.constant(X)).numpy(), ref(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fn(tf.constant(X, tf.float32)).numpy(), ref(X), rtol=1e-5, atol=1e-5)
    check_grads(fn, [X], order=2)


def _grad_at(fn, values):
    x = tf.constant(values, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x).numpy().tolist()


def test_gradients_at_kinks_follow_tensorflow():
    assert _grad_at(tf.nn.relu, [0.0, 1.0]) == [0.0, 1.0]
    assert _grad_at(tf.nn.relu6, [0.0, 3.0, 6.0, 7.0]) == [0.0, 1.0, 0.0, 0.0]
    assert _grad_at(tf.nn.leaky_relu, [0.0, 2.0]) == [0.2, 1.0]
    assert _grad_at(tf.nn.softplus, [0.0]) == [0.5]
    assert _grad_at(tf.abs, [0.0]) == [0.0]
    assert _grad_at(tf.nn.elu, [0.0]) == [1.0]


def test_softmax_is_stable_for_large_logits():
    x = tf.constant([[1000.0, 0.0, -1000.0], [-1e30, -1e30, 0.0]])
    np.testing.assert_allclose(tf.nn.softmax(x).numpy(), [[1, 0, 0], [0, 0, 1]], atol=1e-7)
    assert np.isfinite(tf.nn.log_softmax(x).numpy()[0, :2]).all()
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.log_softmax(x)[:, 0])
    assert np.isfinite(tape.gradient(y, x).numpy()).all()


def test_softplus_and_sigmoid_tails():
    x = tf.constant([-100.0, 100.0], tf.float32)
    assert tf.nn.softplus(x).numpy().tolist() == pytest.approx([0.0, 100.0])
    assert tf.sigmoid(x).numpy().tolist() == pytest.approx([0.0, 1.0], abs=1e-40)


def test_softmax_cross_entropy():
    labels = np_softmax(rng.normal(size=(3, 4)))
    want = -(labels * np.log(np_softmax(X))).sum(-1)
    got = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=X)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    check_grads(lambda lab, x: tf.nn.softmax_cross_entropy_with_logits(lab, x), [labels, X])


def test_sigmoid_cross_entropy():
    z = rng.uniform(0, 1, size=X.shape)
    want = np.maximum(X, 0) - X * z + np.log1p(np.exp(-np.abs(X)))
    got = tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=X)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    check_grads(lambda lab, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=lab, logits=x), [z, X])
    assert _grad_at(lambda x: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros_like(x), logits=x),
                    [0.0]) == [0.5]


def test_sparse_softmax_cross_entropy_rejects_bad_labels():
    with pytest.raises(ValueError, match="labels must be integers of shape"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0, 2.0], logits=X)
    with pytest.raises(IndexError, match=r"= 4 is not in \[0, 4\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 4, 1], logits=X)


def test_moments_and_batch_normalization():
    x = rng.normal(size=(4, 3, 2))
    mean, var = tf.nn.moments(tf.constant(x), axes=[0, 1])
    np.testing.assert_allclose(mean.numpy(), x.mean((0, 1)), rtol=1e-12)
    np.testing.assert_allclose(var.numpy(), x.var((0, 1)), rtol=1e-12)
    mean_k, _ = tf.nn.moments(tf.constant(x), axes=[0], keepdims=True)
    assert mean_k.shape == (1, 3, 2)
    check_grads(lambda t: tf.nn.moments(t, axes=[0])[1], [x])
    y = tf.nn.batch_normalization(tf.constant(x), mean, var, offset=0.5, scale=2.0, variance_epsilon=1e-3)
    np.testing.assert_allclose(y.numpy(), (x - x.mean((0, 1))) / np.sqrt(x.var((0, 1)) + 1e-3) * 2 + 0.5,
                               rtol=1e-10)


def test_bias_add():
    b = np.array([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(tf.nn.bias_add(X, b).numpy(), X + b)
    x4 = rng.normal(size=(2, 4, 3, 3))
    np.testing.assert_allclose(tf.nn.bias_add(x4, b, data_format="NCHW").numpy(), x4 + b[:, None, None])
    with pytest.raises(ValueError, match=r"bias_add: bias of shape \[3\] must be a vector matching"):
        tf.nn.bias_add(X, b[:3])


def test_dropout():
    x = tf.ones([200, 100])
    tf.random.set_seed(3)
    y = tf.nn.dropout(x, rate=0.25).numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.02
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert tf.nn.dropout(x, 0.0) is x
    with pytest.raises(ValueError, match=r"dropout: rate must be in \[0, 1\), got 1"):
        tf.nn.dropout(x, 1)
    # The gradient is the same mask and scale.
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, 0.5)
    g = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(g, y.numpy())


def test_conv_and_pool_argument_errors():
    x = tf.ones([1, 4, 4, 2])
    with pytest.raises(ValueError, match=r"conv2d: filters of shape \[3, 3, 3, 1\] \(HWIO\) do not fit input"):
        tf.nn.conv2d(x, tf.ones([3, 3, 3, 1]), 1, "SAME")
    with pytest.raises(ValueError, match="padding must be 'SAME' or 'VALID', got 'FULL'"):
        tf.nn.max_pool2d(x, 2, 2, "FULL")
    with pytest.raises(TypeError, match="conv2d: input is float32 but filters are float64"):
        tf.nn.conv2d(x, tf.ones([1, 1, 2, 1], tf.float64), 1, "SAME")
    assert tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID").shape == (1, 2, 2, 2)
    assert tf.nn.avg_pool(x, 3, 1, "SAME").shape == (1, 4, 4, 2)


def test_conv2d_second_order_gradient():
    x = rng.normal(size=(1, 4, 4, 1))
    w = rng.normal(size=(2, 2, 1, 2))
    check_grads(lambda a, b: tf.nn.conv2d(a, b, 2, "SAME") ** 2, [x, w], order=2)

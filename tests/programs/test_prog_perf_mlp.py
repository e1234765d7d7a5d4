"""Benchmark-style MLP programs: a dense forward pass on a batch, and the gradient
of a long chain of small ops, timed eagerly and under tf.function."""
import numpy as np
import tapeflow as tf

from perf_helpers import eager_vs_function


def test_dense_mlp_forward_matches_numpy_and_eager():
    rng = np.random.default_rng(0)
    w1 = rng.normal(size=(784, 256)).astype(np.float32) * 0.05
    w2 = rng.normal(size=(256, 10)).astype(np.float32) * 0.05
    b1 = rng.normal(size=(256,)).astype(np.float32) * 0.1
    x = rng.normal(size=(256, 784)).astype(np.float32)
    W1, W2, B1 = tf.Variable(w1), tf.Variable(w2), tf.Variable(b1)
    B2 = tf.Variable(tf.zeros([10]))

    def forward(x):
        h = tf.nn.relu(tf.matmul(x, W1) + B1)
        return tf.nn.softmax(tf.matmul(h, W2) + B2)

    probs = eager_vs_function("mlp forward", forward, tf.constant(x), rtol=1e-5, atol=1e-6)
    logits = np.maximum(x @ w1 + b1, 0) @ w2
    expect = np.exp(logits - logits.max(1, keepdims=True))
    expect /= expect.sum(1, keepdims=True)
    np.testing.assert_allclose(probs.numpy(), expect, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(probs.numpy().sum(1), 1.0, rtol=1e-5)


def test_keras_mlp_predict_step_eager_vs_function():
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(64,)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(128, activation="gelu"),
        tf.keras.layers.Dense(10),
    ])
    x = tf.random.normal([512, 64])
    out = eager_vs_function("keras mlp call", lambda x: model(x, training=False), x, rtol=1e-4, atol=1e-5)
    assert out.shape == (512, 10)


def test_gradient_of_many_small_ops_compiled_vs_eager():
    depth = 40
    weights = [tf.Variable(0.3 + 0.01 * i) for i in range(depth)]
    x = tf.constant(np.random.default_rng(2).normal(size=(256,)).astype(np.float32))

    def chain_grads(x):
        with tf.GradientTape() as tape:
            y = x
            for w in weights:
                y = tf.tanh(y * w) + 0.5 * y
            loss = tf.reduce_mean(y ** 2)
        return tape.gradient(loss, weights)

    grads = eager_vs_function("grad of 40-op chain", chain_grads, x, rtol=1e-4, atol=1e-7)

    # The same chain in float64 NumPy, backpropagated by hand.
    xv = x.numpy().astype(np.float64)
    ws = np.array([0.3 + 0.01 * i for i in range(depth)], dtype=np.float32).astype(np.float64)
    ys, us = [xv], []
    for w in ws:
        us.append(ys[-1] * w)
        ys.append(np.tanh(us[-1]) + 0.5 * ys[-1])
    gy, expect = 2 * ys[-1] / xv.size, np.zeros(depth)
    for i in reversed(range(depth)):
        d = 1 - np.tanh(us[i]) ** 2
        expect[i] = np.sum(gy * d * ys[i])
        gy = gy * (d * ws[i] + 0.5)
    np.testing.assert_allclose([g.numpy() for g in grads], expect, rtol=2e-3, atol=1e-7)

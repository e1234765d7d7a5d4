# The TF 1.5 eager guide's function-style autodiff, as blog posts used it:
# tfe.gradients_function nested for higher derivatives, value_and_gradients_function
# for a hand-written fit, tfe.defun with Python control flow, and tf.log/tf.mod.
import numpy as np

import tapeflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager


def test_nested_gradients_function_higher_order():
    def f(x):
        return tf.tanh(x)

    d1 = tfe.gradients_function(f)
    d2 = tfe.gradients_function(lambda x: d1(x)[0])
    d3 = tfe.gradients_function(lambda x: d2(x)[0])
    x = np.linspace(-2, 2, 9).astype(np.float32)
    t = np.tanh(x)
    np.testing.assert_allclose(d1(x)[0].numpy(), 1 - t ** 2, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(d2(x)[0].numpy(), -2 * t * (1 - t ** 2), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(d3(x)[0].numpy(), (1 - t ** 2) * (6 * t ** 2 - 2), rtol=1e-4, atol=1e-5)

    def power(x, y):
        return x ** y

    grads = tfe.gradients_function(power, params=[0, 1])(2.0, 3.0)
    np.testing.assert_allclose([g.numpy() for g in grads], [12.0, 8.0 * np.log(2.0)], rtol=1e-6)


def test_value_and_gradients_function_fit_and_defun_control_flow():
    rng = np.random.RandomState(3)
    xs = rng.uniform(-1, 1, 100).astype(np.float32)
    ys = 3.0 * xs + 2.0 + rng.normal(0, 0.05, 100).astype(np.float32)

    def loss(w, b):
        return tf.reduce_mean(tf.square(w * xs + b - ys))

    value_and_grads = tfe.value_and_gradients_function(loss)
    w, b = tf.constant(0.0), tf.constant(0.0)
    first = None
    for _ in range(300):
        value, (dw, db) = value_and_grads(w, b)
        first = float(value) if first is None else first
        w, b = w - 0.2 * dw, b - 0.2 * db
    assert float(value) < 0.01 < first
    assert abs(float(w) - 3.0) < 0.05 and abs(float(b) - 2.0) < 0.05

    @tfe.defun
    def collatz_steps(n):
        steps = tf.constant(0)
        while n > 1:
            if tf.equal(tf.mod(n, 2), 0):
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    for start, expected in [(6, 8), (7, 16), (27, 111)]:
        assert int(collatz_steps(tf.constant(start))) == expected

    x = tf.constant([0.5, 1.0, 4.0])
    np.testing.assert_allclose(tf.log(x).numpy(), np.log([0.5, 1.0, 4.0]), rtol=1e-6)
    assert tf.mod(tf.constant([-7, 7]), 3).numpy().tolist() == [2, 1]  # floor modulo, like Python

"""bfloat16 graphs give eager's answers: the C compiler has no bfloat16 type, so such nodes run
through the NumPy executor, bit for bit as eager (never a float32 shortcut)."""
import warnings

import numpy as np

import tapeflow as tf


def _model(x, w):
    h = tf.nn.relu(tf.matmul(x, w) * 0.5 + 1.0)
    s = tf.nn.softmax(h) + tf.sigmoid(h) - tf.tanh(h)
    return tf.reduce_sum(s * s, axis=1), tf.cast(h, tf.float32) * 3.0 + 1.0


def test_graph_equals_eager_bitwise_with_gradients():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(4, 6)), tf.bfloat16)
    w = tf.Variable(tf.constant(rng.normal(size=(6, 5)), tf.bfloat16))

    def step(x):
        with tf.GradientTape() as tape:
            y, f32 = _model(x, w)
            loss = tf.reduce_mean(y)
        return y, f32, tape.gradient(loss, w)

    eager = step(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "compiling ... failed" fallback warning
        graph = tf.function(step)(x)
    for e, g in zip(eager, graph):
        assert e.dtype == g.dtype
        assert e.numpy().dtype == g.numpy().dtype
        np.testing.assert_array_equal(e.numpy().view(np.uint8), g.numpy().view(np.uint8))
    assert eager[0].dtype == tf.bfloat16 and eager[1].dtype == tf.float32 and eager[2].dtype == tf.bfloat16


def test_float32_reference_differs_so_the_check_can_fail():
    # bfloat16 rounding is visible: the same model in float32 gives other numbers
    x = tf.constant([[0.3, 1.7, -2.2]], tf.bfloat16)
    w = tf.constant([[0.1], [0.7], [0.33]], tf.bfloat16)
    y16 = tf.function(lambda a, b: tf.matmul(a, b) / 3.0)(x, w)
    y32 = tf.matmul(tf.cast(x, tf.float32), tf.cast(w, tf.float32)) / 3.0
    assert y16.dtype == tf.bfloat16
    assert float(y16[0, 0]) != float(y32[0, 0])
    assert abs(float(y16[0, 0]) - float(y32[0, 0])) < 1e-2

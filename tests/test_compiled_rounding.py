"""Compiled kernels round as eager NumPy does: no fused multiply-add contraction
(a * b + c in one rounding would differ from eager in the last bit)."""
import numpy as np

import tapeflow as tf


def test_multiply_add_is_bitwise_eager():
    rng = np.random.default_rng(0)
    a, b, c = (tf.constant(rng.standard_normal(4096).astype("float32")) for _ in range(3))

    def f(a, b, c):
        return a * b + c, c - a * b, (a + 1.5) * b + c * 0.25

    eager = f(a, b, c)
    compiled = tf.function(f)(a, b, c)
    for e, g in zip(eager, compiled):
        np.testing.assert_array_equal(g.numpy(), e.numpy())


def test_linspace_in_a_loop_matches_eager():
    def f():
        x = tf.linspace(-2.0, 1.0, 257)
        return x * x - 0.75 * x + 0.1

    np.testing.assert_array_equal(tf.function(f)().numpy(), f().numpy())

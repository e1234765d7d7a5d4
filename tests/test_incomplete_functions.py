"""igamma / igammac: the gradient with respect to `a` is not implemented, so asking for
it raises (TensorFlow has one; a silent None would be a wrong answer); the domain edges
give NaN / inf without NumPy warnings."""
import warnings

import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("fn", [tf.math.igamma, tf.math.igammac])
@pytest.mark.parametrize("a,x", [(0.5, 0.2), (3.0, 5.0), (10.0, 9.0), (2.0, 30.0), (50.0, 60.0), (1.0, 1.5),
                                 (7.0, 20.0), (0.25, 0.01)])
def test_gradient_with_respect_to_a_matches_finite_differences(fn, a, x):
    # Both branches (series below x = a + 1, continued fraction above) against central differences.
    av, xv = tf.constant(a, tf.float64), tf.constant(x, tf.float64)
    with tf.GradientTape() as t:
        t.watch(av)
        y = fn(av, xv)
    h = 1e-5
    fd = (fn(tf.constant(a + h, tf.float64), xv) - fn(tf.constant(a - h, tf.float64), xv)).numpy() / (2 * h)
    np.testing.assert_allclose(t.gradient(y, av).numpy(), fd, rtol=1e-6, atol=1e-10)


def test_second_derivative_with_respect_to_a_raises():
    a, x = tf.constant([1.0, 2.0]), tf.constant([0.5, 3.0])
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            y = tf.math.igamma(a, x)
        da = inner.gradient(y, a)
    with pytest.raises(NotImplementedError, match="second derivative"):
        outer.gradient(da, a)


def test_domain_edges_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z = tf.math.zeta(tf.constant([0.5, 1.0, 2.0]), tf.constant([1.0, 1.0, -2.0])).numpy()
        p = tf.math.polygamma(tf.constant([-1.0, 1.5, 2.0]), tf.constant([1.0, 1.0, 1.0])).numpy()
        g = tf.math.igamma(tf.constant([-1.0, 2.0]), tf.constant([1.0, np.inf])).numpy()
    assert np.isnan(z[0]) and np.isinf(z[1]) and np.isinf(z[2])
    assert np.isnan(p[0]) and np.isnan(p[1]) and np.isclose(p[2], -2 * 1.2020569031595942)
    assert np.isnan(g[0]) and g[1] == 1.0

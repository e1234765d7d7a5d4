"""igamma / igammac: the gradient with respect to `a` is not implemented, so asking for
it raises (TensorFlow has one; a silent None would be a wrong answer); the domain edges
give NaN / inf without NumPy warnings."""
import warnings

import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("fn", [tf.math.igamma, tf.math.igammac])
def test_gradient_with_respect_to_a_raises(fn):
    a, x = tf.constant([1.0, 2.0]), tf.constant([0.5, 3.0])
    with tf.GradientTape() as t:
        t.watch(a)
        with pytest.raises(NotImplementedError, match="with respect to a"):
            fn(a, x)
    with tf.GradientTape() as t:  # x alone is fine
        t.watch(x)
        y = fn(a, x)
    assert t.gradient(y, x).shape == (2,)


def test_domain_edges_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z = tf.math.zeta(tf.constant([0.5, 1.0, 2.0]), tf.constant([1.0, 1.0, -2.0])).numpy()
        p = tf.math.polygamma(tf.constant([-1.0, 1.5, 2.0]), tf.constant([1.0, 1.0, 1.0])).numpy()
        g = tf.math.igamma(tf.constant([-1.0, 2.0]), tf.constant([1.0, np.inf])).numpy()
    assert np.isnan(z[0]) and np.isinf(z[1]) and np.isinf(z[2])
    assert np.isnan(p[0]) and np.isnan(p[1]) and np.isclose(p[2], -2 * 1.2020569031595942)
    assert np.isnan(g[0]) and g[1] == 1.0

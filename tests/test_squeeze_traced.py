"""tf.squeeze without an axis inside tf.function, on dims unknown while tracing:
the result equals eager's, or (when an unknown dim turns out to be 1, which eager
would drop too) a clear InvalidArgumentError -- never a result of another shape."""
import numpy as np
import pytest

import tapeflow as tf


def _traced(spec):
    @tf.function(input_signature=[tf.TensorSpec(spec)])
    def f(x):
        return tf.squeeze(x) * 2

    return f


def test_unknown_batch_larger_than_one_matches_eager():
    x = tf.reshape(tf.range(6.0), [2, 1, 3])
    np.testing.assert_array_equal(_traced([None, 1, 3])(x).numpy(), (tf.squeeze(x) * 2).numpy())


def test_unknown_dim_of_size_one_is_refused_not_misshaped():
    with pytest.raises(tf.errors.InvalidArgumentError, match="explicit axis"):
        _traced([None, 1, 3])(tf.ones([1, 1, 3]))


def test_gradient_through_traced_squeeze():
    x = tf.Variable(tf.ones([2, 1, 3]))

    @tf.function(input_signature=[tf.TensorSpec([None, 1, 3])])
    def loss(v):
        return tf.reduce_sum(tf.squeeze(v) * tf.constant([1.0, 2.0, 3.0]))

    with tf.GradientTape() as tape:
        y = loss(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.tile([[[1.0, 2.0, 3.0]]], (2, 1, 1)))

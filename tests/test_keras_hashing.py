"""keras.layers.HashedCrossing: the values of tf.sparse.cross_hashed (whose hashes were measured
against TF), in eager, traced and functional calls, and clear errors for inputs Keras refuses."""
import numpy as np
import pytest

import tapeflow as tf

COLORS = np.array(["red", "blue", "green", "red"])
SIZES = np.array([1, 2, 3, 7], "int64")


def test_crossing_equals_sparse_cross_hashed():
    got = tf.keras.layers.HashedCrossing(num_bins=5)((COLORS, SIZES))
    want = tf.sparse.to_dense(tf.sparse.cross_hashed([COLORS[:, None], SIZES[:, None]], 5))
    assert got.dtype == tf.int64 and got.shape == (4,)
    np.testing.assert_array_equal(got.numpy(), want.numpy()[:, 0])
    np.testing.assert_array_equal(got.numpy(), [4, 0, 2, 0])  # measured with Keras 3.15


def test_traced_and_functional_calls_match_eager():
    layer = tf.keras.layers.HashedCrossing(num_bins=9, output_mode="one_hot")
    eager = layer((COLORS[:, None], SIZES[:, None]))
    traced = tf.function(lambda a, b: layer((a, b)))(tf.constant(COLORS[:, None]), tf.constant(SIZES[:, None]))
    a, b = tf.keras.Input((1,), dtype="string"), tf.keras.Input((1,), dtype="int64")
    out = layer([a, b])
    assert tuple(out.shape) == (None, 9) and out.dtype == "float32"
    functional = tf.keras.Model([a, b], out)([COLORS[:, None], SIZES[:, None]])
    assert eager.shape == (4, 9)
    np.testing.assert_array_equal(traced.numpy(), eager.numpy())
    np.testing.assert_array_equal(functional.numpy(), eager.numpy())


@pytest.mark.parametrize("inputs, message", [
    ((COLORS,), "at least two inputs"),
    ((COLORS[:2], SIZES), "equal shape"),
    ((np.ones((2, 2), "int64"), np.ones((2, 2), "int64")), "should have shape"),
    ((np.ones(2, "float32"), SIZES[:2]), "integer or string dtype"),
])
def test_bad_inputs_raise(inputs, message):
    with pytest.raises(ValueError, match=message):
        tf.keras.layers.HashedCrossing(num_bins=3)(inputs)

"""pad_sequences, CategoryEncoding and Discretization against NumPy/Keras results."""
import numpy as np
import pytest

import tapeflow as tf

pad = tf.keras.preprocessing.sequence.pad_sequences


def test_pad_sequences_defaults_pad_and_truncate_at_the_front():
    out = pad([[1, 2, 3], [4], [5, 6]])
    np.testing.assert_array_equal(out, [[1, 2, 3], [0, 0, 4], [0, 5, 6]])
    assert out.dtype == np.int32


@pytest.mark.parametrize("padding,truncating,want", [
    ("pre", "pre", [[2, 3], [-1, 4]]),
    ("post", "pre", [[2, 3], [4, -1]]),
    ("pre", "post", [[1, 2], [-1, 4]]),
    ("post", "post", [[1, 2], [4, -1]]),
])
def test_pad_sequences_options(padding, truncating, want):
    out = pad([[1, 2, 3], [4]], maxlen=2, padding=padding, truncating=truncating, value=-1)
    np.testing.assert_array_equal(out, want)


def test_pad_sequences_dtype_empty_and_vector_items():
    out = pad([[0.5, 1.5], []], dtype="float32", value=9.0)
    np.testing.assert_array_equal(out, np.array([[0.5, 1.5], [9.0, 9.0]], np.float32))
    assert out.dtype == np.float32
    vec = pad([np.ones((2, 3)), np.ones((1, 3)) * 2], maxlen=3, padding="post")
    assert vec.shape == (2, 3, 3)
    np.testing.assert_array_equal(vec[1], [[2, 2, 2], [0, 0, 0], [0, 0, 0]])
    assert tf.keras.utils.pad_sequences is pad
    assert pad([], maxlen=3).shape == (0, 3)


def test_pad_sequences_bad_arguments():
    with pytest.raises(ValueError, match="padding"):
        pad([[1]], padding="middle")
    with pytest.raises(ValueError, match="truncating"):
        pad([[1]], truncating="x")
    with pytest.raises(ValueError, match="sequence"):
        pad([1, 2])


def test_category_encoding_modes():
    ce = tf.keras.layers.CategoryEncoding
    np.testing.assert_array_equal(ce(4, output_mode="one_hot")(np.array([3, 0, 1])).numpy(), np.eye(4)[[3, 0, 1]])
    ids = np.array([[0, 1, 1], [3, 3, 3]])
    np.testing.assert_array_equal(ce(4)(ids).numpy(), [[1, 1, 0, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(ce(4, output_mode="count")(ids).numpy(), [[1, 2, 0, 0], [0, 0, 0, 3]])
    w = np.array([[0.5, 1.0, 2.0], [1.0, 1.0, 1.0]], np.float32)
    np.testing.assert_allclose(ce(4, output_mode="count")(ids, count_weights=w).numpy(),
                               [[0.5, 3.0, 0, 0], [0, 0, 0, 3]])
    with pytest.raises(ValueError, match=r"\[0, 4\)"):
        ce(4)(np.array([[4]]))
    with pytest.raises(ValueError, match="output_mode"):
        ce(4, output_mode="tf_idf")


def test_discretization_buckets_and_adapt():
    d = tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    x = np.array([[-1.5, 1.0, 0.5], [0.0, 2.0, 3.0]])
    out = d(x)
    assert out.dtype.name == "int32"  # Keras 3's output dtype for output_mode="int"
    np.testing.assert_array_equal(out.numpy(), np.digitize(x, [0.0, 1.0, 2.0]))
    d = tf.keras.layers.Discretization(num_bins=4)
    data = np.arange(100, dtype=np.float64)
    d.adapt(data)
    # Keras's approximate quantile summary (epsilon 0.01), as TF 2.21 / Keras 3 gives it
    np.testing.assert_allclose(d.bin_boundaries, [23.999982833862305, 48.99998092651367, 73.99998474121094],
                               rtol=1e-6)
    np.testing.assert_array_equal(np.bincount(d(data).numpy()), [24, 25, 25, 26])

"""Dtype and integer-arithmetic rules TF2 programs rely on: constants' dtypes, mixing raises,
casts truncate toward zero and wrap, floor vs truncate division of negatives, true division of
ints, int ** negative int, overflow wraparound; eager and tf.function agree."""
import numpy as np
import pytest
import tapeflow as tf


def test_constant_dtypes_follow_tensorflow():
    assert tf.constant(3).dtype == tf.int32
    assert tf.constant(3.0).dtype == tf.float32
    assert tf.constant([1, 2.5]).dtype == tf.float32
    assert tf.constant(np.array([1, 2])).dtype == tf.int64
    assert tf.constant(np.array([1.0])).dtype == tf.float64
    assert tf.constant([True, False]).dtype == tf.bool
    assert tf.constant(2 ** 40).dtype == tf.int64
    # a Python scalar adopts the tensor's dtype
    assert (tf.constant([1, 2], tf.int64) * 3).dtype == tf.int64
    assert (tf.constant([1.0], tf.float64) + 0.5).dtype == tf.float64


def test_mixing_dtypes_raises_with_the_op_named():
    with pytest.raises(TypeError, match="add: the operands have different dtypes, int32.*float32"):
        tf.constant(1) + tf.constant(1.0)
    with pytest.raises(TypeError, match="int64.*int32"):
        tf.constant(np.int64(1)) + tf.constant(1)


def test_casts_truncate_toward_zero_and_wrap():
    x = tf.constant([-1.7, 1.7, -0.5, 2.5, 0.0])
    np.testing.assert_array_equal(tf.cast(x, tf.int32).numpy(), [-1, 1, 0, 2, 0])
    np.testing.assert_array_equal(tf.cast(tf.constant([0.0, 0.1, -2.0, np.nan]), tf.bool).numpy(),
                                  [False, True, True, True])
    np.testing.assert_array_equal(tf.cast(tf.constant([True, False]), tf.float32).numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(tf.cast(tf.constant([255, 256, -1, 300]), tf.uint8).numpy(), [255, 0, 255, 44])
    np.testing.assert_array_equal((tf.constant([250], tf.uint8) + tf.constant([10], tf.uint8)).numpy(), [4])
    np.testing.assert_array_equal((tf.constant([2 ** 31 - 1]) + 1).numpy(), [-2 ** 31])


def integer_arithmetic(a, b):
    return a // b, a % b, tf.truncatediv(a, b), tf.truncatemod(a, b), a / b


def test_floor_and_truncate_division_of_negatives_eager_and_graph():
    a = tf.constant([-7, 7, -7, 7, 6])
    b = tf.constant([2, -2, -2, 2, 3])
    want = ([-4, -4, 3, 3, 2], [1, -1, -1, 1, 0], [-3, -3, 3, 3, 2], [-1, 1, -1, 1, 0],
            [-3.5, -3.5, 3.5, 3.5, 2.0])
    for fn in (integer_arithmetic, tf.function(integer_arithmetic)):
        out = fn(a, b)
        for got, ref in zip(out, want):
            np.testing.assert_array_equal(got.numpy(), ref)
        assert out[4].dtype == tf.float64  # int32 / int32 is float64 in TensorFlow
    # floats: floor division and a remainder with the divisor's sign
    np.testing.assert_allclose((tf.constant([-7.5, 7.5]) // tf.constant([2.0, -2.0])).numpy(), [-4.0, -4.0])
    np.testing.assert_allclose((tf.constant([-7.5, 7.5]) % tf.constant([2.0, -2.0])).numpy(), [0.5, -0.5])
    assert tf.math.divide(tf.constant([3]), tf.constant([2])).dtype == tf.float64


def test_integer_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="integer division by zero"):
        tf.constant([1]) // tf.constant([0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative integer powers"):
        tf.pow(tf.constant([2]), tf.constant([-1]))
    np.testing.assert_array_equal(tf.pow(tf.constant([2, 3]), 2).numpy(), [4, 9])
    np.testing.assert_allclose(tf.pow(tf.constant([2.0]), -1.0).numpy(), [0.5])


def test_round_is_half_to_even_and_clip_keeps_nan():
    np.testing.assert_array_equal(tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, 2.6])).numpy(),
                                  [0.0, 2.0, 2.0, -0.0, -2.0, 3.0])
    out = tf.clip_by_value(tf.constant([np.nan, -5.0, 5.0, 0.3]), -1.0, 1.0).numpy()
    assert np.isnan(out[0]) and list(out[1:]) == [-1.0, 1.0, np.float32(0.3)]
    np.testing.assert_array_equal(tf.clip_by_value(tf.constant([-5, 5]), -1, 1).numpy(), [-1, 1])


def test_nan_propagates_through_maximum_minimum_and_reductions():
    a, b = tf.constant([np.nan, 1.0, 2.0]), tf.constant([1.0, np.nan, 1.0])
    for fn in (tf.maximum, tf.minimum):
        out = fn(a, b).numpy()
        assert np.isnan(out[:2]).all() and out[2] == (2.0 if fn is tf.maximum else 1.0)
    assert np.isnan(tf.reduce_max(tf.constant([1.0, np.nan, 3.0])).numpy())
    assert np.isnan(tf.reduce_min(tf.constant([1.0, np.nan, 3.0])).numpy())

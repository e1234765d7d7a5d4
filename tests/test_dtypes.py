"""TensorFlow 2's dtype rules, one assertion each."""
import numpy as np
import pytest

import tapeflow as tf


def test_python_values_convert_as_tensorflow():
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant(3).dtype == tf.int32
    assert tf.constant(2 ** 40).dtype == tf.int64
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant([[1, 2], [3, 4]]).dtype == tf.int32
    assert tf.constant(np.array([1.0])).dtype == tf.float64  # NumPy arrays keep their dtype
    assert tf.constant(np.float16(1)).dtype == tf.float16


def test_a_python_scalar_adopts_the_tensor_dtype():
    assert (tf.constant([1, 2], tf.int64) + 1).dtype == tf.int64
    assert (tf.constant([1.0], tf.float16) * 2.5).dtype == tf.float16
    assert (2.5 * tf.constant([1.0], tf.float64)).dtype == tf.float64
    assert (tf.constant([1, 2], tf.uint8) - 1).dtype == tf.uint8
    # TensorFlow converts no Python float to an integer dtype, not even an integral one;
    # for `+` its AddV2 kernel reports the pair (InvalidArgumentError, here also a TypeError).
    with pytest.raises(TypeError, match="Cannot convert 1.5 to a tensor of dtype int32"):
        tf.constant([1, 2]) * 1.5
    with pytest.raises(TypeError, match="Cannot convert 1.0 to a tensor of dtype int32"):
        tf.constant([1, 2]) - 1.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="different dtypes, int32.* and float32"):
        tf.constant([1, 2]) + 1.0


def test_two_tensors_of_different_dtypes_raise():
    with pytest.raises(TypeError, match="the operands have different dtypes, int32"):
        tf.constant([1]) + tf.constant([1], tf.int64)
    with pytest.raises(TypeError, match="float32"):
        tf.constant([1.0]) < tf.constant([1.0], tf.float64)


def test_true_division_of_integers_gives_floats():
    assert (tf.constant(7) / tf.constant(2)).dtype == tf.float64
    assert float(tf.constant(7) / 2) == 3.5
    assert (tf.constant(7, tf.int16) / tf.constant(2, tf.int16)).dtype == tf.float32
    assert (tf.constant(7, tf.int64) / 2).dtype == tf.float64
    assert (tf.constant(7.0) / 2).dtype == tf.float32


def test_floor_division_and_mod_keep_the_dtype_and_follow_python_signs():
    q = tf.constant([7, -7]) // tf.constant([2, 2])
    r = tf.constant([7, -7]) % tf.constant([2, 2])
    assert q.dtype == tf.int32 and q.numpy().tolist() == [3, -4]
    assert r.numpy().tolist() == [1, 1]
    assert (tf.constant([-7.5]) % 2.0).numpy().tolist() == [0.5]


def test_argmax_is_int64_unless_asked():
    x = tf.constant([[1.0, 3.0], [5.0, 0.0]])
    assert tf.argmax(x, 1).dtype == tf.int64
    assert tf.argmin(x, 0, output_type=tf.int32).dtype == tf.int32


def test_round_is_half_to_even():
    assert tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5])).numpy().tolist() == [0, 2, 2, -0.0, -2]
    assert tf.round(tf.constant([3])).dtype == tf.int32


def test_cast_truncates_toward_zero_and_handles_bools():
    assert tf.cast(tf.constant([1.7, -1.7]), tf.int32).numpy().tolist() == [1, -1]
    assert tf.cast(tf.constant([0.0, 2.0]), tf.bool).numpy().tolist() == [False, True]
    assert tf.cast(tf.constant([True, False]), tf.float32).numpy().tolist() == [1.0, 0.0]
    x = tf.constant([1.0])
    assert tf.cast(x, tf.float32) is x


def test_integer_mean_truncates():
    assert int(tf.reduce_mean(tf.constant([1, 2]))) == 1
    assert int(tf.reduce_mean(tf.constant([-1, -2]))) == -1
    assert tf.reduce_mean(tf.constant([1, 2])).dtype == tf.int32


def test_shape_size_rank_range_dtypes():
    x = tf.ones([2, 3])
    assert tf.shape(x).dtype == tf.int32 and tf.shape(x).numpy().tolist() == [2, 3]
    assert tf.shape(x, out_type=tf.int64).dtype == tf.int64
    assert tf.size(x).dtype == tf.int32 and int(tf.size(x)) == 6
    assert int(tf.rank(x)) == 2
    assert tf.range(3).dtype == tf.int32
    assert tf.range(3.0).dtype == tf.float32
    assert tf.range(0, 1, 0.5, dtype=tf.float64).dtype == tf.float64
    assert tf.zeros([2]).dtype == tf.float32 and tf.ones([2], tf.int64).dtype == tf.int64
    assert tf.one_hot([1], 2).dtype == tf.float32
    assert tf.one_hot([1], 2, on_value=5, off_value=0).dtype == tf.int32


def test_comparisons_and_logic_are_bool():
    a = tf.constant([1, 2])
    assert (a > 1).dtype == tf.bool and (a == 1).dtype == tf.bool
    assert tf.logical_and(a > 1, a < 3).numpy().tolist() == [False, True]
    with pytest.raises(tf.errors.InvalidArgumentError, match="logical_and does not support int32"):
        tf.logical_and(a, a)  # TF's kernel error eagerly (a TypeError while tracing)


def test_dtype_objects():
    assert tf.float32 == np.float32 and tf.float32 == "float32" and tf.dtypes.float32 is tf.float32
    assert tf.as_dtype("double") is tf.float64 and tf.dtypes.as_dtype(np.int64) is tf.int64
    assert tf.int32.is_integer and tf.float16.is_floating and tf.bool.is_bool
    assert tf.uint8.max == 255 and tf.int8.min == -128
    assert repr(tf.float32) == "tf.float32"
    assert tf.as_dtype("complex128") is tf.complex128 and tf.as_dtype(complex) is tf.complex128
    assert tf.complex64.real_dtype is tf.float32 and not tf.complex64.is_floating
    assert tf.as_dtype("bfloat16") is tf.bfloat16 and tf.bfloat16.is_floating  # through ml_dtypes
    with pytest.raises(TypeError, match="Cannot convert 'qint8' to a tapeflow dtype"):  # quantized: not built
        tf.as_dtype("qint8")


def test_reductions_keep_small_int_dtypes():
    assert tf.reduce_sum(tf.constant([100, 100], tf.int8)).dtype == tf.int8
    assert tf.reduce_prod(tf.constant([2, 3], tf.int16)).dtype == tf.int16
    assert tf.cumsum(tf.constant([1, 2], tf.uint8)).dtype == tf.uint8


def test_cached_python_scalars_keep_the_sign_of_zero():
    x = tf.constant([1.0])
    assert (x * 0.0).numpy().tolist() == [0.0]
    assert np.signbit((x * -0.0).numpy()[0])
    assert np.signbit(tf.constant(-0.0).numpy()) and not np.signbit(tf.constant(0.0).numpy())
    assert tf.constant(1, tf.float32).dtype == tf.float32 and tf.constant(True).dtype == tf.bool


def test_a_tensor_holding_a_numpy_scalar_converts_like_an_array():
    # Some paths (graph constants, dataset elements) hand Tensor a NumPy scalar.
    t = tf.Tensor(np.float32(2.5))
    assert t.numpy() == np.float32(2.5) and t.numpy().dtype == np.float32
    assert np.asarray(t).shape == () and float(t) == 2.5


def test_numpy_returns_a_c_ordered_copy_and_conversion_copies():
    f_order = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    t = tf.constant(f_order)
    f_order[0, 0] = 99.0  # the tensor keeps the value it was made from
    assert t.numpy()[0, 0] == 0.0
    out = tf.transpose(t).numpy()
    assert out.flags.c_contiguous and out.flags.owndata
    out[0, 0] = -1.0  # the copy is the caller's
    assert float(tf.transpose(t)[0, 0]) == 0.0


def test_numpy_of_a_scalar_tensor_is_a_numpy_scalar_as_in_tensorflow():
    v = tf.constant(2.5).numpy()
    assert isinstance(v, np.float32) and v == 2.5
    assert {tf.constant(3).numpy(): "usable as a key"}[3] == "usable as a key"
    assert isinstance(tf.constant([1.0]).numpy(), np.ndarray)

"""The "Introduction to Tensors" guide, cell by cell as a user types it."""
import numpy as np
import pytest
import tapeflow as tf


def test_basics_ranks_and_dtypes():
    rank_0_tensor = tf.constant(4)
    assert rank_0_tensor.dtype == tf.int32 and rank_0_tensor.shape == ()
    rank_1_tensor = tf.constant([2.0, 3.0, 4.0])
    assert rank_1_tensor.dtype == tf.float32
    rank_2_tensor = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    assert rank_2_tensor.dtype == tf.float16 and rank_2_tensor.shape == (3, 2)
    rank_3_tensor = tf.constant([[[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]],
                                 [[10, 11, 12, 13, 14], [15, 16, 17, 18, 19]],
                                 [[20, 21, 22, 23, 24], [25, 26, 27, 28, 29]]])
    assert rank_3_tensor.shape == (3, 2, 5)
    assert isinstance(np.array(rank_2_tensor), np.ndarray)
    np.testing.assert_array_equal(rank_2_tensor.numpy(), [[1, 2], [3, 4], [5, 6]])
    assert "tf.Tensor" in repr(rank_0_tensor) and "shape=()" in repr(rank_0_tensor)
    print(rank_3_tensor)


def test_basic_math():
    a = tf.constant([[1, 2], [3, 4]])
    b = tf.constant([[1, 1], [1, 1]])
    np.testing.assert_array_equal(tf.add(a, b).numpy(), [[2, 3], [4, 5]])
    np.testing.assert_array_equal(tf.multiply(a, b).numpy(), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(tf.matmul(a, b).numpy(), [[3, 3], [7, 7]])
    np.testing.assert_array_equal((a + b).numpy(), (tf.add(a, b)).numpy())
    np.testing.assert_array_equal((a @ b).numpy(), [[3, 3], [7, 7]])
    c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
    assert float(tf.reduce_max(c)) == 10.0
    assert int(tf.math.argmax(c)[0]) == 1 and tf.math.argmax(c).dtype == tf.int64
    sm = tf.nn.softmax(c)
    np.testing.assert_allclose(sm.numpy().sum(axis=1), [1, 1], rtol=1e-6)
    assert tf.convert_to_tensor([1, 2, 3]).dtype == tf.int32
    assert float(tf.reduce_max([1, 2, 3])) == 3
    np.testing.assert_allclose(tf.nn.softmax([4.0, 5.0]).numpy(), np.exp([4, 5]) / np.exp([4, 5]).sum(), rtol=1e-6)


def test_shapes():
    rank_4_tensor = tf.zeros([3, 2, 4, 5])
    assert rank_4_tensor.dtype == tf.float32
    assert rank_4_tensor.ndim == 4
    assert rank_4_tensor.shape == (3, 2, 4, 5)
    assert rank_4_tensor.shape[0] == 3 and rank_4_tensor.shape[-1] == 5
    assert tf.size(rank_4_tensor).numpy() == 120
    assert tf.rank(rank_4_tensor).numpy() == 4
    np.testing.assert_array_equal(tf.shape(rank_4_tensor).numpy(), [3, 2, 4, 5])
    assert tf.size(rank_4_tensor).dtype == tf.int32
    assert rank_4_tensor.shape.as_list() == [3, 2, 4, 5]
    assert rank_4_tensor.shape.rank == 4
    assert tf.TensorShape([None, 3]).as_list() == [None, 3]


def test_single_axis_indexing():
    rank_1_tensor = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    assert rank_1_tensor[0].numpy() == 0
    assert rank_1_tensor[-1].numpy() == 34
    np.testing.assert_array_equal(rank_1_tensor[:].numpy(), np.array([0, 1, 1, 2, 3, 5, 8, 13, 21, 34]))
    np.testing.assert_array_equal(rank_1_tensor[:4].numpy(), [0, 1, 1, 2])
    np.testing.assert_array_equal(rank_1_tensor[4:].numpy(), [3, 5, 8, 13, 21, 34])
    np.testing.assert_array_equal(rank_1_tensor[2:-3].numpy(), [1, 2, 3, 5, 8])
    np.testing.assert_array_equal(rank_1_tensor[::2].numpy(), [0, 1, 3, 8, 21])
    np.testing.assert_array_equal(rank_1_tensor[::-1].numpy(), [34, 21, 13, 8, 5, 3, 2, 1, 1, 0])


def test_multi_axis_indexing():
    rank_2_tensor = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    assert rank_2_tensor[1, 1].numpy() == 4.0
    np.testing.assert_array_equal(rank_2_tensor[1, :].numpy(), [3, 4])
    np.testing.assert_array_equal(rank_2_tensor[:, 1].numpy(), [2, 4, 6])
    np.testing.assert_array_equal(rank_2_tensor[-1, :].numpy(), [5, 6])
    np.testing.assert_array_equal(rank_2_tensor[1:, :].numpy(), [[3, 4], [5, 6]])
    rank_3_tensor = tf.reshape(tf.range(30), [3, 2, 5])
    np.testing.assert_array_equal(rank_3_tensor[:, :, 4].numpy(), np.arange(30).reshape(3, 2, 5)[:, :, 4])
    np.testing.assert_array_equal(rank_3_tensor[..., 4].numpy(), np.arange(30).reshape(3, 2, 5)[..., 4])
    np.testing.assert_array_equal(rank_3_tensor[:, tf.newaxis, 0].numpy(),
                                  np.arange(30).reshape(3, 2, 5)[:, None, 0])


def test_reshaping():
    x = tf.constant([[1], [2], [3]])
    assert x.shape.as_list() == [3, 1]
    reshaped = tf.reshape(x, [1, 3])
    assert reshaped.shape == (1, 3)
    rank_3_tensor = tf.constant(np.arange(30).reshape(3, 2, 5))
    np.testing.assert_array_equal(tf.reshape(rank_3_tensor, [-1]).numpy(), np.arange(30))
    assert tf.reshape(rank_3_tensor, [3 * 2, 5]).shape == (6, 5)
    assert tf.reshape(rank_3_tensor, [3, -1]).shape == (3, 10)
    # A bad reshape: the sizes do not match.
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError)):
        tf.reshape(rank_3_tensor, [7, -1])
    # Transposing is not reshaping.
    np.testing.assert_array_equal(tf.transpose(rank_3_tensor, [1, 0, 2]).numpy(),
                                  np.arange(30).reshape(3, 2, 5).transpose(1, 0, 2))


def test_dtypes_and_casts():
    the_f64_tensor = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
    the_f16_tensor = tf.cast(the_f64_tensor, dtype=tf.float16)
    the_u8_tensor = tf.cast(the_f16_tensor, dtype=tf.uint8)
    np.testing.assert_array_equal(the_u8_tensor.numpy(), [2, 3, 4])
    assert the_u8_tensor.dtype == tf.uint8
    assert tf.float32.is_floating and tf.int32.is_integer and not tf.int32.is_floating
    assert tf.as_dtype(np.float32) == tf.float32
    assert tf.float32.as_numpy_dtype == np.float32
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        tf.constant([1, 2]) + tf.constant([1.0, 2.0])


def test_broadcasting():
    x = tf.constant([1, 2, 3])
    y = tf.constant(2)
    z = tf.constant([2, 2, 2])
    np.testing.assert_array_equal(tf.multiply(x, 2).numpy(), [2, 4, 6])
    np.testing.assert_array_equal((x * y).numpy(), [2, 4, 6])
    np.testing.assert_array_equal((x * z).numpy(), [2, 4, 6])
    x = tf.reshape(x, [3, 1])
    y = tf.range(1, 5)
    np.testing.assert_array_equal(tf.multiply(x, y).numpy(), np.array([[1], [2], [3]]) * np.arange(1, 5))
    np.testing.assert_array_equal(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]).numpy(),
                                  np.broadcast_to([1, 2, 3], (3, 3)))


def test_convert_to_tensor_and_numpy_interop():
    t = tf.convert_to_tensor(np.array([1.0, 2.0]))
    assert t.dtype == tf.float64
    t2 = tf.convert_to_tensor([1.0, 2.0], dtype=tf.float64)
    assert t2.dtype == tf.float64
    a = np.ones((2, 2), np.float32)
    r = tf.add(a, 1)
    assert r.dtype == tf.float32
    n = np.add(tf.ones((2,)), 1)
    assert isinstance(n, np.ndarray)
    assert tf.is_tensor(t) and not tf.is_tensor(a)
    np.testing.assert_array_equal(tf.ones((2, 2)).numpy() @ a, np.full((2, 2), 2.0))


def test_string_tensors():
    # The guide's string cells, with the values the guide prints.
    scalar_string_tensor = tf.constant("Gray wolf")
    assert scalar_string_tensor.numpy() == b"Gray wolf" and scalar_string_tensor.dtype == tf.string
    tensor_of_strings = tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])
    assert tensor_of_strings.shape == (3,)
    assert str(tf.constant("🥳👍")) == "tf.Tensor(b'\\xf0\\x9f\\xa5\\xb3\\xf0\\x9f\\x91\\x8d', shape=(), dtype=string)"
    assert tf.strings.split(scalar_string_tensor, sep=" ").numpy().tolist() == [b"Gray", b"wolf"]
    assert tf.strings.split(tensor_of_strings).to_list() == [[b"Gray", b"wolf"], [b"Quick", b"brown", b"fox"],
                                                             [b"Lazy", b"dog"]]
    text = tf.constant("1 10 100")
    assert tf.strings.to_number(tf.strings.split(text, " ")).numpy().tolist() == [1.0, 10.0, 100.0]
    assert tf.strings.bytes_split(tf.constant("Duck")).numpy().tolist() == [b"D", b"u", b"c", b"k"]
    unicode_bytes = tf.constant("アヒル 🦆")
    assert tf.strings.unicode_split(unicode_bytes, "UTF-8").numpy().tolist() == [
        c.encode() for c in "アヒル 🦆"]
    assert tf.strings.unicode_decode(unicode_bytes, "UTF-8").numpy().tolist() == [ord(c) for c in "アヒル 🦆"]


def test_ragged_tensor():
    if not hasattr(tf, "ragged"):
        pytest.skip("no ragged tensors")
    ragged_list = [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
    with pytest.raises(ValueError):
        tf.constant(ragged_list)
    ragged_tensor = tf.ragged.constant(ragged_list)
    assert ragged_tensor.shape.as_list() == [4, None]
    assert ragged_tensor.to_list() == ragged_list


def test_sparse_tensor():
    sparse_tensor = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    dense = tf.sparse.to_dense(sparse_tensor)
    expect = np.zeros((3, 4), np.int32)
    expect[0, 0], expect[1, 2] = 1, 2
    np.testing.assert_array_equal(dense.numpy(), expect)


def test_python_scalar_conversion_and_iteration():
    t = tf.constant([1.5, 2.5])
    assert [float(v) for v in t] == [1.5, 2.5]
    assert len(t) == 2
    assert bool(tf.constant(True))
    assert int(tf.constant(3)) == 3
    assert tf.constant(3.0) == 3.0
    assert tf.ones([2]).shape.is_fully_defined()
    v = tf.Variable([1.0, 2.0])
    np.testing.assert_array_equal(tf.convert_to_tensor(v).numpy(), [1.0, 2.0])

"""The "Introduction to Variables" guide, cell by cell as a user types it."""
import numpy as np
import pytest
import tapeflow as tf


def test_create_and_inspect():
    my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    my_variable = tf.Variable(my_tensor)
    bool_variable = tf.Variable([False, False, False, True])
    complex_variable = tf.Variable([5 + 4j, 6 + 1j]) if hasattr(tf, "complex64") else None
    assert my_variable.shape == (2, 2) and my_variable.dtype == tf.float32
    assert bool_variable.dtype == tf.bool
    if complex_variable is not None:
        assert complex_variable.dtype == tf.complex128
    np.testing.assert_array_equal(my_variable.numpy(), my_tensor.numpy())
    print("Shape: ", my_variable.shape)
    print("DType: ", my_variable.dtype)
    print("As NumPy: ", my_variable.numpy())
    assert "tf.Variable" in repr(my_variable)
    np.testing.assert_array_equal(tf.convert_to_tensor(my_variable).numpy(), my_tensor.numpy())
    np.testing.assert_array_equal(tf.math.argmax(my_variable).numpy(), [1, 1])
    # Reshaping a variable makes a new tensor, not a variable.
    r = tf.reshape(my_variable, [1, 4])
    assert not isinstance(r, tf.Variable) and r.shape == (1, 4)


def test_assign_and_shape_rules():
    a = tf.Variable([2.0, 3.0])
    a.assign([1, 2])
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])
    assert a.dtype == tf.float32
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        a.assign([1.0, 2.0, 3.0])
    a = tf.Variable([2.0, 3.0])
    b = tf.Variable(a)  # a new variable holding a copy
    a.assign([5, 6])
    np.testing.assert_array_equal(a.numpy(), [5, 6])
    np.testing.assert_array_equal(b.numpy(), [2, 3])
    np.testing.assert_array_equal(a.assign_add([2, 3]).numpy(), [7, 9])
    np.testing.assert_array_equal(a.assign_sub([7, 9]).numpy(), [0, 0])
    c = tf.Variable(1.0)
    c.assign(c + 1.0)
    c.assign_add(1.0)
    assert float(c) == 3.0
    c.assign(c * 2)
    assert c.numpy() == 6.0


def test_variable_operators_behave_like_tensors():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal((v + 1).numpy(), [[2, 3], [4, 5]])
    np.testing.assert_array_equal((v @ v).numpy(), np.array([[1, 2], [3, 4.0]]) @ np.array([[1, 2], [3, 4.0]]))
    np.testing.assert_array_equal(v[0].numpy(), [1, 2])
    np.testing.assert_array_equal((-v).numpy(), -v.numpy())
    np.testing.assert_array_equal((2.0 * v).numpy(), 2 * v.numpy())
    assert v.shape.as_list() == [2, 2]
    np.testing.assert_array_equal(tf.reduce_sum(v, axis=0).numpy(), [4, 6])
    v[0, 1].assign(7.0)
    assert v.numpy()[0, 1] == 7.0
    v.scatter_nd_update([[1, 0]], [9.0]) if hasattr(v, "scatter_nd_update") else v[1, 0].assign(9.0)
    assert v.numpy()[1, 0] == 9.0


def test_names_and_trainable():
    my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a = tf.Variable(my_tensor, name="Mark")
    b = tf.Variable(my_tensor + 1, name="Mark")
    # Same name, different variables, elementwise comparison.
    np.testing.assert_array_equal((a == b).numpy(), np.zeros((2, 2), bool))
    assert a.name.startswith("Mark")
    step_counter = tf.Variable(1, trainable=False)
    assert not step_counter.trainable and a.trainable
    assert step_counter.dtype == tf.int32


def test_placement():
    with tf.device("CPU:0"):
        a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.device("CPU:0"):
        k = a * b[:, 0][:2, None] if False else tf.matmul(a, b)
    np.testing.assert_array_equal(k.numpy(), np.array([[22.0, 28.0], [49.0, 64.0]]))
    assert "CPU" in a.device.upper()


def test_variable_in_tf_function_and_gradient():
    v = tf.Variable(3.0)

    @tf.function
    def step():
        v.assign_add(1.0)
        return v.read_value() * 2.0

    assert float(step()) == 8.0
    assert float(step()) == 10.0
    with tf.GradientTape() as tape:
        y = v * v
    assert float(tape.gradient(y, v)) == 10.0


def test_variable_dtype_and_constraint_options():
    v = tf.Variable(1, dtype=tf.float64)
    assert v.dtype == tf.float64
    w = tf.Variable(tf.zeros([3]), shape=tf.TensorShape(None))
    w.assign(tf.ones([5]))
    assert w.shape.as_list() == [5] or w.numpy().shape == (5,)
    u = tf.Variable(tf.random.normal([2, 2]), name="u")
    u.assign(tf.zeros_like(u))
    np.testing.assert_array_equal(u.numpy(), np.zeros((2, 2)))
    x = tf.Variable(5.0, constraint=lambda t: tf.clip_by_value(t, 0.0, 1.0))
    assert x.constraint is not None


def test_sliced_assign_eager_and_in_function():
    v = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
    expect = np.arange(12, dtype=np.float32).reshape(3, 4)
    v[1].assign([10.0, 11.0, 12.0, 13.0])
    expect[1] = [10, 11, 12, 13]
    v[:, ::2].assign(tf.zeros([3, 2]))
    expect[:, ::2] = 0
    v[..., -1].assign(-1.0)  # a scalar broadcast over the slice
    expect[..., -1] = -1
    np.testing.assert_array_equal(v.numpy(), expect)

    @tf.function
    def set_row(i, row):
        v[i].assign(row)
        return tf.reduce_sum(v)

    total = set_row(tf.constant(2), tf.constant([1.0, 2.0, 3.0, 4.0]))
    expect[2] = [1, 2, 3, 4]
    np.testing.assert_array_equal(v.numpy(), expect)
    assert float(total) == expect.sum()
    assert not hasattr(tf.constant([1.0]), "assign")
    assert not hasattr(tf.constant([1.0])[0], "assign")
    with pytest.raises(TypeError):
        v[0].assign(tf.constant([1, 2, 3, 4]))  # int32 into a float32 variable
    # Reading a slice under a tape still gives gradients to the whole variable.
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = w[1] * 3.0
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [0, 3, 0])


def test_scatter_updates_and_constraint_applied_by_optimizer():
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    v.scatter_nd_update([[0], [3]], [9.0, 8.0])
    v.scatter_nd_add([[1]], [10.0])
    np.testing.assert_array_equal(v.numpy(), [9, 12, 3, 8])
    w = tf.Variable([0.5, -0.5], constraint=lambda t: tf.clip_by_value(t, 0.0, 1.0))
    opt = tf.keras.optimizers.SGD(1.0)
    opt.apply_gradients([(tf.constant([-2.0, 0.2]), w)])
    np.testing.assert_allclose(w.numpy(), [1.0, 0.0])  # 2.5 and -0.7 projected back into [0, 1]

"""The "Introduction to gradients and automatic differentiation" guide, cell by cell."""
import numpy as np
import pytest
import tapeflow as tf


def test_scalar_gradient():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    dy_dx = tape.gradient(y, x)
    assert dy_dx.numpy() == 6.0


def test_gradients_of_a_layer_and_dict_of_variables():
    w = tf.Variable(tf.random.normal((3, 2)), name="w")
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
    x = [[1.0, 2.0, 3.0]]
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    [dl_dw, dl_db] = tape.gradient(loss, [w, b])
    assert dl_dw.shape == w.shape and dl_db.shape == b.shape
    yv = np.array(x) @ w.numpy() + b.numpy()
    np.testing.assert_allclose(dl_db.numpy(), (yv[0]), rtol=1e-5)  # d mean(y^2)/db = 2y/2
    np.testing.assert_allclose(dl_dw.numpy(), np.array(x).T @ yv, rtol=1e-5)
    my_vars = {"w": w, "b": b}
    grad = tape.gradient(loss, my_vars)
    np.testing.assert_allclose(grad["b"].numpy(), dl_db.numpy())
    del tape


def test_gradients_with_respect_to_a_model():
    layer = tf.keras.layers.Dense(2, activation="relu")
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_mean(y ** 2)
    grad = tape.gradient(loss, layer.trainable_variables)
    assert len(grad) == 2
    for var, g in zip(layer.trainable_variables, grad):
        assert g.shape == var.shape, var.name


def test_controlling_what_the_tape_watches():
    x0 = tf.Variable(3.0, name="x0")
    x1 = tf.Variable(3.0, name="x1", trainable=False)
    x2 = tf.Variable(2.0, name="x2") + 1.0  # a tensor, not a variable
    x3 = tf.constant(3.0, name="x3")
    with tf.GradientTape() as tape:
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    assert grad[0].numpy() == 6.0
    assert grad[1] is None and grad[2] is None and grad[3] is None
    assert [var.name for var in tape.watched_variables()] == ["x0:0"]

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x ** 2
    assert tape.gradient(y, x).numpy() == 6.0

    x0 = tf.Variable(0.0)
    x1 = tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.softplus(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {"x0": x0, "x1": x1})
    assert grad["x0"] is None
    np.testing.assert_allclose(grad["x1"].numpy(), 1 / (1 + np.exp(-10.0)), rtol=1e-6)


def test_intermediate_results_and_persistent():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert tape.gradient(z, y).numpy() == 18.0
    with pytest.raises(RuntimeError):
        tape.gradient(z, x)  # a non-persistent tape can be used once

    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), [4.0, 108.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 6.0])
    del tape


def test_gradient_of_non_scalar_targets():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x ** 2
        y1 = 1 / x
    assert tape.gradient(y0, x).numpy() == 4.0
    assert tape.gradient(y1, x).numpy() == -0.25
    # A list of targets: the sum of their gradients.
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y0 = x ** 2
        y1 = 1 / x
    assert tape.gradient({"y0": y0, "y1": y1}, x).numpy() == 3.75
    # A vector target: the gradient of its sum.
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * [3.0, 4.0]
    assert tape.gradient(y, x).numpy() == 7.0

    x = tf.linspace(-10.0, 10.0, 200 + 1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    dy_dx = tape.gradient(y, x)
    s = 1 / (1 + np.exp(-np.linspace(-10, 10, 201)))
    np.testing.assert_allclose(dy_dx.numpy(), s * (1 - s), atol=1e-6)


def test_control_flow():
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert dv0.numpy() == 1.0 and dv1 is None
    assert tape.gradient(result, x) is None


def test_cases_where_gradient_returns_none():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y * y
    assert tape.gradient(z, x) is None

    # 1. Replaced a variable with a tensor.
    x = tf.Variable(2.0)
    for epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        g = tape.gradient(y, x)
        if epoch == 0:
            assert g.numpy() == 1.0
        else:
            assert g is None
        x = x + 1  # now a tensor

    # 2. Did calculations outside of TensorFlow.
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = x ** 2
        y = np.mean(x2, axis=0)
        y = tf.reduce_mean(y, axis=0)
    assert tape.gradient(y, x) is None

    # 3. Took gradients through an integer.
    x = tf.constant(10)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert g.gradient(y, x) is None

    # 4. Took gradients through a stateful object.
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1 ** 2
    assert tape.gradient(y, x0) is None


def test_no_gradient_registered_and_unconnected_gradients():
    image = tf.Variable([[[0.5, 0.0, 0.0]]])
    delta = tf.Variable(0.1)
    with tf.GradientTape() as tape:
        new_image = tf.image.adjust_contrast(image, delta) if hasattr(tf, "image") and hasattr(
            tf.image, "adjust_contrast") else image * delta
        y = tf.reduce_sum(new_image)
    tape.gradient(y, [image, delta])

    x = tf.Variable([2.0, 2.0])
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y ** 2
    g = tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])
    with tf.GradientTape() as tape:
        z = y ** 2
    assert tape.gradient(z, x, unconnected_gradients="none") is None


def test_stop_recording_and_reset():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    assert grad["x"].numpy() == 4.0 and grad["y"] is None

    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    reset = True
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            t.reset()
        z = x * x + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    assert grad["x"].numpy() == 4.0 and grad["y"] is None


def test_stop_gradient_and_int_float64_sources():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y_sq = y ** 2
        z = x ** 2 + tf.stop_gradient(y_sq)
    grad = t.gradient(z, {"x": x, "y": y})
    assert grad["x"].numpy() == 4.0 and grad["y"] is None

    x = tf.Variable(np.array([1.0, 2.0]))  # float64
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.exp(x))
    g = t.gradient(y, x)
    assert g.dtype == tf.float64
    np.testing.assert_allclose(g.numpy(), np.exp([1.0, 2.0]))

    v = tf.Variable(3)  # int variables are not differentiable
    with tf.GradientTape() as t:
        y = tf.cast(v, tf.float32) * 2.0
    assert t.gradient(y, v) is None


def test_gradient_of_keras_loss_with_output_gradients():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.0, 2.0]))
    np.testing.assert_array_equal(g.numpy(), [2.0, 0.0, 12.0])

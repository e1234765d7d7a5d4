"""The "Advanced automatic differentiation" guide, cell by cell."""
import numpy as np
import pytest
import tapeflow as tf


def test_custom_gradient_clip():
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    assert t.gradient(output, v).numpy() == 2.0  # upstream 1.0 clipped to norm 0.5, times d(v*v)/dv = 4


def test_multiple_tapes_and_higher_order():
    x0 = tf.constant(0.0)
    x1 = tf.constant(0.0)
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
        tape0.watch(x0)
        tape1.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.sigmoid(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    assert tape0.gradient(ys, x0).numpy() == 1.0
    assert tape1.gradient(ys, x1).numpy() == 0.25

    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    assert dy_dx.numpy() == 3.0 and d2y_dx2.numpy() == 6.0


def test_input_gradient_regularization():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(7, 5)).astype(np.float32))
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = layer(x)
            out = tf.reduce_sum(layer(x) ** 2)
        g1 = t1.gradient(out, x)
        g1_mag = tf.norm(g1)
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    assert [var.shape for var in dg1_mag] == [(5, 10), (10,)]
    assert all(np.all(np.isfinite(g.numpy())) for g in dg1_mag)
    # Check against finite differences on the kernel.
    kernel = layer.kernel

    def mag():
        with tf.GradientTape() as t:
            t.watch(x)
            o = tf.reduce_sum(layer(x) ** 2)
        return float(tf.norm(t.gradient(o, x)))

    k0 = kernel.numpy().copy()
    eps = 1e-2
    k = k0.copy(); k[1, 2] += eps; kernel.assign(k); up = mag()
    k = k0.copy(); k[1, 2] -= eps; kernel.assign(k); down = mag()
    kernel.assign(k0)
    np.testing.assert_allclose(dg1_mag[0].numpy()[1, 2], (up - down) / (2 * eps), rtol=2e-2, atol=1e-3)


def test_jacobians_scalar_source_and_tensor_source():
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    dy_dx = tape.jacobian(y, delta)
    assert y.shape == (201,) and dy_dx.shape == (201,)
    s = 1 / (1 + np.exp(-np.linspace(-10, 10, 201)))
    np.testing.assert_allclose(dy_dx.numpy(), s * (1 - s), atol=1e-6)

    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape(persistent=True) as tape:
        y = layer(x)
    j = tape.jacobian(y, layer.kernel)
    assert j.shape == (7, 10, 5, 10)
    g = tape.gradient(y, layer.kernel)
    j_sum = tf.reduce_sum(j, axis=[0, 1])
    np.testing.assert_allclose(g.numpy(), j_sum.numpy(), atol=1e-5)
    del tape


def test_hessian_of_a_model():
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            x = layer1(x)
            x = layer2(x)
            loss = tf.reduce_mean(x ** 2)
        g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)
    assert g.shape == (5, 8) and h.shape == (5, 8, 5, 8)
    n_params = tf.reduce_prod(layer1.kernel.shape)
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])
    np.testing.assert_allclose(h_mat.numpy(), h_mat.numpy().T, atol=1e-5)  # a Hessian is symmetric
    eps = 1e-3
    update = tf.linalg.solve(h_mat + tf.eye(n_params) * eps, g_vec)
    assert update.shape == (40, 1)


def test_batch_jacobian():
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = layer2(y)
    j = tape.jacobian(y, x)
    assert j.shape == (7, 6, 7, 5)
    j_sum = tf.reduce_sum(j, axis=2)
    jb = tape.batch_jacobian(y, x)
    assert jb.shape == (7, 6, 5)
    np.testing.assert_allclose(j_sum.numpy(), jb.numpy(), atol=1e-5)
    # Off-diagonal batch blocks are zero.
    jn = j.numpy()
    for i in range(7):
        for k in range(7):
            if i != k:
                assert np.all(jn[i, :, k, :] == 0)
    del tape


def test_batch_jacobian_inside_tf_function():
    layer = tf.keras.layers.Dense(3, activation="tanh")
    x = tf.random.normal([4, 2])
    layer(x)

    @tf.function
    def bj(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x)
        return tape.batch_jacobian(y, x)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    eager = tape.batch_jacobian(y, x)
    np.testing.assert_allclose(bj(x).numpy(), eager.numpy(), atol=1e-6)

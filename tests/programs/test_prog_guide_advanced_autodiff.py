"""The "Advanced automatic differentiation" guide, cell by cell.  The cells with exact
expected values (custom gradient clip, multiple tapes, higher order) are parity programs
recorded from TensorFlow: tests/tf_parity/programs/guide_advanced_autodiff.py."""
import numpy as np
import pytest
import tapeflow as tf


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

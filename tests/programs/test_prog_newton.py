"""Newton's method and root finding with nested GradientTapes, jacobians, Hessians, batch_jacobian."""
import numpy as np
import tapeflow as tf


def test_newton_root_finding_scalar():
    x = tf.Variable(2.0, dtype=tf.float64)
    for _ in range(8):
        with tf.GradientTape() as tape:
            f = x ** 3 - 2.0 * x - 5.0
        df = tape.gradient(f, x)
        x.assign_sub(f / df)
    np.testing.assert_allclose(x.numpy(), 2.0945514815423265, rtol=1e-12)


def rosenbrock(p):
    return (1.0 - p[0]) ** 2 + 100.0 * (p[1] - p[0] ** 2) ** 2


def test_newton_optimization_with_hessian_from_nested_tapes():
    p = tf.Variable([-1.2, 1.0], dtype=tf.float64)
    for it in range(30):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                f = rosenbrock(p)
            grad = inner.gradient(f, p)
        hess = outer.jacobian(grad, p)
        step = tf.linalg.solve(hess, tf.expand_dims(grad, -1))
        p.assign_sub(tf.squeeze(step, -1))
        if tf.norm(grad) < 1e-10:
            break
    np.testing.assert_allclose(p.numpy(), [1.0, 1.0], atol=1e-8)
    # analytic Hessian at the optimum
    np.testing.assert_allclose(hess.numpy(), [[802.0, -400.0], [-400.0, 200.0]], rtol=1e-6)


def test_hessian_of_quadratic_form_and_jacobian_of_vector_fn():
    rng = np.random.RandomState(0)
    a = rng.randn(4, 4).astype(np.float32)
    x = tf.constant(rng.randn(4).astype(np.float32))
    with tf.GradientTape(persistent=True) as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.tensordot(x, tf.linalg.matvec(a, x), axes=1)
        g = t1.gradient(y, x)
        v = tf.tanh(tf.linalg.matvec(a, x))
    h = t2.jacobian(g, x)
    j = t2.jacobian(v, x)
    del t2
    np.testing.assert_allclose(g.numpy(), (a + a.T) @ x.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(h.numpy(), a + a.T, rtol=1e-5, atol=1e-5)
    ref_j = (1 - np.tanh(a @ x.numpy()) ** 2)[:, None] * a
    np.testing.assert_allclose(j.numpy(), ref_j, rtol=1e-5, atol=1e-6)


def test_batch_jacobian_of_small_network():
    tf.keras.utils.set_random_seed(0)
    layer = tf.keras.layers.Dense(3, activation="tanh")
    x = tf.random.normal([5, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    bj = tape.batch_jacobian(y, x)
    assert bj.shape == (5, 3, 2)
    w = layer.kernel.numpy()
    pre = x.numpy() @ w + layer.bias.numpy()
    ref = (1 - np.tanh(pre) ** 2)[:, :, None] * w.T[None]
    np.testing.assert_allclose(bj.numpy(), ref, rtol=1e-5, atol=1e-6)


def test_multivariate_newton_system_in_tf_function():
    """Solve x^2 + y^2 = 4, x*y = 1 with Newton steps inside a compiled function."""

    def residual(z):
        return tf.stack([z[0] ** 2 + z[1] ** 2 - 4.0, z[0] * z[1] - 1.0])

    @tf.function
    def newton(z):
        for _ in tf.range(20):
            with tf.GradientTape() as tape:
                tape.watch(z)
                r = residual(z)
            jac = tape.jacobian(r, z)
            z = z - tf.linalg.solve(jac, r[:, None])[:, 0]
        return z

    z = newton(tf.constant([2.0, 0.3], tf.float64)).numpy()
    np.testing.assert_allclose(residual(tf.constant(z)).numpy(), [0.0, 0.0], atol=1e-12)
    assert z[0] > z[1] > 0

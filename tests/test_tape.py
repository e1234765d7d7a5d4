"""GradientTape, custom_gradient and stop_gradient, against hand-derived values."""
import numpy as np
import pytest

import tapeflow as tf


def test_watch_and_gradient_of_constants():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x * x
    assert float(tape.gradient(y, x)) == 27.0


def test_unwatched_constant_has_no_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_variables_are_watched_on_access():
    v = tf.Variable([1.0, 2.0])
    frozen = tf.Variable(5.0, trainable=False)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v) * frozen
    gv, gf = tape.gradient(y, [v, frozen])
    assert gv.numpy().tolist() == [10.0, 20.0] and gf is None
    assert [w.name for w in tape.watched_variables()] == [v.name]


def test_watch_accessed_variables_false():
    a, b = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(b)
        y = a * b
    ga, gb = tape.gradient(y, [a, b])
    assert ga is None and float(gb) == 2.0
    assert tape.watched_variables() == (b,)


def test_nested_targets_and_sources():
    x, y = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        out = {"p": x * y, "q": [x * x, y]}
    grads = tape.gradient(out, {"a": x, "b": (y,)})
    assert float(grads["a"]) == 5.0 + 4.0
    assert float(grads["b"][0]) == 2.0 + 1.0


def test_output_gradients_weight_the_targets():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=tf.constant([10.0, 100.0]))
    assert g.numpy().tolist() == [20.0, 400.0]


def test_unconnected_gradients():
    x, z = tf.constant(1.0), tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2.0
    assert tape.gradient(y, z) is None
    g = tape.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert g.numpy().tolist() == [0.0, 0.0]
    assert tape.gradient(y, z, unconnected_gradients="zero").numpy().tolist() == [0.0, 0.0]


def test_non_persistent_tape_is_used_once():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="a non-persistent GradientTape can compute gradients only once"):
        tape.gradient(y, x)


def test_persistent_tape_gives_several_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(y, x)) == 6.0
    assert float(tape.gradient(z, x)) == 108.0


def test_higher_order_with_nested_tapes():
    x = tf.Variable(1.5)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.sin(x) * x
        dy = t1.gradient(y, x)
    d2y = t2.gradient(dy, x)
    assert float(dy) == pytest.approx(np.cos(1.5) * 1.5 + np.sin(1.5))
    assert float(d2y) == pytest.approx(-np.sin(1.5) * 1.5 + 2 * np.cos(1.5))


def test_third_order():
    x = tf.constant(2.0)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = x ** 4
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    assert float(t3.gradient(g2, x)) == 24 * 2.0


def test_stop_recording():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            hidden = x * x
        y = x * hidden
    assert float(tape.gradient(y, x)) == 4.0  # hidden is a constant to the tape


def test_reset_forgets_recorded_ops():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        z = x * 3.0
    assert tape.gradient(y, x) is None
    assert float(tape.gradient(z, x)) == 3.0


def test_stop_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.stop_gradient(x * x)
    assert float(tape.gradient(y, x)) == 9.0


def test_jacobian():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reshape(x * x, [3, 1]) * tf.constant([1.0, 10.0])
    j = tape.jacobian(y, x)
    assert j.shape == (3, 2, 3)
    want = np.zeros((3, 2, 3))
    for i in range(3):
        want[i, 0, i] = 2 * (i + 1)
        want[i, 1, i] = 20 * (i + 1)
    np.testing.assert_allclose(j.numpy(), want)
    unrelated = tf.constant(1.0)
    assert tape.jacobian(y, unrelated) is None
    jz = tape.jacobian(y, unrelated, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert jz.shape == (3, 2) and not jz.numpy().any()


def test_batch_jacobian():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    w = tf.constant(np.arange(12.0).reshape(3, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.matmul(x, w)
    bj = tape.batch_jacobian(y, x)
    assert bj.shape == (2, 4, 3)
    np.testing.assert_allclose(bj.numpy(), np.broadcast_to(w.numpy().T, (2, 4, 3)))


def test_gradient_of_broadcast_operands_is_reduced():
    a = tf.constant(np.ones((2, 3)))
    b = tf.constant(np.ones((3,)))
    c = tf.constant(2.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([a, b, c])
        y = a * b * c
    ga, gb, gc = tape.gradient(y, [a, b, c])
    assert ga.shape == (2, 3) and gb.shape == (3,) and gc.shape == ()
    assert gb.numpy().tolist() == [4.0] * 3 and float(gc) == 6.0


def test_custom_gradient():
    @tf.custom_gradient
    def clipped_identity(x):
        def grad(dy):
            return tf.clip_by_value(dy, -1.0, 1.0)
        return tf.identity(x), grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clipped_identity(x) * 5.0
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 1.0]


def test_custom_gradient_stable_log1pexp():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

    x = tf.constant(100.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert float(tape.gradient(y, x)) == 1.0


def test_custom_gradient_with_captured_variable():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            return dy * v, [dy * x * 100.0]
        return x * v, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gv = tape.gradient(y, [x, v])
    assert float(gx) == 3.0 and float(gv) == 200.0


def test_custom_gradient_without_tape_returns_the_value():
    @tf.custom_gradient
    def f(x):
        return x * 2.0, lambda dy: dy
    assert float(f(tf.constant(1.5))) == 3.0


def test_gradient_through_variable_assign_is_cut():
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = v * 2.0
        v.assign(y)
        z = v * 3.0
    assert float(tape.gradient(z, v)) == 3.0


def test_source_that_is_not_a_tensor_is_an_error():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(TypeError, match="source 3.0 is not a tensor or variable"):
        tape.gradient(y, 3.0)


def test_tape_context_leaves_no_tape_after_an_exception():
    from tapeflow.runtime.registry import state
    with pytest.raises(ZeroDivisionError):
        with tf.GradientTape():
            1 / 0
    assert state.tapes == []


def test_watching_a_python_number_is_a_value_error():
    with pytest.raises(ValueError, match=r"3.0 \(float\) is not a tensor or variable"):
        with tf.GradientTape() as tape:
            tape.watch(3.0)


@pytest.mark.parametrize("persistent, want", [(True, 9 * 3.0 ** 2), (False, None)])
def test_gradient_inside_the_block_is_recorded_by_a_persistent_tape(persistent, want):
    # TF: a persistent tape records its own gradient computation (z = x * dy/dx = 3x^3, dz/dx = 9x^2);
    # a non-persistent one stops recording at its first gradient.
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=persistent) as tape:
        dy = tape.gradient(x * x * x, x)
        z = dy * x
    assert float(dy) == 27.0
    if persistent:
        assert float(tape.gradient(z, x)) == want
    else:
        with pytest.raises(RuntimeError):
            tape.gradient(z, x)

"""A whole training step compiled into one graph — forward, tape.gradient,
optimizer.apply_gradients with variable updates and optimizer state — gives
the same parameters after N steps as the eager loop; so does a loop of steps
over a dataset inside one compiled function."""
import numpy as np
import pytest

import tapeflow as tf

rng = np.random.default_rng(3)
X = rng.normal(size=(64, 8)).astype(np.float32)
Y = rng.integers(0, 3, size=64).astype(np.int32)


class MLP:
    """8-16-3 MLP on raw variables (no Keras layers: the step under test is the whole program)."""

    def __init__(self, seed):
        r = np.random.default_rng(seed)
        self.w1 = tf.Variable((r.normal(size=(8, 16)) * 0.3).astype(np.float32))
        self.b1 = tf.Variable(np.zeros(16, np.float32))
        self.w2 = tf.Variable((r.normal(size=(16, 3)) * 0.3).astype(np.float32))
        self.b2 = tf.Variable(np.zeros(3, np.float32))
        self.params = [self.w1, self.b1, self.w2, self.b2]

    def loss(self, x, y):
        h = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
        logits = tf.matmul(h, self.w2) + self.b2
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))


def make_step(model, opt):
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = model.loss(x, y)
        grads = tape.gradient(loss, model.params)
        opt.apply_gradients(zip(grads, model.params))
        return loss
    return step


OPTIMIZERS = {
    "sgd": lambda: tf.keras.optimizers.SGD(0.1),
    "sgd_momentum_nesterov": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
    "adam": lambda: tf.keras.optimizers.Adam(0.01),
}


def _train(compiled, make_opt, steps=20, batch=16):
    model, opt = MLP(0), make_opt()
    step = make_step(model, opt)
    if compiled:
        step = tf.function(step)
    losses = []
    for i in range(steps):
        lo = (i * batch) % len(X)
        losses.append(float(step(tf.constant(X[lo:lo + batch]), tf.constant(Y[lo:lo + batch]))))
    return model, opt, losses, step


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_compiled_training_equals_eager_after_20_steps(name):
    m_eager, opt_eager, l_eager, _ = _train(False, OPTIMIZERS[name])
    m_comp, opt_comp, l_comp, step = _train(True, OPTIMIZERS[name])
    # As TensorFlow 2.21 counts: an optimizer that makes slot variables on its first call
    # makes the first trace create variables, so tf.function traces it once more.
    assert step.experimental_get_tracing_count() == (1 if name == "sgd" else 2)
    np.testing.assert_allclose(l_comp, l_eager, rtol=1e-5, atol=1e-6)
    assert l_comp[-1] < l_comp[0]
    for a, b in zip(m_comp.params, m_eager.params):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    assert int(opt_comp.iterations.numpy()) == int(opt_eager.iterations.numpy()) == 20
    for a, b in zip(opt_comp.variables, opt_eager.variables):  # momentum / Adam moments
        np.testing.assert_allclose(np.asarray(a.numpy()), np.asarray(b.numpy()), rtol=1e-5, atol=1e-6)


def test_training_step_is_one_graph_with_updates():
    model, opt = MLP(1), tf.keras.optimizers.Adam(0.01)
    step = tf.function(make_step(model, opt))
    x, y = tf.constant(X[:16]), tf.constant(Y[:16])
    step(x, y)
    graph = step.get_concrete_function(x, y).graph
    ops = [n.op for n in graph.nodes]
    # every parameter and both Adam moments of each are assigned, plus the iteration count
    assert ops.count("assign_variable") == 4 * 3 + 1
    assert "matmul" in ops and "while_loop" not in ops


def test_loop_of_training_steps_over_a_dataset_inside_one_function():
    def run(compiled):
        model, opt = MLP(2), tf.keras.optimizers.SGD(0.05, momentum=0.5)
        ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(16)

        def epoch(scale):
            total = tf.constant(0.0)
            for xb, yb in ds:
                with tf.GradientTape() as tape:
                    loss = model.loss(xb * scale, yb)
                grads = tape.gradient(loss, model.params)
                opt.apply_gradients(zip(grads, model.params))
                total += loss
            return total

        fn = tf.function(epoch) if compiled else epoch
        totals = [float(fn(tf.constant(1.0))) for _ in range(3)]
        return model, totals

    m_eager, t_eager = run(False)
    m_comp, t_comp = run(True)
    np.testing.assert_allclose(t_comp, t_eager, rtol=1e-5)
    for a, b in zip(m_comp.params, m_eager.params):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_loop_of_steps_over_tf_range_inside_one_function():
    """The training loop is a staged while_loop whose body holds the tape and the updates."""
    def run(compiled):
        model, opt = MLP(4), tf.keras.optimizers.Adam(0.02)
        xs, ys = tf.constant(X), tf.constant(Y)

        def train(n):
            loss = tf.constant(0.0)
            for i in tf.range(n):
                lo = (i * 16) % 64
                with tf.GradientTape() as tape:
                    loss = model.loss(xs[lo:lo + 16], ys[lo:lo + 16])
                opt.apply_gradients(zip(tape.gradient(loss, model.params), model.params))
            return loss

        fn = tf.function(train) if compiled else train
        return model, float(fn(tf.constant(12)))

    m_eager, l_eager = run(False)
    m_comp, l_comp = run(True)
    assert l_comp == pytest.approx(l_eager, rel=1e-5)
    for a, b in zip(m_comp.params, m_eager.params):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_custom_gradient_inside_a_compiled_training_step():
    @tf.custom_gradient
    def clip_grad(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -0.01, 0.01)

    def run(compiled):
        model, opt = MLP(5), tf.keras.optimizers.SGD(0.5)

        def step(x, y):
            with tf.GradientTape() as tape:
                h = clip_grad(tf.nn.relu(tf.matmul(x, model.w1) + model.b1))
                logits = tf.matmul(h, model.w2) + model.b2
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
            opt.apply_gradients(zip(tape.gradient(loss, model.params), model.params))
            return loss

        fn = tf.function(step) if compiled else step
        for _ in range(5):
            fn(tf.constant(X[:16]), tf.constant(Y[:16]))
        return model

    m_eager, m_comp = run(False), run(True)
    for a, b in zip(m_comp.params, m_eager.params):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    assert not np.allclose(m_eager.w1.numpy(), MLP(5).w1.numpy())

"""Keras 3 optimizer updates against their formulas in NumPy over several steps,
learning-rate schedules against closed forms, and the TF1 tf.train optimizers."""
import math

import numpy as np
import pytest

import tapeflow as tf

K = tf.keras.optimizers
GRADS = [np.array([0.5, -1.0, 2.0]), np.array([0.1, 0.3, -0.2]), np.array([-1.5, 0.0, 0.7]),
         np.array([0.2, 0.2, 0.2])]
START = np.array([1.0, -2.0, 0.5])


def run(opt):
    var = tf.Variable(START.copy())
    for g in GRADS:
        opt.apply_gradients([(tf.constant(g), var)])
    assert int(opt.iterations.numpy()) == len(GRADS)
    return var.numpy()


def sgd_ref(lr, momentum=0.0, nesterov=False):
    p, m = START.copy(), np.zeros(3)
    for g in GRADS:
        if momentum:
            m = momentum * m - lr * g
            p = p + (momentum * m - lr * g if nesterov else m)
        else:
            p = p - lr * g
    return p


def adam_ref(lr, b1=0.9, b2=0.999, eps=1e-7, amsgrad=False, wd=None):
    p, m, v, vhat = START.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for t, g in enumerate(GRADS, 1):
        if wd:
            p = p - p * wd * lr
        alpha = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        if amsgrad:
            vhat = np.maximum(vhat, v)
            p = p - alpha * m / (np.sqrt(vhat) + eps)
        else:
            p = p - alpha * m / (np.sqrt(v) + eps)
    return p


def rmsprop_ref(lr, rho=0.9, momentum=0.0, eps=1e-7, centered=False):
    p, v, mom, avg = START.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for g in GRADS:
        v = rho * v + (1 - rho) * g * g
        if centered:
            avg = rho * avg + (1 - rho) * g
            denom = v - avg * avg + eps
        else:
            denom = v + eps
        inc = lr * g / np.sqrt(denom)
        if momentum:
            mom = momentum * mom + inc
            p = p - mom
        else:
            p = p - inc
    return p


def adagrad_ref(lr, init=0.1, eps=1e-7):
    p, acc = START.copy(), np.full(3, init)
    for g in GRADS:
        acc = acc + g * g
        p = p - lr * g / np.sqrt(acc + eps)
    return p


CASES = [
    (lambda: K.SGD(0.1), sgd_ref(0.1)),
    (lambda: K.SGD(0.1, momentum=0.9), sgd_ref(0.1, 0.9)),
    (lambda: K.SGD(0.1, momentum=0.9, nesterov=True), sgd_ref(0.1, 0.9, True)),
    (lambda: K.Adam(0.1), adam_ref(0.1)),
    (lambda: K.Adam(0.1, amsgrad=True), adam_ref(0.1, amsgrad=True)),
    (lambda: K.AdamW(0.1), adam_ref(0.1, wd=0.004)),
    (lambda: K.AdamW(0.1, weight_decay=0.1, beta_1=0.8), adam_ref(0.1, b1=0.8, wd=0.1)),
    (lambda: K.RMSprop(0.1), rmsprop_ref(0.1)),
    (lambda: K.RMSprop(0.1, momentum=0.5, centered=True), rmsprop_ref(0.1, momentum=0.5, centered=True)),
    (lambda: K.Adagrad(0.1), adagrad_ref(0.1)),
]


@pytest.mark.parametrize("make,expected", CASES, ids=[
    "sgd", "sgd_momentum", "sgd_nesterov", "adam", "adam_amsgrad", "adamw", "adamw_custom",
    "rmsprop", "rmsprop_centered_momentum", "adagrad"])
def test_update_matches_formula(make, expected):
    np.testing.assert_allclose(run(make()), expected, rtol=1e-6, atol=1e-7)


def test_default_learning_rates_and_slots():
    assert float(K.SGD().learning_rate) == pytest.approx(0.01)
    assert float(K.Adam().learning_rate) == pytest.approx(0.001)
    opt = K.Adam()
    var = tf.Variable([1.0, 2.0])
    opt.build([var])
    assert opt.get_slot(var, "m").shape == (2,) and opt.get_slot(var, "v").shape == (2,)
    opt.learning_rate = 0.5
    assert float(opt.learning_rate) == 0.5


def test_clipping():
    var = tf.Variable([0.0, 0.0])
    K.SGD(1.0, clipvalue=0.5).apply_gradients([(tf.constant([2.0, -0.1]), var)])
    np.testing.assert_allclose(var.numpy(), [-0.5, 0.1])
    var = tf.Variable([0.0, 0.0])
    K.SGD(1.0, clipnorm=1.0).apply_gradients([(tf.constant([3.0, 4.0]), var)])
    np.testing.assert_allclose(var.numpy(), [-0.6, -0.8], rtol=1e-6)
    a, b = tf.Variable([0.0]), tf.Variable([0.0])
    K.SGD(1.0, global_clipnorm=1.0).apply_gradients([(tf.constant([3.0]), a), (tf.constant([4.0]), b)])
    np.testing.assert_allclose([a.numpy()[0], b.numpy()[0]], [-0.6, -0.8], rtol=1e-6)


def test_minimize_with_callable_and_none_gradients():
    var = tf.Variable(3.0)
    other = tf.Variable(1.0)
    opt = K.SGD(0.25)
    for _ in range(3):
        opt.minimize(lambda: var * var, [var, other])  # other has no gradient: skipped
    assert float(var) == pytest.approx(3.0 * 0.5 ** 3)
    assert float(other) == 1.0
    with pytest.raises(ValueError, match="no gradients"):
        opt.apply_gradients([(None, var)])


def test_schedule_driven_by_iterations():
    sched = K.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    opt = K.SGD(sched)
    var = tf.Variable(0.0)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), var)])
    assert float(var) == pytest.approx(-(0.1 + 0.05 + 0.025))
    with pytest.raises(TypeError, match="schedule"):
        opt.learning_rate = 0.1


def test_schedules_closed_forms():
    e = K.schedules.ExponentialDecay(1.0, 10, 0.5)
    es = K.schedules.ExponentialDecay(1.0, 10, 0.5, staircase=True)
    c = K.schedules.CosineDecay(1.0, 100, alpha=0.1)
    w = K.schedules.CosineDecay(0.0, 100, warmup_target=1.0, warmup_steps=10)
    p = K.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    for step in [0, 5, 10, 15, 20, 50, 100, 150]:
        assert float(e(step)) == pytest.approx(0.5 ** (step / 10), rel=1e-6)
        assert float(es(step)) == pytest.approx(0.5 ** (step // 10), rel=1e-6)
        t = min(step, 100)
        assert float(c(step)) == pytest.approx(0.9 * 0.5 * (1 + math.cos(math.pi * t / 100)) + 0.1, abs=1e-6)
        if step < 10:
            want = step / 10
        else:
            want = 0.5 * (1 + math.cos(math.pi * min(step - 10, 100) / 100))
        assert float(w(step)) == pytest.approx(want, abs=1e-6)
        want = 1.0 if step <= 10 else (0.5 if step <= 20 else 0.1)
        assert float(p(step)) == pytest.approx(want)
    with pytest.raises(ValueError, match="expected 3 values"):
        K.schedules.PiecewiseConstantDecay([1, 2], [1.0])


def test_tf1_optimizers_and_global_step():
    step = tf.train.get_or_create_global_step()
    start = int(step.numpy())
    var = tf.Variable(START.copy())
    opt = tf.train.GradientDescentOptimizer(0.1)
    for g in GRADS:
        opt.apply_gradients([(tf.constant(g), var)], global_step=step)
    np.testing.assert_allclose(var.numpy(), sgd_ref(0.1))
    assert int(step.numpy()) == start + len(GRADS)
    assert step.dtype == tf.int64 and step is tf.train.get_or_create_global_step()

    var = tf.Variable(START.copy())
    mom = tf.train.MomentumOptimizer(0.1, 0.9)
    acc = np.zeros(3)
    p = START.copy()
    for g in GRADS:
        mom.apply_gradients([(tf.constant(g), var)])
        acc = 0.9 * acc + g
        p = p - 0.1 * acc
    np.testing.assert_allclose(var.numpy(), p)

    var = tf.Variable(START.copy())
    adam = tf.train.AdamOptimizer(0.1)
    for g in GRADS:
        adam.apply_gradients([(tf.constant(g), var)])
    np.testing.assert_allclose(var.numpy(), adam_ref(0.1, eps=1e-8), rtol=1e-6)


def test_tf1_minimize_reads_variables_from_the_loss():
    w = tf.Variable(2.0)
    opt = tf.train.GradientDescentOptimizer(0.5)
    opt.minimize(lambda: w * w)
    assert float(w) == pytest.approx(0.0)
    with pytest.raises(TypeError, match="must be a callable"):
        opt.minimize(w * w)

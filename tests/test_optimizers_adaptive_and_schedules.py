"""Adamax, Nadam, Adadelta, Ftrl and Lion against Keras 3's formulas in NumPy over
several steps; InverseTimeDecay, PolynomialDecay and CosineDecayRestarts against
closed forms; optimizers.get by name and by config."""
import math

import numpy as np
import pytest

import tapeflow as tf

K = tf.keras.optimizers
GRADS = [np.array([0.5, -1.0, 2.0]), np.array([0.1, 0.3, -0.2]), np.array([-1.5, 0.0, 0.7]),
         np.array([0.2, 0.2, 0.2]), np.array([1.0, -0.4, 0.0])]
START = np.array([1.0, -2.0, 0.5])


def run(opt, compiled=False):
    var = tf.Variable(START.copy())
    opt.build([var])
    step = tf.function(lambda g: opt.apply_gradients([(g, var)])) if compiled else \
        (lambda g: opt.apply_gradients([(g, var)]))
    for g in GRADS:
        step(tf.constant(g))
    assert int(opt.iterations.numpy()) == len(GRADS)
    return var.numpy()


def adamax_ref(lr, b1=0.9, b2=0.999, eps=1e-7):
    p, m, u = START.copy(), np.zeros(3), np.zeros(3)
    for t, g in enumerate(GRADS, 1):
        m = m + (g - m) * (1 - b1)
        u = np.maximum(b2 * u, np.abs(g))
        p = p - lr * m / ((1 - b1 ** t) * (u + eps))
    return p


def nadam_ref(lr, b1=0.9, b2=0.999, eps=1e-7):
    p, m, v, prod = START.copy(), np.zeros(3), np.zeros(3), 1.0
    for t, g in enumerate(GRADS, 1):
        prod *= b1 * (1 - 0.5 * 0.96 ** t)
        u_t = b1 * (1 - 0.5 * 0.96 ** t)
        u_next = b1 * (1 - 0.5 * 0.96 ** (t + 1))
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        m_hat = u_next * m / (1 - prod * u_next) + (1 - u_t) * g / (1 - prod)
        p = p - lr * m_hat / (np.sqrt(v / (1 - b2 ** t)) + eps)
    return p


def adadelta_ref(lr, rho=0.95, eps=1e-7):
    p, acc_g, acc_d = START.copy(), np.zeros(3), np.zeros(3)
    for g in GRADS:
        acc_g = rho * acc_g + (1 - rho) * g * g
        d = -np.sqrt(acc_d + eps) * g / np.sqrt(acc_g + eps)
        acc_d = rho * acc_d + (1 - rho) * d * d
        p = p + lr * d
    return p


def ftrl_ref(lr, power=-0.5, init=0.1, l1=0.0, l2=0.0, shrink=0.0, beta=0.0):
    p, n, z = START.copy(), np.full(3, init), np.zeros(3)
    for g in GRADS:
        new_n = n + g * g
        z = z + g + 2 * shrink * p - (new_n ** -power - n ** -power) / lr * p
        quad = new_n ** -power / lr + 2 * (l2 + beta / (2 * lr))
        p = (np.clip(z, -l1, l1) - z) / quad
        n = new_n
    return p


def lion_ref(lr, b1=0.9, b2=0.99):
    p, m = START.copy(), np.zeros(3)
    for g in GRADS:
        p = p - lr * np.sign(b1 * m + (1 - b1) * g)
        m = b2 * m + (1 - b2) * g
    return p


CASES = [
    (lambda: K.Adamax(0.1), adamax_ref(0.1)),
    (lambda: K.Adamax(0.05, beta_1=0.8, beta_2=0.9, epsilon=1e-3), adamax_ref(0.05, 0.8, 0.9, 1e-3)),
    (lambda: K.Nadam(0.1), nadam_ref(0.1)),
    (lambda: K.Nadam(0.02, beta_1=0.5, beta_2=0.9), nadam_ref(0.02, 0.5, 0.9)),
    (lambda: K.Adadelta(1.0), adadelta_ref(1.0)),
    (lambda: K.Adadelta(0.5, rho=0.8, epsilon=1e-4), adadelta_ref(0.5, 0.8, 1e-4)),
    (lambda: K.Ftrl(0.1), ftrl_ref(0.1)),
    (lambda: K.Ftrl(0.2, learning_rate_power=-0.7, initial_accumulator_value=0.5, l1_regularization_strength=0.05,
                    l2_regularization_strength=0.1, l2_shrinkage_regularization_strength=0.02, beta=0.3),
     ftrl_ref(0.2, -0.7, 0.5, 0.05, 0.1, 0.02, 0.3)),
    (lambda: K.Lion(0.01), lion_ref(0.01)),
    (lambda: K.Lion(0.03, beta_1=0.5, beta_2=0.7), lion_ref(0.03, 0.5, 0.7)),
]


@pytest.mark.parametrize("make,want", CASES)
def test_update_formulas_eager(make, want):
    np.testing.assert_allclose(run(make()), want, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("make,want", CASES[::2])
def test_update_formulas_compiled(make, want):
    np.testing.assert_allclose(run(make(), compiled=True), want, rtol=1e-6, atol=1e-9)


def test_nadam_float32_variables_and_fit_like_use():
    var = tf.Variable(np.float32([1.0, 2.0]))
    opt = K.Nadam(0.1)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(np.float32([0.5, -0.5])), var)])
    assert var.dtype == tf.float32 and np.all(np.isfinite(var.numpy()))
    assert any(v is opt._u_product for v in opt.variables)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    x = np.random.default_rng(0).normal(size=(32, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)
    for name in ("adamax", "nadam", "adadelta", "ftrl", "lion"):
        model.compile(optimizer=name, loss="mse")
        hist = model.fit(x, y, epochs=2, batch_size=8, verbose=0)
        assert np.isfinite(hist.history["loss"]).all()


def test_get_by_name_and_config():
    for name, cls in [("Adamax", K.Adamax), ("nadam", K.Nadam), ("adadelta", K.Adadelta), ("FTRL", K.Ftrl),
                      ("lion", K.Lion), ("adam", K.Adam)]:
        assert type(K.get(name)) is cls
    opt = K.get({"class_name": "Lion", "config": {"learning_rate": 0.5, "beta_1": 0.7}})
    assert isinstance(opt, K.Lion) and opt.beta_1 == 0.7 and float(opt.learning_rate) == 0.5
    with pytest.raises(ValueError, match="Unknown optimizer"):
        K.get("adamm")
    with pytest.raises(ValueError, match="l1_regularization_strength"):
        K.Ftrl(l1_regularization_strength=-1.0)


S = tf.keras.optimizers.schedules


def values(schedule, steps):
    return np.array([float(schedule(s)) for s in steps])


def test_inverse_time_decay():
    steps = [0, 1, 5, 10, 25]
    np.testing.assert_allclose(values(S.InverseTimeDecay(0.1, 10, 0.5), steps),
                               [0.1 / (1 + 0.5 * s / 10) for s in steps], rtol=1e-6)
    np.testing.assert_allclose(values(S.InverseTimeDecay(0.1, 10, 0.5, staircase=True), steps),
                               [0.1 / (1 + 0.5 * (s // 10)) for s in steps], rtol=1e-6)


def test_polynomial_decay():
    steps = [0, 3, 10, 15, 20, 25]
    def ref(s, cycle, power):
        d = 10.0
        if cycle:
            d = d * (1 if s == 0 else math.ceil(s / 10))
        else:
            s = min(s, 10)
        return (0.1 - 0.01) * (1 - s / d) ** power + 0.01
    for cycle in (False, True):
        for power in (1.0, 0.5, 2.0):
            got = values(S.PolynomialDecay(0.1, 10, 0.01, power=power, cycle=cycle), steps)
            np.testing.assert_allclose(got, [ref(s, cycle, power) for s in steps], rtol=1e-5, atol=1e-7)
    assert abs(float(S.PolynomialDecay(1.0, 4)(100)) - 0.0001) < 1e-8


def cosine_restarts_ref(lr, first, t_mul, m_mul, alpha, step):
    frac = step / first
    if t_mul == 1.0:
        i = math.floor(frac)
        frac -= i
    else:
        i = math.floor(math.log(1 - frac * (1 - t_mul)) / math.log(t_mul))
        frac = (frac - (1 - t_mul ** i) / (1 - t_mul)) / t_mul ** i
    return lr * ((1 - alpha) * 0.5 * m_mul ** i * (1 + math.cos(math.pi * frac)) + alpha)


@pytest.mark.parametrize("t_mul,m_mul,alpha", [(2.0, 1.0, 0.0), (1.0, 0.5, 0.1), (1.5, 0.8, 0.05)])
def test_cosine_decay_restarts(t_mul, m_mul, alpha):
    sched = S.CosineDecayRestarts(0.2, 10, t_mul=t_mul, m_mul=m_mul, alpha=alpha)
    steps = [0, 1, 5, 9, 10, 11, 20, 29, 30, 45, 71]
    np.testing.assert_allclose(values(sched, steps),
                               [cosine_restarts_ref(0.2, 10, t_mul, m_mul, alpha, s) for s in steps],
                               rtol=2e-5, atol=1e-7)
    assert abs(float(sched(10)) - 0.2 * ((1 - alpha) * m_mul + alpha)) < 1e-5  # the first restart


def test_schedule_drives_new_optimizer():
    opt = K.Lion(S.InverseTimeDecay(0.1, 1, 1.0))
    var = tf.Variable(np.array([0.0]))
    for _ in range(3):
        opt.apply_gradients([(tf.constant([1.0], tf.float64), var)])
    np.testing.assert_allclose(var.numpy(), [-(0.1 + 0.05 + 0.1 / 3)], rtol=1e-6)

# A TF 1.7-era eager linear-regression post: tfe.implicit_gradients feeding the
# tf.train optimizers with apply_gradients(global_step=), then minimize(loss_fn).
# Each optimizer's trajectory is checked against the TF1 update formula in NumPy.
import numpy as np
import pytest

import tapeflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

rng = np.random.RandomState(0)
X = rng.randn(64, 3).astype(np.float32)
TRUE_W = np.array([[1.5], [-2.0], [0.5]], np.float32)
Y = X @ TRUE_W + 0.3


def numpy_grads(w, b):
    err = X @ w + b - Y
    return 2 * X.T @ err / len(X), np.array([2 * err.mean()], np.float32)


def run_numpy(kind, steps, lr):
    params = [np.zeros((3, 1), np.float32), np.zeros((1,), np.float32)]
    state = [{} for _ in params]
    for t in range(1, steps + 1):
        for p, g, s in zip(params, numpy_grads(*params), state):
            if kind == "sgd":
                p -= lr * g
            elif kind == "momentum":
                s["a"] = s.get("a", 0) * 0.9 + g
                p -= lr * s["a"]
            elif kind == "adam":
                s["m"] = s.get("m", 0) * 0.9 + 0.1 * g
                s["v"] = s.get("v", 0) * 0.999 + 0.001 * g * g
                lr_t = lr * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
                p -= lr_t * s["m"] / (np.sqrt(s["v"]) + 1e-8)
            elif kind == "rmsprop":
                s["ms"] = s.get("ms", 1.0) * 0.9 + 0.1 * g * g  # TF1 starts ms at ones
                s["mom"] = s.get("mom", 0) * 0.5 + lr * g / np.sqrt(s["ms"] + 1e-10)
                p -= s["mom"]
            elif kind == "adagrad":
                s["acc"] = s.get("acc", 0.1) + g * g
                p -= lr * g / np.sqrt(s["acc"])
    return params


def make_optimizer(kind, lr):
    return {
        "sgd": lambda: tf.train.GradientDescentOptimizer(lr),
        "momentum": lambda: tf.train.MomentumOptimizer(lr, momentum=0.9),
        "adam": lambda: tf.train.AdamOptimizer(lr),
        "rmsprop": lambda: tf.train.RMSPropOptimizer(lr, momentum=0.5),
        "adagrad": lambda: tf.train.AdagradOptimizer(lr),
    }[kind]()


class Linear(tf.keras.Model):
    def __init__(self):
        super(Linear, self).__init__()
        self.W = tfe.Variable(tf.zeros([3, 1]), name="W")
        self.b = tfe.Variable(tf.zeros([1]), name="b")

    def call(self, x):
        return tf.matmul(x, self.W) + self.b


@pytest.mark.parametrize("kind", ["sgd", "momentum", "adam", "rmsprop", "adagrad"])
def test_tf1_optimizer_matches_update_formula(kind):
    lr, steps = 0.05, 30
    model = Linear()

    def loss(x, y):
        return tf.reduce_mean(tf.square(model(x) - y))

    grad_fn = tfe.implicit_gradients(loss)
    optimizer = make_optimizer(kind, lr)
    step = tf.Variable(0, dtype=tf.int64, trainable=False)
    first = float(loss(X, Y))
    for _ in range(steps):
        optimizer.apply_gradients(grad_fn(X, Y), global_step=step)
    assert int(step) == steps
    w_ref, b_ref = run_numpy(kind, steps, lr)
    np.testing.assert_allclose(model.W.numpy(), w_ref, rtol=2e-4, atol=2e-5)
    np.testing.assert_allclose(model.b.numpy(), b_ref, rtol=2e-4, atol=2e-5)
    assert float(loss(X, Y)) < first


def test_minimize_with_var_list_and_global_step_converges():
    w = tfe.Variable(tf.random_normal([3, 1], seed=1))
    b = tfe.Variable(0.0)
    global_step = tf.train.get_or_create_global_step()
    start = int(global_step)
    optimizer = tf.train.RMSPropOptimizer(0.05)
    for _ in range(300):
        optimizer.minimize(lambda: tf.reduce_mean(tf.square(tf.matmul(X, w) + b - Y)),
                           var_list=[w, b], global_step=global_step)
    assert int(tf.train.get_global_step()) == start + 300
    np.testing.assert_allclose(w.numpy(), TRUE_W, atol=0.05)
    assert abs(float(b) - 0.3) < 0.05


def test_adagrad_rejects_nonpositive_accumulator():
    with pytest.raises(ValueError, match="initial_accumulator_value"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)


def test_exponential_decay_follows_the_global_step():
    step = tf.Variable(0, dtype=tf.int64, trainable=False)
    lr = tf.train.exponential_decay(0.1, step, decay_steps=10, decay_rate=0.5, staircase=True)
    smooth = tf.train.exponential_decay(0.1, step, decay_steps=10, decay_rate=0.5)
    w = tfe.Variable(1.0)
    optimizer = tf.train.GradientDescentOptimizer(lr)
    for _ in range(15):
        optimizer.minimize(lambda: w * 1.0, var_list=[w], global_step=step)
    np.testing.assert_allclose(float(lr()), 0.05, rtol=1e-6)
    np.testing.assert_allclose(float(smooth()), 0.1 * 0.5 ** 1.5, rtol=1e-6)
    np.testing.assert_allclose(float(w), 1.0 - 10 * 0.1 - 5 * 0.05, rtol=1e-5)

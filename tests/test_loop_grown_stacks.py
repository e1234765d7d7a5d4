"""Loop gradients over a trip count unknown at trace time: the residual stacks start
empty and grow, and a loop var needed before and after each step is kept once, on a
carried stack whose row 0 is pushed before the loop.  Regression: two carried stacks
pushed from one initial value (the zero h and c of an LSTM) shared one buffer (the
two pushes were merged as common subexpressions), so the reverse loop read c where
it wanted h: wrong gradients, found by tests/programs/test_prog_seq2seq.py.  Each
case: the tf.function gradient equals the eager tape's and finite differences."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers

from conftest import check_grads

rng = np.random.default_rng(5)


def two_states(xs, w):
    """Two tanh states from one zero value: both carried (each one's matmul needs it
    before the step, its tanh after)."""
    h = c = tf.zeros_like(xs[0])
    for t in tf.range(tf.shape(xs)[0]):
        c = tf.tanh(tf.matmul(c, w) + xs[t])
        h = tf.tanh(tf.matmul(h, w) + c)
    return tf.reduce_sum(h * h) + tf.reduce_sum(c)


def _taped(fn, ts):
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = fn(*ts)
    return y, tape.gradient(y, ts)


@pytest.mark.parametrize("spec", [[None, 2, 3], [None, None, 3]], ids=["known_batch", "unknown_batch"])
def test_two_carried_states_from_one_initial_value(spec):
    args = [rng.standard_normal((5, 2, 3)), rng.standard_normal((3, 3)) * 0.5]
    ts = [tf.constant(a) for a in args]
    compiled = tf.function(two_states, input_signature=[tf.TensorSpec(spec, tf.float64),
                                                        tf.TensorSpec([3, 3], tf.float64)])
    y_want, want = _taped(two_states, ts)
    for _ in range(2):  # fresh stacks on every call
        y, got = _taped(compiled, ts)
        np.testing.assert_allclose(y.numpy(), y_want.numpy(), rtol=1e-12)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-10, atol=1e-12)
    check_grads(compiled, args)


def test_calls_taped_apart_keep_their_own_stacks():
    """Constant initial states, static shapes but for the length, the tape outside the
    function: both forward passes run before either backward reads its stacks."""
    w = tf.Variable(rng.standard_normal((3, 3)) * 0.5)

    @tf.function(input_signature=[tf.TensorSpec([None, 2, 3], tf.float64)])
    def loss(xs):
        h = c = tf.zeros([2, 3], tf.float64)
        for t in tf.range(tf.shape(xs)[0]):
            c = tf.tanh(tf.matmul(c, w) + xs[t])
            h = tf.tanh(tf.matmul(h, w) + c)
        return tf.reduce_sum(h * h) + tf.reduce_sum(c)

    xs = [tf.constant(rng.standard_normal((n, 2, 3))) for n in (4, 6)]
    want = []
    for x in xs:
        with tf.GradientTape() as tape:
            y = loss.python_function(x)
        want.append(tape.gradient(y, w).numpy())
    tapes = [tf.GradientTape() for _ in xs]
    ys = []
    for tape, x in zip(tapes, xs):  # both forward passes before either backward
        with tape:
            ys.append(loss(x))
    for tape, y, ref in zip(tapes, ys, want):
        np.testing.assert_allclose(tape.gradient(y, w).numpy(), ref, rtol=1e-10, atol=1e-12)


# ------------------------------------------------------------------ Keras recurrent layers

CASES = [(cell, masked, backwards) for cell in ("LSTM", "GRU") for masked in (True, False)
         for backwards in (False, True)]


def _case_id(case):
    cell, masked, backwards = case
    return f"{cell}-{'masked' if masked else 'plain'}{'-backwards' if backwards else ''}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_recurrent_layer_over_unknown_length(case):
    cell, masked, backwards = case
    keras.utils.set_random_seed(4)
    layer = getattr(layers, cell)(5, return_sequences=True, return_state=True, go_backwards=backwards,
                                  dtype="float64")
    x = tf.constant(np.random.default_rng(1).normal(size=(3, 6, 4)))
    mask = np.ones((3, 6), bool)
    mask[0, 4:] = False
    mask[2, 5:] = False

    def loss_of(inp, m):
        seq, *states = layer(inp, mask=m if masked else None)
        return tf.reduce_sum(seq ** 2) + sum(tf.reduce_sum(s * (1.0 + i)) for i, s in enumerate(states))

    def grads_of(inp, m):
        with tf.GradientTape() as tape:
            tape.watch(inp)
            loss = loss_of(inp, m)
        return [loss] + tape.gradient(loss, [inp] + layer.trainable_variables)

    want = grads_of(x, tf.constant(mask))
    compiled = tf.function(grads_of, input_signature=[tf.TensorSpec([None, None, 4], tf.float64),
                                                      tf.TensorSpec([None, None], tf.bool)])
    got = compiled(x, tf.constant(mask))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-9, atol=1e-11)

    # central differences along one random direction of each weight
    eps = 1e-6
    for var, g in zip(layer.trainable_variables, want[2:]):
        d = np.random.default_rng(2).standard_normal(var.shape)
        base = var.numpy()
        var.assign(base + eps * d)
        up = float(loss_of(x, tf.constant(mask)))
        var.assign(base - eps * d)
        down = float(loss_of(x, tf.constant(mask)))
        var.assign(base)
        np.testing.assert_allclose((up - down) / (2 * eps), np.sum(g.numpy() * d), rtol=1e-6, atol=1e-8)

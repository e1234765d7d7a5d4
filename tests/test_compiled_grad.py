"""Gradients through compiled functions for every differentiable op of the op
table (the rows of test_ops_table.py): the compiled function's gradient (one
tape entry, compiled backward graph) equals the eager tape's, which
test_ops_table checks against finite differences; a sample is also checked
against finite differences directly, and unary ops to second order."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime import registry

from conftest import check_grads
from test_ops_table import ROWS

def _cases():
    for name in sorted(ROWS):
        for i, case in enumerate(ROWS[name].cases):
            if case.wrt and case.trace:
                yield pytest.param(name, case, id=f"{name}-{i}")


def _weighted(fn):
    """A scalar loss of the outputs that weighs each element differently (sin)
    and works on shapes known only when the graph runs."""
    def loss(*xs):
        outs = fn(*xs)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        total = 0.0
        for k, o in enumerate(outs):
            o = tf.cast(o, tf.float64)
            total = total + tf.reduce_sum(tf.sin(o) + o * (k + 0.5))
        return total
    return loss


def _tape_grads(fn, args, wrt):
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch([ts[i] for i in wrt])
        y = fn(*ts)
    return [g.numpy() for g in tape.gradient(y, [ts[i] for i in wrt],
                                             unconnected_gradients=tf.UnconnectedGradients.ZERO)]


@pytest.mark.parametrize("name, case", list(_cases()))
def test_compiled_gradient_equals_eager(name, case):
    loss = _weighted(case.fn)
    compiled = tf.function(loss, fallback=False)
    want = _tape_grads(loss, case.args, case.wrt)
    got = _tape_grads(compiled, case.args, case.wrt)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)


_SAMPLE = ["tanh", "div", "pow", "reduce_max", "matmul", "einsum", "getitem", "gather", "concat", "pad",
           "extract_patches", "conv2d", "select", "cumsum", "reduce_prod", "atan2"]


@pytest.mark.parametrize("name", _SAMPLE)
def test_compiled_gradient_equals_finite_differences(name):
    case = next(c for c in ROWS[name].cases if c.wrt and c.trace)
    check_grads(tf.function(case.fn), case.args, wrt=case.wrt)


def _unary_order2():
    for name in sorted(ROWS):
        row = ROWS[name]
        if row.order2 and registry.PRIMITIVES[name].kind == "unary":
            case = next((c for c in row.cases if c.wrt and c.args[0].ndim == 1), None)
            if case is not None:
                yield pytest.param(name, case, id=name)


@pytest.mark.parametrize("name, case", list(_unary_order2()))
def test_second_derivative_through_compiled_function(name, case):
    def second(fn):
        x = tf.constant(case.args[0])
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(fn(x) * np.linspace(0.5, 1.5, x.shape[0]))
            g = inner.gradient(y, x)
        return outer.gradient(g, x, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy()

    np.testing.assert_allclose(second(tf.function(case.fn)), second(case.fn), rtol=1e-9, atol=1e-12)
    check_grads(tf.function(case.fn), case.args, wrt=case.wrt, order=2)


def test_nested_compiled_functions_and_tapes():
    inner_fn = tf.function(lambda x: tf.sin(x) * tf.reduce_sum(x ** 3))

    @tf.function
    def outer_fn(x):
        return tf.reduce_sum(inner_fn(x) * tf.exp(x))

    x0 = np.array([0.3, -0.7, 1.1])
    out = []
    for f in (lambda x: tf.reduce_sum(tf.sin(x) * tf.reduce_sum(x ** 3) * tf.exp(x)), outer_fn):
        x = tf.constant(x0)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            g = t1.gradient(y, x)
        out.append((y.numpy(), g.numpy(), t2.jacobian(g, x).numpy()))
    for got, want in zip(out[1], out[0]):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)

"""tf.autodiff.ForwardAccumulator.  The JVP is the transpose of the VJP (tapeflow/forward_mode.py),
so every differentiable primitive of the op table has one: each row's float64 cases are
checked against a central finite difference along a random direction, eagerly and in
tf.function.  The parity programs (tests/tf_parity/programs/math2_forward.py) hold
TensorFlow's values for the guide's cells."""
import numpy as np
import pytest

import tapeflow as tf

from conftest import _flat_outputs
from test_ops_table import ROWS, _cases


def _jvp(fn, args, wrt, tangents):
    ts = [tf.constant(a) for a in args]
    with tf.autodiff.ForwardAccumulator([ts[i] for i in wrt], [tf.constant(t) for t in tangents]) as acc:
        outs = _flat_outputs(fn(*ts))
    return outs, acc.jvp(outs, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def _central_difference(fn, args, wrt, tangents, eps=1e-6):
    def at(sign):
        moved = [np.array(a) for a in args]
        for i, t in zip(wrt, tangents):
            moved[i] = moved[i] + sign * eps * t
        return [np.asarray(o.numpy(), dtype=np.float64) for o in _flat_outputs(fn(*[tf.constant(a) for a in moved]))]
    return [(u - d) / (2 * eps) for u, d in zip(at(1), at(-1))]


@pytest.mark.parametrize("name, case", list(_cases(True)))
def test_jvp_matches_finite_differences(name, case):
    rng = np.random.default_rng(7)
    tangents = [rng.uniform(-1, 1, np.shape(case.args[i])).astype(np.float64) for i in case.wrt]
    outs, jvps = _jvp(case.fn, case.args, case.wrt, tangents)
    for o, j, num in zip(outs, jvps, _central_difference(case.fn, case.args, case.wrt, tangents)):
        if not o.dtype.is_floating:
            continue
        assert j.shape == o.shape and j.dtype is o.dtype
        np.testing.assert_allclose(j.numpy(), num, rtol=1e-5, atol=1e-6, err_msg=name)


def test_jvp_in_tf_function_equals_eager():
    x = np.array([[0.3, -1.2, 2.0], [0.5, 0.1, -0.4]])
    w = np.array([[1.0, 0.5], [-0.5, 2.0], [0.25, 0.0]])
    tx, tw = np.ones_like(x), np.full_like(w, 0.5)

    def loss(x, w):
        return tf.reduce_sum(tf.nn.softmax(tf.tanh(x @ w)) ** 2)

    @tf.function
    def graph_jvp(x, w, tx, tw):
        with tf.autodiff.ForwardAccumulator([x, w], [tx, tw]) as acc:
            y = loss(x, w)
        return acc.jvp(y)
    _, (eager,) = _jvp(loss, [x, w], [0, 1], [tx, tw])
    got = graph_jvp(*[tf.constant(a) for a in (x, w, tx, tw)])
    np.testing.assert_allclose(got.numpy(), eager.numpy(), rtol=1e-12)
    num = _central_difference(loss, [x, w], [0, 1], [tx, tw])[0]
    np.testing.assert_allclose(got.numpy(), num, rtol=1e-6)


def test_hessian_vector_products_agree_both_ways():
    # forward-over-backward and backward-over-forward give the same H v; both equal the
    # Hessian (from nested tapes) times v.
    x = tf.constant([0.4, -1.1, 0.7], tf.float64)
    v = tf.constant([1.0, 2.0, -0.5], tf.float64)

    def f(x):
        return tf.reduce_sum(tf.exp(x) * tf.sin(x)) + tf.reduce_prod(x)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    fob = acc.jvp(g)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = f(x)
        jv = acc.jvp(y)
    bof = tape.gradient(jv, x)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g = t1.gradient(y, x)
    hess = t2.jacobian(g, x)
    want = hess.numpy() @ v.numpy()
    np.testing.assert_allclose(fob.numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(bof.numpy(), want, rtol=1e-12)


def test_bad_primals_and_tangents_raise():
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError, match="multiple times"):
        tf.autodiff.ForwardAccumulator([x, x], [x, x])
    with pytest.raises(ValueError, match=r"shape \(2,\).*shape \(3,\)"):
        tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        tf.autodiff.ForwardAccumulator([x, x * 2.0], [x])

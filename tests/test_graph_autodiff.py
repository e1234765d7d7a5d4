"""Gradients of graphs (tracer.autodiff) against the eager tape and finite differences."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler.interpreter import run_graph
from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime.registry import Aval, state
from tapeflow.tracer import autodiff


def trace(fn, *avals):
    b = GraphBuilder("f")
    saved = state.graph
    state.graph = b
    try:
        xs = [b.placeholder(Aval(shape, dtype)) for shape, dtype in avals]
        out = fn(*xs)
    finally:
        state.graph = saved
    return b.build(out if isinstance(out, (list, tuple)) else [out])


def run(graph, arrays):
    return run_graph(graph, arrays)


def eager_grads(fn, args, variables=()):
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        out = fn(*ts)
    return [None if g is None else g.numpy() for g in tape.gradient(out, ts + list(variables))]


def graph_grads(fn, args, variables=()):
    graph = trace(fn, *[(a.shape, tf.as_dtype(a.dtype)) for a in args])
    vjp = autodiff.VJPGraphs(graph)
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        outs = autodiff.taped_call(vjp, ts, run, run)
    grads = tape.gradient(outs[0], ts + list(variables))
    return [None if g is None else g.numpy() for g in grads], vjp


rng = np.random.default_rng(0)

CASES = [
    ("tanh_matmul", lambda x, w: tf.reduce_sum(tf.tanh(tf.matmul(x, w))), [(3, 4), (4, 2)]),
    ("broadcast", lambda x, b: tf.reduce_mean(tf.exp(x + b) * x), [(3, 4), (4,)]),
    ("softmax_like", lambda x: tf.reduce_sum(tf.exp(x) / tf.reduce_sum(tf.exp(x), axis=1, keepdims=True) * x),
     [(2, 5)]),
    ("max_and_where", lambda x: tf.reduce_sum(tf.where(x > 0, x * x, -x)) + tf.reduce_max(x), [(6,)]),
    ("indexing", lambda x: tf.reduce_sum(x[1:, ::2] * 3.0) + x[0, 0], [(3, 4)]),
]


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_graph_gradient_matches_eager(name, fn, shapes):
    args = [rng.normal(size=s) for s in shapes]
    want = eager_grads(fn, args)
    got, _ = graph_grads(fn, args)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_graph_gradient_matches_finite_differences():
    fn = CASES[0][1]
    args = [rng.normal(size=s) for s in CASES[0][2]]
    got, _ = graph_grads(fn, args)
    for k, a in enumerate(args):
        num = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            hi = [x.copy() for x in args]
            lo = [x.copy() for x in args]
            hi[k][idx] += 1e-6
            lo[k][idx] -= 1e-6
            num[idx] = (float(fn(*map(tf.constant, hi))) - float(fn(*map(tf.constant, lo)))) / 2e-6
        np.testing.assert_allclose(got[k], num, rtol=1e-5, atol=1e-7)


def test_variables_get_gradients_and_residuals_are_saved():
    v = tf.Variable(rng.normal(size=(4,)))

    def fn(x):
        return tf.reduce_sum(tf.sin(x * v))

    x = rng.normal(size=(4,))
    got, vjp = graph_grads(fn, [x], [v])
    want = eager_grads(fn, [x], [v])
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    assert vjp.variables == [v]
    # sin's gradient needs cos(x*v) or x*v: something must be saved, and the
    # backward graph must not read the variable again.
    assert vjp.n_residuals >= 1
    assert all(n.op not in ("read_variable", "assign_variable") for n in vjp.backward.nodes)


def test_assignments_stay_in_forward_in_order():
    v = tf.Variable(2.0, dtype=tf.float64)

    def fn(x):
        y = x * v
        v.assign(v * 3.0)
        return y * v

    graph = trace(fn, ((), tf.float64))
    vjp = autodiff.VJPGraphs(graph)
    x = tf.constant(1.5, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        (out,) = autodiff.taped_call(vjp, [x], run, run)
    gx, gv = tape.gradient(out, [x, v])
    assert float(out) == pytest.approx(1.5 * 2.0 * 6.0)
    assert float(v) == 6.0
    # d/dx = v_before * v_after = 12.  As in TensorFlow, an assignment cuts the
    # tape: v gets x * v_after from the first read and x * v_before from the last.
    assert float(gx) == pytest.approx(12.0)
    assert float(gv) == pytest.approx(1.5 * 6.0 + 1.5 * 2.0)


def test_second_order_through_graph():
    graph = trace(lambda x: x * x * x, ((), tf.float64))
    vjp = autodiff.VJPGraphs(graph)
    x = tf.constant(2.0, dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            (y,) = autodiff.taped_call(vjp, [x], run, run)
        g = inner.gradient(y, x)
    assert float(g) == pytest.approx(12.0)
    assert float(outer.gradient(g, x)) == pytest.approx(12.0)


def test_unwatched_call_records_nothing():
    graph = trace(lambda x: x * 2.0, ((2,), tf.float32))
    vjp = autodiff.VJPGraphs(graph)
    assert not autodiff.needs_tape([tf.constant([1.0, 2.0])], vjp.variables)


def _residual_sources(vjp):
    """For each residual of the forward part: the input position it is, or its op."""
    fwd = vjp.forward
    out = []
    for r in fwd.outputs[vjp.n_outputs:]:
        out.append(fwd.inputs.index(r) if r in fwd.inputs else fwd.node(r.node).op)
    return out


@pytest.mark.parametrize("name, fn, shapes, wrt, kept, want", [
    # 1 - y*y (tanh's gradient factor) is recomputed from y: as many bytes, and y is what a loop keeps anyway
    ("tanh_factor", lambda x: tf.reduce_sum(tf.tanh(x) * 2.0), [(3, 4)], None, None, ["tanh"]),
    # x[1] from x, which the caller keeps anyway; x[1] itself when x is not free (it is smaller);
    # w is not kept: only w's gradient is asked for, and mul's VJP skips x's (vjp_needs)
    ("slice_of_free", lambda x, w: tf.reduce_sum(x[1] * w), [(5, 4), (4,)], [1], None, [0]),
    ("slice_not_free", lambda x, w: tf.reduce_sum(x[1] * w), [(5, 4), (4,)], [1], [1], ["getitem"]),
    # exp is never recomputed: the kernels' exp may differ from NumPy's in the last bit; x is not
    # kept (the gradient of x * 3.0 needs no x: the constant's gradient is skipped)
    ("libm_kept", lambda x: tf.reduce_sum(tf.exp(x * 3.0)), [(4,)], None, None, ["exp"]),
])
def test_cheap_exact_residuals_are_recomputed_when_that_keeps_no_more_bytes(name, fn, shapes, wrt, kept, want):
    args = [rng.standard_normal(s) for s in shapes]
    graph = trace(fn, *[(a.shape, tf.float64) for a in args])
    vjp = autodiff.VJPGraphs(graph, wrt=wrt, kept_inputs=kept)
    assert sorted(map(str, _residual_sources(vjp))) == sorted(map(str, want))
    # the recomputing backward gives the eager tape's gradients, bit for bit
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(ts)
        outs = autodiff.taped_call(vjp, ts, run, run)
    for got, eager in zip(tape.gradient(outs[0], ts), eager_grads(fn, args)):
        if wrt is None or got is not None:
            np.testing.assert_array_equal(got.numpy(), eager)

"""Loops differentiated through compiled functions, in the forms whose trip
count is known at trace time (a counted `for i in tf.range(N)`, a while loop
with maximum_iterations): the residual stacks have a static number of rows, so
the keeping loop (which pushes them in place) and the reverse loop (which reads
them back) both compile whole to C.  Each case: gradients equal the eager
tape's and central finite differences, the compiled forward and backward graphs
equal the reference interpreter, and both loops really run as C."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.benchmark.memory import peak_bytes
from tapeflow.compiler import cbuild, compile_graph, run_reference, set_flag
from tapeflow.compiler.testing import aval, trace, while_loop
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.registry import bind
from tapeflow.runtime.tensor import Tensor
from tapeflow.tracer import control_flow_grad

from conftest import check_grads

rng = np.random.default_rng(11)


def rnd(*shape, scale=1.0):
    return rng.standard_normal(shape) * scale


# ------------------------------------------------------------------ programs

def rnn(x, h, wx, wh):
    for t in tf.range(x.shape[0]):
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
    return tf.reduce_sum(h * h)


def rnn_over_tf_shape(x, h, wx, wh):
    for t in tf.range(tf.shape(x)[0]):  # a static shape: the count is known while tracing
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
    return tf.reduce_sum(h * h)


def rnn_range_with_start(x, h, wx, wh):
    for t in tf.range(1, x.shape[0]):  # skips x[0]: the counter still starts at 0
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
    return h * 2.0


def counted_while(x, w):
    # the count (3) is read from the condition; maximum_iterations is looser
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y * w) + y), (0, x),
                         maximum_iterations=8)
    return y


def while_max_iterations_stops_early(x, w):
    # a data-dependent condition stops the loop after 4 of at most 8 iterations
    return tf.while_loop(lambda y: tf.reduce_sum(y * y) < 4.0, lambda y: y * 1.5 + tf.sin(y * w) * 0.1, [x],
                         maximum_iterations=8)[0]


def for_with_break(x, w):
    y = x
    for t in tf.range(6):
        if tf.reduce_sum(y) > 4.0:
            break
        y = y * w + tf.cos(y)
    return y


def gru_like(x, h, w):
    n = 5
    for t in tf.range(n):
        z = tf.sigmoid(tf.matmul(h, w) + x[t])
        h = z * h + (1.0 - z) * tf.tanh(x[t] - h)
    return tf.reduce_sum(h, axis=0)


def rnn_with_break(x, h, wx, wh):
    # a data-dependent exit (the stacks' last rows stay unused); the body becomes
    # a cond, whose gradient replays it, so h is not carried here
    for t in tf.range(x.shape[0]):
        if tf.reduce_sum(h * h) > 6.0:  # after 3 of the 8 steps, with these inputs
            break
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
    return tf.reduce_sum(h * h)


def rnn_with_break_and_branch(x, h, wx, wh):
    for t in tf.range(x.shape[0]):
        if tf.reduce_sum(h * h) > 5.0:  # after 3 of the 8 steps, both branches taken
            break
        z = tf.matmul(x[t], wx) + tf.matmul(h, wh)
        if t % 2 == 0:
            h = tf.tanh(z)
        else:
            h = tf.tanh(z) * 0.5 + h * 0.5
    return tf.reduce_sum(h * h)


PROGRAMS = [
    ("rnn", rnn, [rnd(6, 3, 4), rnd(3, 5, scale=0.5), rnd(4, 5, scale=0.4), rnd(5, 5, scale=0.4)]),
    ("rnn_range_with_start", rnn_range_with_start,
     [rnd(5, 2, 3), rnd(2, 4), rnd(3, 4, scale=0.5), rnd(4, 4, scale=0.5)]),
    ("counted_while", counted_while, [rnd(4), rnd(4)]),
    ("while_max_iterations_stops_early", while_max_iterations_stops_early,
     [np.array([0.3, -0.2, 0.1, 0.4]), np.array([0.5, 1.0, -0.5, 0.2])]),
    ("for_with_break", for_with_break, [rnd(3, scale=0.3), np.array([0.9, 1.1, 0.7])]),
    ("gru_like", gru_like, [rnd(5, 2, 3), rnd(2, 3), rnd(3, 3, scale=0.5)]),
    ("rnn_with_break", rnn_with_break, [rnd(8, 3, 4), rnd(3, 5, scale=0.2), rnd(4, 5, scale=0.5), rnd(5, 5, scale=0.5)]),
    ("rnn_with_break_and_branch", rnn_with_break_and_branch,
     [rnd(8, 3, 4), rnd(3, 5, scale=0.2), rnd(4, 5, scale=0.5), rnd(5, 5, scale=0.5)]),
    ("rnn_over_tf_shape", rnn_over_tf_shape, [rnd(6, 3, 4), rnd(3, 5, scale=0.5), rnd(4, 5, scale=0.4), rnd(5, 5, scale=0.4)]),
]
IDS = [p[0] for p in PROGRAMS]


def _taped(fn, ts):
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = tf.reduce_sum(fn(*ts) * 1.5)
    return y, tape.gradient(y, ts)


@pytest.mark.parametrize("name, fn, args", PROGRAMS, ids=IDS)
def test_gradient_equals_eager_reference_and_finite_differences(name, fn, args):
    compiled = tf.function(fn)
    ts = [tf.constant(a) for a in args]
    y_eager, g_eager = _taped(fn, ts)
    y, g = _taped(compiled, ts)
    np.testing.assert_allclose(y.numpy(), y_eager.numpy(), rtol=1e-12)
    for got, want in zip(g, g_eager):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10, atol=1e-12)
    check_grads(compiled, args)

    vjp = next(iter(compiled.get_concrete_function(*ts)._vjp.values()))
    # both loops compiled whole (one C loop each), with static stacks
    for run in (vjp.run_forward, vjp.run_backward):
        assert getattr(run, "uses_c", False) and run.c_source.count("int loop") >= 1, name
    assert "while_stack_alloc" in {n.op for n in vjp.forward.nodes}
    # compiled halves == reference interpreter
    fwd_in = [np.asarray(a) for a in args]
    fwd = vjp.run_forward(*fwd_in)
    fwd_ref = run_reference(vjp.forward, fwd_in)
    for a, b in zip(fwd, fwd_ref):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-14)
    gys = [np.ones_like(np.asarray(o)) for o in fwd[:vjp.n_outputs]]
    bwd_in = [np.asarray(r) for r in fwd[vjp.n_outputs:]] + gys
    for a, b in zip(vjp.run_backward(*bwd_in), run_reference(vjp.backward, bwd_in)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-14)


def _float32_rnn_args(steps):
    return [rnd(steps, 8, 32).astype(np.float32), np.zeros((8, 64), np.float32),
            rnd(32, 64, scale=0.1).astype(np.float32), rnd(64, 64, scale=0.1).astype(np.float32)]


def _numpy_rnn_grads(x, h0, wx, wh):
    """Loss sum(h_T^2) of `rnn` and its gradients for wx, wh, by hand."""
    hs = [h0]
    for t in range(x.shape[0]):
        hs.append(np.tanh(x[t] @ wx + hs[-1] @ wh))
    dh, g_wx, g_wh = 2 * hs[-1], np.zeros_like(wx), np.zeros_like(wh)
    for t in range(x.shape[0] - 1, -1, -1):
        dz = dh * (1 - hs[t + 1] ** 2)
        g_wx += x[t].T @ dz
        g_wh += hs[t].T @ dz
        dh = dz @ wh.T
    return np.sum(hs[-1] ** 2), g_wx, g_wh


def test_float32_rnn_matches_hand_written_numpy():
    args = _float32_rnn_args(20)
    loss_np, g_wx, g_wh = _numpy_rnn_grads(*args)
    ts = [tf.constant(a) for a in args]
    compiled = tf.function(rnn)
    for _ in range(2):  # the stacks are fresh on every call
        with tf.GradientTape() as tape:
            tape.watch(ts[2:])
            loss = compiled(*ts)
        gx, gh = tape.gradient(loss, ts[2:])
        np.testing.assert_allclose(float(loss), loss_np, rtol=1e-5)
        np.testing.assert_allclose(gx.numpy(), g_wx, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(gh.numpy(), g_wh, rtol=1e-4, atol=1e-5)


def test_rnn_keeps_its_hidden_states_once():
    """Peak traced memory of a compiled float32 RNN forward+backward against the
    hand-written NumPy's (which keeps the T+1 hidden states): the residuals are
    those states, kept once (carried), not also 1 - h*h, x[t] and a result
    buffer per stack (about 3.9 times NumPy's before)."""
    args = _float32_rnn_args(40)
    ts = [tf.constant(a) for a in args]
    compiled = tf.function(rnn)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(ts[2:])
            loss = compiled(*ts)
        return tape.gradient(loss, ts[2:])
    run()  # traced and compiled
    states = 41 * 8 * 64 * 4
    peak, peak_np = peak_bytes(run), peak_bytes(lambda: _numpy_rnn_grads(*args))
    assert states < peak_np and states < peak < 1.5 * peak_np, (peak, peak_np)


@pytest.mark.parametrize("name", ["rnn", "rnn_with_break", "rnn_with_break_and_branch"])
def test_second_order_through_kept_loops(name):
    """Higher order through recomputed residuals and (rnn) h on a carried stack:
    the keeping loop reruns under the outer tape."""
    _, fn, args = next(p for p in PROGRAMS if p[0] == name)

    def hessian_vector(f):
        ts = [tf.constant(a) for a in args]
        with tf.GradientTape() as outer:
            outer.watch(ts[2:])
            with tf.GradientTape() as inner:
                inner.watch(ts[2:])
                y = f(*ts)
            gs = inner.gradient(y, ts[2:])
            z = sum(tf.reduce_sum(g * np.sin(np.arange(g.shape.num_elements())).reshape(g.shape)) for g in gs)
        return outer.gradient(z, ts[2:])

    for got, want in zip(hessian_vector(tf.function(fn)), hessian_vector(fn)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-9, atol=1e-11)


def test_unbounded_loop_grows_a_carried_stack():
    """Grown stacks keep h once too (carried: h before each step and after the last);
    tests/test_loop_grown_stacks.py has LSTMs and GRUs over unknown lengths."""
    def unbounded(x, h, wx, wh, n):
        for t in tf.range(n):  # n is traced: the stacks start empty and grow
            h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
        return tf.reduce_sum(h * h)
    args = PROGRAMS[0][2] + [np.int32(5)]
    assert _stack_rows(unbounded, args) == [None, None]  # h (carried), the counter
    ts = [tf.constant(a) for a in args]
    _, want = _taped(unbounded, ts)
    _, got = _taped(tf.function(unbounded), ts)
    for g, w in zip(got[:4], want[:4]):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-10, atol=1e-12)
    check_grads(tf.function(lambda x, h, wx, wh: unbounded(x, h, wx, wh, tf.constant(5))), args[:4])


def test_tape_inside_the_function():
    @tf.function
    def grads(x, h, wx, wh):
        with tf.GradientTape() as tape:
            tape.watch([wx, wh])
            loss = rnn(x, h, wx, wh)
        return tape.gradient(loss, [wx, wh])

    args = PROGRAMS[0][2]
    ts = [tf.constant(a) for a in args]
    _, want = _taped(lambda *a: rnn(*a) / 1.5, ts)
    for got, w in zip(grads(*ts), want[2:]):
        np.testing.assert_allclose(got.numpy(), w.numpy(), rtol=1e-10, atol=1e-12)


def _stack_rows(fn, args):
    """The leading dims of the stacks the reverse loops read (traced)."""
    seen = []
    original = control_flow_grad._reverse_loop

    def spy(inputs, out_grads, count, stacks, *rest):
        seen.extend(s.shape[0] for s in stacks)
        return original(inputs, out_grads, count, stacks, *rest)

    control_flow_grad._reverse_loop = spy
    try:
        _taped(tf.function(fn), [tf.constant(a) for a in args])
    finally:
        control_flow_grad._reverse_loop = original
    return seen


def test_stacks_are_static_only_when_the_trip_count_is_bounded():
    # the counter's stack has a row per iteration (6); h's is carried: h before each
    # iteration and after the last (7), kept once for the tanh and the matmul gradients
    assert sorted(_stack_rows(rnn, PROGRAMS[0][2])) == [6, 7]
    assert set(_stack_rows(counted_while, PROGRAMS[2][2])) == {3}
    assert set(_stack_rows(while_max_iterations_stops_early, PROGRAMS[3][2])) == {8}

    def unbounded(x, n):
        for _ in tf.range(n):  # n is a traced input: unknown count
            x = tf.sin(x)
        return x
    assert set(_stack_rows(unbounded, [rnd(3), np.int32(4)])) == {None}

    def huge_limit(x):  # preallocating 10**8 rows would waste memory: grown stacks
        # (the body's gradient needs y, so y is stacked: y * 1.5 + 0.1 alone would need none)
        return tf.while_loop(lambda y: tf.reduce_sum(y) < 10.0, lambda y: y * 1.5 + 0.1 * y * y, [x],
                             maximum_iterations=10 ** 8)[0]
    x = np.array([0.5, 1.0])
    assert set(_stack_rows(huge_limit, [x])) == {None}
    check_grads(tf.function(huge_limit), [x])


# ------------------------------------------------------------------ loopgen directly

@pytest.fixture()
def private_cache(tmp_path):
    set_flag("cache_dir", str(tmp_path / "cache"))
    cbuild._loaded.clear()
    yield
    set_flag("cache_dir", None)


def _push_loop(start, rows):
    """A loop that pushes 2*x + i onto a (rows, 3) stack at indices start, start+1, ..."""
    def fn(x):
        stack = bind(control_flow_grad.STACK_ALLOC, (), {"shape": (rows, 3), "dtype": x.dtype})

        def body(i, s, x):
            row = M.add(M.multiply(x, 2.0), M.cast(i, x.dtype))
            return i + 1, bind(control_flow_grad.STACK_PUSH, (s, i, row), {"capacity": rows})
        return while_loop(lambda i, s, x: M.less(i, start + 4), body, [Tensor(np.int32(start)), stack],
                          extras=[x])
    return trace(fn, [aval((3,), "float64")])


def test_stack_push_compiles_in_place_and_matches_the_interpreter(private_cache):
    g = _push_loop(0, 4)
    ex = compile_graph(g)
    assert ex.uses_c and ex.c_source.count("int loop") == 1
    x = np.array([1.0, -2.0, 0.5])
    for _ in range(2):
        got = ex(x)
        want = run_reference(g, [x])
        np.testing.assert_array_equal(got[1], want[1])
        np.testing.assert_array_equal(got[1], 2 * x + np.arange(4.0)[:, None])


def test_stack_push_out_of_range_is_an_error_not_a_wrong_shape(private_cache):
    # capacity 3 for pushes at 1..4: the C loop stops (err), the Python loop
    # runs and the primitive raises, as in the reference interpreter
    g = _push_loop(1, 3)
    ex = compile_graph(g)
    x = np.array([1.0, 2.0, 3.0])
    with pytest.raises(IndexError, match="row 3 pushed onto a stack of 3 rows"):
        run_reference(g, [x])
    with pytest.raises(IndexError, match="row 3 pushed onto a stack of 3 rows"):
        ex(x)


def test_accumulated_matmuls_and_hoisted_transposes(private_cache):
    """acc + a @ w.T (w loop-invariant: transposed once before the loop), a
    product used twice (not fused), and a broadcast add (not fused)."""
    from tapeflow.runtime.ops import linalg_ops as L

    def fn(a, w, bias):
        def body(i, acc, other, a, w, bias):
            p = L.matmul(a, w, transpose_b=True)
            q = L.matmul(acc, w)
            return i + 1, M.add(acc, p), M.add(M.add(q, bias), M.multiply(q, 0.5))
        init = [Tensor(np.int32(0)), Tensor(np.zeros((3, 5))), Tensor(np.zeros((3, 5)))]
        return while_loop(lambda i, *_: M.less(i, 4), body, init, extras=[a, w, bias])
    g = trace(fn, [aval((3, 5), "float64"), aval((5, 5), "float64"), aval((5,), "float64")])
    ex = compile_graph(g)
    assert ex.uses_c and ex.c_source.count("int loop") == 1
    a, w, bias = rnd(3, 5), rnd(5, 5, scale=0.3), rnd(5)
    acc, other = np.zeros((3, 5)), np.zeros((3, 5))
    for _ in range(4):
        acc, other = acc + a @ w.T, 1.5 * (acc @ w) + bias
    got = ex(a, w, bias)
    np.testing.assert_allclose(got[1], acc, rtol=1e-12)
    np.testing.assert_allclose(got[2], other, rtol=1e-12)
    for x, y in zip(got, run_reference(g, [a, w, bias])):
        np.testing.assert_allclose(x, y, rtol=1e-12)

"""Straight-line graphs of many small ops compiled whole into one C function
(compiler/blockgen_c.py): an RNN unrolled over its steps with its gradient
under a tape, forward and backward; values equal eager code, NumPy and the
reference interpreter; arrays share arena slots; an error inside the block is
the op's own error; graphs too small, too large or with a big matmul compile
as before."""
import os
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import blockgen_c, compile_graph, run_reference

from conftest import check_grads

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
from workloads import rnn_grad_numpy  # noqa: E402  (the suite's NumPy reference of the same RNN)

pytestmark = pytest.mark.usefixtures("private_compiler_cache")

rng = np.random.default_rng(5)


def rnn_grad(xs, wx, wh, b, h0):
    with tf.GradientTape() as tape:
        tape.watch([wx, wh, b])
        h = h0
        for t in range(xs.shape[0]):  # static: unrolled while tracing
            h = tf.tanh(xs[t] @ wx + h @ wh + b)
        loss = 0.5 * tf.reduce_sum(h * h)
    return (loss, *tape.gradient(loss, [wx, wh, b]))


def rnn_args(steps, batch, n_in, hidden, dtype):
    return [(rng.standard_normal(s) * k).astype(dtype) for s, k in
            (((steps, batch, n_in), 1.0), ((n_in, hidden), 0.3), ((hidden, hidden), 0.2), ((hidden,), 0.1),
             ((batch, hidden), 0.5))]


def _executable(fn, ts):
    return fn.get_concrete_function(*ts)._executable()


@pytest.mark.parametrize("dtype, rtol", [(np.float32, 2e-5), (np.float64, 1e-12)])
def test_unrolled_rnn_gradient_is_one_c_function(dtype, rtol):
    args = rnn_args(12, 5, 7, 9, dtype)  # rows and columns left over from the matmul's tiles
    ts = [tf.constant(a) for a in args]
    compiled = tf.function(rnn_grad)
    got = [np.asarray(v) for v in compiled(*ts)]
    ex = _executable(compiled, ts)
    assert ex.kernels == ["block"] and ex.c_source.count("int block") == 1
    assert "tf_matmul_" in ex.c_source and "_Alignas" in ex.c_source  # the arena is on the stack
    eager = [v.numpy() for v in rnn_grad(*ts)]
    for g, e, n in zip(got, eager, rnn_grad_numpy(*args)):
        assert g.dtype == dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=rtol, atol=rtol)
        np.testing.assert_allclose(g, n, rtol=rtol * 10, atol=rtol * 10)
    reference = run_reference(ex.optimized_graph, args)
    for g, r in zip(got, reference):
        np.testing.assert_allclose(g, r, rtol=rtol, atol=rtol)


def test_block_gradient_of_a_compiled_function_and_finite_differences():
    """The taped call of a compiled unrolled RNN: its forward and backward graphs
    are blocks too, and the gradient equals central differences."""
    def loss(xs, wx, wh, h0):
        h = h0
        for t in range(xs.shape[0]):
            h = tf.tanh(xs[t] @ wx + h @ wh)
        return tf.reduce_sum(h * h)
    args = rnn_args(6, 3, 4, 5, np.float64)
    args = [args[0], args[1], args[2], args[4]]
    compiled = tf.function(loss)
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y = compiled(*ts)
    grads = tape.gradient(y, ts)
    with tf.GradientTape() as tape:
        tape.watch(ts)
        y_eager = loss(*ts)
    for g, e in zip(grads, tape.gradient(y_eager, ts)):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-12, atol=1e-12)
    vjp = next(iter(compiled.get_concrete_function(*ts)._vjp.values()))
    for run in (vjp.run_forward, vjp.run_backward):
        assert run.uses_c and run.c_source.count("int block") == 1
    check_grads(compiled, args)


def test_arrays_share_arena_slots():
    """The arena holds about the live values: the hidden states kept for the
    backward pass (as NumPy keeps them), not every temporary of every step."""
    steps, batch, n_in, hidden = 24, 8, 8, 16
    args = rnn_args(steps, batch, n_in, hidden, np.float32)
    ts = [tf.constant(a) for a in args]
    compiled = tf.function(rnn_grad)
    compiled(*ts)
    g = _executable(compiled, ts).optimized_graph
    _, src, _ = blockgen_c.try_render_block(g, "b")
    arena = int(src.split("char local[")[1].split("]")[0])
    state = batch * hidden * 4
    every_array = sum(n.avals[0].dtype.np.itemsize * int(np.prod(n.avals[0].shape)) for n in g.nodes
                      if n.op not in ("input", "const", "getitem") and n.avals)
    assert steps * state <= arena <= steps * state + 12 * state + 4 * hidden * (hidden + n_in)
    assert arena < every_array / 2
    assert _executable(compiled, ts).scratch_bytes == arena  # what tracemalloc cannot see, reported


def _many_ops(x, i):
    y = x @ tf.ones((4, 4))
    for k in range(20):
        y = tf.sin(y) * 0.5 + y[i] * 0.1
    return y


def test_an_error_inside_the_block_is_the_ops_own(monkeypatch):
    """An index out of range: the block returns an error code, the reference
    interpreter then raises what the graph compiled op by op raises."""
    x = tf.constant(rng.standard_normal((3, 4)).astype(np.float32))
    compiled = tf.function(_many_ops)
    np.testing.assert_allclose(compiled(x, tf.constant(1)).numpy(), _many_ops(x, tf.constant(1)).numpy(),
                               rtol=1e-5, atol=1e-6)
    assert _executable(compiled, [x, tf.constant(1)]).kernels == ["block"]
    with pytest.raises(tf.errors.InvalidArgumentError) as graph:
        compiled(x, tf.constant(5))
    monkeypatch.setattr(blockgen_c, "MIN_OPS", 10 ** 6)
    op_by_op = tf.function(_many_ops)
    with pytest.raises(tf.errors.InvalidArgumentError) as plain:
        op_by_op(x, tf.constant(5))
    assert not any(k.startswith("block") for k in _executable(op_by_op, [x, tf.constant(1)]).kernels)
    assert type(graph.value) is type(plain.value)
    assert str(graph.value).split(" (at ")[0] == str(plain.value).split(" (at ")[0]
    assert "index 5 is out of bounds" in str(graph.value)


def test_cond_inside_a_block():
    def fn(x, w):
        y = x
        for k in range(6):
            y = tf.tanh(y @ w)
            y = tf.cond(tf.reduce_sum(y) > 0.0, lambda: y * 2.0, lambda: y - 1.0)
        return y
    x = tf.constant(rng.standard_normal((4, 6)))
    w = tf.constant(rng.standard_normal((6, 6)) * 0.5)
    compiled = tf.function(fn)
    np.testing.assert_allclose(compiled(x, w).numpy(), fn(x, w).numpy(), rtol=1e-12)
    assert _executable(compiled, [x, w]).kernels == ["block"]


def test_what_is_not_a_block():
    small = tf.function(lambda x, w: tf.tanh(x @ w) + 1.0)
    x = tf.constant(rng.standard_normal((4, 6)).astype(np.float32))
    w = tf.constant(rng.standard_normal((6, 6)).astype(np.float32))
    small(x, w)
    assert not any(k.startswith("block") for k in _executable(small, [x, w]).kernels)

    def no_matmul(x):  # fused into a few kernels as before
        for k in range(20):
            x = tf.sin(x) * 0.5 + tf.reduce_sum(x, axis=0)
        return x
    compiled = tf.function(no_matmul)
    compiled(x)
    assert not any(k.startswith("block") for k in _executable(compiled, [x]).kernels)

    def big_matmul(x, w):  # 64 x 512 x 512 multiply-adds: BLAS's work
        y = x @ w
        for k in range(20):
            y = tf.sin(y) + 0.5
        return y
    x = tf.constant(rng.standard_normal((64, 512)).astype(np.float32))
    w = tf.constant(rng.standard_normal((512, 512)).astype(np.float32))
    compiled = tf.function(big_matmul)
    np.testing.assert_allclose(compiled(x, w).numpy(), big_matmul(x, w).numpy(), rtol=1e-4, atol=1e-4)
    assert not any(k.startswith("block") for k in _executable(compiled, [x, w]).kernels)


def test_replayed_compile_record_gives_the_same_block():
    args = rnn_args(8, 4, 5, 6, np.float32)
    ts = [tf.constant(a) for a in args]
    graph = tf.function(rnn_grad).get_concrete_function(*ts).graph
    first = compile_graph(graph)
    again = compile_graph(graph)  # replays the record the first compile stored
    assert first.kernels == again.kernels == ["block"]
    assert first.c_source == again.c_source
    for a, b in zip(first(*args), again(*args)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("row_shape", [(8,), (1, 8), (6, 1), (3, 6, 8)])
def test_row_broadcasts_and_leading_reductions_equal_eager_bit_for_bit(row_shape):
    """Elementwise loops over rows when an operand (or an inlined producer's) spans
    only the trailing dims, reductions over leading axes a row at a time: the same
    ops in the same order as eager NumPy, so the same bits."""
    def fn(x, b, c):
        y = x
        for k in range(6):
            y = (y * 0.75 + b) - c * 0.5  # the chain is inlined: b is read in its producer
        return (y, tf.reduce_sum(y, axis=0), tf.reduce_max(y, axis=0, keepdims=True),
                tf.reduce_min(y, axis=[0, 1]), tf.reduce_sum(y, axis=2),  # (NumPy sums rows pairwise)
                y[0] @ tf.ones((8, 2)))  # a matmul, or the graph would be fused kernels
    x = rng.standard_normal((3, 6, 8)).astype(np.float32)
    x[1, 2, 3] = np.nan  # max/min propagate NaN
    b = rng.standard_normal(row_shape).astype(np.float32)
    c = rng.standard_normal((8,)).astype(np.float32)
    ts = [tf.constant(a) for a in (x, b, c)]
    compiled = tf.function(fn)
    got = compiled(*ts)
    ex = _executable(compiled, ts)
    assert ex.kernels == ["block"]
    if row_shape in ((8,), (1, 8)):
        assert "const int64_t i = r * 8 + c;" in ex.c_source
    assert "for (int64_t r = 0; r < 3; r++)" in ex.c_source  # the sum and max over axis 0
    eager = fn(*ts)
    for g, e in zip(got[:4], eager[:4]):
        np.testing.assert_array_equal(g.numpy(), e.numpy())
    for g, e in zip(got[4:], eager[4:]):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6, atol=1e-5)


def test_row_broadcast_in_a_loop_compiled_whole():
    """The same row loops in a while loop's C (loopgen_c): a bias over tf.range steps."""
    def fn(xs, w, b):
        h = tf.zeros((xs.shape[1], w.shape[1]), xs.dtype)
        for t in tf.range(xs.shape[0]):
            h = tf.tanh(xs[t] @ w + b)
        return h, tf.reduce_sum(h, axis=0)
    args = [rng.standard_normal((5, 6, 7)), rng.standard_normal((7, 9)) * 0.3, rng.standard_normal(9)]
    ts = [tf.constant(a) for a in args]
    compiled = tf.function(fn)
    got = compiled(*ts)
    src = _executable(compiled, ts).c_source
    assert "int loop" in src and "const int64_t i = r * 9 + c;" in src
    for g, e in zip(got, fn(*ts)):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-12, atol=1e-12)


def test_a_batch_known_only_at_run_time_compiles_without_the_block():
    """A matmul whose batch size the signature leaves open (None) is no block candidate
    (its size is unknown while compiling); the graph compiles as before, no fallback warning."""
    xs, wx, wh, b, h0 = rnn_args(4, 3, 5, 6, np.float32)
    spec = [tf.TensorSpec([4, None, 5], tf.float32), tf.TensorSpec([5, 6], tf.float32),
            tf.TensorSpec([6, 6], tf.float32), tf.TensorSpec([6], tf.float32), tf.TensorSpec([None, 6], tf.float32)]
    fn = tf.function(rnn_grad, input_signature=spec)
    ts = [tf.constant(a) for a in (xs, wx, wh, b, h0)]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = fn(*ts)
    for g, want in zip(got, rnn_grad(*ts)):
        np.testing.assert_allclose(g.numpy(), want.numpy(), rtol=2e-5, atol=1e-6)

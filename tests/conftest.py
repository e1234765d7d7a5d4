"""Shared test helpers: finite-difference gradient checks and graph-vs-eager runs.

Import them in a test module with `from conftest import check_grads, run_traced`
(pytest puts this directory on sys.path).
"""
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import cbuild, set_flag
from tapeflow.runtime import registry
from tapeflow.runtime.registry import Aval
from keras_helpers import numeric_grad

# Tests see each compile finish before the first call (uses_c, kernel names and
# fallback counts are then fixed); test_tiered_start.py switches tiering on.
# Set in the environment so that the child processes of tests inherit it.
os.environ.setdefault("TAPEFLOW_TIERED", "0")

# The tests of real benchmark peers (JAX, TensorFlow: hundreds of MB, never in the test
# extra) run only when asked for, so the default suite skips nothing for want of them.
collect_ignore_glob = [] if os.environ.get("TAPEFLOW_PEER_TESTS") == "1" else ["peers/*"]


@pytest.fixture
def private_compiler_cache(tmp_path):
    """Compiled kernels go to a cache of this test's own (and none is loaded from
    another test's); the compiler flags a test sets are reset after it."""
    set_flag("cache_dir", str(tmp_path / "cache"))
    cbuild._loaded.clear()
    yield
    set_flag("cache_dir", None)
    set_flag("cflags", None)


def _flat_outputs(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _weights(outs, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.5, 1.5, size=tuple(o.shape)) for o in outs]


def _loss(fn, args, weights):
    """sum_i sum(out_i * w_i) as a tapeflow float64 scalar."""
    outs = _flat_outputs(fn(*args))
    total = None
    for o, w in zip(outs, weights):
        term = tf.reduce_sum(tf.cast(o, tf.float64) * w)
        total = term if total is None else total + term
    return total


def _numeric(f, arrays, i, eps):
    """Central differences of the scalar f(arrays) with respect to arrays[i] (kept in its dtype)."""
    def at(x):
        return f([*arrays[:i], x.astype(arrays[i].dtype), *arrays[i + 1:]])
    return numeric_grad(at, arrays[i], eps)


def _tape_gradient(f, ts, wrt, weights):
    """Gradients of sum(f(*ts) * weights) w.r.t. ts[wrt] (zeros where unconnected)."""
    with tf.GradientTape() as tape:
        for i in wrt:
            tape.watch(ts[i])
        loss = _loss(f, ts, weights)
    grads = tape.gradient(loss, [ts[i] for i in wrt])
    # (a gather's gradient is tf.IndexedSlices, as in TensorFlow: compared dense)
    return [tf.zeros_like(ts[i]) if g is None else tf.convert_to_tensor(g) for i, g in zip(wrt, grads)]


def _check_against_numeric(f, args, wrt, weights, eps, rtol, atol, what):
    """The tape gradient of f at args equals central differences; returns it."""
    grads = [g.numpy() for g in _tape_gradient(f, [tf.constant(a) for a in args], wrt, weights)]
    for i, g in zip(wrt, grads):
        num = _numeric(lambda arrs: float(_loss(f, [tf.constant(a) for a in arrs], weights)), args, i, eps)
        np.testing.assert_allclose(g, num, rtol=rtol, atol=atol, err_msg=f"{what} of argument {i}")
    return grads


def check_grads(fn, args, wrt=None, order=1, eps=1e-6, rtol=1e-5, atol=1e-6, seed=0):
    """Assert tape gradients of `fn` at `args` (NumPy arrays) equal finite differences.
    order=2 also checks the gradient of the (weighted) gradient, with nested tapes."""
    args = [np.array(a) for a in args]
    wrt = [i for i, a in enumerate(args) if a.dtype == np.float64] if wrt is None else list(wrt)
    weights = _weights(_flat_outputs(fn(*[tf.constant(a) for a in args])), seed)
    grads = _check_against_numeric(fn, args, wrt, weights, eps, rtol, atol, "gradient")
    if order >= 2:
        first = lambda *ts: _tape_gradient(fn, ts, wrt, weights)  # noqa: E731
        _check_against_numeric(first, args, wrt, _weights(grads, seed + 1), eps * 10, rtol * 100, atol * 100,
                               "second derivative")


def run_traced(fn, args):
    """Trace fn on placeholders shaped like `args`, check the traced avals against
    the eager outputs, run the graph with the reference interpreter and return
    its outputs as NumPy arrays."""
    from tapeflow.compiler.interpreter import run_graph
    from tapeflow.compiler.ir import GraphBuilder
    eager = _flat_outputs(fn(*[tf.constant(a) for a in args]))
    builder = GraphBuilder("test")
    saved = registry.state.graph
    registry.state.graph = builder
    try:
        phs = [builder.placeholder(Aval(np.shape(a), tf.as_dtype(np.asarray(a).dtype))) for a in args]
        outs = _flat_outputs(fn(*phs))
        graph = builder.build(outs)
    finally:
        registry.state.graph = saved
    for o, e in zip(outs, eager):
        assert o.dtype is e.dtype, (o, e)
        assert tf.TensorShape(o.shape).is_compatible_with(e.shape), (o, e)
    return [np.asarray(v) for v in run_graph(graph, [np.asarray(a) for a in args])]


@pytest.fixture(autouse=True)
def _no_leaked_state():
    """Every test starts with no tape and no graph, and leaves none behind."""
    registry.state.tapes[:] = []
    registry.state.graph = None
    yield
    leaked = registry.state.tapes[:], registry.state.graph
    registry.state.tapes[:] = []
    registry.state.graph = None
    assert leaked == ([], None), "a test left a tape or a graph active"



_COMPILER_MODULES = ("test_passes", "test_codegen_", "test_compiler_", "test_executor_", "test_loop_matmul",
                     "test_column_reductions")


@pytest.fixture(autouse=True)
def _every_pass_for_compiler_tests(request, monkeypatch):
    """TAPEFLOW_DISABLE_PASSES is for running the REST of the suite without some
    passes (results must not depend on them); the compiler's own tests check what
    the passes do, so they always run with every pass."""
    if request.module.__name__.startswith(_COMPILER_MODULES):
        monkeypatch.delenv("TAPEFLOW_DISABLE_PASSES", raising=False)

"""The executor and the build cache: compiled == reference interpreter == eager
on whole programs (control flow, variables, matmul between kernels, dynamic
shapes), input checking, and the C build's cache, corruption recovery and
no-compiler fallback."""
import os
import warnings

import numpy as np
import pytest

from tapeflow.compiler import cbuild, compile_graph, flags, run_reference, set_flag
from tapeflow.compiler.testing import aval, cond, trace, while_loop
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import Tensor
from tapeflow.runtime.variables import Variable

from mlp_step_graph import mlp_step, mlp_graph


pytestmark = pytest.mark.usefixtures("private_compiler_cache")


def _check(g, *arrays, rtol=1e-6, atol=1e-7):
    ex = compile_graph(g)
    got = ex(*arrays)
    want = run_reference(g, list(arrays))
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
        assert np.shape(a) == np.shape(b) and np.asarray(a).dtype == np.asarray(b).dtype
    return ex


def test_mlp_training_step_matches_reference_and_eager():
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((32, 784)).astype(np.float32),
            np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)],
            (rng.standard_normal((784, 256)) * 0.05).astype(np.float32), np.zeros(256, np.float32),
            (rng.standard_normal((256, 10)) * 0.05).astype(np.float32), np.zeros(10, np.float32)]
    ex = _check(mlp_graph(), *args, rtol=1e-4, atol=1e-5)
    eager = mlp_step(*[Tensor(a) for a in args])
    for a, b in zip(ex(*args), eager):
        np.testing.assert_allclose(a, b._value, rtol=1e-4, atol=1e-5)


def test_kernels_around_matmuls_reuse_buffers_correctly():
    w = Tensor(np.linspace(-1, 1, 64).reshape(8, 8).astype(np.float32))

    def fn(x):
        a = M.exp(x) @ w
        b = M.tanh(a) @ w
        c = M.sin(b) * a
        return [c @ w, b]
    x = np.random.default_rng(3).standard_normal((8, 8)).astype(np.float32)
    ex = _check(trace(fn, [aval((8, 8))]), x, rtol=1e-5)
    first = [o.copy() for o in ex(x)]
    for a, b in zip(ex(x), first):  # a second call must not see the first call's buffers
        np.testing.assert_array_equal(a, b)


def test_dynamic_batch_dimension():
    def fn(x, b):
        return [M.tanh(x * 2.0 + b), R.reduce_max(x, axis=-1)]
    g = trace(fn, [aval((None, 5)), aval((5,))])
    ex = compile_graph(g)
    b = np.arange(5, dtype=np.float32)
    for n in (1, 3, 7):
        x = np.random.default_rng(n).standard_normal((n, 5)).astype(np.float32)
        for got, want in zip(ex(x, b), run_reference(g, [x, b])):
            np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("reduce", [R.reduce_sum, R.reduce_max])
def test_scalar_reduction_feeding_a_dynamic_kernel_stays_a_scalar(reduce):
    # A 0-d reduction's NumPy result is a NumPy scalar; the dynamic kernel once made it (1,)
    # and its result (1,) where () was traced.
    def fn(x, y):
        return [reduce(x) * R.reduce_sum(y)]
    g = trace(fn, [aval(()), aval((None,))])
    ex = compile_graph(g)
    x, y = np.float32(3.0).reshape(()), np.arange(4, dtype=np.float32)
    got, = ex(x, y)
    want, = run_reference(g, [x, y])
    assert np.shape(got) == () == np.shape(want)
    np.testing.assert_allclose(got, want)


def test_inputs_are_checked():
    ex = compile_graph(trace(lambda x: x + 1.0, [aval((3,))]))
    with pytest.raises(TypeError, match="input 0"):
        ex(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="shape"):
        ex(np.zeros(4, np.float32))
    # a non-contiguous view is accepted (copied)
    np.testing.assert_array_equal(ex(np.arange(6, dtype=np.float32)[::2])[0], [1, 3, 5])


def test_variables_read_after_assign_see_the_new_value():
    v = Variable(np.ones(3, np.float32))

    def fn(x):
        before = v.value() * 1.0
        v.assign(v.value() + x)
        return [before, v.value() * 2.0]
    ex = compile_graph(trace(fn, [aval((3,))]))
    before, after = ex(np.full(3, 2.0, np.float32))
    np.testing.assert_array_equal(before, [1, 1, 1])
    np.testing.assert_array_equal(after, [6, 6, 6])
    np.testing.assert_array_equal(v.numpy(), [3, 3, 3])


def test_cond_runs_the_chosen_branch():
    def fn(p, x):
        return cond(p, lambda a: [M.exp(a) + 1.0], lambda a: [a * a - 3.0], [x])
    g = trace(fn, [aval((), "bool"), aval((4,))])
    x = np.linspace(-1, 1, 4).astype(np.float32)
    for p in (True, False):
        _check(g, np.array(p), x)


def _collatz(n):
    def body(n, steps):
        even = M.equal(M.mod(n, 2), 0)
        nn = cond(even, lambda a: [M.floordiv(a, 2)], lambda a: [a * 3 + 1], [n])[0]
        return nn, steps + 1
    return while_loop(lambda n, s: M.not_equal(n, 1), body, [n, Tensor(np.int32(0))])[1]


def test_collatz_loop_compiles_whole_into_c():
    g = trace(_collatz, [aval((), "int32")])
    ex = compile_graph(g)
    assert "int loop" in ex.c_source
    for start in (1, 6, 27, 97):
        assert int(ex(np.array(start, np.int32))[0]) == int(run_reference(g, [np.array(start, np.int32)])[0])
    assert int(ex(np.array(27, np.int32))[0]) == 111


def test_loop_with_maximum_iterations_and_extras():
    def fn(x, scale):
        return while_loop(lambda i, v, s: M.less(i, 1000), lambda i, v, s: (i + 1, v * s + 0.5),
                          [Tensor(np.int32(0)), x], extras=[scale], maximum_iterations=25)
    g = trace(fn, [aval((8,)), aval(())])
    _check(g, np.linspace(0, 1, 8).astype(np.float32), np.array(1.0001, np.float32), rtol=1e-6)


def test_loop_that_cannot_compile_whole_runs_compiled_bodies():
    # argmax has no C form in loops: the loop runs in Python over compiled bodies
    def fn(x):
        return while_loop(lambda i, v: M.less(i, 3),
                          lambda i, v: (i + 1, v + M.cast(R.argmax(v, axis=0), "float32")), [Tensor(np.int32(0)), x])
    g = trace(fn, [aval((5,))])
    ex = _check(g, np.array([3, 1, 4, 1, 5], np.float32))
    assert "int loop" not in (ex.c_source or "")


def test_integer_division_by_zero_inside_a_c_loop_raises():
    def fn(n):
        return while_loop(lambda i, d: M.less(i, 5), lambda i, d: (i + 1, M.floordiv(i, d - 1)),
                          [Tensor(np.int32(0)), n])
    ex = compile_graph(trace(fn, [aval((), "int32")]))
    with pytest.raises(ZeroDivisionError):
        ex(np.array(1, np.int32))


def test_identity_output_returns_values():
    ex = compile_graph(trace(lambda x: [x, A.identity(x)], [aval((3,))]))
    x = np.arange(3, dtype=np.float32)
    a, b = ex(x)
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, x)


# ---------------------------------------------------------------- build cache
def _gelu_graph():
    return trace(lambda x: 0.5 * x * (1.0 + M.tanh(0.7978845608 * (x + 0.044715 * x * x * x))), [aval((64,))])


def test_cache_hit_skips_the_compiler(monkeypatch):
    g = _gelu_graph()
    compile_graph(g)
    cbuild._loaded.clear()
    calls = []
    real = cbuild.subprocess.run
    monkeypatch.setattr(cbuild.subprocess, "run", lambda *a, **k: calls.append(a) or real(*a, **k))
    ex = compile_graph(g)
    assert ex.uses_c and calls == []


_CHILD = """
import sys, numpy as np
from tapeflow.compiler import compile_graph, run_reference, set_flag
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime.ops import math_ops as M
set_flag("cache_dir", sys.argv[1])
g = trace(lambda x: 0.5 * x * (1.0 + M.tanh(0.79788456 * (x + 0.044715 * x * x * x))), [aval((64,))])
ex = compile_graph(g)
x = np.linspace(-3, 3, 64).astype(np.float32)
np.testing.assert_allclose(ex(x)[0], run_reference(g, [x])[0], rtol=1e-6, atol=1e-6)
print("uses_c", ex.uses_c)
"""


def test_truncated_library_is_rebuilt(tmp_path):
    # A library already mapped by this process cannot be replaced under the same
    # name, so the corruption is staged between two processes, as it would happen.
    import subprocess
    import sys
    cache = str(tmp_path / "shared_cache")
    run = lambda: subprocess.run([sys.executable, "-c", _CHILD, cache], capture_output=True, text=True,
                                 timeout=120)
    first = run()
    assert first.returncode == 0 and "uses_c True" in first.stdout, first.stderr
    libs = [os.path.join(cache, f) for f in os.listdir(cache) if f.endswith(".so")]
    assert libs
    for path in libs:
        size = os.path.getsize(path)
        with open(path, "r+b") as fh:
            fh.truncate(size // 3)
    second = run()
    assert second.returncode == 0 and "uses_c True" in second.stdout, second.stderr
    assert all(os.path.getsize(p) > 0 and cbuild._digest(p) == open(p + ".sha256").read().strip() for p in libs)


def test_no_compiler_falls_back_to_numpy_with_one_warning():
    g = _gelu_graph()
    x = np.linspace(-3, 3, 64).astype(np.float32)
    cbuild._warned.clear()
    with flags(cc="/nonexistent/cc"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ex = compile_graph(g)
            compile_graph(_gelu_graph())
        assert not ex.uses_c
        assert sum("no C compiler" in str(w.message) for w in caught) == 1
        np.testing.assert_allclose(ex(x)[0], run_reference(g, [x])[0], rtol=1e-6, atol=1e-6)


def test_failed_compile_falls_back_to_numpy():
    g = _gelu_graph()
    x = np.linspace(-3, 3, 64).astype(np.float32)
    cbuild._warned.clear()
    with flags(cflags="-fthis-flag-does-not-exist"):
        with pytest.warns(RuntimeWarning, match="failed"):
            ex = compile_graph(g)
    assert not ex.uses_c
    np.testing.assert_allclose(ex(x)[0], run_reference(g, [x])[0], rtol=1e-6, atol=1e-6)


def test_tf_function_rnn_loop_compiles_whole_and_matches_numpy():
    import tapeflow as tf
    rng = np.random.default_rng(5)
    xs = rng.standard_normal((6, 3, 4)).astype(np.float32)
    w = rng.standard_normal((4, 5)).astype(np.float32)
    u = rng.standard_normal((5, 5)).astype(np.float32) * 0.3

    @tf.function
    def rnn(xs, w, u, h):
        for t in tf.range(6):
            h = tf.tanh(tf.matmul(xs[t], w) + tf.matmul(h, u))
        return h

    args = [tf.constant(a) for a in (xs, w, u, np.zeros((3, 5), np.float32))]
    got = rnn(*args).numpy()
    h = np.zeros((3, 5), np.float32)
    for t in range(6):
        h = np.tanh(xs[t] @ w + h @ u)
    np.testing.assert_allclose(got, h, rtol=1e-5, atol=1e-6)
    concrete = rnn.get_concrete_function(*args)
    assert getattr(concrete, "compile_error", None) is None
    assert "int loop" in concrete._run.c_source


def test_index_out_of_range_inside_a_c_loop_raises():
    def fn(xs):
        return while_loop(lambda i, acc, xs: M.less(i, 5), lambda i, acc, xs: (i + 1, acc + xs[i]),
                          [Tensor(np.int32(0)), Tensor(np.zeros(2, np.float32))], extras=[xs])[1]
    g = trace(fn, [aval((3, 2))])
    ex = compile_graph(g)
    assert "int loop" in ex.c_source
    with pytest.raises(IndexError):
        ex(np.ones((3, 2), np.float32))
    ok = trace(fn, [aval((5, 2))])
    np.testing.assert_allclose(compile_graph(ok)(np.ones((5, 2), np.float32))[0], [5, 5])

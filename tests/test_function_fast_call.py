"""The shortcut of a repeated tf.function call (tracer/fast_call.py) and the
kernel Caller (compiler/kernel_call.py): every way a call can differ from the
last one falls back to the full path, with the values and trace counts that
path gives."""
import os
import sysconfig

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import cbuild, executor, kernel_call
from tapeflow.tracer import run_functions_eagerly
from tapeflow.tracer import concrete as concrete_mod
from tapeflow.tracer.fast_call import MISS


def _c_kernels():
    """Does this process build C kernels (a compiler, and TAPEFLOW_NO_C off)?"""
    return cbuild.find_cc() is not None and not cbuild.flags.is_on("no_c")


def _python_headers():
    return os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))


def _traced(body):
    """A tf.function of `body` that counts its traces."""
    traces = []

    def f(*args):
        traces.append(1)
        return body(*args)
    return tf.function(f), traces


F32 = np.arange(6, dtype=np.float32)

# (what changes from the warm-up call, the new call's arguments, traces after it)
CHANGES = [
    ("same signature", (tf.constant(F32 + 1),), 1),
    ("new shape", (tf.constant(np.arange(4, dtype=np.float32)),), 2),
    ("new dtype", (tf.constant(F32.astype(np.float64)),), 2),
    ("NumPy array of the same key", (F32 + 2,), 1),
    ("strided view of the same key", (tf.constant(np.arange(12, dtype=np.float32))[::2],), 1),
    ("Python value", (3.0,), 2),
]


@pytest.mark.parametrize("what,args,traces", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_changed_call_falls_back_with_eager_values(what, args, traces):
    f, count = _traced(lambda x: x * 2.0 + 1.0)
    x = tf.constant(F32)
    for _ in range(3):  # the third call goes through the guard
        np.testing.assert_array_equal(f(x).numpy(), F32 * 2.0 + 1.0)
    want = (np.asarray(args[0]) * 2.0 + 1.0)
    got = f(*args).numpy()
    assert got.dtype == tf.convert_to_tensor(args[0]).dtype.as_numpy_dtype
    np.testing.assert_array_equal(got, want.astype(got.dtype))
    assert len(count) == traces and f.experimental_get_tracing_count() == traces
    np.testing.assert_array_equal(f(x).numpy(), F32 * 2.0 + 1.0)  # and back: no new trace
    assert f.experimental_get_tracing_count() == traces


def test_guard_is_used_and_dropped_when_the_cache_changes():
    f, count = _traced(lambda x: x + 1.0)
    x = tf.constant(F32)
    f(x)
    f(x)
    guard = f._last_call
    assert guard is not None and guard(x) is not MISS
    assert guard(tf.constant(F32[:2])) is MISS and guard(x, x) is MISS and guard() is MISS
    f(tf.constant(F32[:3]))  # a new trace: the shortcut is dropped
    assert f._last_call is None
    f(x)
    assert f._last_call is guard  # one guard per concrete function, made once
    assert len(count) == 2


def test_python_values_beside_tensors_are_keyed_by_value():
    f, count = _traced(lambda x, n, tag: x * n if tag is None else x + n)
    x = tf.constant(F32)
    calls = [(2, None), (2, None), (2, None), (3, None), (2, None), (2.0, None), (2, "add"), (2, "add"),
             (3, None), (2, None)]
    for n, tag in calls:
        want = F32 * n if tag is None else F32 + n
        np.testing.assert_array_equal(f(x, n, tag).numpy(), want.astype(np.float32))
    # (2, None), (3, None), (2, "add"): 2.0 == 2 takes 2's trace, as in TF (fng_cache's python_scalars)
    assert len(count) == 3
    assert f._last_call is not None and f._last_call(x, 2, None) is not MISS
    assert f._last_call(x, 2.0, None) is not MISS and f._last_call(x, True, None) is MISS
    assert f._last_call(x, 2, "add") is MISS and f._last_call(x, "2", None) is MISS


def test_arity_changes_and_zero_arguments():
    f, count = _traced(lambda x, y=None: x if y is None else x + y)
    x = tf.constant(F32)
    for _ in range(3):
        f(x)
    np.testing.assert_array_equal(f(x, x).numpy(), F32 * 2)
    np.testing.assert_array_equal(f(x).numpy(), F32)
    assert len(count) == 2
    g, g_count = _traced(lambda: tf.constant(2.0) * 3.0)
    assert [float(g()) for _ in range(3)] == [6.0] * 3 and len(g_count) == 1


def test_a_watching_tape_takes_the_recorded_path():
    f, count = _traced(lambda x: x * x)
    x = tf.constant(F32)
    for _ in range(3):
        f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), 2 * F32)
    with tf.GradientTape() as outer:  # second order through the function
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    np.testing.assert_array_equal(outer.gradient(g, x).numpy(), np.full(6, 2, np.float32))
    assert len(count) == 1


def test_variable_arguments_are_keyed_by_shape():
    f, count = _traced(lambda v: v * 2.0)
    a, b, c = tf.Variable(F32), tf.Variable(F32 + 1), tf.Variable(F32[:2])
    x = tf.constant(F32)
    for _ in range(3):
        f(x)  # a guard for tensors is set: variables must not take it
    np.testing.assert_array_equal(f(a).numpy(), F32 * 2)
    np.testing.assert_array_equal(f(b).numpy(), (F32 + 1) * 2)  # re-bound, not retraced
    np.testing.assert_array_equal(f(c).numpy(), F32[:2] * 2)
    assert len(count) == 3  # tensor, variable of shape [6], variable of shape [2]


def test_captured_variable_is_read_on_every_call():
    v = tf.Variable(1.0)
    f, count = _traced(lambda x: x * v)
    x = tf.constant(F32)
    for scale in (1.0, 2.0, 3.0, 4.0):
        v.assign(scale)
        np.testing.assert_array_equal(f(x).numpy(), F32 * scale)
    assert len(count) == 1


def test_run_functions_eagerly_and_observers_skip_the_guard():
    f, count = _traced(lambda x: x + 1.0)
    x = tf.constant(F32)
    for _ in range(3):
        f(x)
    run_functions_eagerly(True)
    try:
        f(x)
        f(x)
    finally:
        run_functions_eagerly(False)
    assert len(count) == 3  # the Python body ran on both eager calls
    seen = []
    concrete_mod.CALL_OBSERVERS.append(seen.append)
    try:
        f(x)
    finally:
        concrete_mod.CALL_OBSERVERS.remove(seen.append)
    assert len(seen) == 1 and len(count) == 3


def test_called_while_tracing_another_function_reuses_its_trace():
    f, f_count = _traced(lambda x: x * 3.0)
    x = tf.constant(F32)
    for _ in range(3):
        f(x)

    @tf.function
    def g(y):
        return f(y) + 1.0
    np.testing.assert_array_equal(g(x).numpy(), F32 * 3.0 + 1.0)
    np.testing.assert_array_equal(g(x).numpy(), F32 * 3.0 + 1.0)
    assert len(f_count) == 1  # f's trace for x's signature joins g's graph, as TF calls it


def test_nested_outputs_through_the_guard():
    f, _ = _traced(lambda x: {"a": (x, x + 1.0), "b": [x * 2.0], "n": None})
    x = tf.constant(F32)
    for _ in range(3):
        out = f(x)
    assert out["n"] is None and isinstance(out["a"], tuple)
    np.testing.assert_array_equal(out["a"][1].numpy(), F32 + 1.0)
    np.testing.assert_array_equal(out["b"][0].numpy(), F32 * 2.0)


def test_a_failing_call_through_the_guard_raises_as_the_full_path_does():
    @tf.function
    def f(x):
        tf.debugging.assert_positive(x, message="must be positive")
        return x + 1.0
    ok = tf.constant(F32 + 1)
    for _ in range(3):
        f(ok)
    assert f._last_call is not None
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be positive") as through_guard:
        f(tf.constant(F32 - 10))
    f._last_call = None
    with pytest.raises(tf.errors.InvalidArgumentError) as full:
        f(tf.constant(F32 - 10))
    assert str(through_guard.value) == str(full.value)


# ------------------------------------------------------------------ the kernel Caller

def test_kernels_are_called_through_the_caller():
    kind = kernel_call.caller_type()
    assert (kind is not None) == (_python_headers() and _c_kernels())
    if kind is None:  # no Python headers (the next test's case) or no C kernels at all
        return
    f = tf.function(lambda x: x * 2.0 + 1.0)
    x = tf.constant(F32)
    f(x)
    exe = f.get_concrete_function(x)._run
    callers = [v for k, v in exe.generated.__globals__.items() if k.startswith("_k_")]
    assert callers and all(type(c) is kind for c in callers)
    k = callers[0]
    with pytest.raises(TypeError, match="positional arguments expected"):
        k(F32)
    with pytest.raises(TypeError):
        k(*([F32] * k.n_obj), "1", 6)


def test_without_the_caller_kernels_use_ctypes(monkeypatch):
    monkeypatch.setitem(kernel_call._state, "type", None)
    f = tf.function(lambda x: (x - 0.25) * 1.5)
    x = tf.constant(F32)
    for _ in range(3):
        got = f(x).numpy()
    np.testing.assert_array_equal(got, ((x - 0.25) * 1.5).numpy())
    exe = f.get_concrete_function(x)._run
    kernels = [v for k, v in exe.generated.__globals__.items() if k.startswith("_k_")]
    if not _c_kernels():  # no C: every kernel runs through NumPy
        assert kernels and all(k is None for k in kernels)
        return
    assert kernels and all(hasattr(k, "argtypes") for k in kernels)  # ctypes functions


def test_trampoline_passes_arguments_in_order():
    src = kernel_call.trampoline("k7", 3, 2)
    assert "return k7(objs[0], objs[1], objs[2], ints[0], ints[1]);" in src
    assert src.startswith("int tf_entry_k7(void *const *objs, const int64_t *ints)")
    assert executor.kernel_call is kernel_call


def test_large_kernels_release_the_gil_and_agree_across_threads():
    import threading
    f = tf.function(lambda x: x * 3.0 - 1.0)
    xs = [tf.constant(np.arange(1 << 17, dtype=np.float32) + i) for i in range(4)]
    want = [(x * 3.0 - 1.0).numpy() for x in xs]  # eager
    got = [None] * 4

    def run(i):
        for _ in range(5):
            got[i] = f(xs[i]).numpy()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert f.experimental_get_tracing_count() == 1


def test_caller_refuses_bad_construction():
    kind = kernel_call.caller_type()
    if kind is None:  # the ctypes path has no Caller to construct
        assert not (_python_headers() and _c_kernels())
        return
    with pytest.raises(ValueError):
        kind(0, 1, 2, False)
    with pytest.raises(ValueError):
        kind(1, 1, kernel_call.MAX_INTS + 1, False)


def test_a_placed_executable_places_every_call(monkeypatch):
    # With a GPU, compile_graph gives a PlacedExecutable, which decides per call where
    # it runs; the call path (guard included) must call it, never the CPU function
    # its __getattr__ hands out.
    from tapeflow.compiler import executor_cuda
    from tapeflow.runtime import devices
    placed = []
    monkeypatch.setattr(concrete_mod.compiler, "compile_graph",
                        lambda graph: executor_cuda.PlacedExecutable(graph, executor._compile_cpu))
    monkeypatch.setattr(devices, "runs_on_gpu", lambda arrays: placed.append(len(arrays)) or False)
    f = tf.function(lambda x: x * 4.0)
    x = tf.constant(F32)
    for _ in range(4):
        np.testing.assert_array_equal(f(x).numpy(), F32 * 4.0)
    assert placed == [1, 1, 1, 1] and f._last_call is not None


def test_caller_built_in_the_background_is_used_once_ready(monkeypatch):
    import concurrent.futures
    kind = kernel_call.caller_type()
    if kind is None:
        return  # no Caller on this machine: nothing to build in the background
    future = concurrent.futures.Future()
    monkeypatch.setattr(kernel_call, "_state", {})
    monkeypatch.setattr(cbuild, "cached", lambda *a, **k: None)
    monkeypatch.setattr(cbuild, "build_in_background", lambda *a, **k: future)
    kernel_call.start()
    assert kernel_call.caller_type() is None  # still building: kernels bound now are ctypes functions
    future.set_result((cbuild.build(kernel_call._SOURCE, include_dirs=[sysconfig.get_paths()["include"]],
                                    python_extension=True), None))
    ready = kernel_call.caller_type()  # (a library loaded from another cache directory is another type object)
    assert ready is not None and ready.__qualname__ == kind.__qualname__


def test_omitted_defaults_take_the_guard():
    count = []

    @tf.function
    def f(x, y=2.0):
        count.append(1)
        return x * y
    x = tf.constant(F32)
    for _ in range(3):
        f(x)
    f(x, 2.0)
    f(x, y=2.0)
    assert len(count) == 1  # TF binds the call: the default, positional or keyword, is one trace
    assert f._last_call is not None and f._last_call(x) is not MISS and f._last_call(x, 3.0) is MISS


@pytest.mark.usefixtures("private_compiler_cache")  # a cold cache: the graph's C is compiled
def test_a_compile_that_waits_for_its_c_builds_the_caller_alongside(monkeypatch):
    """Without the tiered start (a cold cache), the Caller's C compiles on a worker
    while the graph's compiles on the calling thread; the kernels bound after both
    are Caller objects, not ctypes functions."""
    import concurrent.futures
    kind = kernel_call.caller_type()
    if kind is None:
        return  # no Caller on this machine
    started = []
    real = cbuild.build_in_background

    def background(*a, **k):
        started.append(k.get("python_extension"))
        return real(*a, **k)
    monkeypatch.setattr(kernel_call, "_state", {})
    monkeypatch.setattr(cbuild, "cached", lambda *a, **k: None)
    monkeypatch.setattr(cbuild, "build_in_background", background)
    from tapeflow.compiler import compile_graph
    from tapeflow.compiler.testing import aval, trace
    exe = compile_graph(trace(lambda x: x * 3.0 + 1.0, [aval((4,), "float32")]))
    assert started == [True] and exe.uses_c
    assert isinstance(kernel_call._state["future"], concurrent.futures.Future) and kernel_call._state["future"].done()
    ready = kernel_call.caller_type()
    assert ready is not None and ready.__qualname__ == kind.__qualname__
    bound = [v for k, v in exe._fn.__globals__.items() if k.startswith("_k_")]
    assert bound and all(type(fn).__qualname__ == kind.__qualname__ for fn in bound)
    np.testing.assert_array_equal(exe(np.arange(4, dtype=np.float32))[0], np.arange(4, dtype=np.float32) * 3 + 1)

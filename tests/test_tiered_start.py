"""Tiered start: a graph whose C is not cached runs through NumPy while the C
compiles on a worker thread, then switches -- never blocking a call, with the
values of the C path and of eager code, gradients and variable updates
included; a failed background compile warns on the caller's thread; the worker
is joined at exit and leaves the library in the cache for the next process."""
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tapeflow import compiler
from tapeflow.compiler import cbuild
from tapeflow.compiler.testing import aval, trace

pytestmark = pytest.mark.skipif(cbuild.find_cc() is None, reason="no C compiler on this machine")

RNG = np.random.default_rng(3)
X = RNG.standard_normal((8, 12)).astype(np.float32)
Y = np.eye(4, dtype=np.float32)[RNG.integers(0, 4, 8)]
START = {"w1": (RNG.standard_normal((12, 16)) * 0.3).astype(np.float32), "b1": np.zeros(16, np.float32),
         "w2": (RNG.standard_normal((16, 4)) * 0.3).astype(np.float32), "b2": np.zeros(4, np.float32)}


@pytest.fixture
def tiered(private_compiler_cache):
    compiler.set_flag("tiered", 1)
    yield
    compiler.set_flag("tiered", None)


@pytest.fixture
def gate(monkeypatch):
    """Background compiles wait until `gate.set()` (the test decides when the C arrives)."""
    event = threading.Event()
    real = cbuild._load_or_compile

    def held(*args):
        assert event.wait(60), "the test never opened the gate"
        return real(*args)
    monkeypatch.setattr(cbuild, "_load_or_compile", held)
    yield event
    event.set()


def _mlp(variables, lr=0.5):
    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(x @ variables["w1"] + variables["b1"])
            logits = h @ variables["w2"] + variables["b2"]
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(y, logits))
        names = sorted(variables)
        grads = tape.gradient(loss, [variables[n] for n in names])
        for n, g in zip(names, grads):
            variables[n].assign_sub(lr * g)
        return loss, tf.exp(logits) * 0.5 + tf.tanh(h[:, :4])
    return step


def _run_steps(step, variables, n, between=None):
    """[(outputs, variables after)] of n steps; `between(i)` runs before step i."""
    out = []
    for i in range(n):
        if between is not None:
            between(i)
        loss, extra = step(tf.constant(X), tf.constant(Y))
        out.append([loss.numpy(), extra.numpy()] + [variables[k].numpy() for k in sorted(variables)])
    return out


def _executable(fn):
    return fn.get_concrete_function(tf.constant(X), tf.constant(Y))._executable()


def _reference(compiled):
    variables = {k: tf.Variable(v) for k, v in START.items()}
    step = _mlp(variables)
    if compiled:
        step = tf.function(step)
    return _run_steps(step, variables, 6)


def test_values_across_the_switch_equal_the_c_path_and_eager(tiered, gate):
    variables = {k: tf.Variable(v) for k, v in START.items()}
    step = tf.function(_mlp(variables))
    seen = []

    def between(i):
        exe = _executable(step)
        if i == 3:  # the C arrives between the third and the fourth step
            gate.set()
            assert exe.wait_for_c(60)
        seen.append(exe.uses_c)
    tiered_steps = _run_steps(step, variables, 6, between)
    assert seen == [False, False, False, True, True, True]
    exe = _executable(step)
    assert exe.kernels and all(fb.calls == 0 for fb in exe.fallbacks.values())

    compiler.set_flag("tiered", 0)
    c_steps = _reference(compiled=True)
    eager_steps = _reference(compiled=False)
    for t, c, e in zip(tiered_steps, c_steps, eager_steps):
        for a, b, d in zip(t, c, e):
            np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-7)
            np.testing.assert_allclose(a, d, rtol=2e-6, atol=1e-7)


def test_a_first_call_never_waits_for_the_compiler(tiered, gate):
    g = trace(lambda x: tf.tanh(x * 2.0) + 1.0, [aval((64,))])
    exe = compiler.compile_graph(g)  # the gate is shut: a blocking compile would hang here
    x = np.linspace(-2, 2, 64).astype(np.float32)
    first = exe(x)[0]
    assert not exe.uses_c and exe.wait_for_c(0.01) is False
    reason = next(iter(exe.fallbacks.values())).reason
    assert "still compiling" in reason
    eager = tf.tanh(tf.constant(x) * 2.0) + 1.0
    np.testing.assert_array_equal(first, eager.numpy())  # the NumPy path is eager's arithmetic
    gate.set()
    assert exe.wait_for_c(60)
    np.testing.assert_allclose(exe(x)[0], eager.numpy(), rtol=1e-6, atol=3e-7)  # C tanh: ulps of 1


def test_gradients_through_a_tiered_function_match_eager(tiered):
    w = tf.Variable(START["w1"])

    def loss(x):
        return tf.reduce_sum(tf.sin(x @ w) ** 2)
    f = tf.function(loss)
    results = []
    for _ in range(3):  # the backward graphs tier too; whatever tier each call gets, the values hold
        with tf.GradientTape() as tape:
            value = f(tf.constant(X))
        results.append((value.numpy(), tape.gradient(value, w).numpy()))
    with tf.GradientTape() as tape:
        value = loss(tf.constant(X))
    want = tape.gradient(value, w).numpy()
    for v, g in results:
        np.testing.assert_allclose(v, value.numpy(), rtol=1e-5)
        np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)


def test_threads_calling_across_the_switch_agree(tiered, gate):
    g = trace(lambda x: tf.exp(x) * x - 0.5, [aval((4096,))])
    exe = compiler.compile_graph(g)
    x = np.linspace(-1, 1, 4096).astype(np.float32)
    want = np.exp(x) * x - np.float32(0.5)
    errors = []

    def worker():
        try:
            for _ in range(40):
                np.testing.assert_allclose(exe(x)[0], want, rtol=1e-6)
        except Exception as exc:  # reported below
            errors.append(exc)
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join(60)
    assert not errors and exe.wait_for_c(60)


def test_op_determinism_waits_for_the_c(tiered):
    tf.config.experimental.enable_op_determinism()
    try:
        exe = compiler.compile_graph(trace(lambda x: tf.exp(x) - 2.0, [aval((16,))]))
        assert exe.uses_c and exe._pending is None  # every call, the first too, runs the C
    finally:
        tf.config.experimental.disable_op_determinism()
    assert compiler.get_flag("tiered") == os.environ.get("TAPEFLOW_TIERED")  # the environment decides again


def test_a_failed_background_compile_warns_on_the_calling_thread(tiered):
    cbuild._warned.clear()
    g = trace(lambda x: x * 3.0 - 1.0, [aval((16,))])
    with compiler.flags(cflags="-fthis-flag-does-not-exist"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # nothing at compile time: the compile runs on a worker
            exe = compiler.compile_graph(g)
    x = np.arange(16, dtype=np.float32)
    exe._pending[0].result(60)  # the worker is done; its warning waits for a call
    with pytest.warns(RuntimeWarning, match="compiling generated C failed"):
        out = exe(x)[0]
    np.testing.assert_array_equal(out, x * np.float32(3.0) - np.float32(1.0))
    assert not exe.uses_c and exe._pending is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once only
        exe(x)


def test_the_cache_lookup_never_compiles_and_rejects_a_corrupted_library(private_compiler_cache):
    source = "int tapeflow_tiered_probe(void) { return 7; }\n"
    assert cbuild.cached(source) is None  # not built: no compiler run for the answer
    lib = cbuild.build(source)
    assert cbuild.cached(source) is lib
    cbuild._loaded.clear()
    again = cbuild.cached(source)  # from disk, digest checked
    assert again is not None and again.c_function("tapeflow_tiered_probe", [], None) is not None
    cbuild._loaded.clear()
    # Corrupt a copy put in its place: truncating the file itself would cut the pages this
    # process has mapped (SIGBUS later, at exit), which no disk fault does to a live process.
    with open(again.path, "rb") as fh:
        half = fh.read()[: os.path.getsize(again.path) // 2]
    with open(again.path + ".cut", "wb") as fh:
        fh.write(half)
    os.replace(again.path + ".cut", again.path)
    assert cbuild.cached(source) is None  # a corrupted library is not loaded
    assert cbuild.build(source) is not None and cbuild.cached(source) is not None  # rebuilt


CHILD = """
import sys, threading, numpy as np
import tapeflow as tf
@tf.function
def f(x):
    return tf.tanh(x) * 3.0 + 1.0
x = tf.constant(np.linspace(-1, 1, 32).astype(np.float32))
f(x)
exe = f.get_concrete_function(x)._executable()
print("uses_c", exe.uses_c)
"""


def test_the_worker_is_joined_at_exit_and_the_next_process_finds_the_library(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, TAPEFLOW_CACHE_DIR=str(cache), TAPEFLOW_TIERED="1")
    first = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0 and "uses_c False" in first.stdout, first.stderr
    assert "Exception" not in first.stderr and "Warning" not in first.stderr, first.stderr
    names = sorted(os.listdir(cache))
    libs = [n for n in names if n.endswith(".so")]
    assert libs and all(n + ".sha256" in names for n in libs)
    stems = {n.split(".")[0] for n in names if not n.endswith(".bin")}  # .bin: a compile record
    assert stems == {n[:-3] for n in libs}, names  # no temporary file left behind
    second = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0 and "uses_c True" in second.stdout, second.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_child_forked_during_a_compile_builds_without_deadlock(tiered, gate):
    g = trace(lambda x: x * 5.0 + 2.0, [aval((8,))])
    exe = compiler.compile_graph(g)  # its compile waits at the gate, holding its key's lock
    while not any(lock.locked() for lock in cbuild._building.values()):
        threading.Event().wait(0.01)
    pid = os.fork()
    if pid == 0:  # the child: the parent's compile thread is gone, its lock must not be
        status = 1
        try:
            gate.set()  # the child's own gate: only the inherited lock could block now
            compiler.set_flag("tiered", 0)
            fresh = compiler.compile_graph(trace(lambda x: x * 5.0 + 2.0, [aval((8,))]))
            ok = fresh.uses_c and (fresh(np.ones(8, np.float32))[0] == 7.0).all()
            status = 0 if ok else 2
        finally:
            os._exit(status)
    deadline = 120
    while deadline > 0:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        threading.Event().wait(0.1)
        deadline -= 0.1
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child deadlocked")
    assert os.waitstatus_to_exitcode(status) == 0
    gate.set()
    assert exe.wait_for_c(60)


def test_the_call_shortcut_waits_for_the_switch(tiered, gate):
    # tracer/fast_call.py: a repeated call's guard calls the generated function
    # directly, so it is made only once the executable has switched to C.
    f = tf.function(lambda x: x * 3.0 + 1.0)
    x = tf.constant(X)
    want = (x * 3.0 + 1.0).numpy()
    for _ in range(3):
        np.testing.assert_array_equal(f(x).numpy(), want)
    assert f._last_call is None  # still the NumPy path
    gate.set()
    concrete = f.get_concrete_function(x)
    assert concrete._run.wait_for_c(60)
    for _ in range(3):
        np.testing.assert_array_equal(f(x).numpy(), want)
    assert f._last_call is not None and concrete._call is concrete._run.generated

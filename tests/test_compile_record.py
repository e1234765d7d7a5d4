"""The compile record (compiler/compile_record.py): a second compile of an equal
graph replays the first one's decisions instead of running the passes and the
renderers, gives the same generated code and the same results bit for bit, and
every change the decisions depend on misses."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import cbuild, codegen_c, compile_graph, compile_record, executor, set_flag
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import Tensor

from mlp_step_graph import mlp_graph
from test_compiler_executor import _collatz


@pytest.fixture
def cache(private_compiler_cache, monkeypatch):
    """A private cache, and a log of the records each compile found (True) or missed."""
    found = []
    real = compile_record.load

    def load(key):
        record = real(key)
        found.append(record is not None)
        return record
    monkeypatch.setattr(compile_record, "load", load)
    return found


def _no_passes_or_rendering(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a replayed compile ran a pass or a renderer")
    monkeypatch.setattr(executor, "optimize", refuse)
    monkeypatch.setattr(codegen_c, "render_fused", refuse)
    monkeypatch.setattr(executor.loopgen_c, "try_render_loop", refuse)


def _mlp_args():
    rng = np.random.default_rng(0)
    return [rng.standard_normal((32, 784)).astype(np.float32),
            np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)],
            (rng.standard_normal((784, 256)) * 0.05).astype(np.float32), np.zeros(256, np.float32),
            (rng.standard_normal((256, 10)) * 0.05).astype(np.float32), np.zeros(10, np.float32)]


def _same_executables(a, b):
    assert b.python_source == a.python_source
    assert b.c_source == a.c_source
    assert b.uses_c == a.uses_c and b.kernels == a.kernels
    assert str(b.optimized_graph) == str(a.optimized_graph)


def test_a_second_compile_replays_the_record_and_matches_bit_for_bit(cache, monkeypatch):
    args = _mlp_args()
    first = compile_graph(mlp_graph())
    assert cache == [False] and first.uses_c
    _no_passes_or_rendering(monkeypatch)
    again = compile_graph(mlp_graph())
    assert cache == [False, True]
    _same_executables(first, again)
    for a, b in zip(first(*args), again(*args)):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_loops_and_conds_replay(cache, monkeypatch):
    def branchy(n, x):
        steps = _collatz(n)
        return [steps, tf.cond(x[0] > 0, lambda: M.tanh(x) * 2.0, lambda: M.exp(x) + 1.0)]
    def traced():  # one call site: a graph input's "file:line" is where its trace was called
        return trace(branchy, [aval((), "int32"), aval((8,))])
    first = compile_graph(traced())
    _no_passes_or_rendering(monkeypatch)
    again = compile_graph(traced())
    assert cache == [False, True] and any(k.startswith("loop") for k in again.kernels)
    _same_executables(first, again)
    for x in (np.linspace(-1, 1, 8), np.linspace(1, 2, 8)):
        a, b = first(np.array(27, np.int32), x.astype(np.float32)), again(np.array(27, np.int32), x.astype(np.float32))
        assert int(b[0]) == 111 and all(np.array_equal(u, v) for u, v in zip(a, b))


def test_a_replayed_training_step_updates_its_own_variables(cache):
    def make():
        w = tf.Variable(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32))

        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.tanh(x @ w))
            w.assign_sub(0.1 * tape.gradient(loss, w))
            return loss
        return w, step
    x = tf.constant(np.ones((2, 4), np.float32))
    (w1, step1), (w2, step2) = make(), make()
    l1 = step1(x)
    assert cache == [False]
    l2 = step2(x)
    assert cache == [False, True]
    assert np.array_equal(l1.numpy(), l2.numpy()) and np.array_equal(w1.numpy(), w2.numpy())
    step2(x)  # only w2 moves
    assert not np.array_equal(w1.numpy(), w2.numpy())
    step1(x)
    assert np.array_equal(w1.numpy(), w2.numpy())


def test_a_captured_constant_is_keyed_by_value_and_not_copied_into_the_record(cache, monkeypatch):
    def graph(table):
        return trace(lambda i: M.tanh(G.gather(table, i)) * 2.0, [aval((4,), "int32")])
    table = Tensor(np.linspace(-3, 3, 1 << 16).reshape(1 << 14, 4).astype(np.float32))
    first = compile_graph(graph(table))
    key = compile_record.key(graph(table), executor.data_offset())
    assert os.path.getsize(_record_file(key)) < table._value.nbytes // 4
    _no_passes_or_rendering(monkeypatch)
    i = np.array([0, 5, 16383, 7], np.int32)
    again = compile_graph(graph(Tensor(table._value.copy())))  # equal data: the same key
    assert cache[-1] is True and np.array_equal(first(i)[0], again(i)[0])
    changed = table._value.copy()
    changed[5, 0] += 1.0
    assert compile_record.key(graph(Tensor(changed)), executor.data_offset()).digest != key.digest


def _key(fn, sig=(aval((16,)),)):
    return compile_record.key(trace(fn, list(sig)), executor.data_offset()).digest


def _plain(x):
    return M.tanh(x) * 3.0


def test_the_key_misses_when_the_function_or_its_lines_change():
    base = _key(_plain)
    assert _key(_plain) == base
    assert _key(lambda x: M.tanh(x) * 4.0) != base  # another constant
    assert _key(lambda x: M.tanh(x) * 3.0) != base  # the same ops from another line: errors point elsewhere
    assert _key(_plain, [aval((17,))]) != base  # another shape


@pytest.mark.parametrize("name, value", [("cflags", "-O1"), ("num_threads", "1"), ("disable_passes", "cse"),
                                         ("no_c", "1"), ("cc", "gcc")])
def test_the_key_misses_when_a_flag_changes(name, value):
    base = _key(_plain)
    set_flag(name, value)
    try:
        assert _key(_plain) != base
    finally:
        set_flag(name, None)
    assert _key(_plain) == base


@pytest.mark.parametrize("name, value", [("SCHEDULE", "static"), ("ADAPTIVE_TEAM", False)])
def test_the_key_misses_when_a_renderer_constant_changes(monkeypatch, name, value):
    base = _key(_plain)
    monkeypatch.setattr(codegen_c, name, value)  # as tests and benchmarks/contention.py --before do
    assert _key(_plain) != base


def test_the_key_misses_when_the_version_or_a_template_file_changes(monkeypatch, tmp_path):
    here = os.path.dirname(os.path.abspath(codegen_c.__file__))
    assert here in compile_record.SOURCE_DIRS  # kernel templates, passes and renderers are fingerprinted
    monkeypatch.setattr(compile_record, "_fingerprint", [])
    base = _key(_plain)
    monkeypatch.setattr(compile_record, "_fingerprint", [])
    monkeypatch.setattr(compile_record, "VERSION", "0.0.0-other")
    assert _key(_plain) != base
    monkeypatch.undo()
    # an edited template file: a copy of the sources whose c_templates.py grows by a line
    copy = tmp_path / "compiler"
    copy.mkdir()
    template = copy / "c_templates.py"
    template.write_text(open(os.path.join(here, "c_templates.py")).read())
    monkeypatch.setattr(compile_record, "SOURCE_DIRS", [str(copy)])
    monkeypatch.setattr(compile_record, "_fingerprint", [])
    before = _key(_plain)
    template.write_text(template.read_text() + "# edited\n")
    monkeypatch.setattr(compile_record, "_fingerprint", [])
    assert _key(_plain) != before


def _record_file(key):
    return os.path.join(cbuild.cache_dir(), key.blob)


def test_a_corrupted_or_foreign_record_is_never_replayed(cache):
    args = _mlp_args()
    first = compile_graph(mlp_graph())
    expected = first(*args)
    key = compile_record.key(mlp_graph(), executor.data_offset())
    path = _record_file(key)
    good = open(path, "rb").read()
    damaged = [good[: len(good) // 2],  # truncated
               good[:100] + bytes([good[100] ^ 1]) + good[101:]]  # one bit flipped
    for data in damaged:
        with open(path, "wb") as fh:
            fh.write(data)
        assert compile_record.load(key) is None
        exe = compile_graph(mlp_graph())  # compiled in full, and the record written again
        assert all(np.array_equal(a, b) for a, b in zip(exe(*args), expected))
        assert compile_record.load(key) is not None
    cbuild.store_blob(key.blob, b"not a pickle")  # a valid digest over junk
    assert compile_record.load(key) is None
    other = compile_record.key(trace(_plain, [aval((16,))]), executor.data_offset())
    compile_graph(trace(_plain, [aval((16,))]))  # stores the record of another graph
    assert compile_record.load(other) is not None
    cbuild.store_blob(key.blob, cbuild.load_blob(other.blob))  # ... found under this graph's name
    assert compile_record.load(key) is None


def test_a_record_out_of_step_with_the_compile_is_compiled_in_full(cache):
    args = _mlp_args()
    expected = compile_graph(mlp_graph())(*args)
    key = compile_record.key(mlp_graph(), executor.data_offset())
    record = compile_record.load(key)
    short = dict(record, kernels=record["kernels"][:-1])  # injected: one kernel spec missing
    del short["key"]
    compile_record.store(key, **short)
    exe = compile_graph(mlp_graph())
    assert cache[-1] is True and exe.uses_c
    assert all(np.array_equal(a, b) for a, b in zip(exe(*args), expected))
    assert len(compile_record.load(key)["kernels"]) == len(record["kernels"])  # stored again, whole


def test_a_graph_holding_a_python_callable_is_compiled_without_a_record(cache):
    @tf.function
    def f(x):
        return tf.py_function(lambda v: v * 2.0, [x], tf.float32) + 1.0
    assert np.array_equal(f(tf.constant([1.0, 2.0])).numpy(), [3.0, 5.0])
    assert not any(n.startswith("cr_") for n in os.listdir(cbuild.cache_dir()))


CHILD = """
import numpy as np, tapeflow as tf
from tapeflow.compiler import compile_record
found = []
real = compile_record.load
compile_record.load = lambda key: found.append(real(key) is not None) or real(key)
w = tf.Variable(np.full((3,), 0.5, np.float32))
@tf.function
def step(x):
    w.assign(w * x + 1.0)
    return tf.reduce_sum(tf.tanh(w))
loss = step(tf.constant(np.arange(3.0, dtype=np.float32)))
print(loss.numpy().tobytes().hex() + w.numpy().tobytes().hex(), found)
"""


def test_a_new_process_replays_the_record_of_the_last(tmp_path):
    script = tmp_path / "child.py"  # a file on disk, as user code is
    script.write_text(CHILD)
    env = dict(os.environ, TAPEFLOW_CACHE_DIR=str(tmp_path / "cache"))
    out = [subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
           for _ in range(2)]
    assert all(p.returncode == 0 for p in out), out[-1].stderr
    first, second = (p.stdout.split(" ", 1) for p in out)
    assert first[0] == second[0]  # the same loss, bit for bit
    assert first[1].startswith("[False]") and second[1].startswith("[True]"), (first, second)

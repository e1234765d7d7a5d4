"""Debug switches and the compile-failure path: a function must compile (not
fall back) with any set of passes switched off, effect-only nodes (print,
assert) included, and a compile failure that does happen says so once."""
import warnings

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compiler as C
from tapeflow.compiler import compile_graph, run_reference
from tapeflow.compiler.flags import disabled_passes
from tapeflow.compiler.passes import PASS_NAMES
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime.ops import math_ops as M


def _program(x):
    dead = M.exp(x) * 3.0  # noqa: F841 - a value nothing uses: dce's job, or fusion's
    tf.print("x:", x)
    tf.debugging.assert_greater(x, -100.0, message="x too small")
    y = M.tanh(x) * 2.0 + 1.0
    for _ in tf.range(3):
        y = y * 0.5 + x
    return y, tf.reduce_sum(y * y)


@pytest.mark.parametrize("skip", ["all", "memory_plan", "fusion", "dce", "cse", "dce,fusion,memory_plan"])
def test_functions_compile_with_passes_switched_off(skip, monkeypatch, capsys):
    monkeypatch.setenv("TAPEFLOW_DISABLE_PASSES", skip)
    fn = tf.function(_program)
    x = tf.constant(np.linspace(-2, 2, 8, dtype=np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no compile-failure warning either
        got = fn(x)
    want = _program(x)
    np.testing.assert_allclose(got[0].numpy(), want[0].numpy(), rtol=1e-6)
    np.testing.assert_allclose(got[1].numpy(), want[1].numpy(), rtol=1e-6)
    assert fn.get_concrete_function(x).compile_error is None
    assert "x:" in capsys.readouterr().err  # tf.print writes to stderr
    with pytest.raises(tf.errors.InvalidArgumentError, match="x too small"):
        fn(tf.constant(np.full(8, -200.0, np.float32)))


@pytest.mark.parametrize("skip", ["all", "dce"])
def test_graph_with_effect_only_and_dead_nodes_compiles(skip):
    def body(x):
        M.exp(x) + 1.0  # dead cluster when dce is off
        tf.print(x)
        return x * 2.0
    g = trace(body, [aval((4,))])
    x = np.arange(4, dtype=np.float32)
    with C.disable_passes(*skip.split(",")):
        ex = compile_graph(g)
    np.testing.assert_array_equal(ex(x)[0], run_reference(g, [x])[0])


def test_disable_passes_as_a_plain_call_lasts_until_reset():
    try:
        C.disable_passes("fusion")
        assert "fusion" in disabled_passes()
    finally:
        C.set_flag("disable_passes", None)
    assert "fusion" not in disabled_passes()
    with C.disable_passes("all"):
        ops = [n.op for n in compile_graph(trace(lambda x: M.exp(x) + 1.0, [aval((4,))])).optimized_graph.nodes]
        assert "fused" not in ops
    assert set(PASS_NAMES) >= {"fusion", "memory_plan", "dce"}


def test_compile_failure_warns_once_naming_function_and_error(monkeypatch):
    def broken(graph):
        raise RuntimeError("no kernels today")
    monkeypatch.setattr(C, "compile_graph", broken)

    @tf.function
    def scaled_sum(x):
        return tf.reduce_sum(x * 2.0)
    with pytest.warns(RuntimeWarning, match=r"scaled_sum.*RuntimeError: no kernels today") as record:
        first = scaled_sum(tf.constant([1.0, 2.0]))
    assert len([w for w in record if "no kernels today" in str(w.message)]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a new trace with the same error stays quiet
        second = scaled_sum(tf.constant([1.0, 2.0, 3.0]))
    assert float(first) == 6.0 and float(second) == 12.0  # the interpreter still answers
    assert "no kernels today" in str(scaled_sum.get_concrete_function(tf.constant([1.0, 2.0])).compile_error)


_SPIN_CHILD = """
import os
from tapeflow.compiler import compile_graph, set_flag
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime.ops import math_ops as M
set_flag("cache_dir", os.environ["CACHE"])
ex = compile_graph(trace(lambda x: M.exp(x) + 1.0, [aval((4,))]))
print(ex.uses_c, os.environ.get("GOMP_SPINCOUNT"))
"""


@pytest.mark.parametrize("user_value", [None, "5"])
def test_openmp_spin_wait_is_short_unless_the_user_set_it(user_value, tmp_path):
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "GOMP_SPINCOUNT"}
    env["CACHE"] = str(tmp_path)
    if user_value is not None:
        env["GOMP_SPINCOUNT"] = user_value
    out = subprocess.run([sys.executable, "-c", _SPIN_CHILD], env=env, capture_output=True, text=True, check=True)
    uses_c, spin = out.stdout.split()
    assert uses_c == "True" and spin == (user_value or C.cbuild.SPINCOUNT)

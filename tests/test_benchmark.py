"""tapeflow.benchmark: compare eager vs graph (results, report fields), the
result check's tolerances, adaptive timing, peak memory and profiles."""
import json
import math
import os
import time

import numpy as np
import pytest

import tapeflow as tf
from tapeflow import benchmark
from tapeflow.benchmark import checking, memory, timing
from tapeflow.compiler.passes import fusion

BUDGET = 0.05  # seconds of timing per compare: the figures are not under test, the machinery is


def gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def gelu_np(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


@pytest.fixture(scope="module")
def gelu_report():
    x = np.random.default_rng(0).standard_normal((16, 32)).astype(np.float32)
    return benchmark.compare(gelu, x, budget_s=BUDGET)


# ---------------------------------------------------------------- compare
def test_compare_report_fields_are_sane(gelu_report):
    r = gelu_report
    assert r.ok and r.errors == []
    assert r.name == "gelu" and r.inputs == ["x: float32[16, 32]"]
    for t in (r.eager, r.graph):
        assert t.samples >= 3 and t.loops >= 1
        assert 0 < t.minimum <= t.q1 <= t.median <= t.q3
        assert t.spread >= 0
    assert r.speedup == pytest.approx(r.eager.median / r.graph.median)
    assert r.trace_s > 0 and r.first_call_s > 0 and 0 <= r.compile_s <= r.first_call_s
    assert r.max_rel_error < 1e-5
    s = r.stats
    assert s.ops_before == 9  # 6 mul, 2 add, tanh: the traced GELU
    assert 1 <= s.ops_after < s.ops_before
    assert s.kernels >= 1 and s.fused_ops == 9 and not s.interpreted
    # the output alone is 2 KiB; neither run needs more than a few copies of it
    for peak in (r.eager_peak_bytes, r.graph_peak_bytes):
        assert 16 * 32 * 4 <= peak < 64 * 1024


def test_compare_report_converts_to_dict_json_and_table(gelu_report):
    d = json.loads(gelu_report.to_json())
    assert d["ok"] is True and d["name"] == "gelu"
    assert set(d["eager"]) == {"median", "q1", "q3", "minimum", "samples", "loops", "spread"}
    assert d["graph_stats"]["ops_before"] == 9
    assert d["peak_bytes"]["graph"] == gelu_report.graph_peak_bytes
    text = str(gelu_report)
    assert text.startswith("compare gelu(x: float32[16, 32])")
    for words in ("results match", "median per call", "peak memory", "speedup", "trace", "9 ops traced"):
        assert words in text


def test_compare_accepts_a_tf_function_and_python_scalars():
    f = tf.function(lambda x, k: x * k + 1.0)
    r = benchmark.compare(f, np.arange(6, dtype=np.float32), 3.0, budget_s=BUDGET)
    assert r.ok and r.inputs == ["x: float32[6]", "k: 3.0"]


def _drifting():
    calls = [0]

    def f(x):  # a Python side effect: the graph keeps the value seen while tracing (1.0)
        calls[0] += 1
        # Two values only: thousands of distinct Python floats would fill the runtime's
        # scalar cache, and later tests' graphs would differ in their constant nodes.
        return x + float(calls[0] % 2)
    return f


def test_a_mismatch_is_reported_as_an_error():
    r = benchmark.compare(_drifting(), np.zeros(4, np.float32), budget_s=BUDGET)
    assert not r.ok
    assert len(r.errors) == 1 and r.errors[0].startswith("output: 4 of 4 elements differ")
    # expected: the eager run, x + 0.0 on the second call; got: the graph's traced x + 1.0
    assert r.errors[0].endswith("(worst: 1.0 where 0.0 was expected)")
    assert str(r).splitlines()[1].strip() == "ERROR: eager and graph results differ:"
    assert json.loads(r.to_json())["ok"] is False


def test_strict_compare_raises_on_a_mismatch():
    with pytest.raises(benchmark.ResultMismatch, match="eager and graph results differ"):
        benchmark.compare(_drifting(), np.zeros(4, np.float32), budget_s=BUDGET, strict=True)


def test_training_step_compares_variables_and_restores_them():
    rng = np.random.default_rng(1)
    start = rng.standard_normal((8, 3)).astype(np.float32)
    w = tf.Variable(start)

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(x @ w))
        w.assign_sub(0.1 * tape.gradient(loss, w))
        return loss

    r = benchmark.compare(step, rng.standard_normal((4, 8)).astype(np.float32), budget_s=BUDGET)
    assert r.ok, r.errors
    np.testing.assert_array_equal(w.numpy(), start)  # every phase starts from the same weights
    assert r.stats.kernels >= 1


def test_a_variable_that_ends_differently_is_a_mismatch():
    v = tf.Variable(np.zeros(3, np.float32))
    calls = [0]

    def bump(x):
        calls[0] += 1
        v.assign_add(x * float(calls[0] % 2))
        return tf.reduce_sum(x)

    r = benchmark.compare(bump, np.ones(3, np.float32), budget_s=BUDGET)
    assert not r.ok
    assert any(e.startswith("variable") and "after the call" in e for e in r.errors)
    np.testing.assert_array_equal(v.numpy(), np.zeros(3, np.float32))


# ---------------------------------------------------------------- result check
@pytest.mark.parametrize("expected, actual, problem", [
    (np.float32([1, 2, 3]), np.float32([1, 2, 3.00001]), None),
    (np.float32([1, 2, 3]), np.float32([1, 2, 3.01]), "1 of 3 elements differ beyond rtol=0.0001"),
    (np.float64([1.0]), np.float64([1.0 + 1e-7]), "1 of 1 elements differ beyond rtol=1e-09"),
    (np.float16([1.0]), np.float16([1.001]), None),
    (np.float32([1000.0, 1e-6]), np.float32([1000.0, 2e-6]), None),  # noise relative to the largest value
    (np.int32([1, 2]), np.int32([1, 3]), "1 of 2 elements differ (first at [1]: 3, expected 2"),
    (np.bool_([True]), np.bool_([True]), None),
    (np.float32([np.nan, 1]), np.float32([np.nan, 1]), None),
    (np.float32([np.nan, 1]), np.float32([1, 1]), "NaN in 0 elements, expected in 1"),
    (np.float32([np.inf]), np.float32([-np.inf]), "infinities differ"),
    (np.float32([1, 2]), np.float32([1, 2, 3]), "shape [3], expected [2]"),
    (np.float32([1]), np.float64([1]), "dtype float64, expected float32"),
])
def test_leaf_mismatch(expected, actual, problem):
    msg = checking.leaf_mismatch(expected, actual)
    if problem is None:
        assert msg is None
    else:
        assert msg is not None and msg.startswith(problem), msg


def test_mismatches_walks_structures_and_tensors():
    a = {"y": tf.constant([1.0, 2.0]), "n": tf.constant(3)}
    assert checking.mismatches(a, {"y": np.float32([1.0, 2.0]), "n": np.int32(3)}) == []
    assert checking.mismatches((1, 2), (1,)) == ["output: 1 values where 2 were expected"]
    msgs = checking.mismatches([np.float32([1]), np.int32([1])], [np.float32([1]), np.int32([2])])
    assert len(msgs) == 1 and msgs[0].startswith("output 1: ")


def test_tolerance_by_dtype():
    assert checking.tolerance(np.float32) == (1e-4, 1e-5)
    assert checking.tolerance(np.float64) == (1e-9, 1e-12)
    assert checking.tolerance(np.int64) == (0.0, 0.0)


# ---------------------------------------------------------------- timing
def _spin(n):
    def run():
        total = 0
        for i in range(n):
            total += i
        return total
    return run


def test_measure_calibrates_loops_and_orders_contenders():
    result = timing.measure({"fast": _spin(50), "slow": _spin(2000)}, budget_s=0.3, sample_s=1e-3)
    fast, slow = result["fast"], result["slow"]
    assert fast.loops > slow.loops >= 1  # each sample lasts about sample_s
    assert slow.median > 5 * fast.median
    for t in result.values():
        assert t.samples >= 5 and t.minimum <= t.median


def test_measure_keeps_a_floor_of_samples_past_the_budget():
    t = timing.measure({"slow": lambda: time.sleep(0.02)}, budget_s=0.0, sample_s=1e-3)["slow"]
    assert t.samples == 3 and t.loops == 1 and t.median >= 0.02


def test_median_confidence_interval_narrows_with_samples():
    rng = np.random.default_rng(0)
    few = list(1 + 0.1 * rng.standard_normal(10))
    many = list(1 + 0.1 * rng.standard_normal(1000))
    assert timing.median_ci_width(few[:3]) == math.inf
    assert timing.median_ci_width(many) < timing.median_ci_width(few) < 1


# ---------------------------------------------------------------- memory
def test_numpy_buffers_are_seen_by_tracemalloc():
    assert memory.numpy_is_traced()

    def two_buffers():
        a = np.ones(1 << 20)  # 8 MiB
        b = a * 2.0  # 8 MiB more while `a` is alive
        return b

    assert 16 << 20 <= memory.peak_bytes(two_buffers) < 17 << 20


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="Linux /proc only")
def test_resident_peak_sees_a_large_buffer():
    # 64 MiB: above glibc's largest dynamic mmap threshold (32 MiB), so always mapped fresh
    peak = memory.rss_peak_bytes(lambda: np.ones(8 << 20))
    assert 64 << 20 <= peak < 80 << 20


def test_format_bytes():
    assert [memory.format_bytes(n) for n in (None, 10, 2048, 3 << 20)] == ["n/a", "10 B", "2.0 KiB", "3.0 MiB"]


# ---------------------------------------------------------------- profile
def test_profile_lists_kernels_and_unfused_ops_with_reasons():
    w = tf.Variable(np.ones((8, 4), np.float32))

    def layer(x):
        return tf.reduce_sum(tf.tanh(x @ w) * 2.0 + 1.0, axis=0)

    p = tf.profile(layer, np.ones((16, 8), np.float32), budget_s=0.1)
    kinds = {r.kind for r in p.rows}
    assert {"kernel", "op", "entry"} <= kinds
    assert sum(r.share for r in p.rows) == pytest.approx(1.0)
    assert p.seconds_per_call > 0 and p.plain_seconds_per_call > 0 and p.calls >= 3
    reasons = p.unfused
    matmul = [why for label, why in reasons.items() if label.startswith("matmul")]
    assert matmul == ["not elementwise: no kernel template (runs as one NumPy call)"]
    kernel = [r for r in p.rows if r.kind == "kernel"]
    assert kernel and "tanh" in kernel[0].label and kernel[0].ops >= 3
    text = str(p)
    assert text.startswith("profile of layer:") and "-- unfused: not elementwise" in text
    assert json.loads(json.dumps(p.as_dict()))["rows"]


def test_compare_with_profile_attaches_it():
    r = benchmark.compare(gelu, np.ones(64, np.float32), budget_s=BUDGET, profile=True)
    assert r.profile is not None and r.profile.rows[0].kind in ("kernel", "entry")
    assert "profile of gelu" in str(r) and r.as_dict()["profile"]["rows"]


def test_explain_unfused_names_leading_axis_reductions():
    def f(x):
        return tf.reduce_sum(x, axis=0)
    cf = tf.function(f).get_concrete_function(tf.ones((4, 5)))
    reasons = fusion.explain_unfused(cf.graph)
    assert list(reasons.values()) == ["reduction over axes (0,) of a rank-2 value: kernels reduce trailing axes only"]


def test_profile_lists_the_body_a_cond_ran_apart():
    def branchy(x):
        if tf.reduce_sum(x) > 0:
            y = tf.tanh(x) * 2.0
        else:
            y = x - 1.0
        return y

    p = tf.profile(branchy, np.ones((4, 8), np.float32), budget_s=0.1)
    labels = [r.label for r in p.rows]
    assert any(label.startswith("cond %") for label in labels)
    assert any(label.startswith("kernel") and "tanh" in label and label.endswith("(in then)") for label in labels)
    assert not any("(in else)" in label for label in labels)  # that branch never ran

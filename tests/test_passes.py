"""Each optimization pass on small hand-built graphs: what it rewrites, what it
must leave alone, and that the optimized graph computes what the original does."""
import numpy as np
import pytest

import tapeflow.compiler as C
from tapeflow.compiler import passes, run_reference
from tapeflow.compiler.passes import constant_folding, cse, dce, fusion, memory_plan, simplify
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import Tensor
from tapeflow.runtime.variables import Variable


def ops_of(graph):
    return [n.op for n in graph.nodes]


def same_values(g1, g2, *arrays):
    for a, b in zip(run_reference(g1, arrays), run_reference(g2, arrays)):
        np.testing.assert_array_equal(a, b)


X = np.array([[1.5, -2.0, 0.0, -0.0], [3.0, np.nan, np.inf, -7.25]], np.float32)


def test_constant_folding_folds_pure_ops_on_constants_only():
    c = Tensor(np.arange(4, dtype=np.float32))
    g = trace(lambda x: x + M.exp(c) * 2.0, [aval((2, 4))])
    folded = constant_folding.run(g)
    assert "exp" not in ops_of(folded) and "mul" not in ops_of(folded)
    assert "add" in ops_of(folded)
    same_values(g, folded, X)


def test_constant_folding_does_not_grow_memory():
    g = trace(lambda x: x + A.broadcast_to(Tensor(np.float32(1)), (64, 64)), [aval((64, 64))])
    assert "broadcast_to" in ops_of(constant_folding.run(g))


def test_constant_folding_never_runs_a_loop_whose_body_has_effects():
    from tapeflow.tracer import staging
    from tapeflow.tracer.py_function import py_function
    pulls = []

    def pull():
        pulls.append(1)
        return np.float32(len(pulls))

    def fn(x):
        def body(i, s):
            return i + 1, s + py_function(pull, [], "float32")
        n, total = staging.stage_while(lambda i, s: M.less(i, 3), body, [Tensor(np.int32(0)), Tensor(np.float32(0))],
                                       staging.LoopSpec(["i", "s"], {}, None, "while"))
        return x + total
    g = trace(fn, [aval((2,))])
    folded = constant_folding.run(g)
    assert pulls == [] and "while_loop" in ops_of(folded)  # not run at compile time
    np.testing.assert_array_equal(run_reference(folded, [np.zeros(2, np.float32)])[0], [6.0, 6.0])


@pytest.mark.parametrize("expr,gone", [
    (lambda x: x * 1.0, "mul"), (lambda x: 1.0 * x, "mul"), (lambda x: x / 1.0, "div"),
    (lambda x: x - 0.0, "sub"), (lambda x: -(-x), "neg"), (lambda x: A.identity(x), "identity"),
    (lambda x: A.stop_gradient(x), "stop_gradient"),
])
def test_simplify_removes_exact_identities(expr, gone):
    g = trace(expr, [aval((2, 4))])
    out = dce.run(simplify.run(g))
    assert gone not in ops_of(out)
    same_values(g, out, X)


def test_simplify_keeps_float_plus_zero_exact():
    # -0.0 + 0.0 is +0.0: removing the add would change the sign of a zero
    g = trace(lambda x: x + 0.0, [aval((2, 4))])
    assert "add" in ops_of(dce.run(simplify.run(g)))
    gi = trace(lambda x: x + 0, [aval((3,), "int32")])
    assert "add" not in ops_of(dce.run(simplify.run(gi)))


def test_simplify_powers_transposes_reshapes():
    g = trace(lambda x: [M.pow(x, 2.0), M.pow(x, 3.0), A.transpose(A.transpose(x, (1, 0)), (1, 0)),
                         A.reshape(A.reshape(x, (8,)), (4, 2))], [aval((2, 4))])
    out = dce.run(simplify.run(g))
    ops = ops_of(out)
    assert "pow" not in ops and "transpose" not in ops and ops.count("reshape") == 1
    a = run_reference(g, [X])
    b = run_reference(out, [X])
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_allclose(a[1], b[1], rtol=1e-6)
    np.testing.assert_array_equal(a[2], b[2])
    np.testing.assert_array_equal(a[3], b[3])


def test_simplify_makes_static_like_ops_plain_and_fusible():
    like = lambda x, v: [A.broadcast_like(v, x) * x, A.reshape_like(A.reshape(x, (8,)), x) + 1.0]  # noqa: E731
    g = trace(like, [aval((2, 4)), aval((4,))])
    out = dce.run(simplify.run(g))
    assert "broadcast_like" not in ops_of(out) and "reshape_like" not in ops_of(out)
    same_values(g, out, X, np.arange(4, dtype=np.float32))
    assert "broadcast_to" not in ops_of(fusion.run(out))  # read inside the kernel of the mul
    dynamic = trace(like, [aval((None, 4)), aval((4,))])
    assert "broadcast_like" in ops_of(simplify.run(dynamic))  # an unknown dim: kept


def test_simplify_division_by_constant_becomes_multiplication():
    g = trace(lambda x: x / 3.0, [aval((2, 4))])
    out = dce.run(simplify.run(g))
    assert "div" not in ops_of(out) and "mul" in ops_of(out)
    np.testing.assert_allclose(run_reference(out, [X])[0], run_reference(g, [X])[0], rtol=1e-7)
    # 1/c overflows for a subnormal c: left as a division
    tiny = trace(lambda x: x / Tensor(np.float32(1e-45)), [aval((2, 4))])
    assert "div" in ops_of(dce.run(simplify.run(tiny)))


def test_cse_merges_pure_nodes_but_not_stateful_ones():
    v = Variable(np.ones(3, np.float32))
    g = trace(lambda x: [M.exp(x) + M.exp(x), v.value() + v.value()], [aval((3,))])
    out = dce.run(cse.run(g))
    assert ops_of(out).count("exp") == 1
    assert ops_of(out).count("read_variable") == 2


def test_dce_keeps_effects_and_drops_dead_values():
    v = Variable(np.ones(3, np.float32))

    def fn(x):
        M.exp(x)  # dead
        v.assign(x * 2.0)
        return x + 1.0
    g = trace(fn, [aval((3,))])
    out = dce.run(g)
    assert "exp" not in ops_of(out)
    assert "assign_variable" in ops_of(out) and "mul" in ops_of(out)


def _softmax_layernorm(x, gamma):
    m = R.reduce_max(x, axis=-1, keepdims=True)
    e = M.exp(x - m)
    y = e / R.reduce_sum(e, axis=-1, keepdims=True)
    mu = R.reduce_mean(y, axis=-1, keepdims=True)
    d = y - mu
    var = R.reduce_mean(d * d, axis=-1, keepdims=True)
    return d * M.rsqrt(var + 1e-5) * gamma


def _gelu(x):
    return 0.5 * x * (1.0 + M.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def test_fusion_makes_one_kernel_of_softmax_layernorm_and_gelu():
    g = trace(_softmax_layernorm, [aval((8, 16)), aval((16,))])
    out = passes.optimize(g)
    assert [n.op for n in out.nodes if n.op not in ("input", "const")] == ["fused"]
    g2 = trace(_gelu, [aval((1000,))])
    assert [n.op for n in passes.optimize(g2).nodes if n.op not in ("input", "const")] == ["fused"]


def test_fusion_never_creates_a_cycle():
    # b depends on a kernel output through a non-fusable op (matmul): a and c must not merge
    w = Tensor(np.eye(4, dtype=np.float32))

    def fn(x):
        a = M.exp(x)
        b = M.tanh(a @ w)
        return a * b
    g = trace(fn, [aval((4, 4))])
    out = passes.optimize(g)
    x = np.random.default_rng(1).standard_normal((4, 4)).astype(np.float32)
    np.testing.assert_allclose(run_reference(out, [x])[0], run_reference(g, [x])[0], rtol=1e-6)


def test_fusion_keeps_effect_order():
    v = Variable(np.zeros(3, np.float32))

    def fn(x):
        v.assign(x * 2.0)
        return v.value() + 1.0
    g = trace(fn, [aval((3,))])
    out = passes.optimize(g)
    ops = ops_of(out)
    assert ops.index("assign_variable") < ops.index("read_variable")


def test_memory_plan_reuses_dead_buffers_in_place():
    w = Tensor(np.eye(8, dtype=np.float32))

    def fn(x):
        a = M.exp(x) @ w      # kernel output feeds matmul (fresh result)
        b = M.tanh(a) @ w
        return M.sin(b) @ w
    out = passes.optimize(trace(fn, [aval((8, 8))]))
    reuse = [n.attr["reuse"] for n in out.nodes if n.op == "fused"]
    assert reuse[0] == (None,)
    assert any(r != (None,) for r in reuse[1:]), reuse


def test_disable_passes_by_api_and_env(monkeypatch):
    g = trace(_gelu, [aval((10,))])
    with C.disable_passes("fusion"):
        assert "fused" not in ops_of(passes.optimize(g))
    monkeypatch.setenv("TAPEFLOW_DISABLE_PASSES", "fusion,cse")
    assert "fused" not in ops_of(passes.optimize(g))
    monkeypatch.setenv("TAPEFLOW_DISABLE_PASSES", "nonsense")
    with pytest.raises(ValueError, match="unknown passes"):
        passes.optimize(g)


def test_dump_passes_prints_each_stage(monkeypatch, capsys):
    monkeypatch.setenv("TAPEFLOW_DUMP_PASSES", "1")
    passes.optimize(trace(_gelu, [aval((10,))]), passes.CPU_PIPELINE)
    err = capsys.readouterr().err
    for name in passes.PASS_NAMES:
        assert f"after {name}" in err
    assert "before optimization" in err


def test_pipeline_preserves_values_on_a_mixed_graph():
    gamma = np.linspace(0.5, 1.5, 16).astype(np.float32)
    g = trace(_softmax_layernorm, [aval((8, 16)), aval((16,))])
    x = np.random.default_rng(2).standard_normal((8, 16)).astype(np.float32)
    np.testing.assert_allclose(run_reference(passes.optimize(g), [x, gamma])[0],
                               run_reference(g, [x, gamma])[0], rtol=1e-5, atol=1e-6)


def test_fusion_classify_access_modes():
    S = (4, 6)
    assert fusion.classify((4, 6), S, 1) == "full"
    assert fusion.classify((), S, 1) == "scalar"
    assert fusion.classify((4, 1), S, 1) == "row"
    assert fusion.classify((6,), S, 1) == "col"
    assert fusion.classify((2, 6), S, 1) is None
    assert fusion.classify((4, 1, 6), (4, 5, 6), 2) == "general"
    assert memory_plan.NAME == "memory_plan"

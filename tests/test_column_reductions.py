"""Reductions over leading axes folded into the elementwise kernel of their input
(passes/column_reductions.py, codegen_columns_c.py): every reduction, dtypes,
keepdims, one and two leading axes, rows longer than a column block, NaN, an
input broadcast in general, integer errors and empty reductions - compiled vs
the reference interpreter (and float64 for float32 sums, which we accumulate in
double while NumPy's axis-0 sum accumulates in float32)."""
import numpy as np
import pytest

from tapeflow.compiler import compile_graph, passes, run_reference
from tapeflow.compiler.passes.column_reductions import has_column_reductions
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R


pytestmark = pytest.mark.usefixtures("private_compiler_cache")


def _folded(ex):
    ops = [n.op for n in ex.optimized_graph.nodes]
    kernels = [n for n in ex.optimized_graph.nodes if has_column_reductions(n)]
    return ops, kernels


SHAPE = (3, 5, 300)  # 300 columns: a full block of 256 and a partial one


@pytest.mark.parametrize("axes", [(0,), (0, 1)])
def test_every_reduction_over_leading_axes_matches_reference(axes):
    def fn(x, y, b, m):
        e = x * y + b  # b broadcasts in general: (3, 1, 300) in (3, 5, 300)
        outs = [e]
        for keep in (False, True):
            outs += [R.reduce_sum(e, axis=axes, keepdims=keep), R.reduce_prod(y * 0.5 + 0.75, axis=axes),
                     R.reduce_max(e, axis=axes, keepdims=keep), R.reduce_min(e - 1.0, axis=axes),
                     R.reduce_any(M.logical_and(m, x > 0), axis=axes),
                     R.reduce_all(M.logical_or(m, x > 0), axis=axes, keepdims=keep)]
        return outs
    rng = np.random.default_rng(0)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    y = rng.standard_normal(SHAPE).astype(np.float32)
    b = rng.standard_normal((3, 1, 300)).astype(np.float32)
    m = rng.random(SHAPE) > 0.9
    x[1, 2, 7] = np.nan  # max/min of column 7 are NaN, as in NumPy
    g = trace(fn, [aval(SHAPE), aval(SHAPE), aval(b.shape), aval(SHAPE, "bool")])
    ex = compile_graph(g)
    ops, kernels = _folded(ex)
    assert not any(op.startswith("reduce_") for op in ops), ops
    assert kernels and ex.uses_c
    got = ex(x, y, b, m)
    want = run_reference(g, [x, y, b, m])
    for i, (a, w) in enumerate(zip(got, want)):
        assert a.shape == np.shape(w) and a.dtype == np.asarray(w).dtype, i
        if a.dtype == np.float32 and i % 6 in (1, 2):  # sums and products: float32 NumPy rounds more
            np.testing.assert_allclose(a, w, rtol=2e-5, atol=1e-5, err_msg=str(i))
        elif a.dtype == np.float32:  # x * y + b may contract to one fused multiply-add
            np.testing.assert_allclose(a, w, rtol=3e-7, atol=1e-7, err_msg=str(i))
        else:
            np.testing.assert_array_equal(a, w, err_msg=str(i))
    e64 = x.astype(np.float64) * y + b
    np.testing.assert_allclose(got[1], e64.sum(axes), rtol=1e-6, atol=1e-6)  # double accumulation


@pytest.mark.parametrize("dtype", ["float64", "int32", "int8", "uint16"])
def test_sums_and_extremes_of_other_dtypes(dtype):
    def fn(x, y):
        e = x * y + x
        return [R.reduce_sum(e, axis=(0,)), R.reduce_max(e, axis=(0,)), R.reduce_min(e, axis=(0,), keepdims=True)]
    rng = np.random.default_rng(1)
    if dtype.startswith("float"):
        x, y = (rng.standard_normal((70, 33)).astype(dtype) for _ in range(2))
    else:
        x, y = (rng.integers(0, 100, (70, 33)).astype(dtype) for _ in range(2))  # products wrap: NumPy does too
    g = trace(fn, [aval(x.shape, dtype), aval(y.shape, dtype)])
    ex = compile_graph(g)
    assert _folded(ex)[1]
    for a, w in zip(ex(x, y), run_reference(g, [x, y])):
        assert a.dtype == np.asarray(w).dtype and a.shape == np.shape(w)
        np.testing.assert_allclose(a, w, rtol=1e-12)


def test_bias_gradient_keeps_the_elementwise_output_used_elsewhere():
    def fn(g, h):
        gp = A.where(h > 0, g, A.zeros_like(g))
        return [gp, R.reduce_sum(gp, axis=0)]
    g = trace(fn, [aval((64, 10)), aval((64, 10))])
    ex = compile_graph(g)
    ops, kernels = _folded(ex)
    assert len(kernels) == 1 and len(kernels[0].avals) == 2 and "reduce_sum" not in ops
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((2, 64, 10)).astype(np.float32)
    got, want = ex(a, b), run_reference(g, [a, b])
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)


def test_the_backend_neutral_pipeline_leaves_leading_reductions_alone():
    g = trace(lambda x: R.reduce_sum(M.exp(x), axis=0), [aval((8, 16))])
    assert "reduce_sum" in [n.op for n in passes.optimize(g).nodes]
    assert "reduce_sum" not in [n.op for n in passes.optimize(g, passes.CPU_PIPELINE).nodes]


def test_trailing_and_all_axis_reductions_stay_with_fusion():
    g = trace(lambda x: [R.reduce_sum(M.exp(x), axis=-1), R.reduce_sum(M.exp(x) * 2.0)], [aval((8, 16))])
    out = passes.optimize(g, passes.CPU_PIPELINE)
    assert not any(has_column_reductions(n) for n in out.nodes if n.op == "fused")


def test_integer_division_by_zero_in_a_column_kernel_raises():
    g = trace(lambda x, y: R.reduce_sum(M.floordiv(x, y), axis=0), [aval((4, 6), "int32"), aval((4, 6), "int32")])
    ex = compile_graph(g)
    assert _folded(ex)[1]
    x = np.arange(24, dtype=np.int32).reshape(4, 6)
    y = np.ones((4, 6), np.int32)
    np.testing.assert_array_equal(ex(x, y)[0], x.sum(0))
    y[2, 3] = 0
    with pytest.raises(ZeroDivisionError):
        ex(x, y)


def test_empty_max_over_leading_axis_is_minus_infinity_like_tensorflow():
    g = trace(lambda x: R.reduce_max(x * 2.0, axis=0), [aval((0, 5))])
    ex = compile_graph(g)
    np.testing.assert_array_equal(ex(np.zeros((0, 5), np.float32))[0], np.full(5, -np.inf, np.float32))
    np.testing.assert_array_equal(compile_graph(trace(lambda x: R.reduce_sum(x * 2.0, axis=0), [aval((0, 5))]))(
        np.zeros((0, 5), np.float32))[0], np.zeros(5, np.float32))

"""The register-tiled matmul of loops compiled whole into C (compiler/matmul_c.py):
every shape class its tiles have edges for (rows left over from 4-row tiles,
columns left over from vector tiles, fewer columns than one vector), both
transposes, float32 and float64, NaN and inf propagation - against NumPy."""
import platform

import numpy as np
import pytest

from tapeflow.compiler import compile_graph, run_reference, set_flag
from tapeflow.compiler.testing import aval, trace, while_loop
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import Tensor


pytestmark = pytest.mark.usefixtures("private_compiler_cache")


def _loop_matmul(a, b, acc, ta, tb):
    """acc <- acc * 0.5 + a @ b, three times, inside one while loop."""
    def body(i, acc, a, b):
        return i + 1, acc * 0.5 + L.matmul(a, b, transpose_a=ta, transpose_b=tb)
    return while_loop(lambda i, acc, a, b: M.less(i, 3), body, [Tensor(np.int32(0)), acc], extras=[a, b])[1]


SHAPES = [  # (M, K, N): exact tiles, leftover rows, leftover vectors and columns, tiny
    (8, 64, 64), (8, 32, 64), (5, 7, 3), (1, 1, 1), (4, 16, 16), (7, 13, 40), (3, 5, 17), (9, 2, 100),
]
CASES = [(mkn, ta, tb) for mkn in SHAPES for ta in (False, True) for tb in (False, True)]


X86 = platform.machine() in ("x86_64", "AMD64")
# the tile shape follows the vector ISA the compiler targets: build each variant
ISA_VARIANTS = [("float32", ""), ("float64", "")] + [
    pytest.param(*v, marks=pytest.mark.skipif(not X86, reason="x86 ISA flags"))
    for v in (("float32", "-mno-avx512f"), ("float64", "-mno-avx"))]


@pytest.mark.parametrize("dtype,cflags", ISA_VARIANTS)
def test_loop_matmul_matches_numpy(dtype, cflags):
    set_flag("cflags", cflags or None)
    # every case is one loop of ONE graph: one C build for all of them
    rng = np.random.default_rng(0)
    arrays, avals = [], []
    for (m, k, n), ta, tb in CASES:
        a = rng.standard_normal((k, m) if ta else (m, k)).astype(dtype)
        b = rng.standard_normal((n, k) if tb else (k, n)).astype(dtype)
        acc = rng.standard_normal((m, n)).astype(dtype)
        arrays += [a, b, acc]
        avals += [aval(x.shape, dtype) for x in (a, b, acc)]

    def fn(*args):
        return [_loop_matmul(*args[3 * i:3 * i + 3], ta, tb) for i, (_, ta, tb) in enumerate(CASES)]
    g = trace(fn, avals)
    ex = compile_graph(g)
    assert ex.uses_c
    assert ex.c_source.count("int loop") == len(CASES) and "tf_matmul_" in ex.c_source
    got = ex(*arrays)
    reference = run_reference(g, arrays)
    tol = 1e-5 if dtype == "float32" else 1e-12
    for i, ((m, k, n), ta, tb) in enumerate(CASES):
        a, b, want = arrays[3 * i:3 * i + 3]
        a2 = (a.T if ta else a).astype(np.float64)
        b2 = (b.T if tb else b).astype(np.float64)
        for _ in range(3):
            want = want * 0.5 + a2 @ b2
        what = f"{(m, k, n)} transpose_a={ta} transpose_b={tb}"
        assert got[i].dtype == np.dtype(dtype) and got[i].shape == (m, n), what
        np.testing.assert_allclose(got[i], want, rtol=tol, atol=tol * k, err_msg=what)
        np.testing.assert_allclose(got[i], reference[i], rtol=tol, atol=tol * k, err_msg=what)


def test_loop_matmul_propagates_nan_and_inf():
    a = np.ones((5, 9), np.float32)
    b = np.ones((9, 19), np.float32)
    a[1, 3] = np.nan
    b[2, 18] = np.inf
    acc = np.zeros((5, 19), np.float32)
    g = trace(lambda a, b, acc: _loop_matmul(a, b, acc, False, False),
              [aval(a.shape), aval(b.shape), aval(acc.shape)])
    got = compile_graph(g)(a, b, acc)[0]
    want = run_reference(g, [a, b, acc])[0]
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-6)

"""Our own C math functions (compiler/c_math.py) inside compiled kernels: float32
tanh within 3 ulps of the float64 value over every range its code paths split
(tiny, small, large, saturated), with NaN, +-inf and -0.0 - in a fused kernel
and in a loop compiled whole."""
import numpy as np
import pytest

from tapeflow.compiler import compile_graph
from tapeflow.compiler.testing import aval, trace, while_loop
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import Tensor


pytestmark = pytest.mark.usefixtures("private_compiler_cache")


def _ulps(got, x):
    want = np.tanh(x.astype(np.float64))
    spacing = np.spacing(np.abs(want.astype(np.float32))).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


def _inputs():
    rng = np.random.default_rng(0)
    parts = [np.linspace(-12, 12, 200_001), np.geomspace(1e-38, 40, 20_001), -np.geomspace(1e-38, 40, 20_001),
             rng.standard_normal(20_000) * 3, [1e-45, 0.5, 0.49999997, 9.1, 9.100001, 20.0, 1e30, 3.4e38]]
    return np.concatenate(parts).astype(np.float32)


SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -np.nan], np.float32)


def _check(got_specials, got, x):
    assert np.isnan(got_specials[0]) and np.isnan(got_specials[5])
    assert got_specials[1] == 1.0 and got_specials[2] == -1.0
    assert got_specials[3] == 0.0 and not np.signbit(got_specials[3])
    assert got_specials[4] == 0.0 and np.signbit(got_specials[4])
    ulps = _ulps(got, x)
    worst = int(np.argmax(ulps))
    assert ulps.max() <= 3.0, f"tanh({x[worst]!r}) = {got[worst]!r}: {ulps.max():.2f} ulps"
    assert np.all(np.abs(got) <= 1.0)


def test_fused_float32_tanh_is_accurate_to_3_ulps():
    x = _inputs()
    ex = compile_graph(trace(M.tanh, [aval((None,))]))
    assert "tf_tanhf" in ex.c_source
    _check(ex(SPECIALS)[0], ex(x)[0], x)


def test_tanh_in_a_loop_compiled_whole_is_accurate():
    x = _inputs()[:16000]  # a loop keeps values in local arrays: at most MAX_VALUE elements

    def fn(v):
        return while_loop(lambda i, v, out: M.less(i, 1), lambda i, v, out: (i + 1, v, M.tanh(v)),
                          [Tensor(np.int32(0)), v, v])[2]
    ex = compile_graph(trace(fn, [aval(x.shape)]))
    assert "int loop" in ex.c_source
    ex_s = compile_graph(trace(fn, [aval(SPECIALS.shape)]))
    _check(ex_s(SPECIALS)[0], ex(x)[0], x)


def test_float64_tanh_keeps_the_c_library():
    ex = compile_graph(trace(lambda v: M.tanh(v) * 2.0, [aval((5,), "float64")]))
    x = np.array([-3.0, -0.5, 0.0, 1e-300, 20.0])
    np.testing.assert_allclose(ex(x)[0], np.tanh(x) * 2.0, rtol=1e-15)

"""Every primitive the C code generator fuses, on every dtype it fuses for:
compiled == reference interpreter == eager, bit for bit where C and NumPy do the
same IEEE operation, within a few ulps for transcendental functions (libmvec and
NumPy's SIMD math differ in the last bits).  Inputs include nan, inf, -0.0 and
integer extremes."""
import platform

import numpy as np
import pytest

from tapeflow.compiler import c_templates, compile_graph, run_reference, set_flag
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime import dtypes
from tapeflow.runtime.registry import PRIMITIVES, bind
from tapeflow.runtime.tensor import Tensor


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory):
    set_flag("cache_dir", str(tmp_path_factory.mktemp("tfcache")))
    yield
    set_flag("cache_dir", None)


X86 = platform.machine() in ("x86_64", "AMD64")
FLOAT_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e30, -1e-30, 7.25, -88.5, 2.0]
EXACT_FLOAT_UNARY = ["neg", "abs", "sign", "floor", "ceil", "round", "relu", "sqrt", "rsqrt"]
APPROX_FLOAT_UNARY = ["exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "erfc", "softplus",
                      "cosh", "sinh", "asin", "acos", "atan", "asinh", "acosh", "atanh"]
EXACT_FLOAT_BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "floordiv", "mod", "nextafter", "tanh_grad", "relu_grad",
                      "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
APPROX_FLOAT_BINARY = ["pow", "atan2"]
INT_UNARY = ["neg", "abs", "sign", "relu", "invert"]
INT_BINARY = ["add", "sub", "mul", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor",
              "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
              "left_shift", "right_shift"]  # counts include negatives and >= the width
BOOL_OPS = ["logical_and", "logical_or", "logical_xor", "equal", "not_equal"]


def test_every_elementwise_primitive_has_a_kernel_or_a_stated_reason():
    import tapeflow  # noqa: F401  (loads every module that defines primitives)
    elementwise = {n for n, p in PRIMITIVES.items() if p.kind in ("unary", "binary", "ternary")}
    missing = sorted(n for n in elementwise if not c_templates.has_kernel(n) and n not in c_templates.NO_KERNEL)
    assert not missing, f"elementwise primitives with neither a kernel template nor a NO_KERNEL reason: {missing}"
    assert set(c_templates.NO_KERNEL) <= elementwise
    assert not any(c_templates.has_kernel(n) for n in c_templates.NO_KERNEL)


def test_every_float_kernel_is_tested_here():
    tested = set(EXACT_FLOAT_UNARY + APPROX_FLOAT_UNARY + EXACT_FLOAT_BINARY + APPROX_FLOAT_BINARY)
    assert set(c_templates.FLOAT_UNARY) | set(c_templates.FLOAT_BINARY) <= tested


def _float_inputs(dtype):
    x = np.array(FLOAT_SPECIALS, dtype=dtype)
    y = np.array(FLOAT_SPECIALS[::-1], dtype=dtype)
    grid_x = np.repeat(x, len(y))
    grid_y = np.tile(y, len(x))
    return grid_x.reshape(15, 15), grid_y.reshape(15, 15)


def _int_inputs(dtype):
    info = np.iinfo(dtype)
    vals = np.array(sorted({info.min, info.min + 1, -7, -2, -1, 0, 1, 2, 3, 7, 100 % (info.max + 1), info.max}
                           if info.min < 0 else {0, 1, 2, 3, 7, 100, info.max - 1, info.max}), dtype=dtype)
    return np.repeat(vals, len(vals)).reshape(len(vals), -1), np.tile(vals, len(vals)).reshape(len(vals), -1)


def _run_all(names, arity, x, y):
    """Compile one graph holding every op; return (compiled, reference, eager) outputs."""
    prims = [PRIMITIVES[n] for n in names]

    def fn(a, b):
        return [bind(p, (a, b) if arity == 2 else (a,), {}) for p in prims]

    g = trace(fn, [aval(x.shape, x.dtype), aval(y.shape, y.dtype)])
    ex = compile_graph(g)
    assert ex.uses_c
    fused = [n for n in ex.optimized_graph.nodes if n.op == "fused"]
    assert len(fused) == len(names), "every op should become a kernel"
    with np.errstate(all="ignore"):
        compiled = ex(x, y)
        reference = run_reference(g, [x, y])
        eager = [bind(p, (Tensor(x), Tensor(y)) if arity == 2 else (Tensor(x),), {})._value for p in prims]
    return compiled, reference, eager


def _check(names, results, exact, rtol=0.0, atol=0.0):
    compiled, reference, eager = results
    for name, c, r, e in zip(names, compiled, reference, eager):
        assert c.dtype == np.asarray(r).dtype, name
        np.testing.assert_array_equal(r, e, err_msg=name)
        if exact:
            np.testing.assert_array_equal(c, r, err_msg=name)
        else:
            np.testing.assert_allclose(c, r, rtol=rtol, atol=atol, err_msg=name)
            np.testing.assert_array_equal(np.isnan(c), np.isnan(r), err_msg=name)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_ops(dtype):
    x, y = _float_inputs(dtype)
    _check(EXACT_FLOAT_UNARY, _run_all(EXACT_FLOAT_UNARY, 1, x, y), exact=True)
    _check(EXACT_FLOAT_BINARY, _run_all(EXACT_FLOAT_BINARY, 2, x, y), exact=True)
    rtol = 2e-6 if dtype == np.float32 else 1e-13
    # tan near its poles and erf/expm1 near 0 amplify last-bit differences: atol covers them
    _check(APPROX_FLOAT_UNARY, _run_all(APPROX_FLOAT_UNARY, 1, x, y), exact=False, rtol=rtol, atol=rtol)
    _check(APPROX_FLOAT_BINARY, _run_all(APPROX_FLOAT_BINARY, 2, x, y), exact=False, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint32])
def test_int_ops(dtype):
    x, y = _int_inputs(dtype)
    # TF defines neg, abs and sign for signed types only (bind refuses unsigned ones)
    unary = [n for n in INT_UNARY if not (np.dtype(dtype).kind == "u" and n in ("neg", "abs", "sign"))]
    _check(unary, _run_all(unary, 1, x, y), exact=True)
    _check(INT_BINARY, _run_all(INT_BINARY, 2, x, y), exact=True)


@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.uint16])
def test_int_division_matches_python_signs_and_raises_on_zero(dtype):
    x, y = _int_inputs(dtype)
    nonzero = np.where(y == 0, 1, y).astype(dtype)
    _check(["floordiv", "mod"], _run_all(["floordiv", "mod"], 2, x, nonzero), exact=True)
    g = trace(lambda a, b: [bind(PRIMITIVES["floordiv"], (a, b), {})], [aval(x.shape, dtype), aval(y.shape, dtype)])
    ex = compile_graph(g)
    with pytest.raises(ZeroDivisionError):
        ex(x, y)


def test_bool_ops():
    x = np.array([[True, False], [True, True], [False, False]])
    y = np.array([[True, True], [False, True], [False, True]])
    _check(BOOL_OPS, _run_all(BOOL_OPS, 2, x, y), exact=True)
    _check(["logical_not"], _run_all(["logical_not"], 1, x, y), exact=True)


CASTS = [(np.float32, np.float64), (np.float64, np.float32), (np.float32, np.int32), (np.float64, np.int64),
         (np.int32, np.float32), (np.int64, np.float64), (np.int32, np.int8), (np.uint8, np.int32),
         (np.float32, np.bool_), (np.int32, np.bool_), (np.bool_, np.float32), (np.int8, np.uint16),
         (np.float32, np.int8), (np.float64, np.uint8), (np.float32, np.uint16), (np.float64, np.int16),
         (np.float32, np.uint32), (np.float64, np.uint32)]


@pytest.mark.parametrize("src,dst", CASTS)
def test_cast(src, dst):
    if np.dtype(src).kind == "f":
        x = np.array([0.0, -0.0, 1.5, -1.5, 2.5, -7.0, 1e6, 3.9, np.nan, np.inf], dtype=src)
        if np.dtype(dst).kind in "iu":
            x = x[np.isfinite(x)]  # out-of-range float -> int is undefined in NumPy too
            if not X86:  # x86 C casts (ours and NumPy's) keep the low bits of the wide integer
                info = np.iinfo(dst)
                x = x[(np.trunc(x) >= info.min) & (np.trunc(x) <= info.max)]
    elif np.dtype(src).kind == "b":
        x = np.array([True, False, True])
    else:
        x = np.array([0, 1, -1, 127, -128, 100, 7], dtype=np.int64).astype(src)
    target = dtypes.as_dtype(dst)
    g = trace(lambda a: bind(PRIMITIVES["cast"], (a,), {"dtype": target}), [aval(x.shape, src)])
    ex = compile_graph(g)
    assert any(n.op == "fused" for n in ex.optimized_graph.nodes)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ex(x)[0], x.astype(dst))


def test_select_with_broadcast_and_reductions():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 7)).astype(np.float32)
    x[1, 2] = np.nan
    c = x > 0

    def fn(a, m):
        s = bind(PRIMITIVES["select"], (m, a, bind(PRIMITIVES["neg"], (a,), {})), {})
        outs = [s]
        for name in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod"):
            outs.append(bind(PRIMITIVES[name], (s,), {"axis": (1,), "keepdims": False}))
            outs.append(bind(PRIMITIVES[name], (a,), {"axis": (0, 1), "keepdims": True}))
        outs.append(bind(PRIMITIVES["reduce_any"], (m,), {"axis": (1,), "keepdims": False}))
        outs.append(bind(PRIMITIVES["reduce_all"], (m,), {"axis": (1,), "keepdims": True}))
        return outs

    g = trace(fn, [aval(x.shape), aval(x.shape, "bool")])
    ex = compile_graph(g)
    for got, want in zip(ex(x, c), run_reference(g, [x, c])):
        np.testing.assert_allclose(got, want, rtol=1e-5)
        assert got.shape == np.shape(want)


def test_empty_max_reduction_is_minus_infinity_like_tensorflow():
    x = np.zeros((3, 0), np.float32)
    g = trace(lambda a: bind(PRIMITIVES["reduce_max"], (a,), {"axis": (1,), "keepdims": False}), [aval(x.shape)])
    (got,) = compile_graph(g)(x)
    np.testing.assert_array_equal(got, np.full(3, -np.inf, np.float32))
    np.testing.assert_array_equal(got, run_reference(g, [x])[0])


def test_small_integer_and_bool_to_float_casts_go_through_int32_so_loops_vectorize():
    from tapeflow.compiler import c_templates as T
    from tapeflow.runtime import dtypes as D
    for src in (D.bool_, D.uint8, D.int8, D.int16):
        assert T._cast(src, D.float32) == "((float)(int32_t){0})"
    assert T._cast(D.int32, D.float32) == "((float){0})"
    # and the values are unchanged, compiled against the reference
    x = np.array([[-3.0, 0.0, 2.5, np.nan]], np.float32)
    g = trace(lambda a: bind(PRIMITIVES["cast"], (bind(PRIMITIVES["less"], (a, a * 0.5), {}),),
                             {"dtype": D.float32}), [aval(x.shape)])
    np.testing.assert_array_equal(compile_graph(g)(x)[0], run_reference(g, [x])[0])

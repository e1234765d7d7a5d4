"""CUDA source generation, checked on the CPU.

1. Golden text: the module generated for each fused-cluster kind (elementwise
   with broadcasting, casts, trailing-axis reductions, softmax, layer norm, GELU)
   equals tests/golden/cuda_<case>.cu.  After an intended change of the
   renderer, regenerate with TAPEFLOW_UPDATE_GOLDEN=1 and review the diff.
2. Host emulation: the same source, compiled by the host C++ compiler with a
   shim for the CUDA built-ins (one thread per block, one block), runs inside
   the GPU executor (DeviceProgram over NumPy) and must match the reference
   interpreter.  This checks that the kernels compile and compute the right
   values; only the parallel block reduction is left to the GPU run
   (benchmarks/gpu_check.py).
"""
import ctypes
import os
import shutil
import subprocess

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import codegen_cuda, run_reference
from tapeflow.compiler.executor_cuda import CudaKernels, DeviceProgram
from tapeflow.compiler.passes import optimize
from tapeflow.compiler.testing import aval, trace

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")


def _layer_norm(x, g, b):
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    var = tf.reduce_mean(tf.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * tf.math.rsqrt(var + 1e-5) * g + b


CASES = {
    "flat_scalar": (lambda x: x * 2.0 + 1.0, [aval((5, 7))]),
    "broadcast": (lambda x, b, s: tf.nn.relu(x * s + b), [aval((4, 8)), aval((8,)), aval((4, 1))]),
    "general_broadcast": (lambda x, y: tf.maximum(x, y) - x, [aval((3, 1, 5)), aval((1, 4, 1))]),
    "casts": (lambda x, i: [tf.cast(i, tf.float32) * x, tf.cast(x > 0.0, tf.int32) + i],
              [aval((6, 5)), aval((6, 5), tf.int32)]),
    "int_division": (lambda x, y: [x // y, x % y], [aval((4, 4), tf.int32), aval((4, 4), tf.int32)]),
    "reduce_rows": (lambda x: [tf.reduce_sum(x * x, axis=-1), tf.reduce_max(x, axis=1), tf.reduce_min(x, axis=[1, 2])],
                    [aval((6, 10, 3))]),
    "reduce_bool": (lambda x: [tf.reduce_any(x > 0.5, axis=-1), tf.reduce_all(x > -0.5, axis=-1)], [aval((5, 9))]),
    "softmax": (lambda x: tf.nn.softmax(x), [aval((8, 16))]),
    "layer_norm": (_layer_norm, [aval((6, 32)), aval((32,)), aval((32,))]),
    "gelu": (lambda x: [tf.nn.gelu(x), tf.nn.gelu(x, approximate=True)], [aval((64,))]),
}


def _kernel_sources(case):
    fn, avals = CASES[case]
    g = optimize(trace(fn, avals, name=case))
    sources = []
    for i, node in enumerate(n for n in g.nodes if n.op == "fused"):
        src, spec = codegen_cuda.render_fused(node, f"tf_fused_{i}")
        sources.append(src)
    assert sources, f"{case}: fusion made no kernel"
    return sources


def _check_golden(name, text):
    path = os.path.join(GOLDEN, name)
    if os.environ.get("TAPEFLOW_UPDATE_GOLDEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    with open(path) as f:
        expected = f.read()
    assert text == expected, f"generated CUDA differs from {path} (TAPEFLOW_UPDATE_GOLDEN=1 rewrites it)"


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_cuda_source(case):
    # The kernels alone: the prelude every module starts with has a golden of its own.
    sources = _kernel_sources(case)
    _check_golden(f"cuda_{case}.cu", "\n\n".join(sources) + "\n")
    assert codegen_cuda.module_source(sources) == codegen_cuda.PRELUDE + "\n" + "\n\n".join(sources) + "\n"


def test_golden_cuda_prelude():
    _check_golden("cuda_prelude.cu", codegen_cuda.PRELUDE)


def test_cluster_kinds_choose_their_launch_shape():
    def modes(case):
        fn, avals = CASES[case]
        g = optimize(trace(fn, avals))
        return [codegen_cuda.render_fused(n, "k")[1].mode for n in g.nodes if n.op == "fused"]

    assert modes("flat_scalar") == ["flat"]
    assert modes("broadcast") == ["grid"]
    assert "rows" in modes("softmax") and "rows" in modes("layer_norm")
    assert set(modes("gelu")) == {"flat"}


def test_launch_config():
    assert codegen_cuda.launch_config("flat", 1, 1 << 26, 132) == (132 * 32, 256)
    assert codegen_cuda.launch_config("flat", 1, 10, 132) == (1, 256)
    assert codegen_cuda.launch_config("rows", 16384, 4096, 132) == (132 * 64, 256)
    assert codegen_cuda.launch_config("rows", 3, 10, 132) == (3, 32)  # whole warps, at least one
    assert codegen_cuda.launch_config("rows", 3, 100, 132) == (3, 128)


# ---------------------------------------------------------------- host emulation
SHIM = r"""
#include <math.h>
#include <string.h>
#define TF_HOST_EMULATION 1
inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
inline double __longlong_as_double(long long i) { double d; memcpy(&d, &i, 8); return d; }
#define __global__
#define __device__
#define __forceinline__ inline
struct tf_dim3 { unsigned x, y, z; };
static const tf_dim3 threadIdx = {0, 0, 0}, blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
template <class T, class Op> T tf_block_reduce(T v, Op) { return v; }  // one thread: nothing to combine
"""


class HostKernels(CudaKernels):
    """CudaKernels whose module is built by the host C++ compiler (see SHIM)."""

    def __init__(self, tmp_path):
        super().__init__(np)
        self.tmp_path = tmp_path
        self._lib = None
        self._sm_count = 1

    def function(self, name):
        if self._lib is None:
            src = self.tmp_path / "module.cpp"
            src.write_text(SHIM + self.source)
            lib = self.tmp_path / "module.so"
            subprocess.run(["g++", "-std=c++11", "-O1", "-fPIC", "-shared", "-fwrapv", "-o", str(lib), str(src)],
                           check=True, capture_output=True, text=True)
            self._lib = ctypes.CDLL(str(lib))
        cfn = getattr(self._lib, name)

        def launch(grid, block, args):
            cargs = [ctypes.c_void_p(a.ctypes.data) if isinstance(a, np.ndarray) else ctypes.c_int64(int(a))
                     for a in args]
            cfn(*cargs)
        return launch


def _inputs(avals, seed):
    rng = np.random.default_rng(seed)
    out = []
    for a in avals:
        if a.dtype.is_integer:
            out.append(rng.integers(-9, 10, size=a.shape).astype(a.dtype.np))
        else:
            out.append(rng.standard_normal(a.shape).astype(a.dtype.np))
    return out


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs a host C++ compiler")
@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_cuda_computes_the_reference(case, tmp_path):
    fn, avals = CASES[case]
    g = trace(fn, avals, name=case)
    kernels = HostKernels(tmp_path)
    program = DeviceProgram(g, np, kernels)
    assert kernels.entries, "no fused kernel to check"
    args = _inputs(avals, 0)
    if case == "int_division":
        args[1][0, :2] = 0  # division by zero: the GPU convention gives 0
    got = program(*args)
    want = run_reference(g, args) if case != "int_division" else _int_division_reference(*args)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-6)


def _int_division_reference(x, y):
    safe = np.where(y == 0, 1, y)
    return [np.where(y == 0, 0, x // safe).astype(x.dtype), np.where(y == 0, 0, x % safe).astype(x.dtype)]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs a host C++ compiler")
def test_emulated_kernels_handle_unknown_dims(tmp_path):
    g = trace(lambda x, b: tf.nn.softmax(x + b), [aval((None, 12)), aval((12,))])
    kernels = HostKernels(tmp_path)
    program = DeviceProgram(g, np, kernels)
    for rows in (1, 5):
        x, b = _inputs([aval((rows, 12)), aval((12,))], rows)
        np.testing.assert_allclose(program(x, b)[0], run_reference(g, [x, b])[0], rtol=2e-6, atol=1e-7)


def loop_branch_gradient_graph():
    """A while loop, a cond and a tape gradient in one graph (shared with the GPU tests)."""
    from tapeflow.compiler.testing import cond, while_loop

    def f(x, w):
        i = tf.constant(0)
        _, y = while_loop(lambda i, y, w: i < 3, lambda i, y, w: (i + 1, tf.tanh(tf.matmul(y, w))), [i, x], [w])
        (z,) = cond(tf.reduce_sum(y) > 0, lambda a: [a * 2.0], lambda a: [a - 1.0], [y])
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(tf.nn.gelu(tf.matmul(z, w)))
        return [z, tape.gradient(loss, w)]

    avals = [aval((4, 8)), aval((8, 8))]
    return trace(f, avals), avals


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs a host C++ compiler")
def test_emulated_kernels_in_loops_branches_and_gradients(tmp_path):
    g, avals = loop_branch_gradient_graph()
    kernels = HostKernels(tmp_path)
    program = DeviceProgram(g, np, kernels)
    assert len(kernels.entries) >= 3  # kernels of the loop body and branches share the module
    args = [a * 0.3 for a in _inputs(avals, 2)]
    for a, b in zip(program(*args), run_reference(g, args)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)

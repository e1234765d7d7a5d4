"""On a real GPU (CuPy): every op forward and gradient against the CPU, and
compiled graphs (generated CUDA kernels) against the reference interpreter.
Skipped where CuPy or a CUDA device is missing; benchmarks/gpu_check.py runs it."""
import numpy as np
import pytest

cupy = pytest.importorskip("cupy")

import tapeflow as tf  # noqa: E402
from tapeflow.compiler import run_reference  # noqa: E402
from tapeflow.compiler.executor_cuda import compile_graph_cuda  # noqa: E402
from tapeflow.compiler.testing import aval, trace  # noqa: E402
from tapeflow.runtime import devices  # noqa: E402

from test_codegen_cuda import CASES, _inputs, loop_branch_gradient_graph  # noqa: E402


def _gpu_count():
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


pytestmark = pytest.mark.skipif(_gpu_count() == 0, reason="requires a CUDA GPU (cupy.cuda.runtime.getDeviceCount() == 0)")

R = np.random.default_rng(0)
F = (3, 5)

# name -> (function of tensors, input arrays); gradients are checked for float inputs
OPS = {
    "neg": (lambda x: -x, [R.standard_normal(F)]),
    "abs": (tf.abs, [R.standard_normal(F)]),
    "exp": (tf.exp, [R.standard_normal(F)]),
    "expm1": (tf.math.expm1, [R.standard_normal(F)]),
    "log": (lambda x: tf.math.log(tf.abs(x) + 0.5), [R.standard_normal(F)]),
    "log1p": (lambda x: tf.math.log1p(tf.abs(x)), [R.standard_normal(F)]),
    "sqrt": (lambda x: tf.sqrt(tf.abs(x) + 0.1), [R.standard_normal(F)]),
    "rsqrt": (lambda x: tf.math.rsqrt(tf.abs(x) + 0.1), [R.standard_normal(F)]),
    "sin": (tf.sin, [R.standard_normal(F)]),
    "cos": (tf.cos, [R.standard_normal(F)]),
    "tan": (lambda x: tf.tan(x * 0.3), [R.standard_normal(F)]),
    "tanh": (tf.tanh, [R.standard_normal(F)]),
    "sigmoid": (tf.sigmoid, [R.standard_normal(F) * 4]),
    "erf": (tf.math.erf, [R.standard_normal(F)]),
    "relu": (tf.nn.relu, [R.standard_normal(F)]),
    "gelu": (tf.nn.gelu, [R.standard_normal(F)]),
    "softplus": (tf.nn.softplus, [R.standard_normal(F)]),
    "floor_round": (lambda x: tf.floor(x * 3) + tf.round(x * 3), [R.standard_normal(F)]),
    "add_sub_mul_div": (lambda x, y: (x + y) * x - x / (tf.abs(y) + 1), [R.standard_normal(F), R.standard_normal(F)]),
    "broadcast": (lambda x, y: x * y + y, [R.standard_normal(F), R.standard_normal((5,))]),
    "pow": (lambda x, y: tf.pow(tf.abs(x) + 0.5, y), [R.standard_normal(F), R.standard_normal(F)]),
    "maximum_minimum": (lambda x, y: tf.maximum(x, y) + tf.minimum(x, y) * 2, [R.standard_normal(F), R.standard_normal(F)]),
    "atan2": (tf.math.atan2, [R.standard_normal(F), R.standard_normal(F)]),
    "where": (lambda x, y: tf.where(x > y, x * 2, y), [R.standard_normal(F), R.standard_normal(F)]),
    "cast": (lambda x: tf.cast(tf.cast(x * 10, tf.int32), tf.float64) * tf.cast(x, tf.float64), [R.standard_normal(F)]),
    "reduce_sum": (lambda x: tf.reduce_sum(x, axis=1) + tf.reduce_sum(x), [R.standard_normal(F)]),
    "reduce_mean": (lambda x: tf.reduce_mean(x, axis=0), [R.standard_normal(F)]),
    "reduce_max_min": (lambda x: tf.reduce_max(x, axis=1) - tf.reduce_min(x, axis=0)[:3], [R.standard_normal(F)]),
    "reduce_prod": (lambda x: tf.reduce_prod(x, axis=1), [R.standard_normal(F)]),
    "softmax": (tf.nn.softmax, [R.standard_normal(F)]),
    "log_softmax": (tf.nn.log_softmax, [R.standard_normal(F)]),
    "matmul": (tf.matmul, [R.standard_normal((4, 3)), R.standard_normal((3, 5))]),
    "transpose_reshape": (lambda x: tf.reshape(tf.transpose(x), [5, 3]) * 2, [R.standard_normal(F)]),
    "concat_stack": (lambda x, y: tf.concat([x, y], axis=0)[2:5] + tf.stack([x, y])[1], [R.standard_normal(F), R.standard_normal(F)]),
    "slice": (lambda x: x[1:, ::2] * 3, [R.standard_normal(F)]),
    "gather": (lambda x: tf.gather(x, [2, 0, 2], axis=0), [R.standard_normal(F)]),
    "conv2d": (lambda x, w: tf.nn.conv2d(x, w, strides=1, padding="SAME"),
               [R.standard_normal((2, 5, 5, 3)), R.standard_normal((3, 3, 3, 4))]),
    "cumsum": (lambda x: tf.math.cumsum(x, axis=1), [R.standard_normal(F)]),
    "l2_normalize": (lambda x: tf.math.l2_normalize(x, axis=-1), [R.standard_normal(F)]),
    "argmax": (lambda x: tf.argmax(x, axis=1), [R.standard_normal(F)]),
    "one_hot": (lambda x: tf.one_hot(tf.argmax(x, axis=1), 4), [R.standard_normal(F)]),
}


def _run(fn, arrays, gpu):
    """(outputs, gradients) as NumPy, eager on the CPU or inside tf.device('/gpu:0')."""
    with tf.device("/gpu:0" if gpu else "/cpu:0"):
        ts = [tf.constant(a.astype(np.float32)) for a in arrays]
        with tf.GradientTape() as tape:
            for t in ts:
                tape.watch(t)
            out = fn(*ts)
            loss = tf.reduce_sum(tf.cast(out, tf.float32) * 1.5) if out.dtype.is_floating else None
        grads = tape.gradient(loss, ts) if loss is not None else [None] * len(ts)
    if gpu:
        assert out.device.endswith("GPU:0"), f"output placed on {out.device}"
    return out.numpy(), [None if g is None else g.numpy() for g in grads]


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_forward_and_gradient_match_the_cpu(name):
    fn, arrays = OPS[name]
    cpu_out, cpu_grads = _run(fn, arrays, gpu=False)
    gpu_out, gpu_grads = _run(fn, arrays, gpu=True)
    assert gpu_out.dtype == cpu_out.dtype and gpu_out.shape == cpu_out.shape
    np.testing.assert_allclose(gpu_out, cpu_out, rtol=2e-5, atol=2e-5)
    for cg, gg in zip(cpu_grads, gpu_grads):
        assert (cg is None) == (gg is None)
        if cg is not None:
            np.testing.assert_allclose(gg, cg, rtol=2e-4, atol=2e-5)


def test_mixed_devices_copy_to_the_op_device():
    with tf.device("/gpu:0"):
        g = tf.constant([1.0, 2.0])
    c = tf.constant([3.0, 4.0])
    assert (g + c).device.endswith("GPU:0")
    with tf.device("/cpu:0"):
        h = tf.identity(g)
    assert h.device.endswith("CPU:0") and h.numpy().tolist() == [1.0, 2.0]
    assert tf.config.list_physical_devices("GPU")


@pytest.mark.parametrize("case", sorted(CASES))
def test_compiled_kernels_match_the_reference(case):
    fn, avals = CASES[case]
    g = trace(fn, avals, name=case)
    ex = compile_graph_cuda(g)
    args = _inputs(avals, 1)
    if case == "int_division":
        args[1] = np.where(args[1] == 0, 3, args[1]).astype(np.int32)
    got = ex(*[cupy.asarray(a) for a in args])
    for a, b in zip(got, run_reference(g, args)):
        assert isinstance(a, cupy.ndarray) and a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a.get(), b, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(1, 1), (3, 1000), (7, 33), (2, 5000), (4097, 3), (0, 5)])
def test_row_kernels_over_shapes(shape):
    g = trace(lambda x: [tf.nn.softmax(x), tf.reduce_sum(x, axis=-1), tf.reduce_max(x, axis=-1)],
              [aval((None, shape[1]))])
    ex = compile_graph_cuda(g)
    x = R.standard_normal(shape).astype(np.float32)
    x[0:1, 0:1] = np.nan if shape[0] and shape[1] > 1 and shape[0] > 2 else x[0:1, 0:1]
    for a, b in zip(ex(cupy.asarray(x)), run_reference(g, [x])):
        np.testing.assert_allclose(a.get(), b, rtol=2e-5, atol=1e-6)


def test_compiled_control_flow_and_gradients_on_the_gpu():
    g, avals = loop_branch_gradient_graph()
    args = [a * 0.3 for a in _inputs(avals, 2)]
    got = compile_graph_cuda(g)(*[cupy.asarray(a) for a in args])
    for a, b in zip(got, run_reference(g, args)):
        np.testing.assert_allclose(a.get(), b, rtol=1e-4, atol=1e-5)


def test_compile_graph_places_calls():
    from tapeflow.compiler import compile_graph
    g = trace(lambda x: tf.nn.gelu(x) * 2.0, [aval((1000,))])
    ex = compile_graph(g)
    x = R.standard_normal(1000).astype(np.float32)
    with tf.device("/gpu:0"):
        on_gpu = ex(x)[0]
    on_cpu = ex(x)[0]
    assert isinstance(on_gpu, cupy.ndarray) and isinstance(on_cpu, np.ndarray)
    np.testing.assert_allclose(on_gpu.get(), on_cpu, rtol=2e-6, atol=1e-6)
    assert devices.runs_on_gpu([on_gpu])

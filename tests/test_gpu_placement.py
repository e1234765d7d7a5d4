"""Device placement logic, checked on the CPU with a stand-in GPU.

`FakeCupy` is NumPy whose arrays are a distinct class with a CUDA array
interface and `.get()`: enough for runtime.devices to treat them as GPU arrays,
so placement, copies between devices, tapes and compiled calls are tested
without CUDA.  The real CuPy runs in tests/test_gpu_cupy.py (skipped without a GPU).
"""
import contextlib
import types
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import executor, executor_cuda
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime import devices, registry


class FakeGpuArray(np.ndarray):
    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (0, False), "version": 3}

    def get(self):
        return np.array(self).view(np.ndarray)


def _to_fake(v):
    if isinstance(v, FakeGpuArray):
        return v
    if isinstance(v, (np.ndarray, np.generic)):
        return np.array(v).view(FakeGpuArray)  # a copy: a transfer makes new memory
    if isinstance(v, (tuple, list)):
        return type(v)(_to_fake(x) for x in v)
    return v


class FakeCupy:
    """NumPy under another name: every array it returns is a FakeGpuArray."""

    cuda = types.SimpleNamespace(Device=lambda index: contextlib.nullcontext())

    def __init__(self, module=np):
        self._module = module

    def asarray(self, a, dtype=None):
        if isinstance(a, FakeGpuArray) and dtype in (None, a.dtype):
            return a
        host = a.get() if isinstance(a, FakeGpuArray) else a
        return np.array(host, dtype=dtype).view(FakeGpuArray)

    def __getattr__(self, name):
        attr = getattr(self._module, name)
        if isinstance(attr, types.ModuleType):
            return FakeCupy(attr)
        if callable(attr) and not isinstance(attr, type):
            return lambda *a, **k: _to_fake(attr(*a, **k))
        return attr


@pytest.fixture
def fake_gpu(monkeypatch):
    fake = FakeCupy()
    monkeypatch.setattr(devices, "_gpu_count", 1)
    monkeypatch.setattr(devices, "_cupy", fake)
    monkeypatch.setattr(devices, "_small_copies", {})
    monkeypatch.setattr(registry, "place", None)
    monkeypatch.setattr(executor_cuda, "compile_graph_cuda",
                        lambda g: executor_cuda.DeviceProgram(g, fake))
    yield fake


def _on_gpu(t):
    return isinstance(t._value, FakeGpuArray) and t.device.endswith("GPU:0")


def test_cpu_programs_never_install_the_placement_hook():
    assert registry.place is None or devices.gpu_module() is not None
    x = tf.constant([1.0, 2.0]) * 2.0
    assert type(x._value) is np.ndarray and x.device.endswith("CPU:0")


def test_gpu_block_places_new_tensors_and_ops(fake_gpu):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a present GPU gives no fallback warning
        with tf.device("/gpu:0"):
            x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
            y = tf.nn.relu(x) * 2.0 + 1.0
            z = tf.zeros_like(x)
            f = tf.fill([2], 7.0)
    assert all(_on_gpu(t) for t in (x, y, z, f))
    assert type(y.numpy()) is np.ndarray and y.numpy().tolist() == [[3.0, 1.0], [7.0, 9.0]]
    assert devices.current_device() == "" and registry.state.xp is np


def test_ops_follow_their_inputs_outside_tf_device(fake_gpu):
    with tf.device("/gpu:0"):
        g = tf.constant([1.0, 2.0, 3.0])
    c = tf.constant([10.0, 20.0, 30.0])
    assert not _on_gpu(c)
    s = g + c  # mixed: runs on the GPU, the CPU operand is copied there
    assert _on_gpu(s) and s.numpy().tolist() == [11.0, 22.0, 33.0]
    assert not _on_gpu(c * 2.0)  # CPU-only inputs stay on the CPU


def test_identity_under_another_device_copies(fake_gpu):
    with tf.device("/gpu:0"):
        g = tf.constant([1.0, 2.0])
    with tf.device("/cpu:0"):
        h = tf.identity(g)
        s = g + 1.0
    assert type(h._value) is np.ndarray and h.numpy().tolist() == [1.0, 2.0]
    assert not _on_gpu(s)
    with tf.device("/gpu:0"):
        back = tf.identity(h)
    assert _on_gpu(back) and back._value is not g._value


def test_small_host_constants_are_copied_once(fake_gpu):
    with tf.device("/gpu:0"):
        x = tf.constant([1.0, 2.0])
        a = x * 3.0
        b = x * 3.0
    assert a.numpy().tolist() == b.numpy().tolist() == [3.0, 6.0]
    assert len(devices._small_copies) >= 1
    copies = dict(devices._small_copies)
    with tf.device("/gpu:0"):
        x * 3.0
    assert devices._small_copies == copies


def test_gradients_on_the_gpu(fake_gpu):
    with tf.device("/gpu:0"):
        w = tf.Variable([[0.5, -1.0], [2.0, 0.25]])
        x = tf.constant([[1.0, 2.0]])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
        gw = tape.gradient(loss, w)
    assert _on_gpu(gw)
    h = np.tanh(np.array([[1.0, 2.0]]) @ np.array([[0.5, -1.0], [2.0, 0.25]]))
    want = np.array([[1.0], [2.0]]) @ (1 - h * h)
    np.testing.assert_allclose(gw.numpy(), want, rtol=1e-4, atol=1e-6)
    assert "numpy=" in repr(w)


def test_compiled_graph_runs_where_the_call_is_placed(fake_gpu):
    g = trace(lambda x: tf.nn.softmax(x * 2.0), [aval((3, 4))])
    ex = executor.compile_graph(g)
    assert isinstance(ex, executor_cuda.PlacedExecutable)
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    cpu = ex(x)[0]
    assert type(cpu) is np.ndarray
    with tf.device("/gpu:0"):
        gpu = ex(x)[0]
    assert isinstance(gpu, FakeGpuArray)
    with tf.device("/gpu:0"):
        on_gpu = tf.constant(x)
    follows = ex(on_gpu._value)[0]  # no tf.device: follows the input
    assert isinstance(follows, FakeGpuArray)
    with tf.device("/cpu:0"):
        back = ex(on_gpu._value)[0]  # a GPU input to a CPU call is copied over
    assert type(back) is np.ndarray
    for out in (gpu, follows, back):
        np.testing.assert_allclose(np.asarray(out.get() if hasattr(out, "get") else out), cpu, rtol=1e-6)


def test_device_program_assign_keeps_the_variable_device(fake_gpu):
    v = tf.Variable([1.0, 2.0])  # on the CPU

    def body(x):
        v.assign(v.value() + x)
        return v.value() * 2.0

    g = trace(body, [aval((2,))])
    program = executor_cuda.DeviceProgram(g, fake_gpu)
    out = program(np.array([1.0, 1.0], np.float32))[0]
    assert isinstance(out, FakeGpuArray) and out.get().tolist() == [4.0, 6.0]
    assert type(v._value._value) is np.ndarray and v.numpy().tolist() == [2.0, 3.0]


def test_soft_placement_off_without_a_gpu(monkeypatch):
    monkeypatch.setattr(devices, "_gpu_count", 0)
    monkeypatch.setattr(devices, "_cupy", None)
    tf.config.set_soft_device_placement(False)
    try:
        with pytest.raises(tf.InvalidArgumentError, match="there is no GPU:0"):
            tf.device("/gpu:0")
    finally:
        tf.config.set_soft_device_placement(True)

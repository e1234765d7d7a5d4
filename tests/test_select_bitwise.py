"""select_numpy: select on large NumPy arrays (a bitwise select, not np.where): np.where's
bits for every dtype it takes, broadcasting each way, strided operands, NaN payloads,
infinities and signed zeros; the small and the other dtypes through np.where."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime.ops import select_numpy

RNG = np.random.default_rng(3)
N = select_numpy.SELECT_BITWISE_MIN


def _values(shape, dtype):
    if np.dtype(dtype) == np.bool_:
        return RNG.random(shape) < 0.5
    if np.dtype(dtype).kind == "c":
        return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        v = RNG.standard_normal(shape).astype(dtype)
        v.flat[::7] = np.nan
        v.flat[1::7] = -0.0
        v.flat[2::7] = -np.inf
        return v
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int8, np.int64, np.uint16, np.bool_,
                                   np.complex64, np.complex128])
@pytest.mark.parametrize("shapes", [
    ((N,), (N,), (N,)),
    ((4, N // 4), (4, 1), (N // 4,)),  # x and y broadcast up to the condition
    ((4, 1), (4, N // 4), (4, N // 4)),  # the condition broadcast
    ((), (N,), ()),
])
def test_select_gives_np_wheres_bits(dtype, shapes):
    c = RNG.random(shapes[0]) < 0.5
    x, y = _values(shapes[1], dtype), _values(shapes[2], dtype)
    got = select_numpy.select_impl(np, c, x, y)
    want = np.where(c, x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


def test_strided_operands():
    c = (RNG.random((2 * N,)) < 0.5)[::2]
    x = RNG.standard_normal((N, 3)).astype(np.float32)[:, 1]
    y = RNG.standard_normal((2 * N,)).astype(np.float32)[::-2]
    np.testing.assert_array_equal(select_numpy.select_impl(np, c, x, y), np.where(c, x, y))


def test_leaky_relu_and_its_gradient_through_the_bitwise_select():
    x = tf.constant(_values((N,), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.leaky_relu(x, 0.2)
    g = tape.gradient(y, x, output_gradients=tf.ones_like(x)).numpy()
    v = x.numpy()
    np.testing.assert_array_equal(y.numpy(), np.where(v > 0, v, np.float32(0.2) * v))
    np.testing.assert_array_equal(g, np.where(v > 0, 1, np.float32(0.2)).astype(np.float32))


def test_relu_gradient_is_tensorflows_product():
    # relu's gradient is TF's ReluGrad, dy * (y > 0): NaN where an inf/NaN dy meets y <= 0 and
    # -0.0 for a negative dy there (recorded from TF in the perfeager_grads parity programs)
    v = _values((N,), np.float32)
    x = tf.constant(v)
    g = tf.constant(_values((N,), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.relu(x)
    got = tape.gradient(y, x, output_gradients=g).numpy()
    want = g.numpy() * (np.maximum(v, 0) > 0).astype(np.float32)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))

"""The C pooling kernels of compiler/pool_c.py against their NumPy paths: the same bits
for every geometry and dtype (ties, NaN and -inf in the max pools), and the NumPy path
without C."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import flags
from tapeflow.runtime.ops import conv_ops, pool_ops

RNG = np.random.default_rng(12)

POOLS = [((2, 7, 6, 3), (3, 3), (2, 2), "SAME"), ((1, 6, 6, 2), (2, 2), (2, 2), "VALID"),
         ((2, 5, 7, 2), (3, 2), (1, 1), "SAME"), ((1, 8, 5, 1), (4, 3), (3, 2), "SAME"),
         ((3, 9, 8, 5), (2, 2), (3, 3), "SAME"),  # strides past the window
         ((1, 9, 9, 70), (3, 3), (1, 1), "SAME"),  # channels past one block of the kernels
         ((1, 2, 5, 2), (3, 3), (1, 1), "VALID")]  # the last: an empty output


def _pool_modes(x, v_out, v_in, ksize, strides, padding):
    y, arg = pool_ops._max_pool_impl(np, x, ksize=ksize, strides=strides, padding=padding)
    return [y, arg, pool_ops._route_impl(np, arg, v_out, x, mode="scatter"),
            pool_ops._route_impl(np, arg, v_in, mode="gather")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, ksize, strides, padding", POOLS)
def test_max_pool_kernels_give_the_numpy_paths_bits(shape, ksize, strides, padding, dtype, monkeypatch):
    if pool_ops.native("max_pool", dtype) is None or pool_ops.native("max_pool_route", dtype) is None:
        pytest.skip("no C compiler")
    x = np.round(RNG.standard_normal(shape) * 2).astype(dtype)  # many ties
    x.flat[::7] = np.nan
    x.flat[3::11] = -np.inf
    oh, ow = conv_ops.geometry(shape, ksize, strides, (1, 1), padding)[:2]
    v_out = RNG.standard_normal((shape[0], oh, ow, shape[3])).astype(dtype)
    v_in = RNG.standard_normal(shape).astype(dtype)
    native = _pool_modes(x, v_out, v_in, ksize, strides, padding)
    monkeypatch.setattr(pool_ops, "native", None)
    for a, b in zip(native, _pool_modes(x, v_out, v_in, ksize, strides, padding)):
        np.testing.assert_array_equal(a, b)




@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, ksize, strides, padding", POOLS)
def test_avg_pool_kernels_give_the_numpy_paths_bits(shape, ksize, strides, padding, dtype, monkeypatch):
    if pool_ops.native("avg_pool", dtype) is None:
        pytest.skip("no C compiler")
    x = RNG.standard_normal(shape).astype(dtype)
    x.flat[::5] = -0.0
    attrs = {"ksize": ksize, "strides": strides, "padding": padding}
    oh, ow = conv_ops.geometry(shape, ksize, strides, (1, 1), padding)[:2]
    g = RNG.standard_normal((shape[0], oh, ow, shape[3])).astype(dtype)
    native = [pool_ops._avg_pool_impl(np, x, **attrs), pool_ops._avg_pool_grad_impl(np, g, x, **attrs)]
    monkeypatch.setattr(pool_ops, "native", None)
    for a, b in zip(native, [pool_ops._avg_pool_impl(np, x, **attrs), pool_ops._avg_pool_grad_impl(np, g, x, **attrs)]):
        np.testing.assert_array_equal(a.view(np.uint8), np.ascontiguousarray(b).view(np.uint8))  # zeros' signs too


def _sequential_avg(x, ksize, strides, padding):
    """NumPy reference: +0, the window's real pixels added in row-major order, / count."""
    n, h, w, c = x.shape
    oh, ow, ph, pw = conv_ops.geometry(x.shape, ksize, strides, (1, 1), padding)
    out = np.zeros((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * strides[0] - ph[0], j * strides[1] - pw[0]
            rows, cols = range(max(r0, 0), min(r0 + ksize[0], h)), range(max(c0, 0), min(c0 + ksize[1], w))
            for r in rows:
                for q in cols:
                    out[:, i, j] += x[:, r, q]
            out[:, i, j] /= x.dtype.type(len(rows) * len(cols))
    return out


@pytest.mark.parametrize("shape, ksize, strides, padding", POOLS)
def test_avg_pool_sums_each_window_in_order(shape, ksize, strides, padding):
    x = RNG.standard_normal(shape).astype(np.float32)
    got = tf.nn.avg_pool2d(tf.constant(x), ksize, strides, padding).numpy()
    np.testing.assert_array_equal(got, _sequential_avg(x, ksize, strides, padding))


def test_no_c_and_other_dtypes_take_the_numpy_path():
    assert pool_ops.native("max_pool", np.float16) is None and pool_ops.native("avg_pool", np.float16) is None
    x = RNG.standard_normal((2, 7, 6, 3))
    with flags(no_c=1):
        assert pool_ops.native("avg_pool", np.float64) is None
        plain = [tf.nn.avg_pool2d(x, 3, 2, "SAME").numpy(), tf.nn.max_pool2d(x, 3, 2, "SAME").numpy()]
    np.testing.assert_array_equal(plain[0], tf.nn.avg_pool2d(x, 3, 2, "SAME").numpy())
    np.testing.assert_array_equal(plain[1], tf.nn.max_pool2d(x, 3, 2, "SAME").numpy())


def test_a_pixel_that_is_the_maximum_of_several_windows_sums_them_tap_after_tap(monkeypatch):
    """3x3 SAME windows at stride 1 over a 3x3 image with one peak: all nine route to it,
    added in the order of one pass per tap over the output (tap 0 is the bottom right
    window's), by both paths."""
    x = np.zeros((1, 3, 3, 1), np.float32)
    x[0, 1, 1, 0] = 1.0
    g = np.float32([1e8, 1.0, -1e8, 3.0, 0.5, 7.0, -3.0, 2.0, 1e-3]).reshape(1, 3, 3, 1)
    want = np.float32(0)
    for v in g.reshape(-1)[::-1]:
        want = np.float32(want + v)
    for native in (pool_ops.native, None):
        monkeypatch.setattr(pool_ops, "native", native)
        y, arg = pool_ops._max_pool_impl(np, x, ksize=(3, 3), strides=(1, 1), padding="SAME")
        assert np.all(y == 1.0) and np.all(arg == 4)  # pixel (1, 1) = 1 * 3 + 1
        got = pool_ops._route_impl(np, arg, g, x, mode="scatter")
        assert got[0, 1, 1, 0] == want and np.count_nonzero(got) == 1

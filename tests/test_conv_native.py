"""The C kernels of compiler/depthwise_c.py (depthwise forward and filter gradient) and
conv_c.py (col2im) against their NumPy paths: the same bits for every geometry and dtype
(the filter gradient: within rounding, its sums run in another order), and the NumPy
path without C."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import conv_c, flags
from tapeflow.runtime.ops import conv_ops, conv_variants

RNG = np.random.default_rng(11)

# (input shape, filter shape (KH, KW, C, M), strides, padding, dilations)
GEOMETRIES = [
    ((2, 9, 8, 5), (3, 3, 5, 1), 1, "SAME", 1),
    ((1, 7, 6, 3), (2, 3, 3, 2), 1, "VALID", 1),
    ((2, 8, 8, 4), (3, 3, 4, 1), 2, "SAME", 1),
    ((1, 9, 9, 2), (2, 2, 2, 3), 1, "SAME", 2),
    ((3, 6, 7, 1), (4, 3, 1, 1), 2, "VALID", 1),
    ((1, 2, 6, 2), (3, 3, 2, 1), 1, "VALID", 1),  # an empty output
    ((1, 7, 5, 3), (3, 3, 3, 1), 3, "SAME", 1),  # strides past the window, uneven pads
    ((1, 1, 1, 2), (3, 3, 2, 2), 1, "SAME", 1),  # a 1x1 image: every tap but the centre is padding
]


def _depthwise(x, w, s, p, d):
    return tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], p, dilations=[d, d]).numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, s, p, d", GEOMETRIES)
def test_c_kernel_gives_the_numpy_paths_bits(shape, kshape, s, p, d, dtype, monkeypatch):
    if conv_variants.native("depthwise", dtype) is None:
        pytest.skip("no C compiler")
    x, w = RNG.standard_normal(shape).astype(dtype), RNG.standard_normal(kshape).astype(dtype)
    w.flat[::5] = -w.flat[::5] * 0.0  # signed zero products
    x.flat[::7] = np.inf
    native = _depthwise(x, w, s, p, d)
    monkeypatch.setattr(conv_variants, "native", None)
    np.testing.assert_array_equal(native.view(np.uint8), _depthwise(x, w, s, p, d).view(np.uint8))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, s, p, d", GEOMETRIES)
def test_depthwise_input_grad_kernel_gives_the_numpy_paths_bits(shape, kshape, s, p, d, dtype, monkeypatch):
    if conv_variants.native("depthwise_input_grad", dtype) is None:
        pytest.skip("no C compiler")
    x, w = np.zeros(shape, dtype), RNG.standard_normal(kshape).astype(dtype)
    oh, ow = conv_ops.geometry(shape, kshape[:2], (s, s), (d, d), p)[:2]
    g = RNG.standard_normal((shape[0], oh, ow, kshape[2] * kshape[3])).astype(dtype)
    attrs = dict(strides=(s, s), dilations=(d, d), padding=p)
    native = conv_variants._input_grad_impl(np, g, w, x, **attrs)
    monkeypatch.setattr(conv_variants, "native", None)
    monkeypatch.setattr(conv_ops, "native", None)
    np.testing.assert_array_equal(native, conv_variants._input_grad_impl(np, g, w, x, **attrs))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, s, p, d", GEOMETRIES)
def test_depthwise_filter_grad_kernel_against_the_numpy_path(shape, kshape, s, p, d, dtype, monkeypatch):
    if conv_variants.native("depthwise_filter_grad", dtype) is None:
        pytest.skip("no C compiler")
    x, w = RNG.standard_normal(shape).astype(dtype), RNG.standard_normal(kshape).astype(dtype)
    oh, ow = conv_ops.geometry(shape, kshape[:2], (s, s), (d, d), p)[:2]
    g = RNG.standard_normal((shape[0], oh, ow, kshape[2] * kshape[3])).astype(dtype)
    attrs = dict(ksize=kshape[:2], strides=(s, s), dilations=(d, d), padding=p, pad_value=0, multiplier=kshape[3])
    native = conv_variants._filter_grad_impl(np, x, g, **attrs)
    exact = conv_variants._filter_grad_impl(np, x.astype(np.float64), g.astype(np.float64), **attrs)
    monkeypatch.setattr(conv_variants, "native", None)
    plain = conv_variants._filter_grad_impl(np, x, g, **attrs)
    assert native.dtype == plain.dtype == dtype
    # each output row summed in the dtype (ow terms), the rows in double: the error bound of a
    # sum of ow + 1 roundings of the absolute terms
    size = conv_variants._filter_grad_impl(np, np.abs(x).astype(np.float64), np.abs(g).astype(np.float64), **attrs)
    assert np.all(np.abs(native - exact) <= (ow + 2) * np.finfo(dtype).eps * size)
    assert np.all(np.abs(plain - exact) <= oh * ow * shape[0] * np.finfo(dtype).eps * size)


def test_no_c_and_other_dtypes_take_the_numpy_path():
    assert conv_variants.native("depthwise", np.float16) is None
    with flags(no_c=1):
        assert conv_variants.native("depthwise", np.float32) is None
        x, w = RNG.standard_normal((1, 5, 5, 2)), RNG.standard_normal((3, 3, 2, 1))
        got = _depthwise(x, w, 1, "SAME", 1)
    np.testing.assert_array_equal(got, _depthwise(x, w, 1, "SAME", 1))


def test_graph_equals_eager_with_the_kernel():
    x = tf.constant(RNG.standard_normal((2, 8, 8, 3)).astype(np.float32))
    k = tf.Variable(RNG.standard_normal((3, 3, 3, 2)).astype(np.float32))

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME") ** 2)
        return [loss] + tape.gradient(loss, [x, k])
    for a, b in zip(step(x), tf.function(step)(x)):  # the sums' order differs in the fused kernels
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, ksize, strides, dilations, padding", [
    ((2, 7, 6, 3), (3, 3), (2, 2), (1, 1), "SAME"), ((1, 6, 7, 2), (2, 3), (1, 2), (1, 1), "VALID"),
    ((1, 8, 8, 2), (2, 2), (1, 1), (2, 2), "SAME"), ((2, 5, 5, 1), (3, 3), (3, 3), (1, 1), "SAME")])
def test_patches_grad_kernel_gives_the_numpy_paths_bits(shape, ksize, strides, dilations, padding, dtype,
                                                        monkeypatch):
    if conv_c.native("patches_grad", dtype) is None:
        pytest.skip("no C compiler")
    like = np.zeros(shape, dtype)
    oh, ow = conv_ops.geometry(shape, ksize, strides, dilations, padding)[:2]
    g = RNG.standard_normal((shape[0], oh, ow) + ksize + (shape[3],)).astype(dtype)
    attrs = dict(ksize=ksize, strides=strides, dilations=dilations, padding=padding, pad_value=0)
    native = conv_ops._patches_grad_impl(np, g, like, **attrs)
    monkeypatch.setattr(conv_ops, "native", None)
    np.testing.assert_array_equal(native, conv_ops._patches_grad_impl(np, g, like, **attrs))


def _conv_and_grads(x, w, s, p, d):
    xt, wt = tf.constant(x), tf.Variable(w)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.conv2d(xt, wt, s, p, dilations=d)
        loss = tf.reduce_sum(y * y)
    gx, gw = tape.gradient(loss, [xt, wt])
    return y.numpy(), gx.numpy(), gw.numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, s, p, d", GEOMETRIES + [
    ((2, 6, 7, 3), (1, 1, 3, 4), 1, "VALID", 1),  # 1x1 stride 1: the image is its own rows
    ((2, 6, 7, 3), (1, 1, 3, 4), 2, "SAME", 1),
    ((1, 8, 9, 2), (2, 3, 2, 3), 1, [[0, 0], [2, 1], [0, 3], [0, 0]], 1),  # explicit uneven pads
])
def test_conv2d_im2col_kernel_gives_the_numpy_paths_bits(shape, kshape, s, p, d, dtype, monkeypatch):
    """conv2d and its filter gradient read their rows through the C im2col (no padded
    copy): the same rows, so the same bits as the NumPy windows, non-contiguous input too.
    The tiled kernels (conv_gemm & co.) are off: their gemm per tile is not NumPy's matmul of
    all rows (a one-row product, a 1x1 image's, took another BLAS route: other bits)."""
    if conv_c.native("im2col", dtype) is None:
        pytest.skip("no C compiler")
    kshape = kshape[:3] + (max(kshape[3], 2),)
    x = RNG.standard_normal((shape[0], shape[1], 2 * shape[2], shape[3])).astype(dtype)[:, :, ::2]  # strided
    w = RNG.standard_normal(kshape).astype(dtype)
    with monkeypatch.context() as m:
        m.setattr(conv_ops, "native",
                  lambda kernel, dt: None if kernel.startswith("conv_") else conv_c.native(kernel, dt))
        native = _conv_and_grads(x, w, s, p, d)
    monkeypatch.setattr(conv_ops, "native", None)
    for got, want in zip(native, _conv_and_grads(x, w, s, p, d)):
        np.testing.assert_array_equal(got, want)

"""compiler/winograd_c.py's conv2d and filter gradient (Winograd F(2x2, 3x3): 3x3, stride 1,
no dilation, where gemm_tile_c's own loops run its GEMMs) against float64 sums, the im2col route, finite
differences and graph vs eager; blocks of tiles small enough that every geometry runs as
many blocks, the last one short."""
import numpy as np
import pytest

import tapeflow as tf
from conftest import check_grads
from tapeflow.compiler import conv_c
from tapeflow.runtime.ops import conv_ops

RNG = np.random.default_rng(33)

# (input shape, filter shape HWIO, padding): odd output sizes clip the last tiles' rows and
# columns; channels not a multiple of the lanes take the scalar rest of the input transform.
GEOMETRIES = [
    ((2, 7, 9, 20), (3, 3, 20, 16), "SAME"),
    ((3, 8, 8, 64), (3, 3, 64, 64), "SAME"),
    ((1, 9, 6, 24), (3, 3, 24, 48), "VALID"),
    ((2, 5, 7, 17), (3, 3, 17, 32), ((2, 0), (1, 2))),  # explicit uneven pads
    ((1, 1, 1, 16), (3, 3, 16, 16), "SAME"),  # one pixel: every patch pixel but one is padding
    ((2, 2, 3, 16), (3, 3, 16, 16), "VALID"),  # an empty output
]


def _numpy_path(fn, *args, **attrs):
    saved = conv_ops.native
    conv_ops.native = None
    try:
        return fn(np, *args, **attrs)
    finally:
        conv_ops.native = saved


@pytest.fixture
def winograd(monkeypatch):
    """Small blocks of tiles; the calls that took the Winograd route, counted."""
    if conv_c.native("conv_gemm", np.float32) is None:
        pytest.skip("no C compiler or no OpenBLAS to call")
    lanes = conv_c.native("conv_gemm", np.float32).args[0]["gemm_lanes"][False]()
    if lanes == 0:
        pytest.skip("no AVX-512 in the C compiler's target: conv2d keeps im2col + GEMM")
    monkeypatch.setattr(conv_c, "TILE_BYTES", 1)  # 6 tiles a block
    taken = []
    applies = conv_c._winograd_applies

    def spy(*args):
        taken.append(applies(*args))
        return taken[-1]
    monkeypatch.setattr(conv_c, "_winograd_applies", spy)
    return taken


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, padding", GEOMETRIES)
def test_winograd_conv2d_within_rounding_of_the_float64_sums(shape, kshape, padding, dtype, winograd):
    wide = RNG.standard_normal((shape[0], shape[1], 2 * shape[2], shape[3]))[:, :, ::2]  # non-contiguous
    x, w = wide.astype(dtype), RNG.standard_normal(kshape).astype(dtype)
    attrs = dict(strides=(1, 1), dilations=(1, 1), padding=padding)
    got = conv_ops._conv_impl(np, x, w, **attrs)
    exact = _numpy_path(conv_ops._conv_impl, x.astype(np.float64), w.astype(np.float64), **attrs)
    size = _numpy_path(conv_ops._conv_impl, np.abs(x).astype(np.float64), np.abs(w).astype(np.float64), **attrs)
    assert got.dtype == dtype and got.shape == exact.shape
    assert winograd == [True] or got.size == 0
    k = 9 * shape[3]
    assert np.all(np.abs(got - exact) <= (k + 1) * np.finfo(dtype).eps * size)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, padding", GEOMETRIES)
def test_winograd_filter_gradient_within_rounding_of_the_float64_sums(shape, kshape, padding, dtype, winograd):
    x = RNG.standard_normal(shape).astype(dtype)
    oh, ow = conv_ops.geometry(shape, (3, 3), (1, 1), (1, 1), padding)[:2]
    g = RNG.standard_normal((shape[0], oh, ow, kshape[3])).astype(dtype)
    attrs = dict(ksize=(3, 3), strides=(1, 1), dilations=(1, 1), padding=padding, pad_value=0)
    got = conv_ops._filter_grad_impl(np, x, g, **attrs)
    again = conv_ops._filter_grad_impl(np, x, g, **attrs)
    exact = _numpy_path(conv_ops._filter_grad_impl, x.astype(np.float64), g.astype(np.float64), **attrs)
    size = _numpy_path(conv_ops._filter_grad_impl, np.abs(x).astype(np.float64), np.abs(g).astype(np.float64),
                       **attrs)
    assert got.dtype == dtype and got.shape == kshape
    assert winograd[:1] == [True] or g.size == 0
    np.testing.assert_array_equal(got, again)  # fixed groups: no sum depends on the team
    m = shape[0] * oh * ow
    assert np.all(np.abs(got - exact) <= (m + conv_c.FILTER_GROUPS + 16) * np.finfo(dtype).eps * size)


def test_other_geometries_keep_im2col(winograd):
    for c, kshape, strides, dilations in [(16, (3, 3, 16, 16), (2, 2), (1, 1)), (16, (3, 3, 16, 16), (1, 1), (2, 2)),
                                          (16, (2, 2, 16, 16), (1, 1), (1, 1)), (16, (3, 3, 16, 5), (1, 1), (1, 1)),
                                          (8, (3, 3, 8, 16), (1, 1), (1, 1)), (256, (3, 3, 256, 16), (1, 1), (1, 1))]:
        x = RNG.standard_normal((1, 5, 5, c)).astype(np.float32)
        conv_ops._conv_impl(np, x, RNG.standard_normal(kshape).astype(np.float32), strides, dilations, "SAME")
    assert winograd == [False] * 6


def test_winograd_off_gives_the_im2col_route(winograd, monkeypatch):
    x, w = RNG.standard_normal((2, 6, 5, 16)).astype(np.float32), RNG.standard_normal((3, 3, 16, 16)).astype(np.float32)
    on = conv_ops._conv_impl(np, x, w, (1, 1), (1, 1), "SAME")
    monkeypatch.setattr(conv_c, "WINOGRAD", False)
    off = conv_ops._conv_impl(np, x, w, (1, 1), (1, 1), "SAME")
    assert winograd == [True, False]
    np.testing.assert_allclose(on, off, rtol=1e-5, atol=1e-5)


def test_winograd_gradients_against_finite_differences(winograd):
    """float64, 16 channels and filters (two vectors of 8 lanes): the forward, the filter gradient
    and the stride-1 input gradient (a conv2d of the gradient by the flipped filters) through Winograd."""
    x, w = RNG.standard_normal((1, 4, 3, 16)), RNG.standard_normal((3, 3, 16, 16)) / 4
    check_grads(lambda a, b: tf.nn.conv2d(a, b, 1, "SAME") ** 2, [x, w], atol=1e-4)
    assert True in winograd


def test_graph_and_eager_agree(winograd):
    x = tf.constant(RNG.standard_normal((2, 6, 6, 16)).astype(np.float32))
    k = tf.Variable(RNG.standard_normal((3, 3, 16, 16)).astype(np.float32))

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.relu(tf.nn.conv2d(x, k, 1, "SAME"))
            loss = tf.reduce_sum(tf.nn.conv2d(y, k, 1, "SAME") ** 2)
        return [loss] + tape.gradient(loss, [x, k])
    eager, graph = step(x), tf.function(step)(x)
    for a, b in zip(eager, graph):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-4)


def test_fewer_filter_groups_where_their_partials_would_be_large(winograd, monkeypatch):
    """The groups are fixed by the sizes and PARTIALS_BYTES: one group, the blocks summed in order."""
    x = RNG.standard_normal((2, 7, 6, 16)).astype(np.float32)
    g = RNG.standard_normal((2, 7, 6, 16)).astype(np.float32)
    attrs = dict(ksize=(3, 3), strides=(1, 1), dilations=(1, 1), padding="SAME", pad_value=0)
    many = conv_ops._filter_grad_impl(np, x, g, **attrs)
    monkeypatch.setattr(conv_c, "PARTIALS_BYTES", 1)
    one = conv_ops._filter_grad_impl(np, x, g, **attrs)
    exact = _numpy_path(conv_ops._filter_grad_impl, x.astype(np.float64), g.astype(np.float64), **attrs)
    assert winograd == [True, True]
    np.testing.assert_allclose(one, exact, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(one, many, rtol=1e-5, atol=1e-4)

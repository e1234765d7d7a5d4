"""compiler/conv_c.py's tiled conv2d kernels (im2col of a tile of rows + a gemm per tile:
gemm_tile_c's own or the BLAS's, the filter gradient's tiles summed in fixed groups) against float64 sums and
the NumPy path (one im2col buffer, one GEMM), on tiles small enough that every geometry
runs as many tiles, the last one short."""
import numpy as np
import pytest

import tapeflow as tf
from conftest import check_grads
from tapeflow.compiler import conv_c
from tapeflow.runtime.ops import conv_ops

RNG = np.random.default_rng(15)

# (input shape, filter shape HWIO, strides, dilations, padding)
GEOMETRIES = [
    ((3, 9, 8, 5), (3, 3, 5, 4), (1, 1), (1, 1), "SAME"),
    ((2, 9, 10, 3), (3, 3, 3, 6), (2, 2), (1, 1), "SAME"),
    ((2, 8, 9, 2), (2, 3, 2, 3), (1, 2), (1, 1), "VALID"),
    ((1, 11, 9, 2), (3, 2, 2, 5), (1, 1), (2, 3), "SAME"),  # batch 1, dilated
    ((2, 8, 9, 3), (2, 3, 3, 3), (1, 1), (1, 1), ((2, 1), (0, 3))),  # explicit uneven pads
    ((2, 7, 6, 4), (1, 1, 4, 5), (2, 2), (1, 1), "SAME"),  # 1x1 strided: rows are copied
    ((2, 3, 3, 2), (5, 5, 2, 3), (1, 1), (1, 1), "SAME"),  # windows larger than the image
    ((4, 6, 6, 1), (3, 3, 1, 7), (3, 3), (1, 1), "VALID"),  # one channel
]
# Products a multiple of the vector lanes wide: gemm_tile_c's own loops where the target has
# AVX-512 (the BLAS's gemm elsewhere), within rounding of the BLAS, not its bits.
WIDE = [
    ((2, 7, 9, 20), (3, 3, 20, 80), (1, 1), (1, 1), "SAME"),  # k = 180: two k blocks; 80: 4 + 1 vectors
    ((2, 9, 8, 16), (3, 3, 16, 48), (2, 2), (1, 1), "SAME"),  # the input gradient's n = k = 144
    ((1, 5, 7, 3), (3, 3, 3, 16), (1, 1), (1, 1), "VALID"),  # k = 27: 4 blocks of 6 filter rows + 3
]


def _attrs(strides, dilations, padding):
    return dict(strides=strides, dilations=dilations, padding=padding)


def _numpy_path(monkeypatch, fn, *args, **attrs):
    with monkeypatch.context() as m:
        m.setattr(conv_ops, "native", None)
        return fn(np, *args, **attrs)


@pytest.fixture
def small_tiles(monkeypatch):
    monkeypatch.setattr(conv_c, "TILE_BYTES", 1)  # 16 rows a tile
    if conv_c.native("conv_gemm", np.float32) is None:
        pytest.skip("no C compiler or no OpenBLAS to call")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, strides, dilations, padding", GEOMETRIES + WIDE)
def test_tiled_conv2d_within_rounding_of_the_float64_sums(shape, kshape, strides, dilations, padding, dtype,
                                                          small_tiles, monkeypatch):
    wide = RNG.standard_normal((shape[0], shape[1], 2 * shape[2], shape[3]))[:, :, ::2]  # non-contiguous
    x, w = wide.astype(dtype), RNG.standard_normal(kshape).astype(dtype)
    attrs = _attrs(strides, dilations, padding)
    got = conv_ops._conv_impl(np, x, w, **attrs)
    exact = _numpy_path(monkeypatch, conv_ops._conv_impl, x.astype(np.float64), w.astype(np.float64), **attrs)
    size = _numpy_path(monkeypatch, conv_ops._conv_impl, np.abs(x).astype(np.float64),
                       np.abs(w).astype(np.float64), **attrs)
    assert got.dtype == dtype and got.shape == exact.shape
    k = kshape[0] * kshape[1] * kshape[2]
    assert np.all(np.abs(got - exact) <= (k + 1) * np.finfo(dtype).eps * size)
    np.testing.assert_allclose(got, _numpy_path(monkeypatch, conv_ops._conv_impl, x, w, **attrs),
                               rtol=0, atol=float((k + 1) * np.finfo(dtype).eps * size.max()))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, strides, dilations, padding", GEOMETRIES + WIDE)
def test_tiled_filter_gradient_within_rounding_of_the_float64_sums(shape, kshape, strides, dilations, padding,
                                                                   dtype, small_tiles, monkeypatch):
    x = RNG.standard_normal(shape).astype(dtype)
    oh, ow = conv_ops.geometry(shape, kshape[:2], strides, dilations, padding)[:2]
    g = RNG.standard_normal((shape[0], oh, ow, kshape[3])).astype(dtype)
    attrs = dict(ksize=kshape[:2], pad_value=0, **_attrs(strides, dilations, padding))
    got = conv_ops._filter_grad_impl(np, x, g, **attrs)
    again = conv_ops._filter_grad_impl(np, x, g, **attrs)
    exact = _numpy_path(monkeypatch, conv_ops._filter_grad_impl, x.astype(np.float64), g.astype(np.float64), **attrs)
    size = _numpy_path(monkeypatch, conv_ops._filter_grad_impl, np.abs(x).astype(np.float64),
                       np.abs(g).astype(np.float64), **attrs)
    assert got.dtype == dtype and got.shape == kshape
    np.testing.assert_array_equal(got, again)  # fixed groups: no sum depends on the team
    m = shape[0] * oh * ow
    assert np.all(np.abs(got - exact) <= (m + conv_c.FILTER_GROUPS) * np.finfo(dtype).eps * size)


def test_one_tile_gives_the_numpy_paths_bits(monkeypatch):
    """One tile (the default tile size on a small image) is one gemm over all rows: what
    NumPy's matmul of the im2col rows calls."""
    if conv_c.native("conv_gemm", np.float32) is None:
        pytest.skip("no C compiler or no OpenBLAS to call")
    x, w = RNG.standard_normal((2, 6, 6, 3)).astype(np.float32), RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
    attrs = _attrs((1, 1), (1, 1), "SAME")
    np.testing.assert_array_equal(conv_ops._conv_impl(np, x, w, **attrs),
                                  _numpy_path(monkeypatch, conv_ops._conv_impl, x, w, **attrs))


def test_without_a_blas_to_call_the_numpy_path_runs(monkeypatch):
    monkeypatch.setattr(conv_c, "gemm_address", lambda dtype: None)
    assert conv_c.native("conv_gemm", np.float32) is None
    assert conv_c.native("conv_filter_gemm", np.float64) is None
    assert conv_c.native("conv_gemm", np.float16) is None
    x, w = RNG.standard_normal((1, 5, 5, 2)), RNG.standard_normal((3, 3, 2, 2))
    got = conv_ops._conv_impl(np, x, w, **_attrs((1, 1), (1, 1), "SAME"))
    np.testing.assert_array_equal(got, _numpy_path(monkeypatch, conv_ops._conv_impl, x, w,
                                                   **_attrs((1, 1), (1, 1), "SAME")))


def test_empty_products_take_the_numpy_path(small_tiles):
    """No output pixels, no output channels or no input channels: nothing to tile."""
    x = RNG.standard_normal((2, 2, 6, 3)).astype(np.float32)
    assert conv_ops._conv_impl(np, x, np.ones((3, 3, 3, 2), np.float32), **_attrs((1, 1), (1, 1), "VALID")).shape \
        == (2, 0, 4, 2)
    assert conv_ops._conv_impl(np, x, np.ones((1, 1, 3, 0), np.float32), **_attrs((2, 2), (1, 1), "SAME")).shape \
        == (2, 1, 3, 0)
    got = conv_ops._filter_grad_impl(np, x[..., :0], np.ones((2, 2, 6, 4), np.float32), (3, 3), (1, 1), (1, 1),
                                     "SAME", 0)
    np.testing.assert_array_equal(got, np.zeros((3, 3, 0, 4), np.float32))


def _input_grad(monkeypatch, g, w, like, native=True, **attrs):
    if native:
        return conv_ops._input_grad_impl(np, g, w, like, **attrs)
    return _numpy_path(monkeypatch, conv_ops._input_grad_impl, g, w, like, **attrs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, kshape, strides, dilations, padding", GEOMETRIES + WIDE)
def test_tiled_input_gradient_within_rounding_of_the_float64_sums(shape, kshape, strides, dilations, padding,
                                                                  dtype, small_tiles, monkeypatch):
    like = np.zeros(shape, dtype)
    oh, ow = conv_ops.geometry(shape, kshape[:2], strides, dilations, padding)[:2]
    wide = RNG.standard_normal((shape[0], oh, 2 * ow, kshape[3]))[:, :, ::2]  # non-contiguous
    g, w = wide.astype(dtype), RNG.standard_normal(kshape).astype(dtype)
    attrs = _attrs(strides, dilations, padding)
    got = _input_grad(monkeypatch, g, w, like, **attrs)
    exact = _input_grad(monkeypatch, g.astype(np.float64), w.astype(np.float64), like, False, **attrs)
    size = _input_grad(monkeypatch, np.abs(g).astype(np.float64), np.abs(w).astype(np.float64), like, False,
                       **attrs)
    assert got.dtype == dtype and got.shape == shape
    k = kshape[3] * kshape[0] * kshape[1]  # products per window entry, window entries per pixel
    assert np.all(np.abs(got - exact) <= (k + 1) * np.finfo(dtype).eps * size)


@pytest.mark.parametrize("shape, kshape, strides, dilations, padding", GEOMETRIES)
def test_one_tile_an_image_gives_the_numpy_paths_input_gradient_bits(shape, kshape, strides, dilations, padding,
                                                                      monkeypatch):
    """A tile an image: the windows added tap after tap, as patches_grad adds them."""
    if conv_c.native("conv_input_gemm", np.float64) is None:
        pytest.skip("no C compiler or no OpenBLAS to call")
    like = np.zeros(shape)
    oh, ow = conv_ops.geometry(shape, kshape[:2], strides, dilations, padding)[:2]
    g, w = RNG.standard_normal((shape[0], oh, ow, kshape[3])), RNG.standard_normal(kshape)
    attrs = _attrs(strides, dilations, padding)
    np.testing.assert_array_equal(_input_grad(monkeypatch, g, w, like, **attrs),
                                  _input_grad(monkeypatch, g, w, like, False, **attrs))


@pytest.mark.parametrize("strides, padding", [(2, "SAME"), (1, "VALID"), (3, "VALID")])
def test_conv2d_transpose_second_derivatives_against_finite_differences(strides, padding, small_tiles):
    y, w = RNG.standard_normal((2, 3, 4, 3)), RNG.standard_normal((3, 3, 2, 3))
    shape = [2] + [d * strides if padding == "SAME" else (d - 1) * strides + 3 for d in (3, 4)] + [2]
    check_grads(lambda a, b: tf.nn.conv2d_transpose(a, b, shape, strides, padding) ** 2, [y, w], order=2)


@pytest.mark.parametrize("strides", [1, 2])
def test_wide_conv2d_gradients_against_finite_differences(strides, small_tiles):
    """16 filters, 8 channels in float64 (8 lanes): the forward, both gradients (stride 1: a
    conv2d of the gradient; stride 2: the windows' route) and the filter gradient's tiles
    through gemm_tile_c's own loops where the target has AVX-512."""
    x, w = RNG.standard_normal((2, 5, 4, 8)), RNG.standard_normal((3, 3, 8, 16))
    # gradients up to ~500: the central differences' rounding is ~1e-6 absolute
    check_grads(lambda a, b: tf.nn.conv2d(a, b, strides, "SAME") ** 2, [x, w], atol=1e-4)

"""im2col (conv_ops' rows) and col2im (its patches_grad) in C, for runtime/ops/conv_ops.py (the depthwise
kernels are in depthwise_c.py, pooling's in pool_c.py).

The runtime knows no C: when this module loads it sets `conv_ops.native`, a lookup
the runtime calls for a kernel by name and dtype (native_table.py's hook, as pool_c and
depthwise_c); the library is built (through the compile cache of cbuild.py) at the
first call, not at import.  Without a working
compiler, or with the no_c flag on, the lookup answers None and the NumPy path runs
(one or more passes per window tap over the whole image, where these kernels make one).

Same bits as the NumPy path (tap after tap over the whole output).
tests/test_conv_native.py checks both paths against each other.

conv2d, its filter gradient and its input gradient (conv2d_transpose) also run here
whole, tile by tile: im2col of a tile of rows into a buffer that stays in a core's
L2, then a single-threaded gemm on it, the team sharing out the tiles: gemm_tile_c's
AVX-512 loops where they apply, else NumPy's OpenBLAS (its cblas_?gemm64_, called from
C through the address ctypes finds; BLAS set to one thread).
Measured on the 2-core machine, the ResNet block's 3x3 conv (32x32x32x64, 64
filters): 54 -> 23 ms CPU, its filter gradient 55 -> 19 ms; with gemm_tile_c's loops, on
one thread (time.process_time): forward 24.0 -> 13.7 ms, filter gradient 23.7 -> 13.6,
input gradient 24.5 -> 13.9 (TF's oneDNN: 13.0, 12.1, 12.9); a 3x3 stride-1 conv2d (and so
the stride-1 input gradient) and its filter gradient by Winograd F(2x2, 3x3) (winograd_c.py):
13.5 -> 8.0 ms, 13.0 -> 8.5 ms.  Tiles are fixed by the
sizes alone, so no result depends on the team; within rounding of the NumPy path
(its one GEMM sums in another order), tests/test_conv_gemm.py.
"""

import ctypes
import functools

import numpy as np

from tapeflow.runtime.ops import conv_ops

from . import gemm_tile_c, native_table, winograd_c

_COL2IM = r"""
/* image[b, y * sh + a * dh, x * sw + e * dw, k] += windows[b, y, x, a, e, k], tap (a, e)
   after tap over the whole output (image: the padded image, zeroed). */
int tapeflow_patches_grad_NAME(int64_t pg, int64_t pimage, int64_t n, int64_t hp, int64_t wp, int64_t c,
                               int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
                               int64_t dh, int64_t dw) {
    const T *g = (const T *)(intptr_t)pg;
    T *image = (T *)(intptr_t)pimage;
    for (int64_t a = 0; a < kh; a++)
        for (int64_t e = 0; e < kw; e++)
            for (int64_t b = 0; b < n; b++)
                for (int64_t y = 0; y < oh; y++)
                    for (int64_t x = 0; x < ow; x++) {
                        const T *restrict gr = g + ((((b * oh + y) * ow + x) * kh + a) * kw + e) * c;
                        T *restrict o = image + ((b * hp + y * sh + a * dh) * wp + x * sw + e * dw) * c;
                        for (int64_t k = 0; k < c; k++) o[k] = o[k] + gr[k];
                    }
    return 0;
}
"""

_IM2COL = r"""
#include <stdlib.h>
/* rows[r - r0] = the window of output pixel r (of the batch's N * OH * OW) for r0 <= r < r1:
   rows[.., a, e, k] = image[b, y * sh + a * dh - pt, x * sw + e * dw - pl, k], 0 outside
   (the padded image's windows without the padded image: one copy, C-long runs). */
static void im2col_rows_NAME(const T *image, T *rows, int64_t r0, int64_t r1, int64_t h, int64_t w, int64_t c,
                             int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
                             int64_t dh, int64_t dw, int64_t pt, int64_t pl) {
    T *restrict r = rows;
    for (int64_t p = r0; p < r1; p++) {
        const int64_t b = p / (oh * ow), y = p / ow % oh, x = p % ow, j0 = x * sw - pl;
        for (int64_t a = 0; a < kh; a++) {
            int64_t i = y * sh + a * dh - pt;
            if (dw == 1 && i >= 0 && i < h && j0 >= 0 && j0 + kw <= w) {  /* one run of kw * c */
                const T *restrict src = image + ((b * h + i) * w + j0) * c;
                for (int64_t k = 0; k < kw * c; k++) r[k] = src[k];
                r += kw * c;
                continue;
            }
            for (int64_t e = 0; e < kw; e++, r += c) {
                int64_t j = x * sw + e * dw - pl;
                if (i < 0 || i >= h || j < 0 || j >= w) {
                    for (int64_t k = 0; k < c; k++) r[k] = 0;
                } else {
                    const T *restrict src = image + ((b * h + i) * w + j) * c;
                    for (int64_t k = 0; k < c; k++) r[k] = src[k];
                }
            }
        }
    }
}

int tapeflow_im2col_NAME(int64_t pimage, int64_t prows, int64_t n, int64_t h, int64_t w, int64_t c,
                         int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
                         int64_t dh, int64_t dw, int64_t pt, int64_t pl) {
    im2col_rows_NAME((const T *)(intptr_t)pimage, (T *)(intptr_t)prows, 0, n * oh * ow, h, w, c, oh, ow,
                     kh, kw, sh, sw, dh, dw, pt, pl);
    return 0;
}
"""

_CONV_GEMM = r"""
/* out (N*OH*OW, O) = im2col(image) @ filters (KH*KW*C, O): `tile` rows at a time, each tile
   im2col'd into its thread's buffer (it stays in cache) and multiplied there by a
   single-threaded gemm; the team shares out the tiles.  -1: no memory. */
int tapeflow_conv_gemm_NAME(int64_t pgemm, int64_t pimage, int64_t pfilters, int64_t pout, int64_t n,
                            int64_t h, int64_t w, int64_t c, int64_t oh, int64_t ow, int64_t kh, int64_t kw,
                            int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t pt, int64_t pl,
                            int64_t o, int64_t tile) {
    const gemm_NAME_t gemm = (gemm_NAME_t)(intptr_t)pgemm;
    const T *image = (const T *)(intptr_t)pimage, *filters = (const T *)(intptr_t)pfilters;
    T *out = (T *)(intptr_t)pout;
    const int64_t m = n * oh * ow, k = kh * kw * c, tiles = (m + tile - 1) / tile;
    int failed = 0;
#pragma omp parallel TEAM if (tiles > 1)
    {
        T *buf = malloc(tile * k * sizeof(T));
#pragma omp for schedule(dynamic)
        for (int64_t t = 0; t < tiles; t++) {
            const int64_t r0 = t * tile, r1 = r0 + tile < m ? r0 + tile : m;
            if (!buf) {
#pragma omp atomic write
                failed = 1;
                continue;
            }
            im2col_rows_NAME(image, buf, r0, r1, h, w, c, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl);
            tile_gemm_nn_NAME(gemm, r1 - r0, o, k, buf, k, filters, o, out + r0 * o, o);
        }
        free(buf);
    }
    return failed ? -1 : 0;
}

/* dw (KH*KW*C, O) = im2col(image)^T @ g (N*OH*OW, O), tiled as conv_gemm: the tiles in `groups`
   runs fixed by the sizes alone (not the team), each run summed into its own partial (the
   first: dw), the partials added in order -- the same bits whatever the team. */
int tapeflow_conv_filter_gemm_NAME(int64_t pgemm, int64_t pimage, int64_t pg, int64_t pdw, int64_t n,
                                   int64_t h, int64_t w, int64_t c, int64_t oh, int64_t ow, int64_t kh,
                                   int64_t kw, int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t pt,
                                   int64_t pl, int64_t o, int64_t tile, int64_t groups) {
    const gemm_NAME_t gemm = (gemm_NAME_t)(intptr_t)pgemm;
    const T *image = (const T *)(intptr_t)pimage, *g = (const T *)(intptr_t)pg;
    T *out = (T *)(intptr_t)pdw;
    const int64_t m = n * oh * ow, k = kh * kw * c, ko = k * o, tiles = (m + tile - 1) / tile;
    T *partials = groups > 1 ? malloc((groups - 1) * ko * sizeof(T)) : NULL;
    if (groups > 1 && !partials) return -1;
    int failed = 0;
#pragma omp parallel TEAM if (groups > 1)
    {
        T *buf = malloc(tile * k * sizeof(T));
#pragma omp for schedule(dynamic)
        for (int64_t q = 0; q < groups; q++) {
            T *acc = q == 0 ? out : partials + (q - 1) * ko;
            const int64_t t0 = q * tiles / groups, t1 = (q + 1) * tiles / groups;
            if (!buf) {
#pragma omp atomic write
                failed = 1;
                continue;
            }
            for (int64_t t = t0; t < t1; t++) {
                const int64_t r0 = t * tile, r1 = r0 + tile < m ? r0 + tile : m;
                im2col_rows_NAME(image, buf, r0, r1, h, w, c, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl);
                tile_gemm_tn_NAME(gemm, r1 - r0, o, k, buf, k, g + r0 * o, o, acc, o, t != t0);
            }
        }
#pragma omp for
        for (int64_t i = 0; i < ko; i++)
            for (int64_t q = 1; q < groups; q++) out[i] += partials[(q - 1) * ko + i];
        free(buf);
    }
    free(partials);
    return failed ? -1 : 0;
}

/* image (N, H, W, C) += col2im(g (N*OH*OW, O) @ filters (O, KH*KW*C)): conv2d's input gradient
   (conv2d_transpose) in chunks of output pixels that hold whole images (as many as fit in `tile`
   rows) or, for a larger image, `tile` pixels of one: a chunk's windows by the gemm into this
   thread's buffer, then added onto the image tap after tap, the padding's share dropped (whole
   images: patches_grad's order of sums).  The team shares out the images: no two threads add
   onto one.  image: zeroed. */
int tapeflow_conv_input_gemm_NAME(int64_t pgemm, int64_t pg, int64_t pfilters, int64_t pimage, int64_t n,
                                  int64_t h, int64_t w, int64_t c, int64_t oh, int64_t ow, int64_t kh,
                                  int64_t kw, int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t pt,
                                  int64_t pl, int64_t o, int64_t tile) {
    const gemm_NAME_t gemm = (gemm_NAME_t)(intptr_t)pgemm;
    const T *g = (const T *)(intptr_t)pg, *filters = (const T *)(intptr_t)pfilters;
    T *image = (T *)(intptr_t)pimage;
    const int64_t k = kh * kw * c, pixels = oh * ow, per = tile >= pixels ? tile / pixels : 1;
    const int64_t units = (n + per - 1) / per, chunk = per > 1 ? per * pixels : tile;
    int failed = 0;
#pragma omp parallel TEAM if (units > 1)
    {
        T *buf = malloc(chunk * k * sizeof(T));
#pragma omp for schedule(dynamic)
        for (int64_t u = 0; u < units; u++) {
            if (!buf) {
#pragma omp atomic write
                failed = 1;
                continue;
            }
            const int64_t end = (u + 1) * per < n ? (u + 1) * per * pixels : n * pixels;
            for (int64_t r0 = u * per * pixels; r0 < end; r0 += chunk) {
                const int64_t r1 = r0 + chunk < end ? r0 + chunk : end;
                tile_gemm_nn_NAME(gemm, r1 - r0, k, o, g + r0 * o, o, filters, k, buf, k);
                for (int64_t a = 0; a < kh; a++)
                    for (int64_t e = 0; e < kw; e++)
                        for (int64_t r = r0; r < r1; r++) {
                            const int64_t b = r / pixels, p = r % pixels;
                            const int64_t i = p / ow * sh + a * dh - pt, j = p % ow * sw + e * dw - pl;
                            if (i < 0 || i >= h || j < 0 || j >= w) continue;
                            const T *restrict src = buf + (r - r0) * k + (a * kw + e) * c;
                            T *restrict dst = image + ((b * h + i) * w + j) * c;
                            for (int64_t q = 0; q < c; q++) dst[q] = dst[q] + src[q];
                        }
            }
        }
        free(buf);
    }
    return failed ? -1 : 0;
}
"""

def _patches_grad(fns, g, padded_shape, strides, dilations):
    """The windows (N, OH, OW, KH, KW, C) summed onto a zeroed image of padded_shape."""
    g = np.ascontiguousarray(g)
    n, oh, ow, kh, kw, c = g.shape
    image = np.zeros(padded_shape, g.dtype)
    fns["patches_grad"][g.size >= native_table.RELEASE_GIL_AT](g.ctypes.data, image.ctypes.data, n, *padded_shape[1:], oh, ow,
                                                   kh, kw, *strides, *dilations)
    return image


def _im2col(fns, x, rows, strides, dilations, before):
    """The windows of NHWC `x` into `rows` ((N, OH, OW, KH, KW, C), C-order), zeros
    where a window reaches into the padding (`before`: the top and left pads)."""
    x = np.ascontiguousarray(x)
    n, h, w, c = x.shape
    _, oh, ow, kh, kw, _ = rows.shape
    (sh, sw), (dh, dw), (pt, pl) = strides, dilations, before
    fns["im2col"][rows.size >= native_table.RELEASE_GIL_AT](x.ctypes.data, rows.ctypes.data, n, h, w, c, oh, ow, kh, kw,
                                               sh, sw, dh, dw, pt, pl)
    return rows


# Bytes of one thread's im2col tile: with the gemm's packed copies it stays in a core's L2.
TILE_BYTES = 1 << 19
# Fixed runs of tiles the filter gradient sums apart (then adds in order): enough to share
# out over a team, few enough that adding the partials stays cheap.
FILTER_GROUPS = 8
# conv2d by Winograd's F(2x2, 3x3) where it applies (winograd_c.py); off: im2col + GEMM.
WINOGRAD = True
# Where it applies: C >= the first, C + O <= the second.  One thread, 32x32 images of batch 32,
# forward / filter gradient in ms, im2col vs Winograd: C=8 O=64 2.0/2.1 vs 3.1/3.4 (the
# transforms outweigh a short GEMM), C=16 O=64 3.6/3.6 vs 3.1/3.5, C=32 O=32 6.0/7.1 vs
# 3.6/4.5; 8x8 images, C=O=128 3.5/3.9 vs 2.6/3.4; 4x4 images, C=O=256 3.2/6.7 vs 5.8/32
# (a block of 12 tiles streams the 16 transformed filters, and the partials, through memory).
WINOGRAD_CHANNELS = (16, 256)
# Bytes of the Winograd filter gradient's partial sums, its groups fewer where they would pass it
# (512 x 512 channels: 16 MB a group).
PARTIALS_BYTES = 1 << 26


@functools.cache
def gemm_address(dtype):
    """The address of cblas_sgemm / cblas_dgemm (64-bit integers) in NumPy's OpenBLAS,
    or None (another BLAS, no threadpoolctl): conv_gemm's kernels call it per tile."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    letter = {np.dtype(np.float32): "s", np.dtype(np.float64): "d"}[np.dtype(dtype)]
    for lib in ThreadpoolController().select(internal_api="openblas").lib_controllers:
        dll = ctypes.CDLL(lib.filepath)
        for name in (f"scipy_cblas_{letter}gemm64_", f"cblas_{letter}gemm64_"):
            fn = getattr(dll, name, None)
            if fn is not None:
                return ctypes.cast(fn, ctypes.c_void_p).value
    return None


def _geometry_args(x, kshape, out_hw, strides, dilations, before):
    n, h, w, c = x.shape
    return (n, h, w, c, *out_hw, *kshape, *strides, *dilations, *before)


def _tile(k, itemsize):
    return max(16, TILE_BYTES // (k * itemsize) // 16 * 16)


def _call(fn, *args):
    if fn(*args) != 0:
        raise MemoryError("conv2d: no memory for the im2col tiles")


def _winograd_applies(fns, w, strides, dilations):
    """3x3, stride 1, no dilation, O a multiple of gemm_tile_c's lanes (0: not built in), and
    channels where it measured faster (WINOGRAD_CHANNELS)."""
    if not WINOGRAD or w.shape[:2] != (3, 3) or strides != (1, 1) or dilations != (1, 1):
        return False
    c, o = w.shape[2:]
    lanes = fns["gemm_lanes"][False]()
    return lanes > 0 and o % lanes == 0 and c >= WINOGRAD_CHANNELS[0] and c + o <= WINOGRAD_CHANNELS[1]


def _winograd_tiles(c, o, itemsize):
    """Tiles a Winograd block: its transformed input (16, tiles, C) and products (16, tiles, O)
    in TILE_BYTES (L2), a multiple of the GEMM's 6 rows."""
    return max(6, TILE_BYTES // (16 * (c + o) * itemsize) // 6 * 6)


def _conv_gemm(fns, x, w, strides, dilations, before, out_hw):
    """conv2d of NHWC `x` by HWIO `w` (N, OH, OW, O): Winograd F(2x2, 3x3) where it applies,
    else im2col tile by tile, each tile's rows @ the filters (single-threaded gemms: the
    team splits the tiles)."""
    x, w = np.ascontiguousarray(x), np.ascontiguousarray(w)
    kh, kw, c, o = w.shape
    out = np.empty((x.shape[0], *out_hw, o), x.dtype)
    if _winograd_applies(fns, w, strides, dilations):
        tiles = _winograd_tiles(c, o, x.itemsize)
        _call(fns["conv_winograd"][out.size >= native_table.RELEASE_GIL_AT], gemm_address(x.dtype), x.ctypes.data,
              w.ctypes.data, out.ctypes.data, *x.shape, *out_hw, *before, o, tiles)
        return out
    _call(fns["conv_gemm"][out.size >= native_table.RELEASE_GIL_AT], gemm_address(x.dtype), x.ctypes.data,
          w.ctypes.data, out.ctypes.data, *_geometry_args(x, (kh, kw), out_hw, strides, dilations, before), o,
          _tile(kh * kw * c, x.itemsize))
    return out


def _conv_filter_gemm(fns, x, g, ksize, strides, dilations, before):
    """The filter gradient (KH, KW, C, O) of conv2d: im2col(x)^T @ g, tile by tile."""
    x, g = np.ascontiguousarray(x), np.ascontiguousarray(g)
    k = ksize[0] * ksize[1] * x.shape[3]
    out = np.zeros((*ksize, x.shape[3], g.shape[3]), x.dtype)
    if _winograd_applies(fns, out, strides, dilations):
        c, o = out.shape[2:]
        tiles = _winograd_tiles(c, o, x.itemsize)
        blocks = -(-x.shape[0] * -(-g.shape[1] // 2) * -(-g.shape[2] // 2) // tiles)
        groups = min(blocks, FILTER_GROUPS, PARTIALS_BYTES // (16 * c * o * x.itemsize))  # 16 (C, O) each
        _call(fns["conv_winograd_filter"][g.size >= native_table.RELEASE_GIL_AT], gemm_address(x.dtype),
              x.ctypes.data, g.ctypes.data, out.ctypes.data, *x.shape, *g.shape[1:3], *before, o, tiles,
              max(1, groups))
        return out
    tile = _tile(k, x.itemsize)
    tiles = -(-g.size // g.shape[3] // tile)
    _call(fns["conv_filter_gemm"][g.size >= native_table.RELEASE_GIL_AT], gemm_address(x.dtype), x.ctypes.data,
          g.ctypes.data, out.ctypes.data, *_geometry_args(x, ksize, g.shape[1:3], strides, dilations, before),
          g.shape[3], tile, min(tiles, FILTER_GROUPS))
    return out


def _conv_input_gemm(fns, g, w, shape, strides, dilations, before):
    """conv2d's input gradient (an image of `shape`): g @ the filters^T, tile by tile,
    each tile's windows added onto the image."""
    kh, kw, c, o = w.shape
    g, wt = np.ascontiguousarray(g), np.ascontiguousarray(w.reshape(-1, o).T)  # the gemm packs (O, K) faster
    out = np.zeros(shape, g.dtype)
    tile = _tile(kh * kw * c, g.itemsize)
    _call(fns["conv_input_gemm"][g.size >= native_table.RELEASE_GIL_AT], gemm_address(g.dtype), g.ctypes.data,
          wt.ctypes.data, out.ctypes.data, *_geometry_args(out, (kh, kw), g.shape[1:3], strides, dilations, before),
          o, tile)
    return out


_WRAPPERS = {"patches_grad": (_patches_grad, {"patches_grad": 14}), "im2col": (_im2col, {"im2col": 16}),
             "conv_gemm": (_conv_gemm, {"conv_gemm": 20, "conv_winograd": 14, "gemm_lanes": 0}),
             "conv_filter_gemm": (_conv_filter_gemm, {"conv_filter_gemm": 21, "conv_winograd_filter": 15,
                                                      "gemm_lanes": 0}),
             "conv_input_gemm": (_conv_input_gemm, {"conv_input_gemm": 20})}
_hook = native_table.hook(native_table.source(_COL2IM, _IM2COL, gemm_tile_c.SOURCE, _CONV_GEMM, winograd_c.SOURCE),
                          _WRAPPERS)


def native(kernel, dtype):
    """conv_ops' hook: the kernel ("patches_grad", "im2col", "conv_gemm",
    "conv_filter_gemm", "conv_input_gemm") for arrays of `dtype`, or None (no C, a dtype without a
    kernel, or for the gemm kernels no BLAS to call: the NumPy path runs)."""
    if kernel.startswith("conv_") and kernel in _WRAPPERS and (
            np.dtype(dtype) not in native_table.DTYPES or gemm_address(dtype) is None):
        return None
    return _hook(kernel, dtype)


conv_ops.native = native

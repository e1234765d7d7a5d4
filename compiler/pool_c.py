"""Max and average pooling (forward and gradients) in C, for runtime/ops/pool_ops.py.

Direct loops over the unpadded NHWC image (no padded copy), each window clipped to
the image, the channel axis innermost (vectorised).  Same bits as the NumPy paths:
  max      a `>` scan from LOWEST over the window's real pixels (NaN never wins);
  max arg  a `>` scan from the window's first real pixel (a NaN there keeps the
           place): the first maximum in row-major window order, as TF's MaxPoolGrad;
  avg      +0, then each real pixel added in row-major window order, divided by the
           window's count of real pixels (TF's AvgPool);
  scatters (the gradients) visit the windows in reverse row-major order, so an input
           pixel of several windows sums their values tap after tap, as the NumPy
           loops (one pass per window tap over the whole output) do.
tests/test_pool_native.py checks both paths against each other.
"""
import numpy as np

from tapeflow.runtime.ops import pool_ops

from . import native_table

_POOL = r"""
#define POOL_ARGS int64_t n, int64_t h, int64_t w, int64_t c, int64_t oh, int64_t ow, int64_t kh, int64_t kw, \
                  int64_t sh, int64_t sw, int64_t pt, int64_t pl
/* Parallel loops: over output rows (b, i) where each output is one thread's, over images b
   where windows scatter onto shared pixels (their order kept); none below PAR_AT outputs. */
#define ROWS_LOOP _Pragma("omp parallel for TEAM schedule(dynamic, 1) if (n * oh * ow * c >= PAR_AT)") \
    for (int64_t bi = 0; bi < n * oh; bi++)
#define IMAGES_LOOP _Pragma("omp parallel for TEAM schedule(dynamic, 1) if (n * oh * ow * c >= PAR_AT)") \
    for (int64_t b = 0; b < n; b++)
/* The window (i, j)'s real rows [ra, rb) and columns [ca, cb). */
#define WINDOW(i, j) const int64_t r0 = (i) * sh - pt, c0 = (j) * sw - pl; \
    const int64_t ra = r0 < 0 ? 0 : r0, rb = r0 + kh < h ? r0 + kh : h; \
    const int64_t ca = c0 < 0 ? 0 : c0, cb = c0 + kw < w ? c0 + kw : w

/* out: each window's maximum, a `>` scan from LOWEST (NaN never wins); arg: its first
   maximum as a pixel (row * w + column), a `>` scan from the window's first real pixel (a
   NaN there keeps the place).  Channels in blocks of VL held in GCC vector registers
   (comparisons give lane masks; the selects are bitwise blends), the rest in blocks of
   CB whose running values stay in L1. */
#define CB 64
typedef T VEC_NAME __attribute__((vector_size(64), aligned(sizeof(T))));
typedef MASK MVEC_NAME __attribute__((vector_size(64)));
#define VL ((int64_t)(64 / sizeof(T)))
#define BLEND(m, a, b) ((VEC_NAME)(((MVEC_NAME)(a) & (m)) | ((MVEC_NAME)(b) & ~(m))))
int tapeflow_max_pool_NAME(int64_t px, int64_t pout, int64_t parg, POOL_ARGS) {
    const T *x = (const T *)(intptr_t)px;
    T *out = (T *)(intptr_t)pout;
    int32_t *arg = (int32_t *)(intptr_t)parg;
    ROWS_LOOP {
        const int64_t b = bi / oh, i = bi % oh;
        for (int64_t j = 0; j < ow; j++) {
            WINDOW(i, j);
            const int64_t o = ((b * oh + i) * ow + j) * c;
            int64_t kv = 0;
            for (; kv + VL <= c; kv += VL) {
                const T *x0 = x + ((b * h + ra) * w + ca) * c + kv;
                VEC_NAME best = *(const VEC_NAME *)x0, y = (VEC_NAME){0} + LOWEST;
                MVEC_NAME at = (MVEC_NAME){0} + (MASK)(ra * w + ca);
                for (int64_t r = ra; r < rb; r++)
                    for (int64_t q = ca; q < cb; q++) {
                        const VEC_NAME v = *(const VEC_NAME *)(x + ((b * h + r) * w + q) * c + kv);
                        const MVEC_NAME better = v > best;
                        best = BLEND(better, v, best);
                        at = (at & ~better) | ((MASK)(r * w + q) & better);
                        y = BLEND(v > y, v, y);
                    }
                *(VEC_NAME *)(out + o + kv) = y;
                for (int64_t k = 0; k < VL; k++) arg[o + kv + k] = (int32_t)at[k];
            }
            for (int64_t k0 = kv; k0 < c; k0 += CB) {
                const int64_t kn = c - k0 < CB ? c - k0 : CB;
                T best[CB];
                int32_t at[CB];
                T *restrict y = out + o + k0;
                const T *restrict x0 = x + ((b * h + ra) * w + ca) * c + k0;
                for (int64_t k = 0; k < kn; k++) {
                    y[k] = LOWEST;
                    best[k] = x0[k];
                    at[k] = (int32_t)(ra * w + ca);
                }
                for (int64_t r = ra; r < rb; r++)
                    for (int64_t q = ca; q < cb; q++) {  /* the first pixel again: never `>` itself */
                        const int32_t here = (int32_t)(r * w + q);
                        const T *restrict xr = x + ((b * h + r) * w + q) * c + k0;
                        for (int64_t k = 0; k < kn; k++) {
                            /* selects, not conditional stores: a masked store stalls the
                               next pixel's load of the same lanes */
                            const int32_t better = -(int32_t)(xr[k] > best[k]);
                            best[k] = xr[k] > best[k] ? xr[k] : best[k];
                            at[k] ^= (at[k] ^ here) & better;
                            y[k] = xr[k] > y[k] ? xr[k] : y[k];
                        }
                    }
                int32_t *restrict a = arg + o + k0;
                for (int64_t k = 0; k < kn; k++) a[k] = at[k];
            }
        }
    }
    return 0;
}
#undef VL
#undef BLEND

/* Routes v between windows and their first maxima (arg: pixels of an image of p pixels,
   q windows an image).  to_image: image[arg] += v, an image's windows in reverse
   row-major order (image zeroed by the caller); otherwise v = image[arg]. */
int tapeflow_max_pool_route_NAME(int64_t parg, int64_t pv, int64_t pimage, int64_t to_image, int64_t n,
                                 int64_t p, int64_t q, int64_t c) {
    const int32_t *arg = (const int32_t *)(intptr_t)parg;
    T *v = (T *)(intptr_t)pv, *image = (T *)(intptr_t)pimage;
    _Pragma("omp parallel for TEAM schedule(dynamic, 1) if (n * q * c >= PAR_AT)")
    for (int64_t b = 0; b < n; b++) {
        T *im = image + b * p * c;
        for (int64_t s = q - 1; s >= 0; s--) {
            const int32_t *restrict a = arg + (b * q + s) * c;
            T *restrict vo = v + (b * q + s) * c;
            if (to_image)
                for (int64_t k = 0; k < c; k++) im[a[k] * c + k] = im[a[k] * c + k] + vo[k];
            else
                for (int64_t k = 0; k < c; k++) vo[k] = im[a[k] * c + k];
        }
    }
    return 0;
}

int tapeflow_avg_pool_NAME(int64_t px, int64_t pout, POOL_ARGS) {
    const T *x = (const T *)(intptr_t)px;
    T *out = (T *)(intptr_t)pout;
    ROWS_LOOP {
        const int64_t b = bi / oh, i = bi % oh;
        for (int64_t j = 0; j < ow; j++) {
            WINDOW(i, j);
            T *restrict y = out + ((b * oh + i) * ow + j) * c;
            for (int64_t k = 0; k < c; k++) y[k] = 0;
            for (int64_t r = ra; r < rb; r++)
                for (int64_t q = ca; q < cb; q++) {
                    const T *restrict xr = x + ((b * h + r) * w + q) * c;
                    for (int64_t k = 0; k < c; k++) y[k] = y[k] + xr[k];
                }
            const T count = (T)((rb - ra) * (cb - ca));
            for (int64_t k = 0; k < c; k++) y[k] = y[k] / count;
        }
    }
    return 0;
}

/* image[each real pixel of a window] += g[window] / its count (image zeroed by the caller). */
int tapeflow_avg_pool_grad_NAME(int64_t pg, int64_t pimage, POOL_ARGS) {
    const T *g = (const T *)(intptr_t)pg;
    T *image = (T *)(intptr_t)pimage;
    IMAGES_LOOP
        for (int64_t i = oh - 1; i >= 0; i--)
            for (int64_t j = ow - 1; j >= 0; j--) {
                WINDOW(i, j);
                const T *restrict gr = g + ((b * oh + i) * ow + j) * c;
                const T count = (T)((rb - ra) * (cb - ca));
                for (int64_t r = ra; r < rb; r++)
                    for (int64_t q = ca; q < cb; q++) {
                        T *restrict im = image + ((b * h + r) * w + q) * c;
                        for (int64_t k = 0; k < c; k++) im[k] = im[k] + gr[k] / count;
                    }
            }
    return 0;
}
"""

_N_POOL_ARGS = 12


def _dims(x, oh, ow, ksize, strides, ph, pw):
    n, h, w, c = x.shape
    return (n, h, w, c, oh, ow, *ksize, *strides, ph[0], pw[0])


def _call(fns, entry, size, *args):
    fns[entry][size >= native_table.RELEASE_GIL_AT](*args)


def _max_pool(fns, mode, x, v, ksize, strides, oh, ow, ph, pw):
    """pool_ops' max pool ("max": (maxima, arg) of the image x; ph, pw: its SAME padding)."""
    x = np.ascontiguousarray(x)
    n, _, _, c = x.shape
    out, arg = np.empty((n, oh, ow, c), x.dtype), np.empty((n, oh, ow, c), np.int32)
    _call(fns, "max_pool", out.size, x.ctypes.data, out.ctypes.data, arg.ctypes.data,
          *_dims(x, oh, ow, ksize, strides, ph, pw))
    return out, arg


def _route(fns, mode, arg, v, image_shape):
    """pool_ops._route_impl's modes: scatter v onto a zeroed image of image_shape, or gather from the image v."""
    arg, v = np.ascontiguousarray(arg), np.ascontiguousarray(v)
    n, oh, ow, c = arg.shape
    if mode == "gather":
        out = np.empty(arg.shape, v.dtype)
        _call(fns, "max_pool_route", arg.size, arg.ctypes.data, out.ctypes.data, v.ctypes.data, 0, n,
              v.shape[1] * v.shape[2], oh * ow, c)
        return out
    image = np.zeros(image_shape, v.dtype)
    _call(fns, "max_pool_route", arg.size, arg.ctypes.data, v.ctypes.data, image.ctypes.data, 1, n,
          image_shape[1] * image_shape[2], oh * ow, c)
    return image


def _avg_pool(fns, mode, v, shape, ksize, strides, oh, ow, ph, pw):
    """pool_ops' average pool ("avg": v the image of `shape`) and its gradient ("grad": v
    the output's gradient, onto a zeroed image of `shape`)."""
    v = np.ascontiguousarray(v)
    dims = _dims(np.broadcast_to(v.dtype.type(0), shape), oh, ow, ksize, strides, ph, pw)
    size = shape[0] * oh * ow * shape[3]
    if mode == "avg":
        out = np.empty((shape[0], oh, ow, shape[3]), v.dtype)
        _call(fns, "avg_pool", size, v.ctypes.data, out.ctypes.data, *dims)
        return out
    image = np.zeros(shape, v.dtype)
    _call(fns, "avg_pool_grad", size, v.ctypes.data, image.ctypes.data, *dims)
    return image


pool_ops.native = native_table.hook(native_table.source(_POOL), {
    "max_pool": (_max_pool, {"max_pool": 3 + _N_POOL_ARGS}), "max_pool_route": (_route, {"max_pool_route": 8}),
    "avg_pool": (_avg_pool, {"avg_pool": 2 + _N_POOL_ARGS, "avg_pool_grad": 2 + _N_POOL_ARGS})})

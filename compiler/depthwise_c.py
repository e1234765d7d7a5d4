"""The depthwise convolution's forward and filter gradient in C, for
runtime/ops/conv_variants.py (its input gradient is a depthwise convolution too).

Direct loops over the unpadded NHWC image, one output row at a time (it stays in
L1 while the window's taps pass over it), the channel axis innermost (vectorised).
A tap that falls on the padding reads a row of zeros, so it multiplies as the
NumPy path's padded image does (0 * inf is NaN there too).
  forward      each output element is w[tap 0] * x, then `acc = acc + w[tap] * x` tap
               after tap in (row, column) order, rounded to the dtype (no fused
               multiply-add): the NumPy path's bits.
  filter grad  for each tap, the products x * g summed along each output row in the
               dtype, the rows' sums added up in double, rounded once at the end
               (NumPy's einsum sums in another order: equal to rounding).
tests/test_conv_native.py checks both against the NumPy paths.
"""
import numpy as np

from tapeflow.runtime.ops import conv_variants

from . import native_table

_DEPTHWISE = r"""
#define DW_ARGS int64_t n, int64_t h, int64_t w, int64_t c, int64_t m, int64_t oh, int64_t ow, int64_t kh, \
                int64_t kw, int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t pt, int64_t pl
/* The input pixel under tap (a, e) of output (b, i, j), or the row of zeros. */
#define TAP_PIXEL(b, i, j, a, e) ({ const int64_t r_ = (i) * sh + (a) * dh - pt, q_ = (j) * sw + (e) * dw - pl; \
    r_ >= 0 && r_ < h && q_ >= 0 && q_ < w ? x + (((b) * h + r_) * w + q_) * c : zero; })

/* Channels in blocks of VL: GCC vector types, so that a block's sum stays in registers
   over the window's taps (plain loops kept it in memory, reloaded at every tap).  The
   arithmetic is the scalar code's, lane by lane. */
typedef T VEC_NAME __attribute__((vector_size(64), aligned(sizeof(T))));
#define VL ((int64_t)(64 / sizeof(T)))
#define LOAD(p) (*(const VEC_NAME *)(p))
#define STORE(p, v) (*(VEC_NAME *)(p) = (v))

int tapeflow_depthwise_NAME(int64_t px, int64_t pw, int64_t pout, int64_t pzero, DW_ARGS) {
    const T *x = (const T *)(intptr_t)px, *wt = (const T *)(intptr_t)pw, *zero = (const T *)(intptr_t)pzero;
    T *out = (T *)(intptr_t)pout;
    const int64_t cm = c * m;
    #pragma omp parallel for TEAM schedule(dynamic, 1) if (n * oh * ow * cm >= PAR_AT)
    for (int64_t bi = 0; bi < n * oh; bi++) {
        const int64_t b = bi / oh, i = bi % oh;
        for (int64_t j = 0; j < ow; j++) {
            T *o = out + ((b * oh + i) * ow + j) * cm;
            if (m == 1) {
                int64_t k0 = 0;
                for (; k0 + 4 * VL <= c; k0 += 4 * VL) {  /* four blocks a tap: one pixel lookup */
                    const T *x0 = TAP_PIXEL(b, i, j, 0, 0) + k0, *w0 = wt + k0;
                    VEC_NAME acc0 = LOAD(x0) * LOAD(w0), acc1 = LOAD(x0 + VL) * LOAD(w0 + VL);
                    VEC_NAME acc2 = LOAD(x0 + 2 * VL) * LOAD(w0 + 2 * VL), acc3 = LOAD(x0 + 3 * VL) * LOAD(w0 + 3 * VL);
                    for (int64_t a = 0; a < kh; a++)
                        for (int64_t e = a == 0; e < kw; e++) {
                            const T *xr = TAP_PIXEL(b, i, j, a, e) + k0, *wr = wt + (a * kw + e) * c + k0;
                            acc0 = acc0 + LOAD(xr) * LOAD(wr);
                            acc1 = acc1 + LOAD(xr + VL) * LOAD(wr + VL);
                            acc2 = acc2 + LOAD(xr + 2 * VL) * LOAD(wr + 2 * VL);
                            acc3 = acc3 + LOAD(xr + 3 * VL) * LOAD(wr + 3 * VL);
                        }
                    STORE(o + k0, acc0);
                    STORE(o + k0 + VL, acc1);
                    STORE(o + k0 + 2 * VL, acc2);
                    STORE(o + k0 + 3 * VL, acc3);
                }
                for (; k0 + VL <= c; k0 += VL) {
                    VEC_NAME acc = LOAD(TAP_PIXEL(b, i, j, 0, 0) + k0) * LOAD(wt + k0);
                    for (int64_t a = 0; a < kh; a++)
                        for (int64_t e = a == 0; e < kw; e++)
                            acc = acc + LOAD(TAP_PIXEL(b, i, j, a, e) + k0) * LOAD(wt + (a * kw + e) * c + k0);
                    STORE(o + k0, acc);
                }
                for (; k0 < c; k0++) {
                    T acc = TAP_PIXEL(b, i, j, 0, 0)[k0] * wt[k0];
                    for (int64_t a = 0; a < kh; a++)
                        for (int64_t e = a == 0; e < kw; e++)
                            acc = acc + TAP_PIXEL(b, i, j, a, e)[k0] * wt[(a * kw + e) * c + k0];
                    o[k0] = acc;
                }
                continue;
            }
            for (int64_t a = 0; a < kh; a++)
                for (int64_t e = 0; e < kw; e++) {
                    const T *restrict xr = TAP_PIXEL(b, i, j, a, e);
                    const T *restrict wr = wt + (a * kw + e) * cm;
                    for (int64_t k = 0; k < c; k++)
                        for (int64_t q = 0; q < m; q++) {
                            const T p = xr[k] * wr[k * m + q];
                            o[k * m + q] = a == 0 && e == 0 ? p : o[k * m + q] + p;
                        }
                }
        }
    }
    return 0;
}

/* out[a, e, k, q] = sum over (b, i, j) of x[tap (a, e) of (b, i, j), k] * g[b, i, j, k * m + q].
   Each group of GROUP images (a fixed split, whatever the team) sums into its own totals
   (double, kh * kw * c * m) through its row (T, c * m); the groups' totals are added in order. */
#define GROUP 4
int tapeflow_depthwise_filter_grad_NAME(int64_t px, int64_t pg, int64_t pout, int64_t ptotals, int64_t prows,
                                        int64_t pzero, DW_ARGS) {
    const T *x = (const T *)(intptr_t)px, *g = (const T *)(intptr_t)pg, *zero = (const T *)(intptr_t)pzero;
    T *out = (T *)(intptr_t)pout;
    double *totals = (double *)(intptr_t)ptotals;
    T *rows = (T *)(intptr_t)prows;
    const int64_t cm = c * m, size = kh * kw * cm, groups = (n + GROUP - 1) / GROUP;
    #pragma omp parallel for TEAM schedule(dynamic, 1) if (n * oh * ow * cm >= PAR_AT)
    for (int64_t gi = 0; gi < groups; gi++) {
        double *total = totals + gi * size;
        T *restrict row = rows + gi * cm;
        for (int64_t t = 0; t < size; t++) total[t] = 0;
        const int64_t last = (gi + 1) * GROUP < n ? (gi + 1) * GROUP : n;
        for (int64_t bi = gi * GROUP * oh; bi < last * oh; bi++) {
            const int64_t b = bi / oh, i = bi % oh;
            const T *grow = g + (b * oh + i) * ow * cm;
            for (int64_t a = 0; a < kh; a++)
                for (int64_t e = 0; e < kw; e++) {
                    if (m == 1) {
                        int64_t k0 = 0;
                        for (; k0 + 4 * VL <= c; k0 += 4 * VL) {  /* four blocks a pixel: one lookup */
                            VEC_NAME acc0 = {0}, acc1 = {0}, acc2 = {0}, acc3 = {0};
                            for (int64_t j = 0; j < ow; j++) {
                                const T *xr = TAP_PIXEL(b, i, j, a, e) + k0, *gr = grow + j * c + k0;
                                acc0 = acc0 + LOAD(xr) * LOAD(gr);
                                acc1 = acc1 + LOAD(xr + VL) * LOAD(gr + VL);
                                acc2 = acc2 + LOAD(xr + 2 * VL) * LOAD(gr + 2 * VL);
                                acc3 = acc3 + LOAD(xr + 3 * VL) * LOAD(gr + 3 * VL);
                            }
                            STORE(row + k0, acc0);
                            STORE(row + k0 + VL, acc1);
                            STORE(row + k0 + 2 * VL, acc2);
                            STORE(row + k0 + 3 * VL, acc3);
                        }
                        for (; k0 + VL <= c; k0 += VL) {
                            VEC_NAME acc = {0};
                            for (int64_t j = 0; j < ow; j++)
                                acc = acc + LOAD(TAP_PIXEL(b, i, j, a, e) + k0) * LOAD(grow + j * c + k0);
                            STORE(row + k0, acc);
                        }
                        for (; k0 < c; k0++) {
                            T acc = 0;
                            for (int64_t j = 0; j < ow; j++)
                                acc = acc + TAP_PIXEL(b, i, j, a, e)[k0] * grow[j * c + k0];
                            row[k0] = acc;
                        }
                    } else {
                        for (int64_t k = 0; k < cm; k++) row[k] = 0;
                        for (int64_t j = 0; j < ow; j++) {
                            const T *restrict xr = TAP_PIXEL(b, i, j, a, e);
                            const T *restrict gr = grow + j * cm;
                            for (int64_t k = 0; k < c; k++)
                                for (int64_t q = 0; q < m; q++) row[k * m + q] = row[k * m + q] + xr[k] * gr[k * m + q];
                        }
                    }
                    double *restrict tot = total + (a * kw + e) * cm;
                    for (int64_t k = 0; k < cm; k++) tot[k] += (double)row[k];
                }
        }
    }
    for (int64_t t = 0; t < size; t++) {
        double sum = 0;
        for (int64_t gi = 0; gi < groups; gi++) sum += totals[gi * size + t];
        out[t] = (T)sum;
    }
    return 0;
}
/* The strided input gradient: image[tap (a, e) of (b, i, j), k] += sum over q of
   g[b, i, j, k * m + q] * w[a, e, k, q], an image's windows in reverse row-major order (a
   pixel sums its windows tap after tap, as patches_grad's passes do); taps on the padding
   are dropped.  image: uninitialised, each image zeroed by the thread that fills it. */
int tapeflow_depthwise_input_grad_NAME(int64_t pg, int64_t pw, int64_t pimage, DW_ARGS) {
    const T *g = (const T *)(intptr_t)pg, *wt = (const T *)(intptr_t)pw;
    T *image = (T *)(intptr_t)pimage;
    const int64_t cm = c * m;
    #pragma omp parallel for TEAM schedule(dynamic, 1) if (n * oh * ow * cm >= PAR_AT)
    for (int64_t b = 0; b < n; b++) {
        T *im = image + b * h * w * c;
        for (int64_t t = 0; t < h * w * c; t++) im[t] = 0;
        for (int64_t i = oh - 1; i >= 0; i--)
            for (int64_t j = ow - 1; j >= 0; j--) {
                const T *restrict gr = g + ((b * oh + i) * ow + j) * cm;
                for (int64_t a = 0; a < kh; a++) {
                    const int64_t r = i * sh + a * dh - pt;
                    if (r < 0 || r >= h) continue;
                    for (int64_t e = 0; e < kw; e++) {
                        const int64_t q = j * sw + e * dw - pl;
                        if (q < 0 || q >= w) continue;
                        T *restrict o = im + (r * w + q) * c;
                        const T *restrict wr = wt + (a * kw + e) * cm;
                        if (m == 1)
                            for (int64_t k = 0; k < c; k++) o[k] = o[k] + gr[k] * wr[k];
                        else
                            for (int64_t k = 0; k < c; k++) {
                                T sum = gr[k * m] * wr[k * m];
                                for (int64_t u = 1; u < m; u++) sum = sum + gr[k * m + u] * wr[k * m + u];
                                o[k] = o[k] + sum;
                            }
                    }
                }
            }
    }
    return 0;
}
#undef GROUP
#undef VL
#undef LOAD
#undef STORE
"""

_N_DW_ARGS = 15
_GROUP = 4  # the kernel's GROUP


def _dims(x, kshape, oh, ow, strides, dilations, ph, pw):
    n, h, w, c = x.shape
    kh, kw, _, m = kshape
    return (n, h, w, c, m, oh, ow, kh, kw, *strides, *dilations, ph[0], pw[0])


def _depthwise(fns, x, w, oh, ow, strides, dilations, ph, pw):
    """x: the (N, H, W, C) image, unpadded (ph, pw: its padding); w: (KH, KW, C, M)."""
    x, w = np.ascontiguousarray(x), np.ascontiguousarray(w)
    out = np.empty((x.shape[0], oh, ow, w.shape[2] * w.shape[3]), x.dtype)
    zero = np.zeros(x.shape[3], x.dtype)
    fns["depthwise"][out.size >= native_table.RELEASE_GIL_AT](
        x.ctypes.data, w.ctypes.data, out.ctypes.data, zero.ctypes.data, *_dims(x, w.shape, oh, ow, strides, dilations,
                                                                                ph, pw))
    return out


def _filter_grad(fns, x, g, kshape, strides, dilations, ph, pw):
    """(KH, KW, C, M) = kshape: the filter gradient of a depthwise convolution of x."""
    x, g = np.ascontiguousarray(x), np.ascontiguousarray(g, x.dtype)
    groups = -(-x.shape[0] // _GROUP)
    out, totals = np.empty(kshape, x.dtype), np.empty((groups,) + kshape, np.float64)
    rows, zero = np.empty((groups, kshape[2] * kshape[3]), x.dtype), np.zeros(x.shape[3], x.dtype)
    fns["depthwise_filter_grad"][g.size >= native_table.RELEASE_GIL_AT](
        x.ctypes.data, g.ctypes.data, out.ctypes.data, totals.ctypes.data, rows.ctypes.data, zero.ctypes.data,
        *_dims(x, kshape, g.shape[1], g.shape[2], strides, dilations, ph, pw))
    return out


def _input_grad(fns, g, w, shape, strides, dilations, ph, pw):
    """The (N, H, W, C) = shape input gradient of a strided depthwise convolution."""
    g, w = np.ascontiguousarray(g), np.ascontiguousarray(w, g.dtype)
    image = np.empty(shape, g.dtype)
    fns["depthwise_input_grad"][g.size >= native_table.RELEASE_GIL_AT](
        g.ctypes.data, w.ctypes.data, image.ctypes.data,
        *_dims(np.broadcast_to(image, shape), w.shape, g.shape[1], g.shape[2], strides, dilations, ph, pw))
    return image


conv_variants.native = native_table.hook(native_table.source(_DEPTHWISE), {
    "depthwise": (_depthwise, {"depthwise": 4 + _N_DW_ARGS}),
    "depthwise_filter_grad": (_filter_grad, {"depthwise_filter_grad": 6 + _N_DW_ARGS}),
    "depthwise_input_grad": (_input_grad, {"depthwise_input_grad": 3 + _N_DW_ARGS})})

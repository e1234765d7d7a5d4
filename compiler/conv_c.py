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
"""

import numpy as np

from tapeflow.runtime.ops import conv_ops

from . import native_table

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
/* rows[b, y, x, a, e, k] = image[b, y * sh + a * dh - pt, x * sw + e * dw - pl, k], 0 outside:
   the padded image's windows without the padded image (one copy, C-long runs). */
int tapeflow_im2col_NAME(int64_t pimage, int64_t prows, int64_t n, int64_t h, int64_t w, int64_t c,
                         int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
                         int64_t dh, int64_t dw, int64_t pt, int64_t pl) {
    const T *image = (const T *)(intptr_t)pimage;
    T *rows = (T *)(intptr_t)prows;
    for (int64_t b = 0; b < n; b++)
        for (int64_t y = 0; y < oh; y++)
            for (int64_t x = 0; x < ow; x++) {
                T *restrict r = rows + ((b * oh + y) * ow + x) * kh * kw * c;
                int64_t j0 = x * sw - pl;
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
    return 0;
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


_WRAPPERS = {"patches_grad": (_patches_grad, {"patches_grad": 14}), "im2col": (_im2col, {"im2col": 16})}


# conv_ops' hook: native(kernel, dtype) -> the kernel ("patches_grad", "im2col") for arrays
# of `dtype`, or None (no C, or a dtype without a kernel: the NumPy path runs).
native = conv_ops.native = native_table.hook(native_table.source(_COL2IM, _IM2COL), _WRAPPERS)

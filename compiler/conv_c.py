"""The depthwise convolution's forward in C, for runtime/ops/conv_variants.py.

The runtime knows no C: when this module loads it sets `conv_variants.native`, a
lookup the runtime calls for a kernel by dtype; the library is built (through the
compile cache of cbuild.py) at the first depthwise convolution, not at import.
Without a working compiler, or with the no_c flag on, the lookup answers None and
the NumPy path runs (one multiply and one add per tap over the whole image, where
this kernel makes one pass: 5-10x faster on a 32x32x64 batch).

Same bits as the NumPy path: each output element is w[tap 0] * x, then
`acc = acc + w[tap] * x` tap after tap in (row, column) order, every product and
sum rounded to the dtype (no fused multiply-add: cbuild's -ffp-contract=off).
tests/test_conv_native.py checks both paths against each other.
"""
import threading

import numpy as np

from tapeflow.runtime.ops import conv_variants

from . import cbuild
from .flags import is_on

_KERNEL = r"""
int tapeflow_depthwise_NAME(int64_t px, int64_t pw, int64_t pout, int64_t n, int64_t hp, int64_t wp,
                            int64_t c, int64_t m, int64_t oh, int64_t ow, int64_t kh, int64_t kw,
                            int64_t sh, int64_t sw, int64_t dh, int64_t dw) {
    const T *x = (const T *)(intptr_t)px, *w = (const T *)(intptr_t)pw;
    T *out = (T *)(intptr_t)pout;
    const int64_t cm = c * m;
    for (int64_t b = 0; b < n; b++)
        for (int64_t i = 0; i < oh; i++)
            for (int64_t j = 0; j < ow; j++) {
                T *restrict o = out + ((b * oh + i) * ow + j) * cm;
                for (int64_t a = 0; a < kh; a++)
                    for (int64_t e = 0; e < kw; e++) {
                        const T *restrict xr = x + ((b * hp + i * sh + a * dh) * wp + j * sw + e * dw) * c;
                        const T *restrict wr = w + (a * kw + e) * cm;
                        const int first = a == 0 && e == 0;
                        if (m == 1) {
                            if (first)
                                for (int64_t k = 0; k < c; k++) o[k] = xr[k] * wr[k];
                            else
                                for (int64_t k = 0; k < c; k++) o[k] = o[k] + xr[k] * wr[k];
                        } else {
                            for (int64_t k = 0; k < c; k++)
                                for (int64_t q = 0; q < m; q++) {
                                    const T p = xr[k] * wr[k * m + q];
                                    o[k * m + q] = first ? p : o[k * m + q] + p;
                                }
                        }
                    }
            }
    return 0;
}
"""

SOURCE = "#include <stdint.h>\n#pragma STDC FP_CONTRACT OFF\n" + "".join(
    "#define T %s\n%s#undef T\n" % (ctype, _KERNEL.replace("NAME", name))
    for name, ctype in (("f32", "float"), ("f64", "double")))

_DTYPES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}
_RELEASE_GIL_AT = 1 << 14   # output elements: below this the GIL round trip costs more than it frees
_lock = threading.Lock()
_built = []                 # [Library or None], once tried
_bound = {}


def _library():
    """The built library, or None: no compiler (remembered), or the no_c flag (asked each time)."""
    if is_on("no_c"):
        return None
    if not _built:
        with _lock:
            if not _built:
                _built.append(cbuild.build(SOURCE))
    return _built[0]


def _depthwise(fns, padded, w, oh, ow, strides, dilations):
    """padded: the (N, Hp, Wp, C) image, already padded; w: (KH, KW, C, M)."""
    padded, w = np.ascontiguousarray(padded), np.ascontiguousarray(w)
    n, hp, wp, c = padded.shape
    kh, kw, _, m = w.shape
    out = np.empty((n, oh, ow, c * m), padded.dtype)
    fns[out.size >= _RELEASE_GIL_AT](padded.ctypes.data, w.ctypes.data, out.ctypes.data, n, hp, wp, c, m, oh, ow,
                                     kh, kw, *strides, *dilations)
    return out


def native(dtype):
    """conv_variants' hook: the depthwise kernel for arrays of `dtype`, or None (no C)."""
    name = _DTYPES.get(np.dtype(dtype))
    if name is None or is_on("no_c"):
        return None
    fn = _bound.get(name)
    if fn is None:
        lib = _library()
        if lib is None:
            return None
        fns = tuple(lib.function(f"tapeflow_depthwise_{name}", 0, 16, release_gil=r) for r in (False, True))
        fn = _bound[name] = lambda *args: _depthwise(fns, *args)
    return fn


conv_variants.native = native

"""Philox-4x32-10 and the Box-Muller transforms of TensorFlow's draws in C, for runtime/ops/philox.py.

The runtime knows no C: when this module loads it sets `philox.native`, a lookup
the runtime calls for a kernel by name; the library is built (through the compile
cache of cbuild.py) at the first draw, not at import.  Without a working compiler,
or with the no_c flag on, the lookup answers None and philox.py keeps its NumPy and
Python path (same bits).

Bit-identity with TensorFlow (and with that path) rests on three facts: the kernels
call glibc's scalar logf/log and sincosf/sincos, as TensorFlow's BoxMullerFloat /
BoxMullerDouble do on Linux (glibc's sincos gives the bits of its sin and cos); no
expression here has an a * b + c shape, so -ffp-contract cannot fuse anything;
and cbuild's flags have no -ffast-math, so glibc's headers declare no vector
variants and the calls stay scalar.  tests/test_random_native.py checks both paths
against each other and against recorded TensorFlow values.
"""

import numpy as np

from tapeflow.runtime.ops import philox

from . import cbuild
from .flags import is_on
from .random_samplers_c import SAMPLER_KERNELS, SAMPLERS_SOURCE, signed

PRELUDE = r"""
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <string.h>
/* No a * b + c may become a fused multiply-add: TensorFlow's kernels round each step. */
#pragma STDC FP_CONTRACT OFF
#pragma GCC optimize ("fp-contract=off")

/* Philox-4x32-10 of the 128-bit counter (lo, hi) under the 64-bit key: out[0..3]. */
static inline void tf_philox(uint64_t lo, uint64_t hi, uint64_t key, uint32_t out[4]) {
    uint32_t c0 = (uint32_t)lo, c1 = (uint32_t)(lo >> 32), c2 = (uint32_t)hi, c3 = (uint32_t)(hi >> 32);
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    for (int round = 0; round < 10; round++) {
        const uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

static inline float tf_uniform_f32(uint32_t x) {
    uint32_t bits = (x & 0x7fffffu) | 0x3f800000u;      /* 1.mantissa: [1, 2) */
    float f;
    memcpy(&f, &bits, sizeof f);
    return f - 1.0f;
}

static inline double tf_uniform_f64(uint32_t hi, uint32_t lo) {
    uint64_t bits = ((uint64_t)(hi & 0xfffffu) << 32) | lo | ((uint64_t)1023 << 52);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d - 1.0;
}
"""

SOURCE = PRELUDE + r"""
/* out[4 i .. 4 i + 3] = Philox-4x32-10 of counter + offsets[i] (a 128-bit sum) under `key`. */
int tapeflow_philox_blocks(int64_t counter_lo, int64_t counter_hi, int64_t key, int64_t poffsets, int64_t n,
                           int64_t pout) {
    const uint64_t *offsets = (const uint64_t *)(intptr_t)poffsets;
    uint32_t *out = (uint32_t *)(intptr_t)pout;
    const uint64_t base_lo = (uint64_t)counter_lo, base_hi = (uint64_t)counter_hi;
    for (int64_t i = 0; i < n; i++) {
        const uint64_t lo = base_lo + offsets[i], hi = base_hi + (lo < base_lo);
        tf_philox(lo, hi, (uint64_t)key, out + 4 * i);
    }
    return 0;
}

/* out0[i], out1[i] = sin, cos Box-Muller pair of the words (x0[i], x1[i]). */
int tapeflow_box_muller_f32(int64_t px0, int64_t px1, int64_t n, int64_t pout0, int64_t pout1) {
    const uint32_t *x0 = (const uint32_t *)(intptr_t)px0, *x1 = (const uint32_t *)(intptr_t)px1;
    float *out0 = (float *)(intptr_t)pout0, *out1 = (float *)(intptr_t)pout1;
    for (int64_t i = 0; i < n; i++) {
        float u1 = tf_uniform_f32(x0[i]);
        if (u1 < 1.0e-7f) u1 = 1.0e-7f;
        const float v1 = (float)(2.0 * M_PI * (double)tf_uniform_f32(x1[i]));  /* a double product */
        const float u2 = sqrtf(-2.0f * logf(u1));
        float s, c;
        sincosf(v1, &s, &c);
        out0[i] = s * u2;
        out1[i] = c * u2;
    }
    return 0;
}

/* The same from four words per pair: u1 from (x0, x1), v1 from (x2, x3). */
int tapeflow_box_muller_f64(int64_t px0, int64_t px1, int64_t px2, int64_t px3, int64_t n,
                            int64_t pout0, int64_t pout1) {
    const uint32_t *x0 = (const uint32_t *)(intptr_t)px0, *x1 = (const uint32_t *)(intptr_t)px1;
    const uint32_t *x2 = (const uint32_t *)(intptr_t)px2, *x3 = (const uint32_t *)(intptr_t)px3;
    double *out0 = (double *)(intptr_t)pout0, *out1 = (double *)(intptr_t)pout1;
    for (int64_t i = 0; i < n; i++) {
        double u1 = tf_uniform_f64(x0[i], x1[i]);
        if (u1 < 1.0e-34) u1 = 1.0e-34;
        const double v1 = 2.0 * M_PI * tf_uniform_f64(x2[i], x3[i]);
        const double u2 = sqrt(-2.0 * log(u1));
        double s, c;
        sincos(v1, &s, &c);
        out0[i] = s * u2;
        out1[i] = c * u2;
    }
    return 0;
}
""" + SAMPLERS_SOURCE

_RELEASE_GIL_AT = 4096      # elements: below this the GIL round trip costs more than it frees

_library = cbuild.lazily_built(SOURCE)


def _words(a):
    return np.ascontiguousarray(a, dtype=np.uint32)


def _box_muller_f32(fns, x0, x1):
    x0, x1 = _words(x0), _words(x1)
    n = x0.size
    out0, out1 = np.empty(n, np.float32), np.empty(n, np.float32)
    fns[n >= _RELEASE_GIL_AT](x0.ctypes.data, x1.ctypes.data, n, out0.ctypes.data, out1.ctypes.data)
    return out0, out1


def _box_muller_f64(fns, x0, x1, x2, x3):
    xs = [_words(x) for x in (x0, x1, x2, x3)]
    n = xs[0].size
    out0, out1 = np.empty(n), np.empty(n)
    fns[n >= _RELEASE_GIL_AT](*(x.ctypes.data for x in xs), n, out0.ctypes.data, out1.ctypes.data)
    return out0, out1


def _philox_blocks(fns, counter, offsets, key):
    offsets = np.ascontiguousarray(offsets, dtype=np.uint64)
    n = offsets.size
    out = np.empty((n, 4), np.uint32)
    fns[n >= _RELEASE_GIL_AT](signed(counter), signed(counter >> 64), signed(key), offsets.ctypes.data, n,
                              out.ctypes.data)
    return out


_KERNELS = {"philox_blocks": (_philox_blocks, 6), "box_muller_f32": (_box_muller_f32, 5),
            "box_muller_f64": (_box_muller_f64, 7), **SAMPLER_KERNELS}
_bound = {}


def native(name):
    """philox.py's hook: a callable on word arrays for kernel `name`, or None (no C)."""
    fn = None if is_on("no_c") else _bound.get(name)
    if fn is None and name in _KERNELS:
        lib = _library()
        if lib is None:
            return None
        wrapper, n_args = _KERNELS[name]
        fns = tuple(lib.function(f"tapeflow_{name}", 0, n_args, release_gil=r) for r in (False, True))
        fn = _bound[name] = lambda *words: wrapper(fns, *words)
    return fn


philox.native = native

"""Philox-4x32-10 and the distributions TensorFlow's CPU kernels build on it.

NumPy (and, where the compiler layer provides them, C kernels with the same bits:
`native` below), so that tapeflow draws TensorFlow's numbers for the same seeds:
the same counter/key layout, the same number of counter steps per output group,
the same float conversions (23 mantissa bits for float32, 52 for float64) and the
same Box-Muller and truncation loops.  A generator position is (counter, key):
counter a 128-bit integer, key a 64-bit integer (Python ints).

Invariants copied from the kernels, which the numbers depend on:
- one Philox call gives 4 uint32 words and steps the counter by one;
- a fixed-size distribution takes one call per group (float32 normal/uniform: 4
  outputs, float64 and 64-bit integers: 2 outputs, int32 uniform: 4 outputs);
- a variable-size distribution (truncated normal) starts group g at counter
  offset g * 256 and reads words one at a time from there;
- a stateful op reserves `size * 256` counter steps per call.
"""
import ctypes
import ctypes.util
import math

import numpy as np

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
RESERVED_PER_OUTPUT = 256
_W32A, _W32B = 0x9E3779B9, 0xBB67AE85
_M4x32A, _M4x32B = 0xD2511F53, 0xCD9E8D57


def blocks(counter, key, n):
    """n Philox outputs from `counter` onward: a uint32 array of shape (n, 4)."""
    return blocks_at(counter, np.arange(n, dtype=np.uint64), key)


def blocks_at(counter, offsets, key):
    """Philox outputs at counter + each of `offsets` (uint64 array): shape (len, 4)."""
    counter &= M128
    fn = native and native("philox_blocks")
    if fn is not None:
        return fn(counter, offsets, key & M64)
    base_lo, base_hi = np.uint64(counter & M64), np.uint64(counter >> 64)
    lo = base_lo + offsets                                # wraps mod 2**64
    hi = base_hi + (lo < base_lo).astype(np.uint64)
    m32 = np.uint64(M32)
    c = np.stack([lo & m32, lo >> np.uint64(32), hi & m32, hi >> np.uint64(32)])
    k0, k1 = np.uint64(key & M32), np.uint64((key >> 32) & M32)
    for _ in range(10):
        p0 = np.uint64(_M4x32A) * c[0]
        p1 = np.uint64(_M4x32B) * c[2]
        hi0, lo0 = p0 >> np.uint64(32), p0 & m32
        hi1, lo1 = p1 >> np.uint64(32), p1 & m32
        c = np.stack([hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0])
        k0 = np.uint64((int(k0) + _W32A) & M32)
        k1 = np.uint64((int(k1) + _W32B) & M32)
    return c.T.astype(np.uint32)


def words(counter, key, n):
    """The first n uint32 words from `counter` (whole calls, row-major)."""
    return blocks(counter, key, -(-n // 4)).reshape(-1)[:n]


def key_counter_from_seed(seed0, seed1):
    """(counter, key) of the stateless ops' seed pair (TensorFlow's GenerateKey)."""
    seed0, seed1 = int(seed0) & M64, int(seed1) & M64
    mix = blocks(seed0 | (seed1 << 64), 0x02461E29_3EC8F720, 1)[0]
    key = int(mix[0]) | (int(mix[1]) << 32)
    counter = (int(mix[2]) << 64) | (int(mix[3]) << 96)
    return counter, key


def from_seeds(seed, seed2):
    """(counter, key) of a stateful kernel seeded with attrs (seed, seed2)."""
    return (int(seed2) & M64) << 64, int(seed) & M64


# --- conversions ----------------------------------------------------------------------
def to_float32(w):
    """uint32 -> float32 in [0, 1): 23 random mantissa bits."""
    bits = (w.astype(np.uint32) & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)
    return bits.view(np.float32) - np.float32(1.0)


def to_float64(hi, lo):
    """two uint32 -> float64 in [0, 1): 52 random mantissa bits (20 from hi, 32 from lo)."""
    man = ((hi.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | lo.astype(np.uint64)
    return (man | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _libm():
    """glibc's scalar logf/sinf/cosf/log/sin/cos/lgamma, which the kernels
    call (None without libm)."""
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:
        return None
    fns = {}
    for name, ctype in (("logf", ctypes.c_float), ("sinf", ctypes.c_float), ("cosf", ctypes.c_float),
                        ("lgamma", ctypes.c_double),
                        ("log", ctypes.c_double), ("sin", ctypes.c_double), ("cos", ctypes.c_double)):
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = ctype, [ctype]
        fns[name] = fn
    return fns


LIBM = _libm()

# The compiler layer sets this when it loads (compiler/random_c.py): native(name) -> a
# C kernel ("philox_blocks", "box_muller_f32", "box_muller_f64"), or None without a C
# compiler.  The kernels do the same integer steps and call the same glibc functions
# as the NumPy code here, so both paths give the same bits.
native = None


def _math(name, x):
    """libm's `name` elementwise.  NumPy's own float32 log/sin/cos are SIMD code that
    differs from glibc in the last bit for ~1% of inputs; float64 math rounded to
    float32 is the fallback (within one ulp) where libm cannot be loaded."""
    wide = x.dtype == np.float64
    if LIBM is None:
        out = getattr(np, name)(x.astype(np.float64))
        return out if wide else out.astype(np.float32)
    fn = LIBM[name if wide else name + "f"]
    return np.fromiter(map(fn, x.tolist()), dtype=x.dtype, count=x.size)


def box_muller32(x0, x1):
    fn = native and native("box_muller_f32")
    if fn is not None:
        return fn(x0, x1)
    # The kernel's `2.0f * M_PI * u` is a double product rounded to float.
    u1 = np.maximum(to_float32(x0), np.float32(1.0e-7))
    v1 = (2.0 * math.pi * to_float32(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * _math("log", u1))
    return _math("sin", v1) * u2, _math("cos", v1) * u2


def box_muller64(x0, x1, x2, x3):
    fn = native and native("box_muller_f64")
    if fn is not None:
        return fn(x0, x1, x2, x3)
    u1 = np.maximum(to_float64(x0, x1), 1.0e-34)
    v1 = 2.0 * math.pi * to_float64(x2, x3)
    u2 = np.sqrt(-2.0 * _math("log", u1))
    return _math("sin", v1) * u2, _math("cos", v1) * u2


# --- distributions: (counter, key, size, ...) -> flat array ----------------------------
# Half types as TF's kernels draw them: one 32-bit word each, its low 16 bits' mantissa bits
# under the exponent of 1.0 (float16: 10 bits, bfloat16: 7), minus 1 (exact).
_HALF_ONE = {"float16": (0x3C00, 0x3FF), "bfloat16": (0x3F80, 0x7F)}


def uniform(counter, key, size, np_dtype):
    """Floats in [0, 1)."""
    half = _HALF_ONE.get(np.dtype(np_dtype).name)
    if half is not None:
        bits = (np.uint16(half[0]) | (words(counter, key, size).astype(np.uint16) & np.uint16(half[1])))
        return bits.view(np_dtype) - np.asarray(1, np_dtype)
    if np_dtype == np.float64:
        b = blocks(counter, key, -(-size // 2)).reshape(-1, 2)
        return to_float64(b[:, 0], b[:, 1])[:size]
    return to_float32(words(counter, key, size)).astype(np_dtype)


def normal(counter, key, size, np_dtype):
    if np_dtype == np.float64:
        b = blocks(counter, key, -(-size // 2))
        f0, f1 = box_muller64(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
        return np.stack([f0, f1], axis=1).reshape(-1)[:size]
    w = words(counter, key, size + size % 2).reshape(-1, 2)
    f0, f1 = box_muller32(w[:, 0], w[:, 1])
    return np.stack([f0, f1], axis=1).reshape(-1)[:size].astype(np_dtype)


def _box_muller_rows(b, wide):
    """Box-Muller outputs of Philox rows in the order the truncation loop meets them."""
    if wide:
        f0, f1 = box_muller64(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
    else:
        w = b.reshape(-1, 2)
        f0, f1 = box_muller32(w[:, 0], w[:, 1])
    return np.stack([f0, f1], axis=1).reshape(-1)


def truncated_normal(counter, key, size, np_dtype):
    """Normals with |x| < 2, redrawn: output group g reads words from counter + g * stride."""
    wide = np_dtype == np.float64
    group = 2 if wide else 4
    stride = RESERVED_PER_OUTPUT * group // 4
    groups = -(-size // group)
    first = 4 if wide else 2          # Philox calls tried at once per group (8 candidates)
    offsets = (np.arange(groups, dtype=np.uint64)[:, None] * np.uint64(stride)
               + np.arange(first, dtype=np.uint64)[None, :]).reshape(-1)
    cand = _box_muller_rows(blocks_at(counter, offsets, key), wide).reshape(groups, -1)
    ok = np.abs(cand) < 2.0
    out = np.empty(groups * group, dtype=cand.dtype)
    for g in np.nonzero(ok.sum(axis=1) < group)[0]:     # rare: more redraws needed
        cand[g, :group] = _slow_group(counter + int(g) * stride, key, group, wide)
        ok[g] = False
        ok[g, :group] = True
    rank = np.cumsum(ok, axis=1)
    take = ok & (rank <= group)
    out[:] = cand[take]
    return out[:size].astype(np_dtype)


def _slow_group(start, key, group, wide):
    got, offset = [], 0
    while len(got) < group:
        cand = _box_muller_rows(blocks(start + offset, key, 1), wide)
        offset += 1
        got.extend(f for f in cand if abs(float(f)) < 2.0)
    return np.array(got[:group])


def uniform_int(counter, key, size, lo, hi, np_dtype):
    """Integers in [lo, hi): 32-bit words mod the range (64-bit words for 64-bit types)."""
    span = int(hi) - int(lo)
    if np.dtype(np_dtype).itemsize == 8:
        b = blocks(counter, key, -(-size // 2)).reshape(-1, 2)
        bits = b[:, 0].astype(np.uint64) | (b[:, 1].astype(np.uint64) << np.uint64(32))
        vals = [int(lo) + int(v) % span for v in bits[:size]]
    else:
        vals = [int(lo) + int(v) % span for v in words(counter, key, size)]
    return np.array(vals, dtype=np.int64).astype(np_dtype)


def full_int(counter, key, size, np_dtype):
    """Integers over the dtype's whole range (bits reinterpreted)."""
    if np.dtype(np_dtype).itemsize == 8:
        b = blocks(counter, key, -(-size // 2)).reshape(-1, 2)
        bits = b[:, 0].astype(np.uint64) | (b[:, 1].astype(np.uint64) << np.uint64(32))
        return bits[:size].view(np.int64 if np.dtype(np_dtype).kind == "i" else np.uint64).astype(np_dtype)
    w = words(counter, key, size)
    return w.view(np.int32 if np.dtype(np_dtype).kind == "i" else np.uint32).astype(np_dtype)


def categorical(counter, key, logits, num_samples, np_dtype):
    """Multinomial draws over rows of `logits` as the CPU kernel makes them (one shard)."""
    rows, classes = logits.shape
    w = words(counter, key, 2 * rows * num_samples)
    out = np.empty((rows, num_samples), dtype=np.int64)
    pos = 0
    for b in range(rows):
        row = logits[b]
        finite = np.isfinite(row)
        top = row[finite].max() if finite.any() else np.finfo(row.dtype).min
        p = np.exp(row.astype(np.float64) - float(top))
        cdf = np.cumsum(np.where(finite, p, 0.0))
        total = cdf[-1]
        for j in range(num_samples):
            u = to_float64(w[pos:pos + 1], w[pos + 1:pos + 2])[0]
            pos += 2
            out[b, j] = np.searchsorted(cdf, u * total, side="right")
    return out.astype(np_dtype)

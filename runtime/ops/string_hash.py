"""The hashes of TensorFlow's string-to-bucket ops, bit for bit.

- fingerprint64: farmhash's Fingerprint64 (to_hash_bucket_fast, keras Hashing),
  from the `cityhash` package's farmhash bindings (the `strings` extra);
- siphash: SipHash-2-4 under a 128-bit key of two uint64 (to_hash_bucket_strong);
- hash64: TensorFlow's legacy Hash64, MurmurHash64A with seed 0xDECAFCAFFE
  (to_hash_bucket).
"""
import struct

_M64 = (1 << 64) - 1


def fingerprint64(s):
    try:
        import farmhash
    except ImportError:
        raise ImportError("strings.to_hash_bucket_fast needs farmhash's Fingerprint64: "
                          "pip install 'tapeflow[strings]' (the cityhash package)") from None
    return farmhash.Fingerprint64(s)


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & _M64


def siphash(s, key):
    k0, k1 = (int(k) & _M64 for k in key)
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, n):
        for _ in range(n):
            v0 = (v0 + v1) & _M64
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _M64
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _M64
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _M64
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    n = len(s)
    tail = s[n - n % 8:] + b"\0" * (7 - n % 8) + bytes([n & 0xFF])
    for m in struct.unpack(f"<{n // 8}Q", s[:n - n % 8]) + struct.unpack("<Q", tail):
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    v2 ^= 0xFF
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


def hash64(s, seed=0xDECAFCAFFE):
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(s)
    h = (seed ^ (n * m)) & _M64
    whole = n - n % 8
    for k in struct.unpack(f"<{whole // 8}Q", s[:whole]):
        k = (k * m) & _M64
        k ^= k >> r
        k = (k * m) & _M64
        h ^= k
        h = (h * m) & _M64
    rest = s[whole:]
    if rest:
        for i in range(len(rest) - 1, -1, -1):
            h ^= rest[i] << (8 * i)
        h = (h * m) & _M64
    h ^= h >> r
    h = (h * m) & _M64
    h ^= h >> r
    return h

"""CRC32C (Castagnoli, reflected polynomial 0x82F63B78), as TFRecord framing uses it.

The `google-crc32c` package (Google's C library, hardware CRC instructions) computes it
when its C extension is installed (`pip install tapeflow[records]`).  Without it, a
NumPy fallback keeps TFRecord files readable in a plain install: short inputs go
through the byte table in Python; long ones are cut into equal lanes whose CRCs are
computed side by side (one vector step per byte position) and then combined, using
that a CRC with a zero start register is linear over GF(2):
    raw(A + B) = shift_len(B)(raw(A)) ^ raw(B)
where shift_n advances a register over n zero bytes.  A standard CRC (start register
~crc) equals the zero-start CRC of the data with its first 4 bytes XORed with ~crc.
"""
import numpy as np

try:
    import google_crc32c as _google
    NATIVE = _google.implementation == "c"
except ImportError:  # the fallback below is the plain-install path, tested against the package
    _google, NATIVE = None, False

_POLY = 0x82F63B78
_MASK_DELTA = 0xA282EAD8
_LANE = 1024          # bytes per lane of the vector fallback
_SHORT = 4 * _LANE    # below this the Python byte loop is as fast


def _make_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _make_table()
_TABLE_NP = np.array(_TABLE, dtype=np.uint32)


def _advance(regs, columns):
    """Registers `regs` (uint32 vector) fed one byte column at a time."""
    table = _TABLE_NP
    for col in columns:
        regs = table[(regs ^ col) & 0xFF] ^ (regs >> 8)
    return regs


def _make_shift_tables(n_zero_bytes):
    """tables[b][v] = register (v << 8b) advanced over n zero bytes; shift(x) is the XOR of
    tables[b][byte b of x] (linearity)."""
    regs = (np.arange(256, dtype=np.uint32)[None, :] << (8 * np.arange(4, dtype=np.uint32))[:, None]).ravel()
    zeros = np.zeros(1, dtype=np.uint32)
    regs = _advance(regs, (zeros for _ in range(n_zero_bytes)))
    return [t.tolist() for t in regs.reshape(4, 256)]


_SHIFT = None  # built on first long input


def _python_crc(data, reg):
    table = _TABLE
    for byte in data:
        reg = table[(reg ^ byte) & 0xFF] ^ (reg >> 8)
    return reg


def _vector_crc(data, reg):
    global _SHIFT
    if _SHIFT is None:
        _SHIFT = _make_shift_tables(_LANE)
    buf = np.frombuffer(bytes(data), dtype=np.uint8).copy()
    head = np.frombuffer(int(reg).to_bytes(4, "little"), dtype=np.uint8)
    buf[:4] ^= head                        # the start register folded into the data
    pad = (-len(buf)) % _LANE              # leading zeros leave a zero-start CRC unchanged
    lanes = np.concatenate([np.zeros(pad, np.uint8), buf]).reshape(-1, _LANE).T.astype(np.uint32)
    lane_crcs = _advance(np.zeros(lanes.shape[1], dtype=np.uint32), lanes).tolist()
    t0, t1, t2, t3 = _SHIFT
    total = 0
    for c in lane_crcs:
        total = t0[total & 0xFF] ^ t1[(total >> 8) & 0xFF] ^ t2[(total >> 16) & 0xFF] ^ t3[total >> 24] ^ c
    return total


def fallback_crc32c(data, crc=0):
    """The NumPy/Python CRC32C (what runs without google-crc32c's C extension)."""
    reg = crc ^ 0xFFFFFFFF
    reg = _vector_crc(data, reg) if len(data) >= _SHORT else _python_crc(data, reg)
    return reg ^ 0xFFFFFFFF


def crc32c(data, crc=0):
    """CRC32C of `data` (bytes-like), continuing from `crc`; crc32c(b"123456789") == 0xE3069283."""
    if NATIVE:
        return _google.extend(crc, bytes(data)) if crc else _google.value(bytes(data))
    return fallback_crc32c(data, crc)


def mask(crc):
    """TFRecord's masked CRC: rotate right by 15 bits and add a constant (mod 2**32)."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def masked_crc32c(data):
    return mask(crc32c(data))

"""16-bit colour PNGs (gray + alpha, RGB, RGBA with 16-bit samples), which Pillow reads and
writes only at 8 bits: encoded and decoded here with zlib, as TF's libpng does, losslessly.
Non-interlaced images only (an interlaced 16-bit colour PNG is refused as unsupported).

The samples are big-endian; each row is one filter byte then the row's bytes.  The encoder
writes filter 0 (none), which every decoder reads; the decoder undoes the five filters of the
PNG specification (section 9), the sequential ones (Avg, Paeth) one pixel at a time across
the row but vectorised over the pixel's bytes."""
import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> PNG colour type
_CHANNELS = {v: k for k, v in _COLOR_TYPES.items()}


def header(data):
    """(width, height, bit depth, colour type, interlace) from the IHDR chunk, or None."""
    if len(data) < 33 or data[:8] != SIGNATURE or data[12:16] != b"IHDR":
        return None
    width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    return width, height, depth, ctype, interlace


def is_sixteen_bit_colour(data):
    head = header(data)
    return head is not None and head[2] == 16 and head[3] in (2, 4, 6)


def _chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def encode(pixels, compression=-1):
    """PNG bytes of (h, w, c) uint16 pixels, c in 1..4."""
    h, w, c = pixels.shape
    rows = np.ascontiguousarray(pixels, dtype=">u2").reshape(h, w * c).view(np.uint8)
    raw = np.concatenate([np.zeros((h, 1), np.uint8), rows], axis=1).tobytes()
    level = 6 if compression in (-1, None) else int(compression)
    ihdr = struct.pack(">IIBBBBB", w, h, 16, _COLOR_TYPES[c], 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(raw, level)) + _chunk(b"IEND", b"")


def _chunks(data, error):
    at = 8
    while at + 12 <= len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        crc = data[at + 8 + length:at + 12 + length]
        if len(body) != length or len(crc) != 4:
            raise error("decode_png: truncated PNG chunk")
        if struct.unpack(">I", crc)[0] != zlib.crc32(kind + body) & 0xFFFFFFFF:
            raise error(f"decode_png: CRC error in the PNG {kind.decode('latin-1')} chunk")
        yield kind, body
        if kind == b"IEND":
            return
        at += 12 + length
    raise error("decode_png: truncated PNG data (no IEND chunk)")


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def _unfilter(rows, bpp, error):
    """rows (h, 1 + stride) uint8 with their filter bytes -> (h, stride) uint8."""
    h, stride = rows.shape[0], rows.shape[1] - 1
    out = np.zeros((h, stride), np.int64)
    prior = np.zeros(stride, np.int64)
    for y in range(h):
        kind, line = rows[y, 0], rows[y, 1:].astype(np.int64)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prior) & 0xFF
        elif kind == 1:  # Sub: a running sum over the pixels, byte by byte
            cur = np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) & 0xFF
        elif kind in (3, 4):
            cur = line.copy()
            px, up = cur.reshape(-1, bpp), prior.reshape(-1, bpp)
            left = np.zeros(bpp, np.int64)
            upleft = np.zeros(bpp, np.int64)
            for x in range(px.shape[0]):
                pred = (left + up[x]) // 2 if kind == 3 else _paeth(left, up[x], upleft)
                px[x] = (px[x] + pred) & 0xFF
                left, upleft = px[x], up[x]
        else:
            raise error(f"decode_png: unknown PNG filter type {int(kind)}")
        out[y] = cur
        prior = cur
    return out.astype(np.uint8)


def decode(data, error, unsupported):
    """(h, w, c) uint16 pixels of a 16-bit colour PNG; `error` / `unsupported`: the exception classes."""
    width, height, depth, ctype, interlace = header(data)
    if interlace:
        raise unsupported("decode_png: interlaced PNGs with 16-bit colour samples are not supported")
    c = _CHANNELS[ctype]
    stream = b"".join(body for kind, body in _chunks(data, error) if kind == b"IDAT")
    try:
        raw = zlib.decompress(stream)
    except zlib.error as exc:
        raise error(f"decode_png: corrupt PNG image data ({exc})") from None
    stride = width * c * 2
    if len(raw) < height * (stride + 1):
        raise error("decode_png: truncated PNG image data")
    rows = np.frombuffer(raw, np.uint8, height * (stride + 1)).reshape(height, stride + 1)
    plain = _unfilter(rows, c * 2, error)
    return plain.view(">u2").reshape(height, width, c).astype(np.uint16)

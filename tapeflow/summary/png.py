"""A minimal PNG encoder (8-bit grayscale, gray+alpha, RGB, RGBA) with zlib, for
image summaries: TensorBoard shows the PNGs the event file holds."""
import struct
import zlib

import numpy as np

_COLOR_TYPE = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> PNG color type


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(image):
    """PNG bytes of a uint8 array [height, width, channels], channels 1 to 4."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    height, width, channels = image.shape
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOR_TYPE[channels], 0, 0, 0)
    rows = np.concatenate([np.zeros((height, 1), np.uint8), image.reshape(height, width * channels)], axis=1)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows.tobytes())) + \
        _chunk(b"IEND", b"")

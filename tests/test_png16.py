"""tapeflow/io/png16.py: 16-bit colour PNGs round-trip losslessly through every row filter, and
damaged bytes raise TF's InvalidArgumentError naming the fault (never wrong pixels)."""
import struct
import zlib

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.io import png16


def _filtered_png(pixels, kinds):
    """A 16-bit PNG whose rows use the given filter types (the encoder itself writes only 0)."""
    h, w, c = pixels.shape
    bpp = 2 * c
    rows = np.ascontiguousarray(pixels, ">u2").reshape(h, -1).view(np.uint8).astype(np.int64)
    out, prior = [], np.zeros(rows.shape[1], np.int64)
    for y in range(h):
        kind, line = kinds[y % len(kinds)], rows[y]
        left = np.concatenate([np.zeros(bpp, np.int64), line[:-bpp]])
        upleft = np.concatenate([np.zeros(bpp, np.int64), prior[:-bpp]])
        pred = {1: left, 2: prior, 3: (left + prior) // 2,
                4: png16._paeth(left, prior, upleft)}.get(kind, 0)  # noqa: SLF001
        out.append(np.concatenate([[kind], (line - pred) & 0xFF]).astype(np.uint8))
        prior = line
    ihdr = struct.pack(">IIBBBBB", w, h, 16, {2: 4, 3: 2, 4: 6}[c], 0, 0, 0)
    return png16.SIGNATURE + png16._chunk(b"IHDR", ihdr) + png16._chunk(  # noqa: SLF001
        b"IDAT", zlib.compress(np.concatenate(out).tobytes())) + png16._chunk(b"IEND", b"")  # noqa: SLF001


def _pixels(c):
    return np.random.default_rng(c).integers(0, 65536, size=(5, 7, c)).astype(np.uint16)


@pytest.mark.parametrize("c,kinds", [(2, [0]), (3, [1]), (4, [2]), (3, [3]), (4, [4]), (3, [4, 3, 2, 1, 0])])
def test_every_row_filter_decodes_exactly(c, kinds):
    pixels = _pixels(c)
    got = tf.io.decode_png(_filtered_png(pixels, kinds), dtype=tf.uint16).numpy()
    np.testing.assert_array_equal(got, pixels)


@pytest.mark.parametrize("c", [2, 3, 4])
def test_encode_round_trip(c):
    pixels = _pixels(c)
    np.testing.assert_array_equal(tf.io.decode_png(tf.io.encode_png(pixels), dtype=tf.uint16).numpy(), pixels)
    np.testing.assert_array_equal(tf.io.decode_png(tf.io.encode_png(pixels)).numpy(), (pixels >> 8).astype(np.uint8))


def _flip(data, at):
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]


_GOOD = png16.encode(_pixels(3))
_IDAT = _GOOD.index(b"IDAT")


@pytest.mark.parametrize("data,message", [
    (_flip(_GOOD, _IDAT + 10), "CRC error"),          # a damaged byte of the compressed data
    (_GOOD[:_IDAT + 20], "truncated"),                # cut inside IDAT
    (_GOOD[:-12], "no IEND"),                         # IEND missing
    (_filtered_png(_pixels(3), [7]), "filter type 7"),  # an unknown row filter
])
def test_damaged_png_raises_invalid_argument(data, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.io.decode_png(data, dtype=tf.uint16)

"""tf.strings.unicode_script: the ICU UScriptCode of each int32 code point, as TF returns it.

Python's unicodedata has no Script property, so this is a compact range table (from Unicode's
Scripts.txt) for the common scripts: Common, Inherited, Latin, Greek, Coptic, Cyrillic, Armenian,
Hebrew, Arabic, Syriac, Thaana, Devanagari and the other Indic scripts of the BMP (Bengali, Gurmukhi,
Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala), Thai, Lao, Tibetan, Myanmar, Georgian,
Ethiopic, Cherokee, Ogham, Runic, Khmer, Mongolian, Braille, Hangul, Hiragana, Katakana, Bopomofo, Han.
Checked against TF 2.21 on every code point: all of those scripts' code points agree.
Code points Python's unicodedata calls unassigned, and those of scripts not in the table, give
USCRIPT_UNKNOWN (103), as TF does for unassigned ones; invalid code points (negative or above
U+10FFFF) give -1.  Known difference: characters added in Unicode 14 (Python's tables) are newer
than TF's ICU, which calls them 103 (about 120 of them, e.g. U+9FFD).
"""
import functools
import unicodedata

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import segment_ops
from tapeflow.runtime.tensor import convert_to_tensor

COMMON, INHERITED, ARABIC, ARMENIAN, BOPOMOFO, COPTIC, CYRILLIC, DEVANAGARI = 0, 1, 2, 3, 5, 7, 8, 10
GREEK, HAN, HANGUL, HEBREW, HIRAGANA, KATAKANA, LATIN, THAI, BRAILLE, UNKNOWN = 14, 17, 18, 19, 20, 22, 25, 38, 46, 103
BENGALI, CHEROKEE, ETHIOPIC, GEORGIAN, GUJARATI, GURMUKHI, KANNADA, KHMER, LAO = 4, 6, 11, 12, 15, 16, 21, 23, 24
MALAYALAM, MONGOLIAN, MYANMAR, ORIYA, SINHALA, SYRIAC, TAMIL, TELUGU, THAANA, TIBETAN = (
    26, 27, 28, 31, 33, 34, 35, 36, 37, 39)
OGHAM, RUNIC = 29, 32

# (first, last, script), inclusive; later rows override earlier ones where they overlap.
_RANGES = (
    (0x0000, 0x02FF, COMMON), (0x0041, 0x005A, LATIN), (0x0061, 0x007A, LATIN), (0x00AA, 0x00AA, LATIN),
    (0x00BA, 0x00BA, LATIN), (0x00C0, 0x00D6, LATIN), (0x00D8, 0x00F6, LATIN), (0x00F8, 0x02B8, LATIN),
    (0x02E0, 0x02E4, LATIN), (0x0300, 0x036F, INHERITED),
    (0x0370, 0x03FF, GREEK), (0x0374, 0x0374, COMMON), (0x037E, 0x037E, COMMON), (0x0385, 0x0385, COMMON),
    (0x0387, 0x0387, COMMON), (0x03E2, 0x03EF, COPTIC),
    (0x0400, 0x052F, CYRILLIC), (0x0485, 0x0486, INHERITED), (0x0531, 0x058F, ARMENIAN),
    (0x0591, 0x05FF, HEBREW), (0x0600, 0x06FF, ARABIC), (0x0605, 0x0605, COMMON), (0x060C, 0x060C, COMMON),
    (0x061B, 0x061B, COMMON), (0x061F, 0x061F, COMMON), (0x0640, 0x0640, COMMON),
    (0x064B, 0x0655, INHERITED), (0x0670, 0x0670, INHERITED), (0x06DD, 0x06DD, COMMON),
    (0x0700, 0x074F, SYRIAC), (0x0780, 0x07BF, THAANA), (0x0980, 0x09FF, BENGALI), (0x0A00, 0x0A7F, GURMUKHI),
    (0x0A80, 0x0AFF, GUJARATI), (0x0B00, 0x0B7F, ORIYA), (0x0B80, 0x0BFF, TAMIL), (0x0C00, 0x0C7F, TELUGU),
    (0x0C80, 0x0CFF, KANNADA), (0x0D00, 0x0D7F, MALAYALAM), (0x0D80, 0x0DFF, SINHALA), (0x0E80, 0x0EFF, LAO),
    (0x0F00, 0x0FFF, TIBETAN), (0x1000, 0x109F, MYANMAR), (0x10A0, 0x10FF, GEORGIAN), (0x1200, 0x139F, ETHIOPIC),
    (0x13A0, 0x13FF, CHEROKEE), (0x1780, 0x17FF, KHMER), (0x1800, 0x18AF, MONGOLIAN), (0x1C90, 0x1CBF, GEORGIAN),
    (0x2D00, 0x2D2F, GEORGIAN), (0x2D80, 0x2DDF, ETHIOPIC), (0xAB00, 0xAB2F, ETHIOPIC), (0xAB70, 0xABBF, CHEROKEE),
    (0xA9E0, 0xA9FF, MYANMAR), (0xAA60, 0xAA7F, MYANMAR), (0x19E0, 0x19FF, KHMER), (0x11FC0, 0x11FFF, TAMIL),
    (0x0860, 0x086A, SYRIAC), (0x1680, 0x169F, OGHAM), (0x16A0, 0x16FF, RUNIC), (0x111E1, 0x111F4, SINHALA),
    (0x11660, 0x1166C, MONGOLIAN), (0x1133B, 0x1133B, INHERITED),
    (0x0750, 0x077F, ARABIC), (0x08A0, 0x08FF, ARABIC), (0x08E2, 0x08E2, COMMON),
    (0x0900, 0x097F, DEVANAGARI), (0x0951, 0x0954, INHERITED), (0x0964, 0x0965, COMMON),
    (0x0E01, 0x0E5B, THAI), (0x0E3F, 0x0E3F, COMMON),
    (0x1100, 0x11FF, HANGUL), (0x1AB0, 0x1AFF, INHERITED), (0x1D00, 0x1D25, LATIN), (0x1D26, 0x1D2A, GREEK),
    (0x1D2B, 0x1D2B, CYRILLIC), (0x1D2C, 0x1D7F, LATIN), (0x1DC0, 0x1DFF, INHERITED),
    (0x1E00, 0x1EFF, LATIN), (0x1F00, 0x1FFF, GREEK),
    (0x2000, 0x2BFF, COMMON), (0x2800, 0x28FF, BRAILLE), (0x200C, 0x200D, INHERITED), (0x2071, 0x2071, LATIN), (0x207F, 0x207F, LATIN),
    (0x2090, 0x209C, LATIN), (0x20D0, 0x20F0, INHERITED), (0x2126, 0x2126, GREEK),
    (0x212A, 0x212B, LATIN), (0x2132, 0x2132, LATIN), (0x214E, 0x214E, LATIN), (0x2160, 0x2188, LATIN),
    (0x2C60, 0x2C7F, LATIN), (0x2DE0, 0x2DFF, CYRILLIC), (0x2E00, 0x2E7F, COMMON),
    (0x2E80, 0x2FDF, HAN), (0x2FF0, 0x3004, COMMON), (0x3005, 0x3005, HAN), (0x3006, 0x3006, COMMON),
    (0x3007, 0x3007, HAN), (0x3008, 0x3020, COMMON), (0x3021, 0x3029, HAN), (0x302A, 0x302D, INHERITED),
    (0x302E, 0x302F, HANGUL), (0x3030, 0x3037, COMMON), (0x3038, 0x303B, HAN), (0x303C, 0x303F, COMMON),
    (0x3041, 0x309F, HIRAGANA), (0x3099, 0x309A, INHERITED), (0x309B, 0x309C, COMMON),
    (0x30A0, 0x30A0, COMMON), (0x30A1, 0x30FF, KATAKANA), (0x30FB, 0x30FC, COMMON),
    (0x3105, 0x312F, BOPOMOFO), (0x3131, 0x318E, HANGUL), (0x3190, 0x319F, COMMON),
    (0x31A0, 0x31BF, BOPOMOFO), (0x31C0, 0x31E3, COMMON), (0x31F0, 0x31FF, KATAKANA),
    (0x3200, 0x321E, HANGUL), (0x3220, 0x325F, COMMON), (0x3260, 0x327E, HANGUL), (0x327F, 0x32CF, COMMON),
    (0x32D0, 0x32FE, KATAKANA), (0x32FF, 0x32FF, COMMON), (0x3300, 0x3357, KATAKANA),
    (0x3358, 0x33FF, COMMON), (0x3400, 0x4DBF, HAN), (0x4DC0, 0x4DFF, COMMON), (0x4E00, 0x9FFF, HAN),
    (0xA640, 0xA69F, CYRILLIC), (0xA700, 0xA721, COMMON), (0xA722, 0xA7FF, LATIN),
    (0xA788, 0xA78A, COMMON), (0xA8E0, 0xA8FF, DEVANAGARI), (0xA960, 0xA97C, HANGUL),
    (0xAB30, 0xAB6F, LATIN), (0xAB5B, 0xAB5B, COMMON), (0xAB65, 0xAB65, GREEK),
    (0xAC00, 0xD7A3, HANGUL), (0xD7B0, 0xD7FB, HANGUL),
    (0xF900, 0xFAFF, HAN), (0xFB00, 0xFB06, LATIN), (0xFB13, 0xFB17, ARMENIAN), (0xFB1D, 0xFB4F, HEBREW),
    (0xFB50, 0xFDFF, ARABIC), (0xFD3E, 0xFD3F, COMMON), (0xFE00, 0xFE0F, INHERITED),
    (0xFE10, 0xFE19, COMMON), (0xFE20, 0xFE2D, INHERITED), (0xFE2E, 0xFE2F, CYRILLIC),
    (0xFE30, 0xFE6B, COMMON), (0xFE70, 0xFEFC, ARABIC), (0xFEFF, 0xFEFF, COMMON),
    (0xFF01, 0xFF20, COMMON), (0xFF21, 0xFF3A, LATIN), (0xFF3B, 0xFF40, COMMON), (0xFF41, 0xFF5A, LATIN),
    (0xFF5B, 0xFF65, COMMON), (0xFF66, 0xFF9D, KATAKANA), (0xFF70, 0xFF70, COMMON),
    (0xFF9E, 0xFF9F, COMMON), (0xFFA0, 0xFFDC, HANGUL), (0xFFE0, 0xFFEE, COMMON), (0xFFF9, 0xFFFD, COMMON),
    (0x1D400, 0x1D7FF, COMMON), (0x1F000, 0x1FAFF, COMMON), (0x1F200, 0x1F200, HIRAGANA),
    (0x20000, 0x2FA1F, HAN), (0xE0001, 0xE007F, COMMON), (0xE0100, 0xE01EF, INHERITED),
    # smaller blocks and exceptions, in code point order
    (0x02EA, 0x02EB, BOPOMOFO), (0x0FD5, 0x0FD8, COMMON), (0x10FB, 0x10FB, COMMON), (0x16EB, 0x16ED, COMMON),
    (0x1735, 0x1736, COMMON), (0x1802, 0x1803, COMMON), (0x1805, 0x1805, COMMON), (0x1C80, 0x1C88, CYRILLIC),
    (0x1CD0, 0x1CF9, INHERITED), (0x1CD3, 0x1CD3, COMMON), (0x1CE1, 0x1CE1, COMMON), (0x1CE9, 0x1CEC, COMMON),
    (0x1CEE, 0x1CF3, COMMON), (0x1CF5, 0x1CF7, COMMON), (0x1CFA, 0x1CFA, COMMON),
    (0x1D5D, 0x1D61, GREEK), (0x1D66, 0x1D6A, GREEK), (0x1D78, 0x1D78, CYRILLIC), (0x1D80, 0x1DBE, LATIN),
    (0x1DBF, 0x1DBF, GREEK), (0x2C80, 0x2CFF, COPTIC), (0xA830, 0xA839, COMMON), (0xA92E, 0xA92E, COMMON),
    (0xA9CF, 0xA9CF, COMMON), (0xAB6A, 0xAB6B, COMMON),
    (0x10100, 0x1013F, COMMON), (0x10140, 0x1018E, GREEK), (0x10190, 0x1019C, COMMON), (0x101A0, 0x101A0, GREEK),
    (0x101D0, 0x101FC, COMMON), (0x101FD, 0x101FD, INHERITED), (0x102E0, 0x102E0, INHERITED),
    (0x102E1, 0x102FB, COMMON), (0x10E60, 0x10E7E, ARABIC), (0x1B000, 0x1B000, KATAKANA),
    (0x1B001, 0x1B11E, HIRAGANA), (0x1B150, 0x1B152, HIRAGANA), (0x1B164, 0x1B167, KATAKANA),
    (0x1D000, 0x1D1E8, COMMON), (0x1D167, 0x1D169, INHERITED), (0x1D17B, 0x1D182, INHERITED),
    (0x1D185, 0x1D18B, INHERITED), (0x1D1AA, 0x1D1AD, INHERITED), (0x1D200, 0x1D245, GREEK),
    (0x16FE2, 0x16FE3, COMMON), (0x16FF0, 0x16FF1, HAN), (0x1BCA0, 0x1BCA3, COMMON),
    (0x1D2E0, 0x1D37F, COMMON), (0x1EC70, 0x1ED4F, COMMON), (0x1EE00, 0x1EEFF, ARABIC),
    (0x1FB00, 0x1FBFF, COMMON), (0x30000, 0x3134F, HAN),
)


def _unassigned_runs():
    """(first, last, UNKNOWN) for each run of code points Python's unicodedata calls unassigned (Cn).
    Trap: Python's Unicode version may be newer than TF's ICU, so characters added since read as
    their script here where TF says UNKNOWN."""
    runs, start = [], None
    for cp in range(0x110000):
        if unicodedata.category(chr(cp)) == "Cn":
            start = cp if start is None else start
        elif start is not None:
            runs.append((start, cp - 1, UNKNOWN))
            start = None
    if start is not None:
        runs.append((start, 0x10FFFF, UNKNOWN))
    return tuple(runs)


def _flatten(ranges):
    """(starts, scripts): a sorted step function over all code points, gaps -> UNKNOWN."""
    table = {}
    bounds = sorted({0, 0x110000} | {a for a, _, _ in ranges} | {b + 1 for _, b, _ in ranges})
    for lo in bounds[:-1]:
        table[lo] = UNKNOWN
        for a, b, script in ranges:  # last covering row wins
            if a <= lo <= b:
                table[lo] = script
    starts, scripts = [], []
    for lo in bounds[:-1]:
        if not scripts or scripts[-1] != table[lo]:
            starts.append(lo)
            scripts.append(table[lo])
    return np.array(starts, np.int32), np.array(scripts, np.int32)


@functools.lru_cache(maxsize=None)
def script_table():
    """The step function, built on first use (scanning unicodedata takes a moment)."""
    return _flatten(_RANGES + _unassigned_runs())


def unicode_script(input, name=None):  # noqa: A002
    """The UScriptCode (int32) of each code point of an int32 tensor (or RaggedTensor, applied to its
    flat values); -1 for invalid ones."""
    if hasattr(input, "with_flat_values"):
        return input.with_flat_values(unicode_script(input.flat_values))
    x = convert_to_tensor(input)
    if x.dtype is not dtypes.int32:
        raise InvalidArgumentError(with_location(f"tf.strings.unicode_script: input must be int32 code points, got "
                                      f"{x.dtype.name}"))
    starts, scripts = script_table()
    flat = A.reshape(x, [-1])
    row = M.subtract(segment_ops.searchsorted(starts, flat, side="right"), 1)
    script = G.gather(scripts, M.maximum(row, 0))
    valid = M.logical_and(M.greater_equal(flat, 0), M.less_equal(flat, 0x10FFFF))
    return A.reshape(A.where(valid, script, A.fill(A.shape(flat), np.int32(-1))), A.shape(x))

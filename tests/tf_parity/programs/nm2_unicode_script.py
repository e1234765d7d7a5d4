"""tf.strings.unicode_script: ICU script codes of int32 code points across the covered scripts
(Latin, Greek, Coptic, Cyrillic, Armenian, Hebrew, Arabic, Devanagari, Thai, Hangul, kana, Han,
Common, Inherited, Braille), unassigned and uncovered ones (103), invalid ones (-1), shapes, errors."""
import numpy as np

_SAMPLES = [0x41, 0x7A, 0xAA, 0xC0, 0xD7, 0x100, 0x250, 0x2B9, 0x2EA, 0x300, 0x374, 0x391, 0x3B1, 0x3E2,
            0x1F00, 0x2126, 0x400, 0x430, 0x485, 0x1D2B, 0x531, 0x5D0, 0x5C8, 0x600, 0x605, 0x627, 0x640,
            0x64B, 0x6DD, 0x750, 0xFB50, 0xFE70, 0x900, 0x951, 0x964, 0x915, 0xE01, 0xE3F, 0xE3B, 0x1100,
            0x3131, 0xAC00, 0xD7A3, 0xFFA0, 0x3041, 0x3099, 0x309B, 0x30A1, 0x30FC, 0x31F0, 0xFF66, 0xFF70,
            0x1B001, 0x3005, 0x3007, 0x3400, 0x4E00, 0x9FA5, 0xF900, 0x20000, 0x2F800, 0x3105, 0x20, 0x30,
            0x2000, 0x200C, 0x2071, 0x20AC, 0x2160, 0x2800, 0x2C80, 0x3000, 0xFF01, 0xFF21, 0xFEFF, 0x1F600,
            0x1D400, 0x1D167, 0xE0100, 0x10A0, 0x0B85, 0x1200, 0xFFFF, 0x378, 0xE000, 0xD800, 0x10FFFF]


def program_unicode_script_samples(tf):
    return {"scripts": tf.strings.unicode_script(tf.constant(_SAMPLES, tf.int32))}


def program_unicode_script_invalid_and_shapes(tf):
    r = tf.strings.unicode_script(tf.constant([[-1, 0x110000, 0], [2 ** 31 - 1, -(2 ** 31), 0x61]]))
    s = tf.strings.unicode_script(tf.constant(0x3B1))
    e = tf.strings.unicode_script(tf.zeros([0, 3], tf.int32))
    return {"r": r, "dtype": r.dtype, "scalar": s, "scalar_shape": s.shape, "empty_shape": e.shape}


def program_unicode_script_decoded_text(tf):
    text = tf.constant(["Hello мир", "日本語のテキスト", "한국어 ελληνικά"])
    cps = tf.strings.unicode_decode(text, "UTF-8")
    scripts = tf.ragged.map_flat_values(tf.strings.unicode_script, cps)
    direct = tf.strings.unicode_script(cps)
    return {"scripts": scripts.to_list(), "direct": direct.to_list(), "ragged": type(direct).__name__}


def program_unicode_script_in_function(tf):
    f = tf.function(lambda x: tf.strings.unicode_script(x))
    return {"r": f(tf.constant([0x41, 0x5D0, 0x30A2, -5]))}


def program_unicode_script_wrong_dtype(tf):
    out = {}
    for name, x in (("int64", tf.constant([65], tf.int64)), ("float", tf.constant([65.0]))):
        try:
            tf.strings.unicode_script(x)
            out[name] = "no error"
        except Exception as e:  # noqa: BLE001
            out[name] = type(e).__name__
    return out

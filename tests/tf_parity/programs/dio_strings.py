"""tf.strings.unicode_transcode."""


def program_unicode_transcode(tf):
    s = tf.constant(["héllo", "ab\x01c", "日本"])
    bad = tf.constant([b"a\xffb", b"\xc3"])
    return {"u16": tf.strings.unicode_transcode(s, "UTF-8", "UTF-16-BE"),
            "u32": tf.strings.unicode_transcode(s, "UTF-8", "UTF-32-BE"),
            "back": tf.strings.unicode_transcode(tf.strings.unicode_transcode(s, "UTF-8", "UTF-16-BE"),
                                                 "UTF-16-BE", "UTF-8"),
            "replace": tf.strings.unicode_transcode(bad, "UTF-8", "UTF-8"),
            "char": tf.strings.unicode_transcode(bad, "UTF-8", "UTF-8", replacement_char=63),
            "ignore": tf.strings.unicode_transcode(bad, "UTF-8", "UTF-8", errors="ignore"),
            "control": tf.strings.unicode_transcode(s, "UTF-8", "UTF-8", replace_control_characters=True),
            "scalar": tf.strings.unicode_transcode("x", "UTF-8", "UTF-16-BE")}


def program_unicode_transcode_bad_output(tf):
    return {"v": tf.strings.unicode_transcode("x", "UTF-8", "UTF-16-LE")}


def program_unicode_transcode_strict(tf):
    return {"v": tf.strings.unicode_transcode(tf.constant([b"a\xffb"]), "UTF-8", "UTF-8", errors="strict")}


def program_unicode_transcode_bad_encoding(tf):
    return {"v": tf.strings.unicode_transcode("a", "UTF-7", "UTF-8")}

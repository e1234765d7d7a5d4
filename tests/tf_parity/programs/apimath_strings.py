"""tf.strings.unicode_decode_with_offsets / unicode_split_with_offsets: code points or
characters with the byte offset where each starts, for valid and invalid UTF-8."""

_MIXED = ["h\u00e9llo \u20ac", b"a\xffb\xe2\x82", "", "\U0001f600x"]


def program_decode_with_offsets(tf):
    cps, offs = tf.strings.unicode_decode_with_offsets(tf.constant(_MIXED), "UTF-8")
    scalar = tf.strings.unicode_decode_with_offsets(tf.constant("\u00e9t\u00e9"), "UTF-8")
    return {"cps": cps, "offsets": offs, "scalar": list(scalar)}


def program_decode_with_offsets_errors(tf):
    x = tf.constant(_MIXED)
    ignore = tf.strings.unicode_decode_with_offsets(x, "UTF-8", errors="ignore")
    repl = tf.strings.unicode_decode_with_offsets(x, "UTF-8", replacement_char=63)
    control = tf.strings.unicode_decode_with_offsets(tf.constant(["a\x01b"]), "UTF-8",
                                                     replace_control_characters=True)
    return {"ignore": list(ignore), "replace": list(repl), "control": list(control)}


def program_decode_with_offsets_strict_raises(tf):
    return tf.strings.unicode_decode_with_offsets(tf.constant([b"a\xff"]), "UTF-8", errors="strict")


def program_split_with_offsets(tf):
    chars, offs = tf.strings.unicode_split_with_offsets(tf.constant([["ab", "c\u00e9"], ["", "\u20acd"]]), "UTF-8")
    ragged = tf.ragged.constant([["x\u00e9"], ["yz", "w"]])
    r_chars, r_offs = tf.strings.unicode_split_with_offsets(ragged, "UTF-8")
    return {"chars": chars, "offsets": offs, "ragged_chars": r_chars, "ragged_offsets": r_offs}


def program_offsets_in_function(tf):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        cps, offs = tf.strings.unicode_decode_with_offsets(x, "UTF-8")
        chars, offs2 = tf.strings.unicode_split_with_offsets(x, "UTF-8")
        return cps.flat_values, offs.row_splits, chars.flat_values, offs2.flat_values
    out = [f(tf.constant(_MIXED)), f(tf.constant(["\u00e9\u00e9", "b"]))]
    return {"out": out, "traces": len(traces)}

"""tf.strings elementwise ops: join, reduce_join, length, substr, case, strip, regex,
numbers <-> text, format, hash buckets (edge cases: empty strings, non-ASCII UTF-8)."""


def program_join(tf):
    return {"bcast": tf.strings.join([["a", "b"], "c"], separator="-"), "none": tf.strings.join([]),
            "three": tf.strings.join(["x", "", "é"]), "scalar": tf.strings.join(["a", "b"])}


def program_join_shape_mismatch_raises(tf):
    return {"j": tf.strings.join([["a", "b"], ["c", "d", "e"]])}


def program_reduce_join(tf):
    x = tf.constant([["a", "b"], ["c", ""]])
    return {"all": tf.strings.reduce_join(x), "axis1": tf.strings.reduce_join(x, axis=1, separator=","),
            "axis0_keep": tf.strings.reduce_join(x, axis=0, keepdims=True), "neg": tf.strings.reduce_join(x, axis=-1),
            "empty": tf.strings.reduce_join(tf.constant([], tf.string)),
            "empty_axis0": tf.strings.reduce_join(tf.zeros([0, 2], tf.string), axis=0)}


def program_length(tf):
    x = tf.constant(["", "abc", "é日", "\U0001F986"])
    return {"bytes": tf.strings.length(x), "chars": tf.strings.length(x, unit="UTF8_CHAR"),
            "scalar": tf.strings.length("hello"), "matrix": tf.strings.length([["a", "bb"], ["", "c"]])}


def program_length_bad_unit_raises(tf):
    return {"l": tf.strings.length(["a"], unit="X")}


def program_length_of_numbers_raises(tf):
    return {"l": tf.strings.length(tf.constant([1]))}


def program_substr(tf):
    return {"basic": tf.strings.substr(["hello", "hi"], 1, 3), "neg_pos": tf.strings.substr(["hello", "hi"], -2, 5),
            "vector": tf.strings.substr(["hello", "world"], [0, 1], [2, 3]),
            "utf8": tf.strings.substr(["é日本"], 1, 2, unit="UTF8_CHAR"),
            "neg_len": tf.strings.substr(["hello"], 1, -1), "long": tf.strings.substr(["hello"], 3, 100),
            "at_end": tf.strings.substr(["hello"], 5, 1), "empty": tf.strings.substr([""], 0, 1)}


def program_substr_out_of_range_raises(tf):
    return {"s": tf.strings.substr(["hi"], 5, 1)}


def program_substr_negative_out_of_range_raises(tf):
    return {"s": tf.strings.substr(["hello"], -6, 1)}


def program_case_and_strip(tf):
    return {"upper": tf.strings.upper(["abc é", "X", ""]), "upper_utf8": tf.strings.upper(["abc é"], encoding="utf-8"),
            "lower": tf.strings.lower(["ABC É"]), "lower_utf8": tf.strings.lower(["ABC É"], encoding="utf-8"),
            "strip": tf.strings.strip(["  a b \t\n", "", "x", "\u00a0a\u00a0", "\x0b\x0cb\r"])}


def program_regex_replace(tf):
    return {"global": tf.strings.regex_replace(["aabbcc", "abc", ""], "b+", "X"),
            "first": tf.strings.regex_replace(["aabbcc"], "b", "X", replace_global=False),
            "groups": tf.strings.regex_replace(["john smith"], r"(\w+) (\w+)", r"\2 \1"),
            "whole": tf.strings.regex_replace(["abc"], "b", r"[\0]"),
            "escape": tf.strings.regex_replace(["a.b.c"], r"\.", "-"),
            "utf8": tf.strings.regex_replace(["é-é"], "é", "e"),
            "punct": tf.strings.regex_replace(["Hello, World!"], "[[:punct:]]", "")}


def program_regex_bad_pattern_raises(tf):
    return {"r": tf.strings.regex_replace(["a"], "(", "x")}


def program_regex_full_match(tf):
    return {"m": tf.strings.regex_full_match(["abc", "ab", "", "aXc"], "a.c"),
            "digits": tf.strings.regex_full_match(["123", "12a"], r"\d+"),
            "empty": tf.strings.regex_full_match([""], ".*")}


def program_to_number(tf):
    return {"float": tf.strings.to_number(["1.5", "-2", "1e3", " 3", "inf", "-0"]),
            "int": tf.strings.to_number(["1", "-2", "+5", "5 "], out_type=tf.int32),
            "int64": tf.strings.to_number(["9000000000"], out_type=tf.int64),
            "f64": tf.strings.to_number(["0.1"], out_type=tf.float64),
            "overflow_inf": tf.strings.to_number(["1e40"])}


def program_to_number_bad_raises(tf):
    return {"n": tf.strings.to_number(["x"])}


def program_to_number_float_as_int_raises(tf):
    return {"n": tf.strings.to_number(["1.5"], out_type=tf.int64)}


def program_to_number_empty_raises(tf):
    return {"n": tf.strings.to_number([""])}


def program_to_number_int32_overflow_raises(tf):
    return {"n": tf.strings.to_number(["3000000000"], tf.int32)}


def program_as_string(tf):
    return {"float": tf.strings.as_string([1.5, -2.25, 1e10]), "int": tf.strings.as_string([1, -20]),
            "bool": tf.strings.as_string([True, False]), "precision": tf.strings.as_string([3.14159], precision=2),
            "scientific": tf.strings.as_string([31415.9], scientific=True),
            "shortest": tf.strings.as_string([0.1, 1e20, 123456789.0], shortest=True),
            "width_fill": tf.strings.as_string([5, -5], width=4, fill="0"), "width": tf.strings.as_string([5], width=4),
            "nan_inf": tf.strings.as_string([float("nan"), float("inf")]),
            "f64": tf.strings.as_string(tf.constant([0.1], tf.float64)),
            "i64": tf.strings.as_string(tf.constant([2 ** 40], tf.int64)), "string": tf.strings.as_string(["a"])}


def program_as_string_bad_fill_raises(tf):
    return {"s": tf.strings.as_string([5], width=4, fill="ab")}


def program_as_string_precision_of_int_raises(tf):
    return {"s": tf.strings.as_string([5], precision=2)}


def program_format(tf):
    return {"two": tf.strings.format("x={} y={}", (tf.constant([1, 2]), tf.constant(3.5))),
            "strings": tf.strings.format("{}", tf.constant(["a", "b"])), "scalar_str": tf.strings.format("{}", tf.constant("a")),
            "long": tf.strings.format("{}", tf.range(10)), "matrix": tf.strings.format("{}", tf.reshape(tf.range(20), (4, 5))),
            "all": tf.strings.format("{}", tf.range(10), summarize=-1),
            "floats": tf.strings.format("{} {}", (tf.constant([123456789.0, 1e-7, 1 / 3, 0.1, 2.0]),
                                                  tf.constant([1 / 3], tf.float64))),
            "cube": tf.strings.format("{}", tf.reshape(tf.range(8), (2, 2, 2))),
            "bools": tf.strings.format("{}", tf.constant([True, False])),
            "escapes": tf.strings.format("{}", tf.constant(["é", "a\"b\n"])),
            "placeholder": tf.strings.format("a%sb", tf.constant(1), placeholder="%s"),
            "summarize1": tf.strings.format("{}", tf.reshape(tf.range(30), (6, 5)), summarize=1),
            "empty": tf.strings.format("{}", tf.constant([], tf.float32))}


def program_format_count_mismatch_raises(tf):
    return {"f": tf.strings.format("{} {}", tf.constant(1))}


def program_hash_buckets(tf):
    words = ["", "a", "é", "hello world", "x" * 100, "日本語"]
    return {"fast": tf.strings.to_hash_bucket_fast(words, 1000), "fast_big": tf.strings.to_hash_bucket_fast(words, 2 ** 62),
            "strong": tf.strings.to_hash_bucket_strong(words, 1000, [1, 2]),
            "strong_key": tf.strings.to_hash_bucket_strong(words, 2 ** 62, [2 ** 40, 7]),
            "legacy": tf.strings.to_hash_bucket(words, 1000), "legacy_big": tf.strings.to_hash_bucket(words, 2 ** 62),
            "matrix": tf.strings.to_hash_bucket_fast([["a", "b"], ["c", "d"]], 7)}


def program_strings_in_function(tf):
    @tf.function
    def f(s):
        words = tf.strings.lower(tf.strings.strip(s))
        n = tf.strings.length(words)
        return (tf.strings.join([words, tf.strings.as_string(n)], separator=":"),
                tf.strings.to_hash_bucket_fast(words, 10), tf.strings.regex_full_match(words, "[a-z]+"),
                tf.cast(n, tf.float32) * 0.5 + 1.0, tf.strings.reduce_join(words, separator="|"))

    return {"out": f(tf.constant([" Ab ", "CD", "é"])), "out2": f(tf.constant(["x"]))}


def program_guide_string_cells(tf):
    text = tf.constant("1 10 100")
    unicode_bytes = tf.constant("アヒル 🦆")
    return {"split_scalar": tf.strings.split(tf.constant("Gray wolf"), sep=" "),
            "split_vector": tf.strings.split(tf.constant(["Gray wolf", "Quick brown fox", "Lazy dog"])),
            "numbers": tf.strings.to_number(tf.strings.split(text, " ")),
            "bytes": tf.strings.bytes_split(tf.constant("Duck")),
            "chars": tf.strings.unicode_split(unicode_bytes, "UTF-8"),
            "codepoints": tf.strings.unicode_decode(unicode_bytes, "UTF-8")}

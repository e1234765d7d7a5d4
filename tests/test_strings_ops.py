"""tf.strings: every op agrees eagerly and traced (compiled), the hashes match their
published test vectors, and the text of tf.strings.format follows TensorFlow's layout.
Values against real TensorFlow: tests/tf_parity/programs/strings_*.py."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime.ops import string_format
from tapeflow.runtime.ops.string_hash import fingerprint64, hash64, siphash

WORDS = ["", " Ab ", "é日本", "a,b,,c", "x" * 40, "John Smith"]

# (name, function of one string tensor): run eagerly and inside tf.function
OPS = [
    ("join", lambda s: tf.strings.join([s, "-", s], separator="|")),
    ("reduce_join", lambda s: tf.strings.reduce_join(s, separator="/")),
    ("length", lambda s: tf.strings.length(s)),
    ("length_chars", lambda s: tf.strings.length(s, unit="UTF8_CHAR")),
    ("substr", lambda s: tf.strings.substr(s, 0, 2)),
    ("upper", lambda s: tf.strings.upper(s)),
    ("lower_utf8", lambda s: tf.strings.lower(s, encoding="utf-8")),
    ("strip", lambda s: tf.strings.strip(s)),
    ("regex_replace", lambda s: tf.strings.regex_replace(s, r"(\w+) (\w+)", r"\2 \1")),
    ("regex_full_match", lambda s: tf.strings.regex_full_match(s, "[a-z ]*")),
    ("as_string_of_length", lambda s: tf.strings.as_string(tf.strings.length(s), width=3, fill="0")),
    ("format", lambda s: tf.strings.format("{}!", s)),
    ("hash_fast", lambda s: tf.strings.to_hash_bucket_fast(s, 97)),
    ("hash_strong", lambda s: tf.strings.to_hash_bucket_strong(s, 97, [3, 4])),
    ("hash_legacy", lambda s: tf.strings.to_hash_bucket(s, 97)),
    ("split_dense", lambda s: tf.strings.split(s, sep=",").to_tensor(default_value="?")),
    ("unicode_lengths", lambda s: tf.strings.unicode_decode(s, "UTF-8").row_lengths()),
    ("bytes_split_flat", lambda s: tf.strings.bytes_split(s).flat_values),
]


def _np(t):
    return np.asarray(t.numpy()).tolist()


@pytest.mark.parametrize("name, op", OPS, ids=[n for n, _ in OPS])
def test_string_op_eager_and_traced_agree(name, op):
    s = tf.constant(WORDS)
    compiled = tf.function(op)
    assert _np(compiled(s)) == _np(op(s))
    # and again through an input signature of unknown length
    sig = tf.function(op, input_signature=[tf.TensorSpec([None], tf.string)])
    assert _np(sig(s)) == _np(op(s))


def test_siphash_matches_the_reference_vector():
    # SipHash-2-4 paper, appendix A: key 00..0f, message 00..0e.
    key = (int.from_bytes(bytes(range(8)), "little"), int.from_bytes(bytes(range(8, 16)), "little"))
    assert siphash(bytes(range(15)), key) == 0xA129CA6149BE45E5


# Buckets mod 2**62 that real TensorFlow 2.21 gives (to_hash_bucket_fast / to_hash_bucket).
@pytest.mark.parametrize("data, fast, legacy", [
    (b"", 1936946117179621455, 105434511174508091),
    (b"a", 3694432073954588131, 2996632905371535868),
    (b"hello world", 1769834696496558107, 936430787915428847),
])
def test_fingerprint64_and_hash64_match_tensorflow(data, fast, legacy):
    assert fingerprint64(data) % 2 ** 62 == fast
    assert hash64(data) % 2 ** 62 == legacy


def test_format_layout_follows_tensorflow():
    a = np.arange(30).reshape(6, 5)
    assert string_format.summarize_array(a, 1) == b"[[0 ... 4]\n ...\n [25 ... 29]]"
    assert string_format.summarize_array(np.float32([1 / 3]), 3) == b"[0.333333343]"
    assert string_format.summarize_array(np.float64([0.5]), 3) == b"[0.5]"
    strings = np.empty(2, object)
    strings[:] = [b"a\"b\n", b"\x01"]
    assert string_format.summarize_array(strings, 3) == b'["a\\"b\\n" "\\001"]'


def test_bad_pattern_names_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError, match="regex_replace.*Invalid pattern"):
        tf.strings.regex_replace(["a"], "(", "x")


def test_string_ops_are_never_fused_into_c():
    @tf.function
    def f(s, x):
        n = tf.cast(tf.strings.length(s), tf.float32)
        return tf.strings.upper(s), tf.exp(n * x) + 1.0

    s, x = tf.constant(["ab", "c"]), tf.constant([0.5, 0.25])
    up, y = f(s, x)
    assert _np(up) == [b"AB", b"C"]
    np.testing.assert_allclose(y.numpy(), np.exp(np.float32([2, 1]) * x.numpy()) + 1.0, rtol=1e-6)
    c_source = f.get_concrete_function(s, x)._run.c_source or ""
    assert "exp" in c_source and "upper" not in c_source and "string_length" not in c_source


def test_hash_needs_farmhash_message(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_farmhash(name, *args, **kwargs):
        if name == "farmhash":
            raise ImportError("no farmhash")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_farmhash)
    with pytest.raises(ImportError, match=r"tapeflow\[strings\]"):
        fingerprint64(b"x")


def test_print_quotes_strings_as_tensorflow(capfd):
    tf.print("x", tf.constant(["a", "b"]), tf.constant("s"), tf.constant([1.5, 2.0]))

    @tf.function
    def f(s):
        tf.print("in", s)
        return s

    f(tf.constant(["q"]))
    # tf.print writes to stderr, as TensorFlow's
    assert capfd.readouterr().err.splitlines() == ['x ["a" "b"] "s" [1.5 2]', 'in ["q"]']

"""Op-table rows for the string primitives (string_ops) and the ragged partition
primitives (ragged_ops), merged into test_ops_table.ROWS.  References are plain
Python over lists; gradients of the two ragged padding primitives against finite
differences."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.ops import ragged_ops as RO
from tapeflow.runtime.ops import string_hash

from op_cases import F64, Case, Row


def S(items):
    """An object array of bytes (str items as UTF-8)."""
    flat = np.empty(len(items), dtype=object)
    flat[:] = [i.encode() if isinstance(i, str) else i for i in items]
    return flat


def _each(fn, a, dtype=object):
    out = np.empty(a.size, dtype=dtype)
    out[:] = [fn(v) for v in a.reshape(-1).tolist()]
    return out.reshape(a.shape)


WORDS = S(["", "a b", " Hello, World ", "é日", "x" * 9])
MATRIX = S(["a", "bc", "", "d"]).reshape(2, 2)
SPLITS = np.array([0, 2, 2, 5], np.int64)


def _pieces(values, splits):
    return [list(values[a:b]) for a, b in zip(splits[:-1], splits[1:])]


def _np_to_dense(values, splits, default):
    rows = _pieces(values, splits)
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width) + values.shape[1:], default, values.dtype)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            out[i, j] = v
    return out


def _np_split(x):
    rows = [s.split() for s in x.tolist()]
    return [S([w for r in rows for w in r]), np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)]


def _np_fingerprint(a):
    rows = a.reshape(len(a), -1)
    if a.dtype == object:
        prints = [b"".join(string_hash.fingerprint64(v).to_bytes(8, "little") for v in r) for r in rows]
        prints = [p if r.size != 1 else r[0] for p, r in zip(prints, rows)]
    else:
        prints = [r.tobytes() for r in rows]
    return np.array([list(string_hash.fingerprint64(p).to_bytes(8, "little")) for p in prints], np.uint8)


def _levenshtein(a, b):
    """The textbook full table."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return d[-1][-1]


def _edit(hi, hv, hs, ti, tv, ts):
    return tf.edit_distance(tf.sparse.SparseTensor(hi, hv, hs), tf.sparse.SparseTensor(ti, tv, ts))


def _np_edit(hi, hv, hs, ti, tv, ts):
    rows = np.maximum(hs[0], ts[0])
    hyp = [[v for (r, _), v in zip(hi, hv) if r == i] for i in range(rows)]
    truth = [[v for (r, _), v in zip(ti, tv) if r == i] for i in range(rows)]
    return np.array([_levenshtein(h, t) / len(t) if t else (np.inf if h else 0.0) for h, t in zip(hyp, truth)],
                    np.float32)


EDIT_ARGS = [np.array([[0, 0], [0, 1], [0, 2], [1, 0], [3, 0]], np.int64), np.array([1, 2, 3, 4, 5], np.int32),
             np.array([4, 3], np.int64), np.array([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]], np.int64),
             np.array([2, 3, 4, 4, 7], np.int32), np.array([3, 2], np.int64)]

ROWS = {
    "fingerprint": Row([Case(tf.fingerprint, _np_fingerprint, [WORDS]),
                        Case(tf.fingerprint, _np_fingerprint, [MATRIX]),
                        Case(tf.fingerprint, _np_fingerprint, [np.arange(6, dtype=np.int32).reshape(2, 3)]),
                        Case(tf.fingerprint, _np_fingerprint, [np.array([[0.5], [2.0]], F64)])], False),
    "edit_distance": Row([Case(_edit, _np_edit, EDIT_ARGS)], False),
    "string_join": Row([Case(lambda a, b: tf.strings.join([a, b], separator="-"),
                             lambda a, b: np.array([[x + b"-" + y for x, y in zip(r, b.tolist())]
                                                    for r in a.tolist()], object),
                             [MATRIX, S(["1", "2"])])], False),
    "reduce_join": Row([Case(lambda a: tf.strings.reduce_join(a, axis=1, separator=","),
                             lambda a: np.array([b",".join(r) for r in a.tolist()], object), [MATRIX]),
                        Case(lambda a: tf.strings.reduce_join(a), lambda a: np.array(b"".join(a.reshape(-1)), object),
                             [MATRIX])], False),
    "string_length": Row([Case(tf.strings.length, lambda a: _each(len, a, np.int32), [WORDS]),
                          Case(lambda a: tf.strings.length(a, unit="UTF8_CHAR"),
                               lambda a: _each(lambda v: len(v.decode()), a, np.int32), [WORDS])], False),
    "string_upper": Row([Case(tf.strings.upper, lambda a: _each(bytes.upper, a), [WORDS])], False),
    "string_lower": Row([Case(lambda a: tf.strings.lower(a, encoding="utf-8"),
                              lambda a: _each(lambda v: v.decode().lower().encode(), a), [WORDS])], False),
    "string_strip": Row([Case(tf.strings.strip, lambda a: _each(bytes.strip, a), [WORDS])], False),
    "substr": Row([Case(lambda a: tf.strings.substr(a, 0, 3), lambda a: _each(lambda v: v[:3], a), [WORDS]),
                   Case(lambda a, p: tf.strings.substr(a, p, 1), lambda a, p: S([a[0][1:2], a[1][0:1]]),
                        [S(["xyz", "uv"]), np.array([1, 0], np.int32)])], False),
    "regex_replace": Row([Case(lambda a: tf.strings.regex_replace(a, "[a-z]", "#"),
                               lambda a: _each(lambda v: b"".join(b"#" if 97 <= c <= 122 else bytes([c]) for c in v),
                                               a), [WORDS])], False),
    "regex_full_match": Row([Case(lambda a: tf.strings.regex_full_match(a, "[a-z ]*"),
                                  lambda a: _each(lambda v: all(c == 32 or 97 <= c <= 122 for c in v), a, np.bool_),
                                  [WORDS])], False),
    "string_to_number": Row([Case(tf.strings.to_number, lambda a: _each(float, a, np.float32),
                                  [S(["1.5", "-2", "1e3"])]),
                             Case(lambda a: tf.strings.to_number(a, tf.int64), lambda a: _each(int, a, np.int64),
                                  [S(["7", "-9000000000"])])], False),
    "as_string": Row([Case(tf.strings.as_string, lambda a: _each(lambda v: b"%d" % v, a),
                           [np.array([3, -40], np.int32)]),
                      Case(lambda a: tf.strings.as_string(a, precision=1),
                           lambda a: _each(lambda v: b"%.1f" % v, a), [np.array([0.25, -3.0], F64)])], False),
    "string_format": Row([Case(lambda a: tf.strings.format("<{}>", a), lambda a: np.array(b"<[1 2 3]>", object),
                               [np.array([1, 2, 3], np.int32)])], False),
    "to_hash_bucket_fast": Row([Case(lambda a: tf.strings.to_hash_bucket_fast(a, 1000),
                                     lambda a: _each(lambda v: string_hash.fingerprint64(v) % 1000, a, np.int64),
                                     [WORDS])], False),
    "to_hash_bucket_strong": Row([Case(lambda a: tf.strings.to_hash_bucket_strong(a, 1000, [5, 6]),
                                       lambda a: _each(lambda v: string_hash.siphash(v, (5, 6)) % 1000, a, np.int64),
                                       [WORDS])], False),
    "to_hash_bucket": Row([Case(lambda a: tf.strings.to_hash_bucket(a, 1000),
                                lambda a: _each(lambda v: string_hash.hash64(v) % 1000, a, np.int64), [WORDS])],
                          False),
    "string_pieces": Row([Case(lambda a: [tf.strings.split(a).flat_values, tf.strings.split(a).row_splits],
                               _np_split, [WORDS]),
                          Case(lambda a: tf.strings.unicode_decode(a, "UTF-8").flat_values,
                               lambda a: np.array([ord(c) for v in a.tolist() for c in v.decode()], np.int32),
                               [WORDS])], False),
    "string_ngrams": Row([Case(lambda a: tf.strings.ngrams(tf.RaggedTensor.from_row_splits(a, SPLITS), 2).flat_values,
                               lambda a: S([b"a b", b"c d", b"d e"]), [S(["a", "b", "c", "d", "e"])])], False),
    "ragged_to_dense": Row([Case(lambda v, s: RO.to_dense(v, s, tf.constant(-1.0, tf.float64)),
                                 lambda v, s: _np_to_dense(v, s, -1.0), [np.arange(5.0), SPLITS], wrt=(0,)),
                            Case(lambda v, s: RO.to_dense(v, s, tf.constant(0.0, tf.float64), width=1),
                                 lambda v, s: _np_to_dense(v, s, 0.0)[:, :1], [np.arange(10.0).reshape(5, 2), SPLITS],
                                 wrt=(0,))], True),
    "ragged_dense_values": Row([Case(lambda d, s: RO.dense_values(d, s),
                                     lambda d, s: np.concatenate([d[i, :b - a] for i, (a, b) in
                                                                  enumerate(zip(s[:-1], s[1:]))]),
                                     [np.arange(12.0).reshape(3, 4), SPLITS], wrt=(0,))], True),
    "ragged_ids": Row([Case(lambda s: [RO.ids(s, "row"), RO.ids(s, "col")],
                            lambda s: [np.array([0, 0, 2, 2, 2], np.int64), np.array([0, 1, 0, 1, 2], np.int64)],
                            [SPLITS])], False),
    "splits_from_lengths": Row([Case(RO.splits_from_lengths, lambda n: np.concatenate([[0], np.cumsum(n)]),
                                     [np.array([2, 0, 3], np.int64)])], False),
    "ragged_zero": Row([Case(RO.zero_of, lambda x: np.zeros((), x.dtype), [np.arange(3.0)]),
                        Case(RO.zero_of, lambda x: np.array(b"", object), [WORDS])], False),
}

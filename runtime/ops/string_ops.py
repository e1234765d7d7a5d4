"""String primitives (tf.strings): one record per op, eager over NumPy object
arrays of bytes.  None of them has a kernel template, so fusion never takes a
string op into C: in a compiled graph they run through NumPy between kernels.

Ops whose result is ragged (split, bytes_split, unicode_split/decode, the character
byte offsets of unicode_*_with_offsets) return
two tensors, the flat values and int64 row splits of a flattened input;
tapeflow.strings makes the RaggedTensor (a higher layer's type).
"""
import re

import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import string_format
from .string_hash import fingerprint64, hash64, siphash


def _require_string(x, op):
    if x.dtype is not dtypes.string:
        raise TypeError(f"{op} expects a string tensor, got {x.dtype.name}")


def _map(fn, a, out_dtype=object):
    """fn applied to every item of an object array (C order), as `out_dtype`."""
    flat = [fn(v) for v in a.reshape(-1).tolist()]
    out = np.empty(len(flat), dtype=out_dtype)
    out[:] = flat
    return out.reshape(a.shape)


def _string_rule(op, out_dtype=dtypes.string):
    def rule(x, **_):
        _require_string(x, op)
        return Aval(x.shape, out_dtype)
    return rule


def _strings(flat):
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out


# --- join ---------------------------------------------------------------------
def _join_rule(*xs, separator):
    for x in xs:
        _require_string(x, "strings.join")
    return Aval(R.broadcast_shapes(*[x.shape for x in xs]) if xs else (), dtypes.string)


def _join_impl(xp, *xs, separator):
    if not xs:
        return np.asarray(b"", dtype=object)
    shapes = [x.shape for x in xs]
    try:
        parts = np.broadcast_arrays(*xs)
    except ValueError:
        raise ValueError(f"Input shapes do not match: {' vs. '.join(str(list(s)) for s in shapes)}") from None
    cols = [p.reshape(-1).tolist() for p in parts]
    return _strings([separator.join(items) for items in zip(*cols)]).reshape(parts[0].shape)


STRING_JOIN = defprim("string_join", _join_impl, _join_rule)


def _reduce_join_impl(xp, x, axis, keepdims, separator):
    k = x.ndim - len(axis)
    moved = np.moveaxis(x, axis, tuple(range(k, x.ndim)))
    lead = moved.shape[:k]
    rows = moved.reshape(int(np.prod(lead, dtype=np.int64)), int(np.prod(moved.shape[k:], dtype=np.int64)))
    out = _strings([separator.join(r) for r in rows.tolist()]).reshape(lead)
    if keepdims:
        out = out.reshape(R.reduced_shape(x.shape, axis, True))
    return out


def _reduce_join_rule(x, axis, keepdims, separator):
    _require_string(x, "strings.reduce_join")
    return Aval(R.reduced_shape(x.shape, axis, keepdims), dtypes.string)


REDUCE_JOIN = defprim("reduce_join", _reduce_join_impl, _reduce_join_rule)


# --- per-item transforms ------------------------------------------------------
def _utf8_chars(b):
    return b.decode("utf-8", errors="replace")


def _length_impl(xp, x, unit):
    if unit == "BYTE":
        return _map(len, x, np.int32)
    return _map(lambda b: len(_utf8_chars(b)), x, np.int32)


STRING_LENGTH = defprim("string_length", _length_impl, _string_rule("strings.length", dtypes.int32))


def _case_impl(method):
    def impl(xp, x, encoding):
        if encoding:  # Unicode case mapping of UTF-8 text
            return _map(lambda b: getattr(b.decode("utf-8"), method)().encode("utf-8"), x)
        return _map(getattr(bytes, method), x)  # ASCII letters only
    return impl


STRING_UPPER = defprim("string_upper", _case_impl("upper"), _string_rule("strings.upper"))
STRING_LOWER = defprim("string_lower", _case_impl("lower"), _string_rule("strings.lower"))
STRING_STRIP = defprim("string_strip", lambda xp, x: _map(bytes.strip, x), _string_rule("strings.strip"))


def _substr_one(s, pos, length, unit, index):
    text = s if unit == "BYTE" else s.decode("utf-8", errors="replace")
    n = len(text)
    if not -n <= pos <= n:
        raise ValueError(f"pos {pos} out of range for string {s!r} at index {index}")
    start = pos if pos >= 0 else n + pos
    end = n if length < 0 else min(n, start + length)
    piece = text[start:end]
    return piece if unit == "BYTE" else piece.encode("utf-8")


def _substr_impl(xp, x, pos, length, unit):
    xs, ps, ls = np.broadcast_arrays(x, pos, length)
    flat = [_substr_one(s, int(p), int(n), unit, i)
            for i, (s, p, n) in enumerate(zip(xs.reshape(-1).tolist(), ps.reshape(-1).tolist(),
                                               ls.reshape(-1).tolist()))]
    return _strings(flat).reshape(xs.shape)


def _substr_rule(x, pos, length, unit):
    _require_string(x, "strings.substr")
    if not (pos.dtype.is_integer and length.dtype.is_integer):
        raise TypeError(f"strings.substr: pos and len must be integers, got {pos.dtype.name}, {length.dtype.name}")
    return Aval(R.broadcast_shapes(x.shape, pos.shape, length.shape), dtypes.string)


SUBSTR = defprim("substr", _substr_impl, _substr_rule)


# --- regular expressions (Python's re on bytes; RE2's syntax for the common cases)
# RE2's POSIX classes, valid inside a bracket expression ([[:punct:]]); Python's re has none.
_POSIX = {b"[:alpha:]": rb"a-zA-Z", b"[:digit:]": rb"0-9", b"[:alnum:]": rb"a-zA-Z0-9",
          b"[:upper:]": rb"A-Z", b"[:lower:]": rb"a-z", b"[:space:]": rb" \t\n\r\f\v",
          b"[:xdigit:]": rb"0-9A-Fa-f", b"[:word:]": rb"\w", b"[:blank:]": rb" \t",
          b"[:cntrl:]": rb"\x00-\x1f\x7f", b"[:print:]": rb"\x20-\x7e", b"[:graph:]": rb"\x21-\x7e",
          b"[:punct:]": re.escape(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")}


def _compile(pattern):
    """(bytes pattern, text pattern or None).  RE2 reads pattern and input as UTF-8: a class
    like [,¿] or a `.` takes whole characters, so valid UTF-8 input is matched as text (\\w, \\d,
    \\s, \\b ASCII-only, as RE2's), other input byte by byte."""
    for name, chars in _POSIX.items():
        pattern = pattern.replace(name, chars)
    try:
        compiled = re.compile(pattern)
        try:
            return compiled, re.compile(pattern.decode("utf-8"), re.ASCII)
        except UnicodeDecodeError:
            return compiled, None
    except re.error as exc:
        raise ValueError(f"Invalid pattern: {pattern.decode('utf-8', 'replace')}, error: {exc}") from None


def _as_text(s, text_rx):
    """s decoded for the text pattern, or None (no text pattern, or s is not UTF-8)."""
    if text_rx is None:
        return None
    try:
        return s.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _rewrite(template):
    """RE2's rewrite string (\\0..\\9 are groups, \\\\ a backslash) as a function of a match
    (bytes or text: the template's type)."""
    parts, i = [], 0
    while i < len(template):
        ch = template[i:i + 1]
        if ch in (b"\\", "\\") and i + 1 < len(template):
            nxt = template[i + 1:i + 2]
            parts.append(int(nxt) if nxt.isdigit() else nxt)
            i += 2
        else:
            parts.append(ch)
            i += 1
    empty = template[:0]
    return lambda m: empty.join(m.group(p) or empty if isinstance(p, int) else p for p in parts)


def _regex_replace_impl(xp, x, pattern, rewrite, replace_global):
    (rx, text_rx), fn = _compile(pattern), _rewrite(rewrite)
    text_fn = None
    if text_rx is not None:
        try:
            text_fn = _rewrite(rewrite.decode("utf-8"))
        except UnicodeDecodeError:
            text_rx = None
    count = 0 if replace_global else 1

    def one(s):
        text = _as_text(s, text_rx)
        if text is None:
            return rx.sub(fn, s, count=count)
        return text_rx.sub(text_fn, text, count=count).encode("utf-8")
    return _map(one, x)


def _regex_full_match_impl(xp, x, pattern):
    rx, text_rx = _compile(pattern)

    def one(s):
        text = _as_text(s, text_rx)
        return (rx.fullmatch(s) if text is None else text_rx.fullmatch(text)) is not None
    return _map(one, x, np.bool_)


REGEX_REPLACE = defprim("regex_replace", _regex_replace_impl, _string_rule("strings.regex_replace"))
REGEX_FULL_MATCH = defprim("regex_full_match", _regex_full_match_impl,
                           _string_rule("strings.regex_full_match", dtypes.bool_))


# --- numbers <-> text ---------------------------------------------------------
def _to_number_one(s, out_dtype):
    text = s.decode("utf-8", errors="replace")
    try:
        if "_" in text:  # Python's digit grouping ("1_000") is not a number to strtod
            raise ValueError
        if out_dtype.is_integer:
            v = int(text.strip()) if text.strip().lstrip("+-").isdigit() else None
            if v is None or not np.iinfo(out_dtype.np).min <= v <= np.iinfo(out_dtype.np).max:
                raise ValueError
            return v
        return float(text)
    except ValueError:
        raise ValueError(f"StringToNumberOp could not correctly convert string: {text}") from None


def _to_number_impl(xp, x, out_type):
    flat = [_to_number_one(s, out_type) for s in x.reshape(-1).tolist()]
    with np.errstate(over="ignore"):
        return np.array(flat, dtype=np.float64 if out_type.is_floating else out_type.np) \
            .astype(out_type.np).reshape(x.shape)


def _to_number_rule(x, out_type):
    _require_string(x, "strings.to_number")
    if not (out_type.is_floating or out_type in (dtypes.int32, dtypes.int64)):
        raise TypeError(f"strings.to_number: out_type must be float16/32/64, int32 or int64, got {out_type.name}")
    return Aval(x.shape, out_type)


STRING_TO_NUMBER = defprim("string_to_number", _to_number_impl, _to_number_rule)


def _as_string_impl(xp, x, precision, scientific, shortest, width, fill):
    if x.dtype == object:
        return x.copy()
    if x.dtype.kind == "b":
        return _map(lambda v: b"true" if v else b"false", x)
    spec = "%" + (fill if fill else "") + (str(width) if width >= 0 else "")
    if x.dtype.kind == "f":
        spec += ("." + str(precision) if precision >= 0 else "") + ("e" if scientific else "g" if shortest else "f")
        return _map(lambda v: (spec % float(v)).encode(), x)
    return _map(lambda v: ((spec + "d") % int(v)).encode(), x)


def _as_string_rule(x, precision, scientific, shortest, width, fill):
    if len(fill) > 1:
        raise ValueError("Fill string must be one or fewer characters")
    if precision >= 0 and not x.dtype.is_floating:
        raise ValueError(f"precision not supported for datatype {x.dtype.name}")
    if scientific and shortest:
        raise ValueError("Cannot select both scientific and shortest notation")
    return Aval(x.shape, dtypes.string)


AS_STRING = defprim("as_string", _as_string_impl, _as_string_rule)


def _format_rule(*xs, template, placeholder, summarize):
    string_format.check_template(template, placeholder, len(xs))
    return Aval((), dtypes.string)


def _format_impl(xp, *xs, template, placeholder, summarize):
    pieces = template.split(placeholder)
    out = [pieces[0]]
    for x, rest in zip(xs, pieces[1:]):
        out.append(string_format.summarize_array(x, summarize))
        out.append(rest)
    return np.asarray(b"".join(out), dtype=object)


STRING_FORMAT = defprim("string_format", _format_impl, _format_rule)


# --- hashing ------------------------------------------------------------------
def _bucket_rule(op):
    def rule(x, num_buckets, **_):
        _require_string(x, op)
        if num_buckets < 1:
            raise ValueError(f"{op}: num_buckets must be at least 1, got {num_buckets}")
        return Aval(x.shape, dtypes.int64)
    return rule


def _buckets(hash_fn):
    def impl(xp, x, num_buckets, **attrs):
        return _map(lambda s: hash_fn(s, **attrs) % num_buckets, x, np.uint64).astype(np.int64)
    return impl


TO_HASH_BUCKET_FAST = defprim("to_hash_bucket_fast", _buckets(fingerprint64),
                              _bucket_rule("strings.to_hash_bucket_fast"))
TO_HASH_BUCKET_STRONG = defprim("to_hash_bucket_strong", _buckets(siphash),
                                _bucket_rule("strings.to_hash_bucket_strong"))
TO_HASH_BUCKET = defprim("to_hash_bucket", _buckets(hash64), _bucket_rule("strings.to_hash_bucket"))


# --- fingerprint: farmhash Fingerprint64 of every row, as 8 little-endian bytes ---
def _fingerprint_impl(xp, x):
    rows, per_row = x.shape[0], int(np.prod(x.shape[1:]))
    if x.dtype == object:
        prints = [fingerprint64(s) for s in x.reshape(-1).tolist()]
        if per_row != 1:  # several strings a row: the row's print is that of their prints' bytes
            packed = np.asarray(prints, np.uint64).astype("<u8").reshape(rows, per_row)
            prints = [fingerprint64(r.tobytes()) for r in packed]
    else:  # a row's bytes in memory (C order, little-endian), as TensorFlow reads them
        flat = np.ascontiguousarray(x.reshape(rows, per_row).astype(x.dtype.newbyteorder("<")))
        prints = [fingerprint64(r.tobytes()) for r in flat]
    return np.asarray(prints, np.uint64).reshape(rows).astype("<u8").view(np.uint8).reshape(rows, 8)


def _fingerprint_rule(x):
    if len(x.shape) < 1:
        raise ValueError(f"fingerprint: `data` should have at least one dimension: {list(x.shape)}")
    return Aval((x.shape[0], 8), dtypes.uint8)


FINGERPRINT = defprim("fingerprint", _fingerprint_impl, _fingerprint_rule)


def fingerprint(data, method="farmhash64", name=None):
    """uint8 [rows, 8]: TensorFlow's Fingerprint64 (farmhash) of every row of `data`
    (its leading dimension), for numbers by their bytes, for strings by their contents."""
    if method != "farmhash64":
        raise InvalidArgumentError(with_location(f"fingerprint: unsupported method {method!r} (farmhash64 only)"))
    x = convert_to_tensor(data)
    try:
        _fingerprint_rule(Aval(x.shape.dims, x.dtype))
    except ValueError as exc:
        raise InvalidArgumentError(with_location(str(exc))) from None
    return bind(FINGERPRINT, (x,), {})


# --- ragged results: (flat values, row splits) of a vector ---------------------
def _split_one(s, sep, maxsplit):
    if sep:
        return s.split(sep, maxsplit)
    return s.split(None, maxsplit)  # runs of ASCII whitespace; no empty pieces


def _char_offsets(s, errors):
    """The byte offset of every character `_pieces` decodes from s: a valid character
    starts where its bytes do, a replacement where the invalid bytes it stands for do
    (Python's "replace" decoder, which agrees with TensorFlow's: one per maximal
    invalid subsequence); "ignore" drops those."""
    offsets, pos = [], 0
    while pos < len(s):
        try:
            text = s[pos:].decode("utf-8")
            bad = None
        except UnicodeDecodeError as exc:
            text, bad = s[pos:pos + exc.start].decode("utf-8"), exc
        for c in text:
            offsets.append(pos)
            pos += len(c.encode("utf-8", "surrogatepass"))
        if bad is None:
            break
        if errors != "ignore":
            offsets.append(pos)
        pos += bad.end - bad.start
    return offsets


def _pieces(s, mode, errors, replacement_char, replace_control=False):
    if mode == "bytes":
        return [s[i:i + 1] for i in range(len(s))]
    if mode == "unicode_offsets":
        _pieces(s, "unicode_decode", errors, replacement_char)  # the errors="strict" check
        return _char_offsets(s, errors)
    try:
        text = s.decode("utf-8", errors="strict" if errors == "strict" else "replace")
    except UnicodeDecodeError:
        raise ValueError(f"Invalid formatting on input string {s!r}") from None
    if errors == "ignore":
        text = s.decode("utf-8", errors="ignore")
    elif errors == "replace" and replacement_char != 0xFFFD:
        text = text.replace("\ufffd", chr(replacement_char))
    if replace_control:  # C0 control characters, U+0000..U+001F
        text = "".join(chr(replacement_char) if ord(c) < 0x20 else c for c in text)
    if mode == "unicode_split":
        return [c.encode("utf-8") for c in text]
    return [ord(c) for c in text]


def _ragged_impl(xp, x, mode, sep=b"", maxsplit=-1, errors="replace", replacement_char=0xFFFD,
                 replace_control=False):
    rows = x.reshape(-1).tolist()
    if mode == "split":
        pieces = [_split_one(s, sep, maxsplit) for s in rows]
    else:
        pieces = [_pieces(s, mode, errors, replacement_char, replace_control) for s in rows]
    splits = np.zeros(len(rows) + 1, np.int64)
    np.cumsum([len(p) for p in pieces], out=splits[1:])
    flat = [v for p in pieces for v in p]
    numeric = {"unicode_decode": np.int32, "unicode_offsets": np.int64}
    values = np.asarray(flat, numeric[mode]) if mode in numeric else _strings(flat)
    return values, splits


def _ragged_rule(x, mode, **_):
    _require_string(x, f"strings.{mode}")
    if len(x.shape) != 1:
        raise R.ShapeError(f"strings.{mode}: the primitive takes a vector, got shape {list(x.shape)}")
    rows = x.shape[0]
    out = {"unicode_decode": dtypes.int32, "unicode_offsets": dtypes.int64}.get(mode, dtypes.string)
    return Aval((None,), out), Aval((None if rows is None else rows + 1,), dtypes.int64)


STRING_PIECES = defprim("string_pieces", _ragged_impl, _ragged_rule, multiple_results=True)


# --- n-grams of ragged rows: (values, splits) -> (values, splits) ---------------
def _ngrams_of_row(tokens, widths, separator, left, right, pad_width, preserve):
    out = []
    for w in widths:
        p = min(w - 1 if pad_width < 0 else pad_width, w - 1)
        padded = [left] * p + tokens + [right] * p
        out.extend(separator.join(padded[i:i + w]) for i in range(max(0, len(padded) - w + 1)))
    if preserve and not out and tokens:  # at least one n-gram: the whole (padded) row
        p = max(pad_width, 0)
        out.append(separator.join([left] * p + tokens + [right] * p))
    return out


def _ngrams_impl(xp, values, splits, widths, separator, left, right, pad_width, preserve):
    flat = values.tolist()
    cuts = splits.tolist()
    rows = [_ngrams_of_row(flat[a:b], widths, separator, left, right, pad_width, preserve)
            for a, b in zip(cuts[:-1], cuts[1:])]
    new = np.zeros(len(rows) + 1, np.int64)
    np.cumsum([len(r) for r in rows], out=new[1:])
    return _strings([g for r in rows for g in r]), new


def _ngrams_rule(values, splits, **_):
    _require_string(values, "strings.ngrams")
    if len(values.shape) != 1:
        raise R.ShapeError(f"strings.ngrams: the values must be a vector, got shape {list(values.shape)}")
    return Aval((None,), dtypes.string), Aval(tuple(splits.shape), dtypes.int64)


STRING_NGRAMS = defprim("string_ngrams", _ngrams_impl, _ngrams_rule, multiple_results=True)

"""CSV records to columns, by TensorFlow's decode_csv rules (measured on TF 2.21):

- fields are split at a one-byte `field_delim`; an empty record has no fields;
- with `use_quote_delim`, a field that starts with '"' is quoted: it may hold the
  delimiter, newlines and '""' (one quote), and must end with a quote followed by the
  delimiter or the end; an unquoted field may hold no quote, CR or LF;
- a field that is empty (also '""') or equals `na_value` takes its column's default;
  a column whose default is empty is required;
- without select_cols a record has exactly one field per default; with it, the fields
  at those (strictly increasing) indices are taken and the rest ignored;
- numbers: leading/trailing blanks allowed; int32/int64 must be decimal integers in
  range; floats accept decimal, exponent, nan/inf and hex forms, overflowing to inf.
Errors are InvalidArgumentError with TensorFlow's wording, plus the record's index.
"""
import numpy as np

from tapeflow.io import native
from tapeflow.runtime.errors import InvalidArgumentError

_QUOTE = ord('"')
CSV_DTYPES = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64,
              "string": object}
_INT_RANGE = {"int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1)}
_UNQUOTED = "Unquoted fields cannot have quotes/CRLFs inside (record {})"
_UNENDED = "Quoted field has to end with quote followed by delim or end (record {})"
_UNESCAPED = "Quote inside a string has to be escaped by another quote (record {})"
SPLIT_ERRORS = {1: _UNQUOTED, 2: _UNENDED, 3: _UNESCAPED}   # tfn_csv_split's codes


def check_delim(field_delim):
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    if len(delim) != 1:
        raise InvalidArgumentError("decode_csv: field_delim should be only 1 char")
    return delim


def split_record(record, delim, use_quote_delim=True, index=0):
    """The fields (bytes) of one record."""
    if not record:
        return []
    if not use_quote_delim or _QUOTE not in record:
        fields = record.split(delim)
        if b"\r" in record or b"\n" in record or (use_quote_delim and _QUOTE in record):
            raise InvalidArgumentError(_UNQUOTED.format(index))
        return fields
    return _split_quoted(record, delim[0], index)


def _split_quoted(record, delim, index):
    fields, i, n = [], 0, len(record)
    while True:
        if i < n and record[i] == _QUOTE:
            out, i = bytearray(), i + 1
            while True:
                if i >= n:
                    raise InvalidArgumentError(_UNENDED.format(index))
                c = record[i]
                if c == _QUOTE:
                    if i + 1 < n and record[i + 1] == _QUOTE:
                        out.append(_QUOTE)
                        i += 2
                        continue
                    if i + 1 < n and record[i + 1] != delim:
                        raise InvalidArgumentError(_UNESCAPED.format(index))
                    i += 1
                    break
                out.append(c)
                i += 1
            fields.append(bytes(out))
        else:
            j = record.find(bytes([delim]), i)
            j = n if j < 0 else j
            field = record[i:j]
            if _QUOTE in field or b"\r" in field or b"\n" in field:
                raise InvalidArgumentError(_UNQUOTED.format(index))
            fields.append(field)
            i = j
        if i >= n:
            return fields
        i += 1                                 # past the delimiter
        if i == n:
            fields.append(b"")                 # a trailing delimiter ends with an empty field
            return fields


def _field_count_error(n_defaults, got, index):
    return InvalidArgumentError(f"Expect {n_defaults} fields but have {got} in record {index}")


def select(fields, select_cols, n_defaults, index):
    if select_cols is None:
        if len(fields) != n_defaults:
            raise _field_count_error(n_defaults, len(fields), index)
        return fields
    picked = [fields[c] for c in select_cols if c < len(fields)]
    if len(picked) != n_defaults:
        raise _field_count_error(n_defaults, len(picked), index)
    return picked


def _not_valid(col, index, dtype_name, field):
    kind = "float" if dtype_name == "float32" else ("double" if dtype_name == "float64" else dtype_name)
    return InvalidArgumentError(f"Field {col} in record {index} is not a valid {kind}: "
                                f"{field.decode('utf-8', 'replace')}")


def parse_number(field, dtype_name, col, index):
    text = field.strip()
    if not text or b"_" in text:
        raise _not_valid(col, index, dtype_name, field)
    if dtype_name in _INT_RANGE:
        try:
            v = int(text, 10)
        except ValueError:
            raise _not_valid(col, index, dtype_name, field) from None
        lo, hi = _INT_RANGE[dtype_name]
        if not lo <= v <= hi:
            raise _not_valid(col, index, dtype_name, field)
        return v
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return float.fromhex(text.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        raise _not_valid(col, index, dtype_name, field) from None


def _fast_numbers(values, dtype_name):
    """The column parsed by NumPy in C, or None when any field needs the per-field rules
    (empty, NA, blanks, hex, out of range...): those then give TensorFlow's exact errors."""
    try:
        raw = np.array(values, dtype="S")
    except (ValueError, TypeError):
        return None
    if dtype_name in _INT_RANGE:
        try:
            wide = raw.astype(np.int64)
        except (ValueError, OverflowError):
            return None
        lo, hi = _INT_RANGE[dtype_name]
        if len(wide) and (wide.min() < lo or wide.max() > hi):
            return None
        return wide.astype(CSV_DTYPES[dtype_name])
    try:
        return raw.astype(np.float64).astype(CSV_DTYPES[dtype_name])
    except ValueError:
        return None


def convert_column(values, default, dtype_name, col, na_value, first_index=0):
    """One column's fields (bytes) -> a NumPy array; `default` is None when required."""
    if dtype_name != "string" and len(values) > 16 and all(values) and na_value not in values:
        with np.errstate(over="ignore"):
            fast = _fast_numbers(values, dtype_name)
        if fast is not None and b"_" not in b"".join(values):
            return fast
    out = np.empty(len(values), dtype=CSV_DTYPES[dtype_name])
    with np.errstate(over="ignore"):                 # float32 overflows to inf, as TF
        for k, field in enumerate(values):
            out[k] = _field_value(field, default, dtype_name, col, na_value, first_index + k)
    return out


def _field_value(field, default, dtype_name, col, na_value, index):
    if not field or field == na_value:
        if default is None:
            raise InvalidArgumentError(f"Field {col} is required but missing in record {index}!")
        return default
    if dtype_name == "string":
        return field
    with np.errstate(over="ignore"):
        return parse_number(field, dtype_name, col, index)


def decode_records(records, defaults, dtype_names, field_delim=",", use_quote_delim=True, na_value=b"",
                   select_cols=None):
    """Records (a list of bytes) -> one NumPy array per column (the whole of decode_csv but
    tensors).  `defaults[i]` is the column's default value or None (required)."""
    delim = check_delim(field_delim)
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    n = len(defaults)
    lib = native.get()
    if lib is not None and records:
        return _native_decode(lib, records, defaults, dtype_names, delim, use_quote_delim, na, select_cols)
    joined = b"\n".join(records)
    if select_cols is None and (not use_quote_delim or b'"' not in joined):
        rows = [r.split(delim) for r in records]   # the common case, split in C
        if all(len(row) == n for row in rows) and all(records) and \
                joined.count(b"\n") == len(records) - 1 and b"\r" not in joined:
            columns = list(zip(*rows)) if rows else [()] * n
            return [convert_column(list(columns[c]), defaults[c], dtype_names[c], c, na) for c in range(n)]
    columns = [[None] * len(records) for _ in range(n)]
    for r, record in enumerate(records):
        fields = select(split_record(record, delim, use_quote_delim, r), select_cols, n, r)
        for c in range(n):
            columns[c][r] = fields[c]
    return [convert_column(columns[c], defaults[c], dtype_names[c], c, na) for c in range(n)]


def _native_decode(lib, records, defaults, dtype_names, delim, use_quote_delim, na, select_cols):
    """decode_records with the splitting and number parsing in C; the fields C leaves (empty,
    NA, hex, out of range, not numbers) go through _field_value, so values and errors match."""
    split = native.csv_split(lib, records, delim[0], use_quote_delim)
    buf, fs, fl, nf, bad, err = split
    upto = len(records) if bad is None else bad
    first = np.zeros(len(records) + 1, np.int64)
    np.cumsum(nf, out=first[1:])
    n = len(defaults)
    if select_cols is None:
        have, cols = nf[:upto], range(n)
    else:
        have, cols = (np.asarray(select_cols)[None, :] < nf[:upto, None]).sum(axis=1), select_cols
    wrong = np.flatnonzero(have != n)
    if len(wrong):
        raise _field_count_error(n, int(have[wrong[0]]), int(wrong[0]))
    if bad is not None:
        raise InvalidArgumentError(SPLIT_ERRORS[err].format(bad))
    text = buf.tobytes()
    starts = np.ascontiguousarray(first[:-1])
    numbers = native.csv_numbers(lib, split, starts, list(cols), dtype_names, na)
    out = []
    for c, at in enumerate(cols):
        dtype_name = dtype_names[c]
        idx = starts + at
        if numbers[c] is None:
            column = np.empty(len(records), dtype=object)
            column[:] = [_field_value(text[s:s + k], defaults[c], "string", c, na, r)
                         for r, (s, k) in enumerate(zip(fs[idx].tolist(), fl[idx].tolist()))]
        else:
            column, left = numbers[c]
            for r in np.flatnonzero(left).tolist():
                s, k = int(fs[idx[r]]), int(fl[idx[r]])
                with np.errstate(over="ignore"):
                    column[r] = _field_value(text[s:s + k], defaults[c], dtype_name, c, na, r)
        out.append(column)
    return out

"""Serialized tf.train.Examples to NumPy columns: the engine of tf.io.parse_example.

Examples are decoded straight from their bytes (no message objects), and only the features
asked for are decoded.  Semantics and messages follow TensorFlow 2.21's ParseExampleV2:
- FixedLenFeature(shape, dtype, default_value): exactly prod(shape) values, else the
  default; a feature present with no kind set counts as missing;
- VarLenFeature(dtype): (indices [N, 2], values [N], dense_shape [B, longest]);
- FixedLenSequenceFeature(shape, dtype, allow_missing=True, default_value): a multiple
  of prod(shape) values per example, rows padded with default_value (or 0 / b"") to the
  longest example: [B, longest] + shape.
dtype is one of float32, int64, string (the three lists of feature.proto).
"""
import collections

import numpy as np

from tapeflow.io import native, wire
from tapeflow.runtime.errors import InvalidArgumentError

FixedLenFeature = collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])
FixedLenFeature.__new__.__defaults__ = (None,)
VarLenFeature = collections.namedtuple("VarLenFeature", ["dtype"])
FixedLenSequenceFeature = collections.namedtuple(
    "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])
FixedLenSequenceFeature.__new__.__defaults__ = (False, None)

_KIND_OF_DTYPE = {"string": 1, "float32": 2, "int64": 3}
_KIND_NAME = {1: "string", 2: "float", 3: "int64"}
_NP = {"string": object, "float32": np.float32, "int64": np.int64}


def dtype_name(spec, key):
    name = getattr(spec.dtype, "name", str(spec.dtype))
    if name not in _KIND_OF_DTYPE:
        raise InvalidArgumentError(f"parse_example: feature {key!r} has dtype {name}; "
                                   f"Example features are float32, int64 or string")
    return name


def _feature_values(payload):
    """(kind, values) of one Feature's bytes: kind 1 bytes, 2 float, 3 int64, None when unset."""
    kind, values = None, None
    for num, wtype, raw in wire.iter_fields(payload):
        if num not in (1, 2, 3) or wtype != wire.BYTES:
            continue
        kind = num                           # the last kind on the wire wins (oneof)
        if num == 1:
            values = [v for n, w, v in wire.iter_fields(raw) if n == 1 and w == wire.BYTES]
        elif num == 2:
            values = []
            for n, w, v in wire.iter_fields(raw):
                if n == 1 and len(v) % 4 == 0:   # packed (BYTES) or one unpacked fixed32 alike
                    values.append(np.frombuffer(v, "<f4"))
            values = np.concatenate(values) if values else np.zeros(0, np.float32)
        else:
            values = []
            for n, w, v in wire.iter_fields(raw):
                if n == 1:
                    values.extend(wire.read_packed_varints(v) if w == wire.BYTES else [v])
            values = [_int64(x) for x in values]
    return kind, values


def _int64(v):
    """A decoded varint as int64: bits past 64 dropped (as protobuf does), two's complement."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def _length(data, pos):
    b = data[pos]
    if b < 0x80:
        return b, pos + 1
    return wire.read_varint(data, pos)


def _fast_feature(data, start, end):
    """(kind, values) of a Feature in data[start:end] in the canonical encoding (one kind,
    packed numbers), or False for anything else (the general decoder then reads it)."""
    if start == end:
        return None, None
    kind = data[start]
    n, pos = _length(data, start + 1)
    if pos + n != end or kind not in (0x0A, 0x12, 0x1A):
        return False
    if n == 0:
        return (1, []) if kind == 0x0A else (2, np.zeros(0, np.float32)) if kind == 0x12 else (3, [])
    if kind == 0x0A:                          # BytesList: repeated length-delimited values
        values = []
        while pos < end:
            if data[pos] != 0x0A:
                return False
            k, pos = _length(data, pos + 1)
            if pos + k > end:
                return False
            values.append(data[pos:pos + k])
            pos += k
        return (1, values) if pos == end else False
    if data[pos] != 0x0A:
        return False
    k, pos = _length(data, pos + 1)
    if pos + k != end:
        return False
    if kind == 0x12:                          # FloatList, packed
        if k % 4:
            return False
        return 2, np.frombuffer(data, "<f4", count=k // 4, offset=pos)
    values = []                               # Int64List, packed varints
    while pos < end:
        b = data[pos]
        if b < 0x80:
            values.append(b)
            pos += 1
        else:
            v, pos = wire.read_varint(data, pos)
            values.append(_int64(v))
    return (3, values) if pos == end else False


def _fast_example(data, wanted):
    """example_features for the canonical encoding, or None (then the general decoder runs)."""
    out, pos, n = {}, 0, len(data)
    while pos < n:
        if data[pos] != 0x0A:
            return None
        size, pos = _length(data, pos + 1)
        end = pos + size
        if end > n:
            return None
        while pos < end:
            if data[pos] != 0x0A:
                return None
            size, pos = _length(data, pos + 1)
            entry_end = pos + size
            if entry_end > end or data[pos] != 0x0A:
                return None
            size, pos = _length(data, pos + 1)
            if pos + size > entry_end:
                return None
            name = wanted.get(data[pos:pos + size])
            pos += size
            if pos == entry_end:
                value_start = value_end = pos
            else:
                if data[pos] != 0x12:
                    return None
                size, pos = _length(data, pos + 1)
                value_start, value_end = pos, pos + size
            if value_end != entry_end:
                return None
            pos = entry_end
            if name is not None:
                got = _fast_feature(data, value_start, value_end)
                if got is False:
                    return None
                out[name] = got
        if pos != end:
            return None
    return out


def example_features(data, wanted):
    """{name: (kind, values)} of the features in `wanted` in one serialized Example."""
    try:
        fast = _fast_example(data, {k.encode("utf-8"): k for k in wanted}) if not isinstance(wanted, _ByBytes) \
            else _fast_example(data, wanted)
    except (IndexError, wire.DecodeError):
        fast = None
    if fast is not None:
        return fast
    return general_example_features(data, set(wanted.values()) if isinstance(wanted, _ByBytes) else wanted)


class _ByBytes(dict):
    """Wanted feature names keyed by their UTF-8 bytes (built once per batch)."""


def general_example_features(data, wanted):
    """example_features for any valid encoding (unpacked lists, repeated fields, unknown fields)."""
    out = {}
    for num, wtype, features in wire.iter_fields(data):
        if num != 1 or wtype != wire.BYTES:
            continue
        for fnum, fwtype, entry in wire.iter_fields(features):
            if fnum != 1 or fwtype != wire.BYTES:
                continue
            key, value = b"", b""
            for enum, ewtype, raw in wire.iter_fields(entry):
                if enum == 1:
                    key = raw
                elif enum == 2:
                    value = raw
            name = key.decode("utf-8", "replace")
            if name in wanted:
                out[name] = _feature_values(value)
    return out


def _check_kind(key, index, kind, dtype):
    if kind != _KIND_OF_DTYPE[dtype]:
        raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: {index}.  Data types don't match. "
                                   f"Data type: {_KIND_NAME[kind]} but expected type: {_KIND_NAME[_KIND_OF_DTYPE[dtype]]}")


def _default_array(key, spec, dtype, shape):
    default = np.asarray(spec.default_value, dtype=_NP[dtype])
    if default.size != int(np.prod(shape, dtype=np.int64)):
        raise InvalidArgumentError(f"parse_example: default_value of {key!r} has {default.size} values, but "
                                   f"the feature's shape {list(shape)} has {int(np.prod(shape))}")
    return default.reshape(shape)


def parse(serialized, features):
    """serialized: a list of Example bytes.  Returns {name: ndarray} for dense features and
    {name: (indices, values, dense_shape)} for VarLenFeatures."""
    specs = dict(features)
    dtypes = {k: dtype_name(s, k) for k, s in specs.items()}
    for key, spec in specs.items():
        if isinstance(spec, FixedLenSequenceFeature) and not spec.allow_missing:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
    columns = read_columns(serialized, dtypes)
    out = {}
    for key, spec in specs.items():
        dtype = dtypes[key]
        if isinstance(spec, VarLenFeature):
            out[key] = _var_len(key, dtype, columns[key], len(serialized))
        elif isinstance(spec, FixedLenSequenceFeature):
            out[key] = _sequence(key, spec, dtype, columns[key], len(serialized))
        else:
            out[key] = _fixed(key, spec, dtype, columns[key], len(serialized))
    return out


# A column is one feature over the batch: (kinds int8 [B]: 0 absent or unset, else the kind
# on the wire; counts int64 [B]: values of the wanted kind; values: those values, flat, in
# example order).  The C reader and the Python decoders both produce columns, and everything
# after them is shared, so both give the same arrays and the same errors.

def read_columns(serialized, dtypes):
    """{name: column} of the features named in `dtypes` ({name: "float32" | "int64" | "string"})."""
    columns = _native_columns(serialized, dtypes)
    return columns if columns is not None else _python_columns(serialized, dtypes)


def _native_columns(serialized, dtypes):
    """The columns read by C, or None (no C, or an example the C reader leaves to Python)."""
    lib = native.get()
    if lib is None or not serialized:
        return None
    names = list(dtypes)
    index = native.index_examples(lib, serialized, names)
    if index is None:
        return None
    kind, count = index[1], index[2]
    columns = {}
    for j, key in enumerate(names):
        want = _KIND_OF_DTYPE[dtypes[key]]
        kinds = np.ascontiguousarray(kind[:, j])
        columns[key] = (kinds, np.where(kinds == want, count[:, j], 0), native.gather(lib, index, j, want))
    return columns


def _python_columns(serialized, dtypes):
    try:
        from tapeflow.io.example_batch import parse_uniform  # (it imports this module)
        wanted = _ByBytes((k.encode("utf-8"), k) for k in dtypes)
        uniform = parse_uniform(serialized, wanted)
        parsed = [u if u is not None else example_features(s, wanted) for u, s in zip(uniform, serialized)]
    except wire.DecodeError:
        raise InvalidArgumentError("parse_example: could not parse example input (not a serialized "
                                   "tf.train.Example)") from None
    columns = {}
    for key, dtype in dtypes.items():
        want = _KIND_OF_DTYPE[dtype]
        kinds = np.zeros(len(parsed), np.int8)
        counts = np.zeros(len(parsed), np.int64)
        parts = []
        for i, feats in enumerate(parsed):
            kind, values = feats.get(key, (None, None))
            if kind is None:
                continue
            kinds[i] = kind
            if kind == want and len(values):
                counts[i] = len(values)
                parts.append(values)
        if dtype == "string":
            flat = np.empty(int(counts.sum()), dtype=object)
            flat[:] = [v for vs in parts for v in vs]
        else:
            flat = np.concatenate([np.asarray(v, dtype=_NP[dtype]) for v in parts]) if parts \
                else np.zeros(0, _NP[dtype])
        columns[key] = (kinds, counts, flat)
    return columns


def _missing(key, dtype):
    kind_name = _KIND_NAME[_KIND_OF_DTYPE[dtype]]
    return InvalidArgumentError(f"Name: <unknown>, Feature: {key} (data type: {kind_name}) is "
                                f"required but could not be found.")


def _fixed(key, spec, dtype, column, batch):
    shape = tuple(int(d) for d in spec.shape)
    size = int(np.prod(shape, dtype=np.int64))
    default = None if spec.default_value is None else _default_array(key, spec, dtype, shape)
    want = _KIND_OF_DTYPE[dtype]
    kinds, counts, values = column
    if (kinds == want).all() and (counts == size).all():
        return values.reshape((batch,) + shape)     # every example has it, with the right count
    out = np.empty((batch,) + shape, dtype=_NP[dtype])
    starts = (np.cumsum(counts) - counts).tolist()
    for i in range(batch):
        kind = int(kinds[i])
        if kind == 0:
            if default is None:
                raise _missing(key, dtype)
            out[i] = default
            continue
        _check_kind(key, i, kind, dtype)
        if counts[i] != size:
            raise InvalidArgumentError(
                f"Name: <unknown>, Key: {key}, Index: {i}.  Number of {_KIND_NAME[kind]} values != expected.  "
                f"Values size: {int(counts[i])} but output shape: {list(shape)}")
        out[i] = values[starts[i]:starts[i] + size].reshape(shape)
    return out


def check_kinds(key, dtype, column):
    """A column's first Example whose feature has another kind than `dtype`'s is an error."""
    wrong = _first_wrong_kind(key, dtype, column[0])
    if wrong is not None:
        _check_kind(key, wrong, int(column[0][wrong]), dtype)


def _first_wrong_kind(key, dtype, kinds):
    wrong = np.flatnonzero((kinds != 0) & (kinds != _KIND_OF_DTYPE[dtype]))
    return None if not len(wrong) else int(wrong[0])


def _var_len(key, dtype, column, batch):
    kinds, lengths, values = column
    check_kinds(key, dtype, column)
    n = int(lengths.sum())
    rows = np.repeat(np.arange(batch, dtype=np.int64), lengths)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    indices = np.stack([rows, np.arange(n, dtype=np.int64) - starts], axis=1) if n else np.zeros((0, 2), np.int64)
    dense_shape = np.array([batch, int(lengths.max()) if batch else 0], dtype=np.int64)
    return indices, values, dense_shape


def _sequence(key, spec, dtype, column, batch):
    shape = tuple(int(d) for d in spec.shape)
    stride = int(np.prod(shape, dtype=np.int64))
    kinds, counts, values = column
    for i in range(batch):
        kind = int(kinds[i])
        if kind == 0:
            continue
        _check_kind(key, i, kind, dtype)
        if stride == 0 or counts[i] % stride:
            raise InvalidArgumentError(
                f"Name: <unknown>, Key: {key}, Index: {i}.  Number of {_KIND_NAME[kind]} values is not a "
                f"multiple of stride length. Saw {int(counts[i])} values but output shape is: "
                f"[?,{','.join(str(d) for d in shape)}]".replace("[?,]", "[?]"))
    present = kinds != 0
    longest = int((counts[present] // stride).max()) if stride and present.any() else 0
    pad = spec.default_value if spec.default_value is not None else (b"" if dtype == "string" else 0)
    out = np.empty((batch, longest) + shape, dtype=_NP[dtype])
    out[...] = pad
    starts = (np.cumsum(counts) - counts).tolist()
    for i in np.flatnonzero(counts).tolist():
        n = int(counts[i]) // stride
        out[i, :n] = values[starts[i]:starts[i] + n * stride].reshape((n,) + shape)
    return out

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

from tapeflow.io import wire
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
            values = [x - (1 << 64) if x >= 1 << 63 else x for x in values]
    return kind, values


def example_features(data, wanted):
    """{name: (kind, values)} of the features in `wanted` in one serialized Example."""
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
    try:
        parsed = [example_features(s, specs) for s in serialized]
    except wire.DecodeError:
        raise InvalidArgumentError("parse_example: could not parse example input (not a serialized "
                                   "tf.train.Example)") from None
    out = {}
    for key, spec in specs.items():
        dtype = dtypes[key]
        if isinstance(spec, VarLenFeature):
            out[key] = _var_len(key, dtype, parsed)
        elif isinstance(spec, FixedLenSequenceFeature):
            out[key] = _sequence(key, spec, dtype, parsed)
        else:
            out[key] = _fixed(key, spec, dtype, parsed)
    return out


def _fixed(key, spec, dtype, parsed):
    shape = tuple(int(d) for d in spec.shape)
    size = int(np.prod(shape, dtype=np.int64))
    default = None if spec.default_value is None else _default_array(key, spec, dtype, shape)
    out = np.empty((len(parsed),) + shape, dtype=_NP[dtype])
    for i, feats in enumerate(parsed):
        kind, values = feats.get(key, (None, None))
        if kind is None:
            if default is None:
                kind_name = _KIND_NAME[_KIND_OF_DTYPE[dtype]]
                raise InvalidArgumentError(f"Name: <unknown>, Feature: {key} (data type: {kind_name}) is "
                                           f"required but could not be found.")
            out[i] = default
            continue
        _check_kind(key, i, kind, dtype)
        if len(values) != size:
            raise InvalidArgumentError(
                f"Name: <unknown>, Key: {key}, Index: {i}.  Number of {_KIND_NAME[kind]} values != expected.  "
                f"Values size: {len(values)} but output shape: {list(shape)}")
        if dtype == "string":
            flat = np.empty(size, dtype=object)
            flat[:] = values
            out[i] = flat.reshape(shape)
        else:
            out[i] = np.asarray(values, dtype=_NP[dtype]).reshape(shape)
    return out


def _var_len(key, dtype, parsed):
    rows, all_values = [], []
    for i, feats in enumerate(parsed):
        kind, values = feats.get(key, (None, None))
        if kind is None:
            rows.append(0)
            continue
        _check_kind(key, i, kind, dtype)
        rows.append(len(values))
        all_values.append(values)
    lengths = np.asarray(rows, dtype=np.int64)
    n = int(lengths.sum())
    batch = np.repeat(np.arange(len(parsed), dtype=np.int64), lengths)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    indices = np.stack([batch, np.arange(n, dtype=np.int64) - starts], axis=1) if n else np.zeros((0, 2), np.int64)
    values = np.empty(n, dtype=_NP[dtype])
    if n:
        if dtype == "string":
            values[:] = [v for vs in all_values for v in vs]
        else:
            values[:] = np.concatenate([np.asarray(vs, dtype=_NP[dtype]) for vs in all_values])
    dense_shape = np.array([len(parsed), int(lengths.max()) if len(lengths) else 0], dtype=np.int64)
    return indices, values, dense_shape


def _sequence(key, spec, dtype, parsed):
    shape = tuple(int(d) for d in spec.shape)
    stride = int(np.prod(shape, dtype=np.int64))
    per_example = []
    for i, feats in enumerate(parsed):
        kind, values = feats.get(key, (None, None))
        if kind is None:
            per_example.append(None)
            continue
        _check_kind(key, i, kind, dtype)
        if stride == 0 or len(values) % stride:
            raise InvalidArgumentError(
                f"Name: <unknown>, Key: {key}, Index: {i}.  Number of {_KIND_NAME[kind]} values is not a "
                f"multiple of stride length. Saw {len(values)} values but output shape is: "
                f"[?,{','.join(str(d) for d in shape)}]".replace("[?,]", "[?]"))
        per_example.append(values)
    longest = max((len(v) // stride for v in per_example if v is not None), default=0) if stride else 0
    pad = spec.default_value if spec.default_value is not None else (b"" if dtype == "string" else 0)
    out = np.empty((len(parsed), longest) + shape, dtype=_NP[dtype])
    out[...] = pad
    for i, values in enumerate(per_example):
        if values is None or not len(values):
            continue
        n = len(values) // stride
        if dtype == "string":
            flat = np.empty(len(values), dtype=object)
            flat[:] = values
        else:
            flat = np.asarray(values, dtype=_NP[dtype])
        out[i, :n] = flat.reshape((n,) + shape)
    return out

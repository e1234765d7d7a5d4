"""The tf.io primitives: read_file, write_file, decode_csv, parse_example, serialize_tensor,
parse_tensor.  Each is one row of the op table (they trace into tf.function graphs and
run there through the NumPy executor, never fused); the formats live in the modules
beside this one (csv_fields, example_parsing, tensor_proto) and know nothing of tensors.
"""
import os

import numpy as np

from tapeflow.io import csv_fields, example_parsing, example_ragged, tensor_proto
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, NotFoundError, with_location
from tapeflow.runtime.registry import Aval, bind, defprim, state
from tapeflow.runtime.ops import array_ops
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor


def scalar_bytes(data):
    out = np.empty((), dtype=object)
    out[()] = bytes(data)
    return out


def _text(value):
    v = np.asarray(value)[()]
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def _strings(x, op, what):
    t = x if isinstance(x, TensorBase) else convert_to_tensor(x, dtypes.string)
    if t.dtype is not dtypes.string:
        raise TypeError(with_location(f"{op}: {what} must be a string tensor, got {t.dtype.name}{list(t.shape)}"))
    return t


def _scalar_rule(dtype):
    def rule(*avals, **attrs):
        return Aval((), dtype)
    return rule


# ------------------------------------------------------------------ files

def _read_file_impl(xp, filename):
    path = _text(filename)
    try:
        with open(path, "rb") as f:
            return scalar_bytes(f.read())
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise InvalidArgumentError(f"{path}; Is a directory") from None


def _write_file_impl(xp, filename, contents):
    path = _text(filename)
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)       # TensorFlow creates missing directories
    with open(path, "wb") as f:
        f.write(np.asarray(contents)[()])
    return np.asarray(True)


# Stateful: a file's contents are not a constant to fold, and a write must run even unused.
READ_FILE = defprim("read_file", _read_file_impl, _scalar_rule(dtypes.string), stateful=True)
WRITE_FILE = defprim("write_file", _write_file_impl, _scalar_rule(dtypes.bool_), stateful=True)


def matching_files(pattern, name=None):
    """The files matching a glob pattern (or each of a vector of patterns), sorted, a string vector."""
    from tapeflow.io import gfile
    patterns = convert_to_tensor(pattern)
    names = [p.decode() if isinstance(p, bytes) else p for p in np.asarray(patterns.numpy(), object).reshape(-1)]
    found = [f for p in names for f in sorted(gfile.glob(p))]
    return convert_to_tensor(np.array([f.encode() for f in found], object).reshape(-1), dtypes.string)


def read_file(filename, name=None):
    """The whole contents of a file as a scalar string tensor."""
    return bind(READ_FILE, (_strings(filename, "read_file", "filename"),), {})


def write_file(filename, contents, name=None):
    """Writes a scalar string tensor to a file (creating its directory)."""
    bind(WRITE_FILE, (_strings(filename, "write_file", "filename"), _strings(contents, "write_file", "contents")),
         {})


# ------------------------------------------------------------------ CSV

def _decode_csv_impl(xp, records, defaults, dtype_names, field_delim, use_quote_delim, na_value, select_cols):
    flat = np.asarray(records, dtype=object).reshape(-1).tolist()
    cols = csv_fields.decode_records(flat, list(defaults), list(dtype_names), field_delim, use_quote_delim,
                                     na_value, None if select_cols is None else list(select_cols))
    shape = np.shape(records)
    return tuple(c.reshape(shape) for c in cols)


def _decode_csv_rule(records, defaults, dtype_names, **attrs):
    return tuple(Aval(records.shape, dtypes.as_dtype(n)) for n in dtype_names)


DECODE_CSV = defprim("decode_csv", _decode_csv_impl, _decode_csv_rule, multiple_results=True)


def _csv_default(d, i):
    if type(d) is list and len(d) == 1:             # [0] / [0.0]: the usual defaults, without a tensor
        v = d[0]
        if type(v) is float:
            return float(np.float32(v)), "float32"
        if type(v) is int and -(1 << 31) <= v < 1 << 31:
            return v, "int32"
    t = d if isinstance(d, TensorBase) else convert_to_tensor(d)
    if type(t).__name__ != "Tensor":
        raise ValueError(with_location("decode_csv: record_defaults must be known when the op is made "
                                       "(constants), not graph values"))
    if t.dtype.name not in csv_fields.CSV_DTYPES:
        raise InvalidArgumentError(with_location(
            f"decode_csv: record_defaults[{i}] has dtype {t.dtype.name}; allowed are float32, float64, "
            f"int32, int64, string"))
    values = np.asarray(t.numpy()).reshape(-1)
    if values.size > 1:
        raise InvalidArgumentError(with_location(
            f"There should only be 1 default per field but field {i} has {values.size}"))
    value = None if values.size == 0 else values[0].item() if values.dtype != object else values[0]
    return value, t.dtype.name


def check_select_cols(select_cols, n_defaults):
    if select_cols is None:
        return None
    cols = [int(c) for c in select_cols]
    if any(b <= a for a, b in zip(cols, cols[1:])):
        raise ValueError(with_location("select_cols is not strictly increasing."))
    if cols and cols[0] < 0:
        raise ValueError(with_location("select_cols contains negative values."))
    if len(cols) != n_defaults:
        raise ValueError(with_location("Length of select_cols and record_defaults do not match."))
    return tuple(cols)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """tf.io.decode_csv: one tensor per column, each shaped like `records`."""
    records = _strings(records, "decode_csv", "records")
    parsed = [_csv_default(d, i) for i, d in enumerate(record_defaults)]
    cols = check_select_cols(select_cols, len(parsed))
    csv_fields.check_delim(field_delim)
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    attrs = {"defaults": tuple(v for v, _ in parsed), "dtype_names": tuple(n for _, n in parsed),
             "field_delim": field_delim, "use_quote_delim": bool(use_quote_delim), "na_value": na,
             "select_cols": cols}
    return list(bind(DECODE_CSV, (records,), attrs))


# ------------------------------------------------------------------ Examples

FixedLenFeature = example_parsing.FixedLenFeature
VarLenFeature = example_parsing.VarLenFeature
FixedLenSequenceFeature = example_parsing.FixedLenSequenceFeature
RaggedFeature = example_ragged.RaggedFeature
_SPEC_TYPES = (FixedLenFeature, VarLenFeature, FixedLenSequenceFeature, RaggedFeature)


def _spec_key(spec):
    """A hashable description of one feature spec (an attribute of the graph node)."""
    dtype = dtypes.as_dtype(spec.dtype)
    if isinstance(spec, VarLenFeature):
        return ("var", dtype.name, (), None)
    if isinstance(spec, RaggedFeature):
        return ("ragged", dtype.name, (), (spec.value_key, example_ragged.partition_key(spec.partitions)))
    shape = tuple(int(d) for d in (spec.shape.as_list() if hasattr(spec.shape, "as_list") else spec.shape))
    default = spec.default_value
    if default is not None:
        default = np.asarray(default.numpy() if isinstance(default, TensorBase) else default)
        default = tuple(v if isinstance(v, bytes) else v.encode() if isinstance(v, str) else v
                        for v in default.reshape(-1).tolist()) + (("shape",) + default.shape,)
    kind = "seq" if isinstance(spec, FixedLenSequenceFeature) else "fixed"
    allow = bool(spec.allow_missing) if kind == "seq" else None
    return (kind, dtype.name, shape, (default, allow))


def _spec_of(key):
    kind, dtype_name, shape, extra = key
    dtype = dtypes.as_dtype(dtype_name)
    if kind == "var":
        return VarLenFeature(dtype)
    default, allow = extra
    if default is not None:
        default = np.array(list(default[:-1]), dtype=object if dtype_name == "string" else None).reshape(
            default[-1][1:])
    if kind == "seq":
        return FixedLenSequenceFeature(shape, dtype, allow, None if default is None else default[()])
    return FixedLenFeature(shape, dtype, default)


def _parse_impl(xp, serialized, keys, specs):
    flat = np.asarray(serialized, dtype=object).reshape(-1).tolist()
    out = example_parsing.parse(flat, {k: _spec_of(s) for k, s in zip(keys, specs) if s[0] != "ragged"})
    ragged = {k: s for k, s in zip(keys, specs) if s[0] == "ragged"}
    if ragged:
        out.update(_parse_ragged(flat, ragged))
    results = []
    for k, s in zip(keys, specs):
        results.extend(out[k] if s[0] in ("var", "ragged") else (out[k],))
    return tuple(results)


def _parse_ragged(flat, ragged):
    """{key: (values, outer splits, *row splits of each non-uniform partition)}."""
    needs = {}                               # dtype -> the feature keys read with it
    for key, (_, dtype_name, _, (value_key, parts)) in ragged.items():
        needs.setdefault(dtype_name, set()).add(value_key)
        for name, arg in parts:
            if name != "uniform_row_length":
                needs.setdefault("int64", set()).add(arg)
    columns = {d: example_parsing.read_columns(flat, dict.fromkeys(sorted(ks), d)) for d, ks in needs.items()}
    out = {}
    for key, (_, dtype_name, _, (value_key, parts)) in ragged.items():
        example_parsing.check_kinds(value_key, dtype_name, columns[dtype_name][value_key])
        mine = {value_key: columns[dtype_name][value_key]}
        for name, arg in parts:
            if name != "uniform_row_length":
                example_parsing.check_kinds(arg, "int64", columns["int64"][arg])
                mine.setdefault(arg, columns["int64"][arg])
        values, outer, levels = example_ragged.assemble(value_key, example_ragged.partitions_of(parts), mine,
                                                        len(flat))
        out[key] = (values, outer) + tuple(lv for lv in levels if not isinstance(lv, int))
    return out


def _parse_rule(serialized, keys, specs):
    b = serialized.shape[0] if serialized.shape else 1
    out = []
    for kind, dtype_name, shape, _ in specs:
        dtype = dtypes.as_dtype(dtype_name)
        if kind == "var":
            out += [Aval((None, 2), dtypes.int64), Aval((None,), dtype), Aval((2,), dtypes.int64)]
        elif kind == "ragged":
            levels = example_ragged.n_levels(_[1]) - 1
            out += [Aval((None,), dtype), Aval((b + 1,), dtypes.int64)] + [Aval((None,), dtypes.int64)] * levels
        elif kind == "seq":
            out.append(Aval((b, None) + shape, dtype))
        else:
            out.append(Aval((b,) + shape, dtype))
    return tuple(out)


PARSE_EXAMPLE = defprim("parse_example", _parse_impl, _parse_rule, multiple_results=True)


def _parse(serialized, features, op):
    from tapeflow.io import sparse_io
    if not isinstance(features, dict):
        raise TypeError(with_location(f"{op}: features must be a dict of feature name to feature spec"))
    plain, sparse = sparse_io.split_sparse_features(features)
    parsed = _parse_plain(serialized, plain, op)
    if not sparse:
        return parsed
    return sparse_io.join_sparse_features(parsed, sparse, features, _strings(serialized, op, "serialized").shape.rank == 0)


def _parse_plain(serialized, features, op):
    from tapeflow.sparse import SparseTensor
    for k, spec in features.items():
        if not isinstance(spec, _SPEC_TYPES):
            raise TypeError(with_location(
                f"{op}: feature {k!r} is a {type(spec).__name__}; tapeflow parses FixedLenFeature, "
                f"VarLenFeature, FixedLenSequenceFeature, RaggedFeature and SparseFeature"))
    serialized = _strings(serialized, op, "serialized")
    if serialized.shape.rank not in (0, 1):
        raise InvalidArgumentError(with_location(
            f"Expected serialized to be a scalar or vector, got shape: {serialized.shape.as_list()}"))
    keys = tuple(sorted(features))
    specs = tuple(_spec_key(features[k]) for k in keys)
    specs = tuple(s if s[0] != "ragged" else s[:3] + ((s[3][0] or k, s[3][1]),) for k, s in zip(keys, specs))
    for k, s in zip(keys, specs):
        if s[0] == "seq" and not s[3][1]:
            raise ValueError(with_location("Unsupported: FixedLenSequenceFeature requires allow_missing to be True."))
        example_parsing.dtype_name(features[k], k)
    single = serialized.shape.rank == 0
    batch = array_ops.reshape(serialized, [1]) if single else serialized
    outs = list(bind(PARSE_EXAMPLE, (batch,), {"keys": keys, "specs": specs}))
    result = {}
    for k, s in zip(keys, specs):
        if s[0] == "ragged":
            result[k] = _ragged_result(outs, s[3][1], single)
        elif s[0] == "var":
            indices, values, shape = outs.pop(0), outs.pop(0), outs.pop(0)
            if single:
                indices, shape = indices[:, 1:], shape[1:]
            result[k] = SparseTensor(indices, values, shape)
        else:
            dense = outs.pop(0)
            result[k] = dense[0] if single else dense
    return result


def _ragged_result(outs, parts, single):
    """The RaggedTensor of a RaggedFeature from its outputs (popped from `outs`)."""
    from tapeflow.ragged_tensor import RaggedTensor
    values, outer = outs.pop(0), outs.pop(0)
    levels = [arg if name == "uniform_row_length" else outs.pop(0) for name, arg in parts]
    while levels and isinstance(levels[-1], int):   # innermost uniform rows: a dense inner dimension (TF)
        values = array_ops.reshape(values, [-1, levels.pop()] + values.shape.as_list()[1:])
    for level in reversed(levels):
        values = RaggedTensor.from_uniform_row_length(values, level, validate=False) if isinstance(level, int) \
            else RaggedTensor.from_row_splits(values, level, validate=False)
    rt = RaggedTensor.from_row_splits(values, outer, validate=False)
    return rt[0] if single else rt


def parse_example(serialized, features, example_names=None, name=None):
    """tf.io.parse_example: a batch (vector) of serialized Examples to a dict of tensors."""
    return _parse(serialized, features, "parse_example")


def parse_single_example(serialized, features, example_names=None, name=None):
    """tf.io.parse_single_example: one serialized Example (a scalar) to a dict of tensors."""
    serialized = _strings(serialized, "parse_single_example", "serialized")
    if serialized.shape.rank != 0:
        raise ValueError(with_location(f"parse_single_example: serialized must be a scalar, got shape "
                                       f"{serialized.shape.as_list()}"))
    return _parse(serialized, features, "parse_single_example")


# ------------------------------------------------------------------ tensors as bytes

def _serialize_impl(xp, x, dtype_name):
    return scalar_bytes(tensor_proto.encode(np.asarray(x), dtype_name))


SERIALIZE_TENSOR = defprim("serialize_tensor", _serialize_impl, _scalar_rule(dtypes.string))


def serialize_tensor(tensor, name=None):
    """TensorProto bytes of a tensor, as TensorFlow writes them."""
    t = tensor if isinstance(tensor, TensorBase) else convert_to_tensor(tensor)
    return bind(SERIALIZE_TENSOR, (t,), {"dtype_name": t.dtype.name})


def _parse_tensor_impl(xp, serialized, out_type):
    try:
        got, array = tensor_proto.decode(np.asarray(serialized)[()])
    except tensor_proto.TensorProtoError:
        raise InvalidArgumentError("Could not parse `serialized` as TensorProto") from None
    if got != out_type:
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({_tf_type(got)}) and dtype "
                                   f"({_tf_type(out_type)})")
    return array


def _tf_type(name):
    return {"float32": "float", "float64": "double", "float16": "half"}.get(name, name)


def _parse_tensor_rule(serialized, out_type):
    # The rank is only known from the data: unknown rank, as TensorFlow (tf.ensure_shape
    # or tf.reshape gives later ops the static shape they need)
    return Aval(None, dtypes.as_dtype(out_type))


PARSE_TENSOR = defprim("parse_tensor", _parse_tensor_impl, _parse_tensor_rule)


def parse_tensor(serialized, out_type, name=None):
    return bind(PARSE_TENSOR, (_strings(serialized, "parse_tensor", "serialized"),),
                {"out_type": dtypes.as_dtype(out_type).name})

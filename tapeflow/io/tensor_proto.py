"""TensorProto bytes (tf.io.serialize_tensor / parse_tensor), with the field numbers of
TensorFlow's public tensor.proto / tensor_shape.proto / types.proto:

  TensorProto      { DataType dtype = 1; TensorShapeProto tensor_shape = 2; bytes tensor_content = 4;
                     float_val = 5; double_val = 6; int_val = 7; bytes string_val = 8;
                     int64_val = 10; bool_val = 11; half_val = 13; uint32_val = 16; uint64_val = 17 }
  TensorShapeProto { repeated Dim dim = 2 { int64 size = 1; } }

TensorFlow writes numbers as little-endian `tensor_content` and strings as `string_val`;
both are read, and so are the typed *_val fields (where one value stands for all, as TF).
"""
import numpy as np

from tapeflow.io import wire

DT_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7,
           "complex64": 8, "int64": 9, "bool": 10, "uint16": 17, "complex128": 18, "float16": 19,
           "uint32": 22, "uint64": 23}
DT_NAME = {v: k for k, v in DT_ENUM.items()}
_NUMPY = {"float32": "<f4", "float64": "<f8", "int32": "<i4", "uint8": "u1", "int16": "<i2", "int8": "i1",
          "complex64": "<c8", "int64": "<i8", "bool": "?", "uint16": "<u2", "complex128": "<c16",
          "float16": "<f2", "uint32": "<u4", "uint64": "<u8"}
# typed value fields: field number -> how its packed payload reads
_TYPED = {5: "<f4", 6: "<f8", 7: "varint", 10: "varint", 11: "varint", 13: "varint", 16: "varint", 17: "varint"}


def encode(array, dtype_name):
    """The TensorProto bytes of a NumPy array (object array of bytes for "string")."""
    if dtype_name not in DT_ENUM:
        raise ValueError(f"serialize_tensor: dtype {dtype_name} has no TensorProto encoding here")
    array = np.asarray(array)
    dims = b"".join(wire.length_delimited(2, wire.int64(1, d) if d else b"") for d in array.shape)
    out = wire.int64(1, DT_ENUM[dtype_name]) + wire.length_delimited(2, dims)
    if dtype_name == "string":
        return out + b"".join(wire.length_delimited(8, v) for v in array.reshape(-1).tolist())
    content = np.ascontiguousarray(array, dtype=_NUMPY[dtype_name]).tobytes()
    return out + (wire.length_delimited(4, content) if content else b"")


class TensorProtoError(ValueError):
    pass


def decode(data):
    """(dtype name, NumPy array) of TensorProto bytes; bad bytes raise TensorProtoError."""
    try:
        f = wire.fields(data)
        dtype_enum = f.get(1, [0])[-1]
        shape = []
        for shape_msg in f.get(2, []):
            for dim in wire.fields(shape_msg).get(2, []):
                shape.append(wire.signed64(wire.fields(dim).get(1, [0])[-1]))
    except (wire.DecodeError, TypeError, IndexError):
        raise TensorProtoError("not a TensorProto") from None
    name = DT_NAME.get(dtype_enum)
    if name is None or any(d < 0 for d in shape):
        raise TensorProtoError(f"unsupported TensorProto dtype {dtype_enum} or shape {shape}")
    n = int(np.prod(shape, dtype=np.int64))
    if name == "string":
        values = f.get(8, [])
        arr = np.empty(n, dtype=object)
        if values:
            arr[:] = values[-1] if len(values) == 1 else values if len(values) == n else _bad(n, len(values))
        elif n:
            arr[:] = b""
        return name, arr.reshape(shape)
    np_dtype = np.dtype(_NUMPY[name])
    if 4 in f:
        content = f[4][-1]
        if len(content) != n * np_dtype.itemsize:
            raise TensorProtoError(f"tensor_content of {len(content)} bytes for {n} {name} values")
        return name, np.frombuffer(content, dtype=np_dtype).reshape(shape).copy()
    typed = next(((num, f[num]) for num in _TYPED if num in f), None)
    if typed is None:
        return name, np.zeros(shape, dtype=np_dtype)
    num, payloads = typed
    vals = []
    for p in payloads:
        if isinstance(p, int):
            vals.append(p)
        elif _TYPED[num] == "varint":
            vals.extend(wire.read_packed_varints(p))
        else:
            vals.extend(np.frombuffer(p, dtype=_TYPED[num]).tolist())
    if name == "float16" and num == 13:
        flat = np.array(vals, dtype=np.uint16).view(np.float16)
    elif np_dtype.kind in "iu":
        flat = np.array([wire.signed64(v) for v in vals]).astype(np_dtype)
    else:
        flat = np.array(vals).astype(np_dtype)
    if len(flat) not in (n, 1) and n:
        _bad(n, len(flat))
    return name, (np.broadcast_to(flat[-1:], (n,)) if len(flat) != n else flat).reshape(shape).copy()


def _bad(n, got):
    raise TensorProtoError(f"TensorProto holds {got} values for a tensor of {n}")

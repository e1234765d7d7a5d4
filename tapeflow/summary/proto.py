"""Hand-written protobuf encoding of TensorBoard's Event messages, and a small
decoder for reading them back (tests, tools).  Field numbers follow
tensorflow/core/util/event.proto, framework/summary.proto, tensor.proto,
graph.proto and protobuf/config.proto:

  Event:          wall_time=1 (double), step=2 (int64), file_version=3 (string), graph_def=4, summary=5
  Summary:        value=1 (repeated)
  Summary.Value:  tag=1, simple_value=2 (float), histo=5, tensor=8, metadata=9
  TensorProto:    dtype=1 (DataType enum), tensor_shape=2, tensor_content=4, string_val=8 (repeated)
  TensorShapeProto: dim=2 (repeated) { size=1 }
  SummaryMetadata: plugin_data=1 { plugin_name=1, content=2 }, summary_description=3
  RunMetadata:    function_graphs=4 (repeated) { pre_optimization_graph=2 (GraphDef) }

As TensorFlow 2 writes them, every summary is a tensor with a plugin name:
scalars a float32 scalar ("scalars"), histograms a float64 [k, 3] tensor of
(left edge, right edge, count) rows ("histograms"), images a string vector
[width, height, png...] ("images"), text a string tensor ("text"), a traced
graph a RunMetadata string ("graph_run_metadata_graph", content "1").
"""
import struct

import numpy as np

from tapeflow.io.wire import (  # noqa: F401  (the wire format lives in one place)
    BYTES as _BYTES, FIXED32 as _FIXED32, FIXED64 as _FIXED64, VARINT as _VARINT, double, fields, float32,
    int64, key as _key, length_delimited, packed_doubles, read_varint as _read_varint, signed64 as _signed64,
    varint as _varint,
)

# DataType enum values (tensorflow/core/framework/types.proto), by NumPy dtype name.
DATA_TYPES = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "int64": 9,
              "bool": 10, "uint16": 17, "float16": 19, "uint32": 22, "uint64": 23}
DT_STRING = 7
DT_FLOAT, DT_DOUBLE = 1, 2


def event(wall_time, step=0, file_version=None, values=()):
    """An Event; `values` are encoded Summary.Value messages."""
    out = double(1, wall_time) + int64(2, step)
    if file_version is not None:
        out += length_delimited(3, file_version)
    if values:
        out += length_delimited(5, b"".join(length_delimited(1, v) for v in values))
    return out


def _metadata(description=None, plugin=None, content=b""):
    body = b""
    if plugin is not None:
        body += length_delimited(1, length_delimited(1, plugin) + (length_delimited(2, content) if content else b""))
    if description:
        body += length_delimited(3, description)
    return length_delimited(9, body) if body else b""


def tensor_shape(shape):
    return b"".join(length_delimited(2, int64(1, d)) for d in shape)  # TensorShapeProto.dim { size }


def tensor(dtype_enum, shape, content=None, strings=()):
    """A TensorProto: numbers as little-endian `content` bytes, or string values."""
    out = int64(1, dtype_enum) + length_delimited(2, tensor_shape(shape))
    if content is not None:
        out += length_delimited(4, content)
    return out + b"".join(length_delimited(8, s) for s in strings)


def tensor_value(tag, tensor_bytes, plugin, description=None, content=b""):
    return length_delimited(1, tag) + length_delimited(8, tensor_bytes) + _metadata(description, plugin, content)


def tensor_value_with_metadata(tag, tensor_bytes, metadata=b""):
    """tf.summary.write's Value: any tensor, with a caller's serialized SummaryMetadata (if any)."""
    return length_delimited(1, tag) + length_delimited(8, tensor_bytes) + (
        length_delimited(9, metadata) if metadata else b"")


def array_tensor(arr):
    """A TensorProto of a NumPy array: strings as string_val, numbers as little-endian content."""
    if arr.dtype.kind in "OSU":
        flat = [s.encode() if isinstance(s, str) else bytes(s) for s in arr.reshape(-1).tolist()]
        return tensor(DT_STRING, arr.shape, strings=flat)
    if arr.dtype.name not in DATA_TYPES:
        raise TypeError(f"tf.summary.write: dtype {arr.dtype.name} is not supported")
    return tensor(DATA_TYPES[arr.dtype.name], arr.shape, arr.astype(arr.dtype.newbyteorder("<")).tobytes())


def audio_value(tag, wavs, description=None):
    """[k, 2] strings (WAV file, label ""), plugin "audio" with AudioPluginData{encoding: WAV (11)}."""
    strings = [s for w in wavs for s in (w, b"")]
    return tensor_value(tag, tensor(DT_STRING, (len(wavs), 2), strings=strings), "audio", description,
                        content=int64(2, 11))


def scalar_value(tag, value, description=None):
    return tensor_value(tag, tensor(DT_FLOAT, (), struct.pack("<f", float(value))), "scalars", description)


def histogram_value(tag, buckets, description=None):
    """`buckets`: float64 array [k, 3] of (left edge, right edge, count)."""
    buckets = np.ascontiguousarray(buckets, dtype="<f8")
    return tensor_value(tag, tensor(DT_DOUBLE, buckets.shape, buckets.tobytes()), "histograms", description)


def text_value(tag, strings, shape, description=None):
    return tensor_value(tag, tensor(DT_STRING, shape, strings=strings), "text", description)


def image_value(tag, width, height, pngs, description=None):
    strings = [str(width).encode(), str(height).encode()] + list(pngs)
    return tensor_value(tag, tensor(DT_STRING, (len(strings),), strings=strings), "images", description)


def graph_run_metadata_value(tag, graph_defs):
    """trace_export's summary: a RunMetadata holding each GraphDef as a function graph."""
    run_metadata = b"".join(length_delimited(4, length_delimited(2, g)) for g in graph_defs)
    return tensor_value(tag, tensor(DT_STRING, (), strings=[run_metadata]), "graph_run_metadata_graph",
                        content=b"1")


def graph_event(wall_time, graph_def_bytes, step=0):
    """An Event whose graph_def field is a GraphDef (a run's op graph)."""
    return double(1, wall_time) + int64(2, step) + length_delimited(4, graph_def_bytes)


# ------------------------------------------------------------------ decoding

def _double(raw):
    return struct.unpack("<d", raw)[0]


def decode_event(data):
    """A dict: wall_time, step, file_version (or None), graph_def (bytes or None),
    values (list of dicts, see _decode_value)."""
    f = fields(data)
    result = {"wall_time": _double(f[1][0]) if 1 in f else 0.0,
              "step": _signed64(f[2][0]) if 2 in f else 0,
              "file_version": f[3][0].decode() if 3 in f else None,
              "graph_def": f[4][0] if 4 in f else None, "values": []}
    for summary in f.get(5, []):
        for raw in fields(summary).get(1, []):
            result["values"].append(_decode_value(fields(raw)))
    return result


_NP_OF_ENUM = {v: k for k, v in DATA_TYPES.items()}


def decode_tensor(raw):
    """A TensorProto's value: a NumPy array, or a list of bytes for strings."""
    t = fields(raw)
    dtype = t.get(1, [0])[0]
    shape = tuple(_signed64(fields(d).get(1, [0])[0]) for d in fields(t[2][0]).get(2, [])) if 2 in t else ()
    if dtype == DT_STRING:
        return list(t.get(8, []))
    return np.frombuffer(t.get(4, [b""])[0], dtype=np.dtype(_NP_OF_ENUM[dtype]).newbyteorder("<")).reshape(shape)


def _decode_value(v):
    """tag; plugin, description; the value by kind: simple_value (a scalar, TF1's
    or TF2's), histogram ([k, 3] array), text (strings), images (width, height, pngs),
    run_metadata (bytes), or tensor (any other array)."""
    out = {"tag": v[1][0].decode() if 1 in v else ""}
    if 9 in v:
        m = fields(v[9][0])
        if 1 in m:
            out["plugin"] = fields(m[1][0]).get(1, [b""])[0].decode()
        if 3 in m:
            out["description"] = m[3][0].decode()
    if 2 in v:
        out["simple_value"] = struct.unpack("<f", v[2][0])[0]
    if 8 in v:
        value = decode_tensor(v[8][0])
        plugin = out.get("plugin")
        if plugin == "scalars":
            out["simple_value"] = float(value)
        elif plugin == "histograms":
            out["histogram"] = value
        elif plugin == "text":
            out["text"] = [s.decode("utf-8") for s in value]
        elif plugin == "images":
            out["images"] = (int(value[0]), int(value[1]), value[2:])
        elif plugin == "graph_run_metadata_graph":
            out["run_metadata"] = value[0]
        else:
            out["tensor"] = value
    return out

"""Hand-written protobuf encoding of TensorBoard's Event messages, and a small
decoder for reading them back (tests, tools).  Field numbers follow
tensorflow/core/util/event.proto and framework/summary.proto:

  Event:          wall_time=1 (double), step=2 (int64), file_version=3 (string), summary=5
  Summary:        value=1 (repeated)
  Summary.Value:  tag=1, simple_value=2 (float), histo=5, tensor=8, metadata=9
  HistogramProto: min=1, max=2, num=3, sum=4, sum_squares=5 (doubles),
                  bucket_limit=6, bucket=7 (packed repeated doubles)
  TensorProto:    dtype=1 (DT_STRING = 7), tensor_shape=2, string_val=8
  SummaryMetadata: plugin_data=1 { plugin_name=1, content=2 }, summary_description=3
"""
import struct

from tapeflow.io.wire import (  # noqa: F401  (the wire format lives in one place)
    BYTES as _BYTES, FIXED32 as _FIXED32, FIXED64 as _FIXED64, VARINT as _VARINT, double, fields, float32,
    int64, key as _key, length_delimited, packed_doubles, read_varint as _read_varint, signed64 as _signed64,
    varint as _varint,
)

DT_STRING = 7


def event(wall_time, step=0, file_version=None, values=()):
    """An Event; `values` are encoded Summary.Value messages."""
    out = double(1, wall_time) + int64(2, step)
    if file_version is not None:
        out += length_delimited(3, file_version)
    if values:
        out += length_delimited(5, b"".join(length_delimited(1, v) for v in values))
    return out


def _metadata(description=None, plugin=None):
    body = b""
    if plugin is not None:
        body += length_delimited(1, length_delimited(1, plugin))
    if description:
        body += length_delimited(3, description)
    return length_delimited(9, body) if body else b""


def scalar_value(tag, value, description=None):
    return length_delimited(1, tag) + float32(2, value) + _metadata(description)


def histogram_value(tag, lo, hi, num, total, sum_squares, limits, counts, description=None):
    histo = double(1, lo) + double(2, hi) + double(3, num) + double(4, total) + double(5, sum_squares) + \
        packed_doubles(6, limits) + packed_doubles(7, counts)
    return length_delimited(1, tag) + length_delimited(5, histo) + _metadata(description)


def text_value(tag, strings, shape, description=None):
    dims = b"".join(length_delimited(2, int64(1, d)) for d in shape)  # TensorShapeProto.dim { size }
    tensor = int64(1, DT_STRING) + length_delimited(2, dims) + \
        b"".join(length_delimited(8, s) for s in strings)
    return length_delimited(1, tag) + length_delimited(8, tensor) + _metadata(description, plugin="text")


# ------------------------------------------------------------------ decoding

def _double(raw):
    return struct.unpack("<d", raw)[0]


def decode_event(data):
    """A dict: wall_time, step, file_version (or None), values (list of dicts with
    tag and one of simple_value / histo / text, plus plugin and description)."""
    f = fields(data)
    result = {"wall_time": _double(f[1][0]) if 1 in f else 0.0,
              "step": _signed64(f[2][0]) if 2 in f else 0,
              "file_version": f[3][0].decode() if 3 in f else None, "values": []}
    for summary in f.get(5, []):
        for raw in fields(summary).get(1, []):
            result["values"].append(_decode_value(fields(raw)))
    return result


def _decode_value(v):
    out = {"tag": v[1][0].decode() if 1 in v else ""}
    if 2 in v:
        out["simple_value"] = struct.unpack("<f", v[2][0])[0]
    if 5 in v:
        h = fields(v[5][0])
        unpack = lambda raw: list(struct.unpack(f"<{len(raw) // 8}d", raw))  # noqa: E731
        out["histo"] = {"min": _double(h[1][0]), "max": _double(h[2][0]), "num": _double(h[3][0]),
                        "sum": _double(h[4][0]), "sum_squares": _double(h[5][0]),
                        "bucket_limit": unpack(h.get(6, [b""])[0]), "bucket": unpack(h.get(7, [b""])[0])}
    if 8 in v:
        t = fields(v[8][0])
        out["text"] = [s.decode("utf-8") for s in t.get(8, [])]
    if 9 in v:
        m = fields(v[9][0])
        if 1 in m:
            out["plugin"] = fields(m[1][0]).get(1, [b""])[0].decode()
        if 3 in m:
            out["description"] = m[3][0].decode()
    return out

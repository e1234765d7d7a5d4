"""tf.io.decode_json_example: tf.train.Example protos written in protobuf's JSON mapping
(camelCase or original field names; int64 as numbers or strings; bytes base64) to their
serialized bytes, elementwise."""
import base64
import json

import numpy as np

from tapeflow.io import wire
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import convert_to_tensor

_LISTS = {"int64List": "int64_list", "int64_list": "int64_list", "floatList": "float_list",
          "float_list": "float_list", "bytesList": "bytes_list", "bytes_list": "bytes_list"}
_FIELD = {"bytes_list": 1, "float_list": 2, "int64_list": 3}  # tensorflow.Feature's oneof fields


def _bad(what):
    return InvalidArgumentError(f"decode_json_example: Error while parsing JSON: {what}")


def _obj(value, where):
    if not isinstance(value, dict):
        raise _bad(f"{where}: expected an object, got {json.dumps(value)}")
    return value


def _values(kind, raw, key):
    try:
        if kind == "int64_list":
            return [int(v) for v in raw]
        if kind == "float_list":
            return [float(v) for v in raw]
        return [base64.b64decode(v, validate=True) for v in raw]
    except (TypeError, ValueError) as exc:
        raise _bad(f"feature {key!r}: bad {kind} value ({exc})") from None


def example_bytes(text):
    """The serialized Example of one JSON document."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise _bad(f"invalid JSON: {exc}") from None
    # TF converts through protobuf's JSON parser, which writes repeated numbers unpacked (one
    # key per value) and map entries in the document's order: so do we (byte-identical).
    entries = b""
    features = _obj(_obj(doc, "Example").get("features", {}), "features")
    for key, feature in _obj(features.get("feature", {}), "feature").items():
        body = b""
        for name, raw in _obj(feature, f"feature {key!r}").items():
            kind = _LISTS.get(name)
            if kind is None:
                raise _bad(f"feature {key!r}: unknown field {name!r}")
            values = _values(kind, _obj(raw, name).get("value", []), key)
            write = {"int64_list": wire.int64, "float_list": wire.float32,
                     "bytes_list": wire.length_delimited}[kind]
            body += wire.length_delimited(_FIELD[kind], b"".join(write(1, v) for v in values))
        entries += wire.length_delimited(1, wire.length_delimited(1, key) + wire.length_delimited(2, body))
    return wire.length_delimited(1, entries) if "features" in doc else b""


def decode_json_example(json_examples, name=None):
    from tapeflow.tracer.py_function import numpy_function
    from tapeflow.tracer.signature import TensorSpec
    texts = convert_to_tensor(json_examples)
    if texts.dtype is not dtypes.string:
        raise TypeError(with_location(f"decode_json_example: expected a string tensor, got {texts.dtype.name}"))

    def decode(arr):
        arr = np.asarray(arr, object)
        out = np.empty(arr.shape, object)
        for i, t in np.ndenumerate(arr):
            out[i] = example_bytes(t.decode() if isinstance(t, bytes) else t)
        return convert_to_tensor(out, dtypes.string)  # a string result goes back as a tensor

    return numpy_function(decode, [texts], TensorSpec(texts.shape, dtypes.string))

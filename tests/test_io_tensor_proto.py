"""tf.io.serialize_tensor bytes: identical to real TensorFlow's (tests/fixtures/records/tensors.json)."""
import json
import os

import numpy as np
import pytest

from tapeflow.io import tensor_proto as tp

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "records")
# name -> (dtype, array) of the tensors make_tf_records.py serialized
TENSORS = {"f32_2x3": ("float32", np.arange(6, dtype=np.float32).reshape(2, 3) / 4),
           "i64_vec": ("int64", np.array([1, -2, 2 ** 40])),
           "i32_scalar": ("int32", np.array(7, np.int32)),
           "bool": ("bool", np.array([True, False])),
           "f64_empty": ("float64", np.zeros((0, 2))),
           "str_vec": ("string", np.array([b"ab", b"", "\u00e9".encode()], dtype=object)),
           "u8": ("uint8", np.array([[1, 255]], np.uint8)),
           "f16": ("float16", np.array([1.5, -2.0], np.float16))}


def recorded():
    return {k: bytes.fromhex(v) for k, v in json.load(open(os.path.join(FIXTURES, "tensors.json"))).items()}


@pytest.mark.parametrize("name", sorted(TENSORS))
def test_encode_is_byte_identical_and_decodes(name):
    dtype, arr = TENSORS[name]
    assert tp.encode(arr, dtype) == recorded()[name]
    got_dtype, got = tp.decode(recorded()[name])
    assert got_dtype == dtype and got.shape == arr.shape
    np.testing.assert_array_equal(got, arr)


def test_typed_value_fields_broadcast_one_value():
    # DT_FLOAT, shape [3], float_val packed [2.5]: TF's constant encoding of a filled tensor
    data = b"\x08\x01\x12\x04\x12\x02\x08\x03" + b"\x2a\x04" + np.float32(2.5).tobytes()
    name, arr = tp.decode(data)
    assert name == "float32" and arr.tolist() == [2.5, 2.5, 2.5]
    data = b"\x08\x03\x12\x04\x12\x02\x08\x02" + b"\x3a\x02\x05\x7f"     # int_val [5, 127]
    assert tp.decode(data)[1].tolist() == [5, 127]


@pytest.mark.parametrize("data", [b"garbage", b"\x08\x01\x12\x04\x12\x02\x08\x03\x22\x04abcd", b"\x08\x63"])
def test_bad_bytes_raise(data):
    with pytest.raises(tp.TensorProtoError):
        tp.decode(data)

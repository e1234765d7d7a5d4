"""tf.train.Example and its parts: bytes identical to real TensorFlow's (fixtures made by
tests/fixtures/make_tf_records.py), protobuf's field semantics, text format."""
import copy
import json
import os
import pickle

import numpy as np
import pytest

from tapeflow.io import example_pb as pb
from tapeflow.io import record_format as rf
from tapeflow.io.wire import DecodeError

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "records")
# the same values as make_tf_records.EXAMPLES
EXAMPLES = [
    {"id": [1], "score": [0.5, -1.25], "name": [b"alpha"], "tags": [3, 4, 5]},
    {"id": [2], "score": [1e-7, 3.0e38], "name": ["caf\u00e9".encode()], "tags": []},
    {"id": [-9223372036854775808], "score": [float("inf"), 0.1], "name": [b"", b"x\x00y"], "tags": [2 ** 40]},
]


def feature(value):
    if value and isinstance(value[0], bytes):
        return pb.Feature(bytes_list=pb.BytesList(value=value))
    if value and isinstance(value[0], float):
        return pb.Feature(float_list=pb.FloatList(value=value))
    return pb.Feature(int64_list=pb.Int64List(value=value))


def example(d):
    return pb.Example(features=pb.Features(feature={k: feature(v) for k, v in d.items()}))


def tf_bytes():
    return [bytes.fromhex(h) for h in json.load(open(os.path.join(FIXTURES, "examples.json")))["examples"]]


@pytest.mark.parametrize("i", range(len(EXAMPLES)))
def test_serialization_is_byte_identical_to_tensorflow(i):
    assert example(EXAMPLES[i]).SerializeToString() == tf_bytes()[i]


@pytest.mark.parametrize("i", range(len(EXAMPLES)))
def test_parses_tensorflow_bytes(i):
    ex = pb.Example.FromString(tf_bytes()[i])
    feats = ex.features.feature
    assert sorted(feats) == sorted(EXAMPLES[i])
    assert list(feats["id"].int64_list.value) == EXAMPLES[i]["id"]
    assert list(feats["name"].bytes_list.value) == EXAMPLES[i]["name"]
    assert feats["score"].float_list.value == [float(np.float32(v)) for v in EXAMPLES[i]["score"]]
    assert ex == example(EXAMPLES[i])


def test_tfrecord_file_of_examples_from_tensorflow():
    records = rf.read_records(os.path.join(FIXTURES, "examples.tfrecord.gz"), "GZIP")
    assert [pb.Example.FromString(r) for r in records] == [example(d) for d in EXAMPLES]


def test_presence_follows_protobuf():
    e = pb.Example()
    assert not e.HasField("features") and e.SerializeToString() == b""
    f = e.features.feature["a"]                    # reading a map key adds the entry
    assert e.HasField("features") and f.WhichOneof("kind") is None
    _ = f.int64_list                               # reading a submessage does not set it
    assert f.WhichOneof("kind") is None
    f.int64_list.value.append(5)
    assert f.WhichOneof("kind") == "int64_list"
    assert e.SerializeToString() == b"\n\x0c\n\n\n\x01a\x12\x05\x1a\x03\n\x01\x05"   # measured on TF
    f.float_list.value.extend([1.0])               # oneof: setting one kind clears the others
    assert f.WhichOneof("kind") == "float_list" and not f.HasField("int64_list")
    empty = pb.Feature(int64_list=pb.Int64List())  # an explicitly set, empty list is present
    assert empty.SerializeToString() == b"\x1a\x00"


# (constructor, exception, message) as protobuf reports them
BAD_VALUES = [(lambda: pb.Int64List(value=[1.5]), TypeError, "cannot be interpreted as an integer"),
              (lambda: pb.Int64List(value=[True]), TypeError, "got a boolean"),
              (lambda: pb.Int64List(value=[2 ** 64]), ValueError, "out of range"),
              (lambda: pb.BytesList(value=["x"]), TypeError, "expected bytes, str found"),
              (lambda: pb.FloatList(value=["x"]), TypeError, "real number"),
              (lambda: pb.FloatList(value=[np.array(1.5)]), TypeError, "real number"),  # even 0-d
              (lambda: pb.Int64List(value=[np.float32(3)]), TypeError, "cannot be interpreted"),
              (lambda: pb.Feature(bogus=1), ValueError, "no \"bogus\" field"),
              (lambda: pb.FloatList(value=1.0), TypeError, "list of values")]


@pytest.mark.parametrize("make, exc, message", BAD_VALUES)
def test_bad_values_raise_as_protobuf(make, exc, message):
    with pytest.raises(exc, match=message):
        make()


def test_values_accept_scalar_tensors_and_index_like_values():
    import tapeflow as tf  # the tutorial's serialize_example gets tensors inside tf.py_function
    assert pb.Int64List(value=[tf.constant(4), np.array(3), np.uint8(7)]).value == [4, 3, 7]
    assert pb.FloatList(value=[tf.constant(1.5), tf.constant(2), True]).value == [1.5, 2.0, 1.0]
    with pytest.raises(TypeError):
        pb.Int64List(value=[tf.constant(1.5)])


def test_values_accept_numpy_and_round_floats_to_float32():
    assert pb.Int64List(value=np.array([1, 2])).value == [1, 2]
    assert pb.FloatList(value=[0.1]).value[0] == 0.10000000149011612
    fl = pb.FloatList()
    fl.value[:] = [np.float64(2.5)]
    assert fl.value == [2.5]


@pytest.mark.parametrize("data", [b"\xff\xff", b"\x0a\x05ab", b"\x0b", b"\x0a\x02\x0a\x80"])
def test_corrupt_bytes_raise_decode_error(data):
    with pytest.raises(DecodeError, match="tensorflow.Example"):
        pb.Example.FromString(data)


def test_unpacked_encodings_and_merging_parse():
    # Int64List with unpacked varints (field 1, wire 0) and FloatList with unpacked fixed32
    assert pb.Int64List.FromString(b"\x08\x01\x08\x7f").value == [1, 127]
    assert pb.FloatList.FromString(b"\x0d\x00\x00\xc0\x3f").value == [1.5]
    a, b = example({"x": [1]}), example({"x": [2], "y": [b"q"]})
    a.MergeFrom(b)
    assert sorted(a.features.feature) == ["x", "y"] and a.features.feature["x"].int64_list.value == [2]
    assert pb.Int64List.FromString(b"\x10\x05\x08\x01").value == [1]   # unknown field 2 skipped


def test_text_format_as_tensorflow_prints_it():
    f = pb.Feature(float_list=pb.FloatList(value=[1e10, float("nan"), 3, 1e-7]))
    assert str(f) == "float_list {\n  value: 1e+10\n  value: nan\n  value: 3\n  value: 1e-07\n}\n"
    b = pb.Feature(bytes_list=pb.BytesList(value=[b"ab", "\u00e9".encode(), b'q"\n']))
    assert str(b) == 'bytes_list {\n  value: "ab"\n  value: "\\303\\251"\n  value: "q\\"\\n"\n}\n'
    assert str(example({"k": [-2]})) == ('features {\n  feature {\n    key: "k"\n    value {\n      int64_list {\n'
                                         '        value: -2\n      }\n    }\n  }\n}\n')


def test_copy_pickle_equality_and_sequence_example():
    e = example(EXAMPLES[0])
    assert copy.deepcopy(e) == e and pickle.loads(pickle.dumps(e)) == e
    assert e != example(EXAMPLES[1])
    s = pb.SequenceExample()
    s.context.feature["len"].int64_list.value.append(2)
    fl = s.feature_lists.feature_list["tok"].feature
    fl.add().int64_list.value.extend([1, 2])
    fl.add(int64_list=pb.Int64List(value=[3]))
    back = pb.SequenceExample.FromString(s.SerializeToString())
    assert [list(f.int64_list.value) for f in back.feature_lists.feature_list["tok"].feature] == [[1, 2], [3]]
    assert back == s


def test_list_fields_and_assignment_errors():
    f = pb.Feature(int64_list=pb.Int64List(value=[1]))
    assert [name for name, _ in f.ListFields()] == ["int64_list"]
    with pytest.raises(AttributeError):
        f.int64_list = pb.Int64List()
    with pytest.raises(AttributeError):
        f.int64_list.value = [2]

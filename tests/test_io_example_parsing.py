"""parse_example's engine on NumPy columns (outcomes measured on TensorFlow 2.21)."""
import numpy as np
import pytest

from tapeflow.io import example_parsing as ep
from tapeflow.io import example_pb as pb
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError


class _Str:
    name = "string"


STRING = _Str()


def ex(**kw):
    feats = {}
    for k, v in kw.items():
        if v is None:
            feats[k] = pb.Feature()
        elif isinstance(v[0], bytes):
            feats[k] = pb.Feature(bytes_list=pb.BytesList(value=v))
        elif isinstance(v[0], float):
            feats[k] = pb.Feature(float_list=pb.FloatList(value=v))
        else:
            feats[k] = pb.Feature(int64_list=pb.Int64List(value=v))
    return pb.Example(features=pb.Features(feature=feats)).SerializeToString()


S1, S2 = ex(a=[1, 2], b=[1.5], c=[b"x"]), ex(a=[3, 4], c=[b"y", b"z"])


def test_fixed_len_with_default():
    out = ep.parse([S1, S2], {"a": ep.FixedLenFeature([2], dtypes.int64),
                              "b": ep.FixedLenFeature([], dtypes.float32, default_value=9.0)})
    assert out["a"].tolist() == [[1, 2], [3, 4]] and out["a"].dtype == np.int64
    assert out["b"].tolist() == [1.5, 9.0] and out["b"].dtype == np.float32
    d = ep.parse([ex(b=[1.0])], {"a": ep.FixedLenFeature([2, 2], dtypes.int64, default_value=[[1, 2], [3, 4]])})
    assert d["a"].tolist() == [[[1, 2], [3, 4]]]
    assert ep.parse([ex(a=None)], {"a": ep.FixedLenFeature([], dtypes.int64, default_value=3)})["a"].tolist() == [3]
    assert ep.parse([b""], {"a": ep.FixedLenFeature([], dtypes.int64, default_value=1)})["a"].tolist() == [1]


def test_var_len_is_sparse_components():
    idx, vals, shape = ep.parse([S1, S2], {"c": ep.VarLenFeature(STRING)})["c"]
    assert idx.tolist() == [[0, 0], [1, 0], [1, 1]] and vals.tolist() == [b"x", b"y", b"z"]
    assert shape.tolist() == [2, 2]
    idx, vals, shape = ep.parse([ex(a=None)], {"a": ep.VarLenFeature(dtypes.int64)})["a"]
    assert idx.shape == (0, 2) and vals.tolist() == [] and shape.tolist() == [1, 0]
    idx, vals, shape = ep.parse([], {"a": ep.VarLenFeature(dtypes.int64)})["a"]
    assert shape.tolist() == [0, 0]


def test_fixed_len_sequence_pads():
    out = ep.parse([S1, S2], {"c": ep.FixedLenSequenceFeature([], STRING, allow_missing=True),
                              "b": ep.FixedLenSequenceFeature([], dtypes.float32, True, -1.0)})
    assert out["c"].tolist() == [[b"x", b""], [b"y", b"z"]] and out["b"].tolist() == [[1.5], [-1.0]]
    out = ep.parse([ex(a=[1, 2, 3, 4]), ex(a=[5, 6])], {"a": ep.FixedLenSequenceFeature([2], dtypes.int64, True)})
    assert out["a"].tolist() == [[[1, 2], [3, 4]], [[5, 6], [0, 0]]]


ERRORS = [({"b": ep.FixedLenFeature([], dtypes.float32)}, InvalidArgumentError,
           "Feature: b \\(data type: float\\) is required but could not be found."),
          ({"a": ep.FixedLenFeature([3], dtypes.int64)}, InvalidArgumentError,
           "Key: a, Index: 0.  Number of int64 values != expected.  Values size: 2 but output shape: \\[3\\]"),
          ({"a": ep.FixedLenFeature([2], dtypes.float32)}, InvalidArgumentError,
           "Data types don't match. Data type: int64 but expected type: float"),
          ({"c": ep.FixedLenSequenceFeature([], STRING)}, ValueError, "requires allow_missing to be True"),
          ({"a": ep.FixedLenSequenceFeature([3], dtypes.int64, True)}, InvalidArgumentError,
           "not a multiple of stride length. Saw 2 values but output shape is: \\[\\?,3\\]"),
          ({"a": ep.FixedLenFeature([2], dtypes.int32)}, InvalidArgumentError, "float32, int64 or string"),
          ({"a": ep.FixedLenFeature([2], dtypes.int64, default_value=7)}, InvalidArgumentError, "default_value")]


@pytest.mark.parametrize("features, exc, message", ERRORS)
def test_errors(features, exc, message):
    with pytest.raises(exc, match=message):
        ep.parse([S1, S2, ex()], features)


def test_bad_bytes():
    with pytest.raises(InvalidArgumentError, match="could not parse example"):
        ep.parse([b"\xff\xff"], {"a": ep.FixedLenFeature([], dtypes.int64, default_value=0)})


def test_fast_path_agrees_with_general_decoder_on_random_and_odd_encodings():
    rng = np.random.RandomState(3)
    wanted = {"a": 0, "b": 0, "c": 0, "d": 0}
    encodings = []
    for i in range(300):
        feats = {}
        if rng.rand() < 0.8:
            feats["a"] = pb.Feature(int64_list=pb.Int64List(value=rng.randint(-2 ** 62, 2 ** 62, rng.randint(4)).tolist()))
        if rng.rand() < 0.8:
            feats["b"] = pb.Feature(float_list=pb.FloatList(value=rng.randn(rng.randint(4)).tolist()))
        if rng.rand() < 0.8:
            feats["c"] = pb.Feature(bytes_list=pb.BytesList(value=[bytes(rng.bytes(rng.randint(200)))]))
        if rng.rand() < 0.3:
            feats["zz"] = pb.Feature()
        encodings.append(pb.Example(features=pb.Features(feature=feats)).SerializeToString())
    # unpacked int64 (wire 0) and float (wire 5) elements, and two Features messages (merged)
    encodings.append(b"\x0a\x0c\x0a\x0a\x0a\x01a\x12\x05\x1a\x03\x08\x05\x08" + b"\x07"
                     if False else b"\x0a\x0b\x0a\x09\x0a\x01a\x12\x04\x1a\x02\x08\x05")
    encodings.append(b"\x0a\x0e\x0a\x0c\x0a\x01b\x12\x07\x12\x05\x0d" + np.float32(2.5).tobytes())
    encodings.append(example_bytes := pb.Example(features=pb.Features(feature={"a": pb.Feature(
        int64_list=pb.Int64List(value=[1]))})).SerializeToString() + pb.Example(features=pb.Features(feature={
            "d": pb.Feature(int64_list=pb.Int64List(value=[2]))})).SerializeToString())
    for data in encodings:
        fast = ep.example_features(data, wanted)
        general = ep.general_example_features(data, wanted)
        assert fast.keys() == general.keys()
        for k in fast:
            assert fast[k][0] == general[k][0]
            assert list(np.asarray(fast[k][1]).tolist()) == list(np.asarray(general[k][1]).tolist())
    assert ep.example_features(example_bytes, wanted)["d"] == (3, [2])
    assert ep.example_features(encodings[-3], wanted)["a"] == (3, [5])
    assert list(ep.example_features(encodings[-2], wanted)["b"][1]) == [2.5]


@pytest.mark.parametrize("cut", [1, 5, 9, 15, 30])
def test_truncated_examples_never_parse_silently(cut):
    data = ex(a=[1, 2], c=[b"x" * 20])
    with pytest.raises(InvalidArgumentError):
        ep.parse([data[:-cut]], {"a": ep.FixedLenFeature([2], dtypes.int64, default_value=[0, 0]),
                                 "c": ep.VarLenFeature(STRING)})


def test_shared_layout_batches_parse_as_one_by_one():
    rng = np.random.RandomState(5)
    rows = []
    for i in range(200):
        feats = {"x": pb.Feature(float_list=pb.FloatList(value=rng.randn(3).tolist())),
                 "id": pb.Feature(int64_list=pb.Int64List(value=[int(rng.choice([5, 300, -7, 2 ** 40]))])),
                 "t": pb.Feature(bytes_list=pb.BytesList(value=[b"ab", bytes(rng.bytes(2))])),
                 "other": pb.Feature(int64_list=pb.Int64List(value=[int(rng.randint(100))]))}
        if i % 17 == 0:
            feats["x"] = pb.Feature(float_list=pb.FloatList(value=[1.0]))        # another layout
        rows.append(pb.Example(features=pb.Features(feature=feats)).SerializeToString())
    rows.append(b"\x0a\x7f" + rows[3][2:])   # same length as its group, a broken length
    spec = {"x": ep.VarLenFeature(dtypes.float32), "id": ep.FixedLenFeature([], dtypes.int64),
            "t": ep.FixedLenFeature([2], STRING)}
    from tapeflow.io import example_batch
    uniform = example_batch.parse_uniform(rows, ep._ByBytes((k.encode(), k) for k in spec))
    assert sum(u is not None for u in uniform) > 150          # most rows took the shared layout
    with pytest.raises(InvalidArgumentError):
        ep.parse(rows, spec)                                   # the broken row is still caught
    batch = ep.parse(rows[:-1], spec)
    one_by_one = [ep.parse([r], spec) for r in rows[:-1]]
    assert batch["id"].tolist() == [o["id"][0] for o in one_by_one]
    assert batch["t"].tolist() == [o["t"][0].tolist() for o in one_by_one]
    idx, vals, shape = batch["x"]
    assert vals.tolist() == [v for o in one_by_one for v in o["x"][1].tolist()]

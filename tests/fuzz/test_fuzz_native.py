"""Random and mutated bytes through the record readers' C loops and their Python fallback
(hypothesis, bounded to a few seconds): the two must agree on every input, value for value
or error for error, and the C side must never crash the interpreter (a crash would end
this test process: the run itself is the check)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from native_io_helpers import assert_same_paths, needs_c
from tapeflow.io import csv_fields as cf
from tapeflow.io import example_parsing as ep
from tapeflow.io import example_pb as pb
from tapeflow.io import record_format as rf
from tapeflow.runtime import dtypes

pytestmark = needs_c


class _Str:
    name = "string"


SPEC = {"a": ep.FixedLenFeature([2], dtypes.float32, [0.0, 0.0]), "b": ep.VarLenFeature(dtypes.int64),
        "c": ep.VarLenFeature(_Str()), "d": ep.FixedLenSequenceFeature([], dtypes.float32, True)}
SEED_EXAMPLE = pb.Example(features=pb.Features(feature={
    "a": pb.Feature(float_list=pb.FloatList(value=[1.0, -2.5])),
    "b": pb.Feature(int64_list=pb.Int64List(value=[1, 300, -5])),
    "c": pb.Feature(bytes_list=pb.BytesList(value=[b"xy", b""])),
    "d": pb.Feature(float_list=pb.FloatList(value=[0.5]))})).SerializeToString()
FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def _mutate(data, edits):
    out = bytearray(data)
    for pos, value, op in edits:
        if not out:
            out.append(value)
            continue
        pos %= len(out)
        if op == 0:
            out[pos] = value
        elif op == 1:
            del out[pos]
        else:
            out.insert(pos, value)
    return bytes(out)


EDITS = st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 255), st.integers(0, 2)), max_size=6)


@FAST
@given(EDITS, st.integers(1, 6))
def test_mutated_examples(edits, copies):
    rows = [SEED_EXAMPLE] * copies + [_mutate(SEED_EXAMPLE, edits)]
    assert_same_paths(lambda: ep.parse(rows, SPEC))


@FAST
@given(st.lists(st.binary(max_size=40), min_size=1, max_size=4))
def test_random_bytes_as_examples(rows):
    assert_same_paths(lambda: ep.parse(rows, SPEC))


CSV_BYTES = st.lists(st.sampled_from([b"1", b"-2", b"3.5", b"e", b"1e5", b" ", b",", b'"', b"\r", b"\n", b"x",
                                      b"0x1p2", b"nan", b"NA", b"99999999999999999999", b".", b"_"]), max_size=12)


@FAST
@given(st.lists(CSV_BYTES.map(b"".join), min_size=1, max_size=5), st.booleans(),
       st.sampled_from([["float32", "int64"], ["int32", "float64"], ["string", "float32"]]),
       st.sampled_from([None, [0, 2]]))
def test_random_csv(records, quote, dtype_names, select_cols):
    defaults = [b"" if d == "string" else 0 for d in dtype_names]
    assert_same_paths(lambda: cf.decode_records(records, defaults, dtype_names, use_quote_delim=quote,
                                                na_value=b"NA", select_cols=select_cols))


@FAST
@given(EDITS, st.integers(0, 80))
def test_mutated_record_files(tmp_path_factory, edits, cut):
    good = b"".join(rf.frame(p) for p in (b"abc", b"", b"defgh" * 5))
    data = _mutate(good, edits)[:len(good) + 4 - cut % (len(good) + 4)]
    path = str(tmp_path_factory.mktemp("rec") / "f.tfrecord")
    with open(path, "wb") as f:
        f.write(data)
    assert_same_paths(lambda: list(rf.iter_records(path)))


def test_seed_example_really_parses():
    out = ep.parse([SEED_EXAMPLE], SPEC)
    assert out["a"].tolist() == [[1.0, -2.5]] and out["b"][1].tolist() == [1, 300, -5]
    assert np.array_equal(out["d"], np.array([[0.5]], np.float32))

"""The record readers' C hot loops (tapeflow/io/native.py) against their NumPy/Python
fallback on the same inputs: TFRecord framing and CRC32C, tf.train.Example parsing,
CSV splitting and numbers.  Values must match bit for bit, errors word for word.
(tests/fuzz/test_fuzz_native.py throws random and mutated bytes at the same pairs.)"""
import struct

import numpy as np
import pytest

from native_io_helpers import assert_same_paths, both_paths, needs_c
from tapeflow.io import crc32c as crc_mod
from tapeflow.io import csv_fields as cf
from tapeflow.io import example_parsing as ep
from tapeflow.io import example_pb as pb
from tapeflow.io import native
from tapeflow.io import record_format as rf
from tapeflow.runtime import dtypes

pytestmark = needs_c


class _Str:
    name = "string"


STRING = _Str()


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 63, 64, 1000, 4097])
def test_crc32c_both_c_paths_match_the_reference(n):
    lib = native.get()
    data = np.random.RandomState(n).bytes(n)
    want = crc_mod.fallback_crc32c(data)
    assert native.crc32c(lib, data) == want
    assert native.crc32c(lib, data, use_table=True) == want


def _write(path, payloads):
    with open(path, "wb") as f:
        for p in payloads:
            f.write(rf.frame(p))


def _read(path, ctype=""):
    return lambda: list(rf.iter_records(path, ctype))


def test_records_of_every_size_across_chunk_borders(tmp_path, monkeypatch):
    monkeypatch.setattr(rf, "READ_CHUNK", 100)    # records straddle reads, some span many
    rng = np.random.RandomState(0)
    payloads = [rng.bytes(int(n)) for n in rng.choice([0, 1, 5, 99, 100, 101, 350, 1000], 60)]
    path = str(tmp_path / "r.tfrecord")
    _write(path, payloads)
    status, got = assert_same_paths(_read(path))
    assert status == "ok" and got == payloads


@pytest.mark.parametrize("where", ["length", "length_crc", "data", "data_crc"])
def test_corruption_in_each_part_of_a_record(tmp_path, where):
    payloads = [b"a" * 30, b"b" * 40, b"c" * 50]
    path = str(tmp_path / "r.tfrecord")
    _write(path, payloads)
    raw = bytearray(open(path, "rb").read())
    second = 16 + 30
    at = {"length": second + 1, "length_crc": second + 9, "data": second + 20, "data_crc": second + 12 + 40 + 1}
    raw[at[where]] ^= 0x10
    open(path, "wb").write(bytes(raw))
    status, (kind, message) = assert_same_paths(_read(path))
    assert status == "raised" and kind == "DataLossError" and "corrupted record at" in message


def test_every_cut_point_reads_the_same(tmp_path):
    payloads = [b"x" * 20, b"y" * 3, b""]
    path = str(tmp_path / "r.tfrecord")
    _write(path, payloads)
    whole = open(path, "rb").read()
    for cut in range(len(whole) + 1):
        open(path, "wb").write(whole[:cut])
        assert_same_paths(_read(path))


def test_a_huge_length_with_a_valid_crc_is_truncated_not_allocated(tmp_path):
    header = struct.pack("<Q", 1 << 62)
    path = str(tmp_path / "r.tfrecord")
    open(path, "wb").write(rf.frame(b"ok") + header + struct.pack("<I", crc_mod.masked_crc32c(header)) + b"zz")
    status, (kind, message) = assert_same_paths(_read(path))
    assert kind == "DataLossError" and "truncated record at 18" in message


@pytest.mark.parametrize("ctype", ["GZIP", "ZLIB"])
def test_compressed_files_read_the_same(tmp_path, ctype):
    path = str(tmp_path / "r.tfrecord")
    w = rf.RecordFileWriter(path, ctype)
    for i in range(300):
        w.write(b"%d" % i * (i % 7))
    w.close()
    status, got = assert_same_paths(_read(path, ctype))
    assert len(got) == 300


def _ex(**kw):
    feats = {}
    for k, v in kw.items():
        if v is None:
            feats[k] = pb.Feature()
        elif v and isinstance(v[0], bytes):
            feats[k] = pb.Feature(bytes_list=pb.BytesList(value=v))
        elif v and isinstance(v[0], float):
            feats[k] = pb.Feature(float_list=pb.FloatList(value=v))
        else:
            feats[k] = pb.Feature(int64_list=pb.Int64List(value=v))
    return pb.Example(features=pb.Features(feature=feats)).SerializeToString()


SPEC = {"f": ep.FixedLenFeature([2], dtypes.float32, [9.0, 8.0]), "i": ep.VarLenFeature(dtypes.int64),
        "s": ep.FixedLenFeature([], STRING, b"none"), "q": ep.FixedLenSequenceFeature([], dtypes.int64, True)}
EXAMPLES = {
    "all present": [_ex(f=[1.0, float("nan")], i=[1, -1, 2 ** 63 - 1, -2 ** 63], s=[b"\x00\xff"], q=[3, 4]),
                    _ex(f=[-0.0, 1e-45], i=[300], s=[b""], q=[])],
    "missing and unset": [_ex(i=[5]), _ex(f=None, i=None, s=None, q=None), b""],
    "wrong kind": [_ex(f=[1.0, 2.0], i=[1.5])],
    "wrong count": [_ex(f=[1.0])],
    "string where float": [_ex(f=[b"a", b"b"])],
    "repeated key, last wins": [_ex(f=[1.0, 2.0]) + _ex(f=[3.0, 4.0])],
    "unpacked floats (not canonical)": [b"\x0a\x12\x0a\x10\x0a\x01f\x12\x0b\x12\x09\x0d\x00\x00\x80\x3f"
                                        b"\x0d\x00\x00\x00\x40"],
    "not an example": [b"\xff\xff\xff"],
    "length past the end": [b"\x0a\x7f\x0a\x03"],
    "ten-byte varint past 64 bits": [b"\x0a\x14\x0a\x12\x0a\x01i\x12\x0d\x1a\x0b\x0a\x09" + b"\xff" * 8 + b"\x7f"],
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_examples_parse_the_same(name):
    rows = EXAMPLES[name]
    assert_same_paths(lambda: ep.parse(rows, SPEC))


def test_a_large_varied_batch_parses_the_same():
    rng = np.random.RandomState(3)
    rows = []
    for i in range(500):
        kw = {"f": rng.randn(2).astype(np.float32).tolist(), "i": rng.randint(-2 ** 40, 2 ** 40, i % 4).tolist(),
              "s": [rng.bytes(int(rng.randint(0, 200)))], "q": rng.randint(0, 9, i % 3).tolist(),
              "other": [b"ignored"]}
        if i % 11 == 0:
            del kw["f"]
        rows.append(_ex(**kw))
    status, got = assert_same_paths(lambda: ep.parse(rows, SPEC))
    assert status == "ok" and got["f"].shape == (500, 2)


CSV_CASES = [
    ([b"1,2.5,x", b" 3 ,\t-4e3 ,\"q,\"\"r\"", b"-0,1e999,"], [0, 0.0, b"d"], ["int64", "float32", "string"], {}),
    ([b"0x1p3,nan,inf", b"1.,.5,-.5e-3"], [0.0, 0.0, 0.0], ["float64", "float64", "float32"], {}),
    ([b"2147483647,-2147483648", b"2147483648,0"], [0, 0], ["int32", "int32"], {}),
    ([b"9223372036854775807,-9223372036854775808,9223372036854775808"], [0, 0, 0], ["int64"] * 3, {}),
    ([b"NA,1", b"2,"], [7, None], ["int64", "int64"], {"na_value": b"NA"}),
    ([b"1_0,2"], [0, 0], ["int64", "int64"], {}),
    ([b"a;b;c;d", b"e;f;g;h"], [b"", b""], ["string", "string"], {"field_delim": ";", "select_cols": [1, 3]}),
    ([b"1,2", b"1,2,3"], [0, 0], ["int64", "int64"], {}),
    ([b"1,2", b"\"open,2"], [0, 0], ["int64", "int64"], {}),
    ([b"1,2", b"a\"b,2"], [b"", 0], ["string", "int64"], {}),
    ([b"\"a\"b,2"], [b"", 0], ["string", "int64"], {}),
    ([b"\"a\"b,2"], [b"", b""], ["string", "string"], {"use_quote_delim": False}),
    ([b"1.0000000000000000000001,123456789012345678901234567890"], [0.0, 0.0], ["float64", "float64"], {}),
    ([b"3.4028235e38,3.4028236e38,1e-46"], [0.0, 0.0, 0.0], ["float32"] * 3, {}),
    ([b"", b"1"], [0], ["int64"], {}),
    ([b"x"], [0.0], ["float32"], {}),
]


@pytest.mark.parametrize("records,defaults,dtype_names,kw", CSV_CASES)
def test_csv_decodes_the_same(records, defaults, dtype_names, kw):
    assert_same_paths(lambda: cf.decode_records(records, defaults, dtype_names, **kw))


def test_many_random_numbers_parse_to_the_same_bits():
    rng = np.random.RandomState(1)
    floats = [repr(float(v)) for v in rng.randn(300) * 10.0 ** rng.randint(-30, 30, 300)]
    floats += ["%.17g" % v for v in rng.rand(300)] + ["%.3f" % v for v in rng.randn(300)]
    ints = [str(v) for v in rng.randint(-2 ** 62, 2 ** 62, 900)]
    records = [f"{a},{b},{a}".encode() for a, b in zip(floats, ints)]
    fast, slow = both_paths(lambda: cf.decode_records(records, [0.0, 0, 0.0], ["float64", "int64", "float32"]))
    assert fast[0] == "ok" and all(x.tobytes() == y.tobytes() for x, y in zip(fast[1], slow[1]))
    assert fast[1][0].tolist() == [float(v) for v in floats]


def test_fallback_is_what_runs_without_a_compiler(monkeypatch):
    monkeypatch.setitem(native._state, "off", 1)
    assert native.get() is None
    assert cf.decode_records([b"1,2"], [0, 0], ["int64", "int64"])[1].tolist() == [2]

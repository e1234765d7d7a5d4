"""TFRecord framing and CRC32C: files written by real TensorFlow (tests/fixtures/records, made
by tests/fixtures/make_tf_records.py) read back; damaged files raise DataLossError."""
import gzip
import os
import struct
import zlib

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.io import crc32c as crc_mod
from tapeflow.io import record_format as rf

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "records")
PLAIN = [b"", b"a", bytes(range(256)) + b"x" * 44, bytes(np.random.RandomState(0).bytes(1500))]


def fixture(name):
    return os.path.join(FIXTURES, name)


# (data, crc32c) from RFC 3720 B.4 and the classic check value
CRC_CASES = [(b"", 0), (b"123456789", 0xE3069283), (bytes(32), 0x8A9136AA), (b"\xff" * 32, 0x62A8AB43),
             (bytes(range(32)), 0x46DD794E), (bytes(range(31, -1, -1)), 0x113FDB5C)]


@pytest.mark.parametrize("data, want", CRC_CASES)
def test_crc32c_known_values(data, want):
    assert crc_mod.crc32c(data) == want
    assert crc_mod.fallback_crc32c(data) == want


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 1023, 4095, 4096, 4097, 10_000, 65_537, 300_001])
def test_fallback_matches_native_package(n):
    google_crc32c = pytest.importorskip("google_crc32c")
    data = np.random.RandomState(n).bytes(n)
    assert crc_mod.fallback_crc32c(data) == google_crc32c.value(data)
    assert crc_mod.fallback_crc32c(data, 0x1234ABCD) == google_crc32c.extend(0x1234ABCD, data)
    # continuation: the CRC of a split input equals the CRC of the whole
    cut = n // 3
    assert crc_mod.fallback_crc32c(data[cut:], crc_mod.fallback_crc32c(data[:cut])) == google_crc32c.value(data)


def test_masked_crc_is_tfrecord_mask():
    crc = crc_mod.crc32c(b"abc")
    assert crc_mod.masked_crc32c(b"abc") == (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def test_frame_is_byte_identical_to_tensorflow_writer():
    assert b"".join(rf.frame(r) for r in PLAIN) == open(fixture("plain.tfrecord"), "rb").read()


@pytest.mark.parametrize("name, ctype", [("examples.tfrecord", ""), ("examples.tfrecord.gz", "GZIP"),
                                         ("examples.tfrecord.zlib", "ZLIB")])
def test_reads_tensorflow_files_in_each_compression(name, ctype):
    want = rf.read_records(fixture("examples.tfrecord"))
    assert len(want) == 3
    assert rf.read_records(fixture(name), ctype) == want


@pytest.mark.parametrize("ctype, opener", [("", lambda b: b), ("GZIP", gzip.decompress),
                                           ("ZLIB", zlib.decompress)])
def test_writer_round_trip_and_stream_format(tmp_path, ctype, opener):
    path = str(tmp_path / "w.tfrecord")
    w = rf.RecordFileWriter(path, ctype)
    for r in PLAIN:
        w.write(r)
    w.close()
    assert opener(open(path, "rb").read()) == b"".join(rf.frame(r) for r in PLAIN)
    assert rf.read_records(path, ctype) == PLAIN


def test_reader_streams_in_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(rf, "READ_CHUNK", 7)   # records straddle every chunk boundary
    assert rf.read_records(fixture("plain.tfrecord")) == PLAIN
    assert rf.read_records(fixture("examples.tfrecord.gz"), "GZIP") == rf.read_records(fixture("examples.tfrecord"))


# (file, records read before the error, message) as TensorFlow 2.21 reports them
DAMAGED = [("truncated.tfrecord", 3, "truncated record at 349"),
           ("corrupt_len.tfrecord", 2, "corrupted record at 33"),
           ("corrupt_data.tfrecord", 1, "corrupted record at 28")]


@pytest.mark.parametrize("name, n_good, message", DAMAGED)
def test_damaged_files_raise_data_loss_with_file_and_offset(name, n_good, message):
    it = rf.iter_records(fixture(name))
    got = [next(it) for _ in range(n_good)]
    assert got == PLAIN[:n_good]
    with pytest.raises(tf.errors.DataLossError, match=message) as info:
        next(it)
    assert name in str(info.value)


def test_cut_inside_a_header_ends_the_file_as_tensorflow(tmp_path):
    raw = open(fixture("plain.tfrecord"), "rb").read()
    path = tmp_path / "cut.tfrecord"
    path.write_bytes(raw[:349 + 5])            # 5 bytes of the fourth record's header
    assert rf.read_records(str(path)) == PLAIN[:3]
    path.write_bytes(b"")
    assert rf.read_records(str(path)) == []


def test_corrupt_compressed_stream_is_data_loss(tmp_path):
    path = tmp_path / "bad.gz"
    path.write_bytes(open(fixture("plain.tfrecord"), "rb").read())   # not gzip at all
    with pytest.raises(tf.errors.DataLossError, match="bad.gz"):
        rf.read_records(str(path), "GZIP")
    path.write_bytes(zlib.compress(open(fixture("plain.tfrecord"), "rb").read())[:-30])
    with pytest.raises(tf.errors.DataLossError):
        rf.read_records(str(path), "ZLIB")


def test_random_bit_flips_never_crash(tmp_path):
    raw = open(fixture("plain.tfrecord"), "rb").read()
    rng = np.random.RandomState(1)
    for trial in range(60):
        bad = bytearray(raw)
        pos = int(rng.randint(len(raw)))
        bad[pos] ^= 1 << int(rng.randint(8))
        path = tmp_path / f"f{trial}"
        path.write_bytes(bytes(bad))
        try:
            got = rf.read_records(str(path))
        except tf.errors.DataLossError:
            continue
        raise AssertionError(f"a flipped bit at {pos} went unnoticed: {len(got)} records")


def test_missing_file_and_bad_compression_name(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="nope.tfrecord"):
        rf.read_records(str(tmp_path / "nope.tfrecord"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="compression_type"):
        rf.compression_of("LZ4", "TFRecordDataset")
    assert [rf.compression_of(c, "x") for c in (None, "", "gzip", b"ZLIB")] == ["", "", "GZIP", "ZLIB"]


def test_header_layout():
    framed = rf.frame(b"hello")
    assert struct.unpack("<Q", framed[:8])[0] == 5 and framed[12:17] == b"hello"

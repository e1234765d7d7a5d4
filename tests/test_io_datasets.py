"""File readers on tensors: streaming with flat memory, fixed-length records, CSV records across
chunk boundaries, the CRC fallback on real files, TFRecord + Example pipelines end to end."""
import os
import tracemalloc

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.io import crc32c as crc_mod
from tapeflow.io import record_format as rf

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "records")


def test_text_lines_stream_with_flat_memory(tmp_path):
    path = tmp_path / "big.txt"
    line = b"x" * 999 + b"\n"
    with open(path, "wb") as f:
        for _ in range(40):
            f.write(line * 1000)            # 40 MB
    tracemalloc.start()
    n = 0
    for _ in tf.data.TextLineDataset(str(path)).as_numpy_iterator():
        n += 1
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert n == 40_000
    assert peak < 12 * 2 ** 20, f"peak {peak / 2 ** 20:.1f} MB while streaming a 40 MB file"


def test_records_stream_with_flat_memory(tmp_path):
    path = str(tmp_path / "big.tfrecord")
    w = rf.RecordFileWriter(path)
    payload = bytes(range(256)) * 16
    for _ in range(8000):                    # 33 MB
        w.write(payload)
    w.close()
    tracemalloc.start()
    n = sum(1 for _ in tf.data.TFRecordDataset(path).as_numpy_iterator())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert n == 8000 and peak < 12 * 2 ** 20


def test_reading_tensorflow_files_without_the_native_crc(monkeypatch):
    monkeypatch.setattr(crc_mod, "NATIVE", False)
    got = list(tf.data.TFRecordDataset(os.path.join(FIXTURES, "plain.tfrecord")).as_numpy_iterator())
    assert [len(r) for r in got] == [0, 1, 300, 1500]
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 28"):
        list(tf.data.TFRecordDataset(os.path.join(FIXTURES, "corrupt_data.tfrecord")))


def test_fixed_length_records(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"HH" + b"abcdefghij" + b"FFF")
    ds = tf.data.FixedLengthRecordDataset(str(path), 5, header_bytes=2, footer_bytes=3)
    assert list(ds.as_numpy_iterator()) == [b"abcde", b"fghij"]
    path.write_bytes(b"abcdefg")
    # TF measures an uncompressed file first (InvalidArgumentError, no record), a compressed one
    # only once read to its end (DataLossError after the whole records)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not an exact multiple"):
        list(tf.data.FixedLengthRecordDataset(str(path), 5))
    import gzip
    packed = tmp_path / "f.bin.gz"
    packed.write_bytes(gzip.compress(b"abcdefg"))
    got = []
    with pytest.raises(tf.errors.DataLossError, match="not a multiple"):
        for record in tf.data.FixedLengthRecordDataset(str(packed), 5, compression_type="GZIP"):
            got.append(record.numpy())
    assert got == [b"abcde"]


def test_csv_records_across_chunk_boundaries(tmp_path, monkeypatch):
    monkeypatch.setattr(rf, "READ_CHUNK", 5)
    path = tmp_path / "c.csv"
    path.write_bytes(b'h1,h2\r\n"a\nb",1\r\n"c,d",2\n' + b"e,3")
    rows = list(tf.data.experimental.CsvDataset(str(path), [[""], [0]], header=True).as_numpy_iterator())
    assert rows == [(b"a\nb", 1), (b"c,d", 2), (b"e", 3)]


def test_gzip_csv_and_missing_file(tmp_path):
    import gzip
    path = tmp_path / "c.csv.gz"
    path.write_bytes(gzip.compress(b"1,2\n3,4\n"))
    ds = tf.data.experimental.CsvDataset(str(path), [tf.int64, tf.int64], compression_type="GZIP")
    assert list(ds.as_numpy_iterator()) == [(1, 2), (3, 4)]
    with pytest.raises(tf.errors.NotFoundError):
        list(tf.data.experimental.CsvDataset(str(tmp_path / "nope.csv"), [tf.int64]))


def test_example_pipeline_parse_batch_and_prefetch(tmp_path):
    path = str(tmp_path / "ex.tfrecord")
    with tf.io.TFRecordWriter(path, options="ZLIB") as w:
        for i in range(10):
            ex = tf.train.Example()
            ex.features.feature["x"].float_list.value.extend([i, -i])
            ex.features.feature["y"].int64_list.value.append(i % 3)
            w.write(ex.SerializeToString())
    spec = {"x": tf.io.FixedLenFeature([2], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64)}
    ds = tf.data.TFRecordDataset([path], "ZLIB").batch(4).map(lambda s: tf.io.parse_example(s, spec)).prefetch(2)
    batches = list(ds)
    assert [b["x"].shape.as_list() for b in batches] == [[4, 2], [4, 2], [2, 2]]
    np.testing.assert_array_equal(np.concatenate([b["y"].numpy() for b in batches]), np.arange(10) % 3)


def test_tf_record_iterator_and_writer_errors(tmp_path):
    path = str(tmp_path / "r")
    w = tf.io.TFRecordWriter(path)
    w.write(b"a")
    w.write("b")
    with pytest.raises(TypeError, match="numpy"):
        w.write(tf.constant(b"c"))
    w.close()
    with pytest.raises(ValueError, match="closed"):
        w.write(b"d")
    assert list(tf.io.tf_record_iterator(path)) == [b"a", b"b"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="compression_type"):
        tf.data.TFRecordDataset(path, compression_type="LZMA")


def test_tf1_names(tmp_path):
    path = str(tmp_path / "r")
    with tf.compat.v1.python_io.TFRecordWriter(path) as w:
        w.write(b"x")
    assert list(tf.compat.v1.io.tf_record_iterator(path)) == [b"x"]
    assert tf.compat.v1.gfile.Exists(path) and tf.compat.v1.gfile.Glob(str(tmp_path / "*")) == [path]


def test_reader_skip_take_batch_fusion_matches_the_general_pipeline(tmp_path):
    path = tmp_path / "l.txt"
    path.write_bytes(b"".join(b"line %d\n" % i for i in range(23)))
    fused = tf.data.TextLineDataset(str(path)).skip(2).take(15).batch(4)
    general = tf.data.TextLineDataset(str(path)).map(lambda x: x).skip(2).take(15).batch(4)
    got = [b.numpy().tolist() for b in fused]
    assert got == [b.numpy().tolist() for b in general]
    assert [len(b) for b in got] == [4, 4, 4, 3] and got[0][0] == b"line 2"
    assert [len(b) for b in tf.data.TextLineDataset(str(path)).batch(5, drop_remainder=True)] == [5] * 4
    assert fused.element_spec.shape.as_list() == [None]
    assert tf.data.TextLineDataset(str(path)).batch(5, drop_remainder=True).element_spec.shape.as_list() == [5]
    assert list(tf.data.TextLineDataset(str(path)).skip(-1).as_numpy_iterator()) == []
    assert len(list(tf.data.TextLineDataset(str(path)).take(-1))) == 23

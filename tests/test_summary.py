"""tf.summary: CRC32C and TFRecord framing, Event protobuf bytes, and the
scalar/histogram/text ops eagerly and inside tf.function, read back from the file."""
import glob
import os
import struct

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.summary import proto, records


def events_in(logdir):
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    return tf.summary.read_events(path)


def test_crc32c_known_vectors():
    assert records.crc32c(b"123456789") == 0xE3069283
    assert records.crc32c(b"") == 0
    assert records.crc32c(bytes(32)) == 0x8A9136AA  # RFC 3720 B.4: 32 bytes of zeros
    assert records.crc32c(b"\xff" * 32) == 0x62A8AB43
    assert records.crc32c(bytes(range(32))) == 0x46DD794E
    # continuing a CRC over a split buffer gives the CRC of the whole
    assert records.crc32c(b"6789", records.crc32c(b"12345")) == 0xE3069283


def test_record_framing_and_corruption(tmp_path):
    data = b"hello event"
    framed = records.frame(data)
    assert struct.unpack("<Q", framed[:8])[0] == len(data)
    header_crc = records.crc32c(framed[:8])
    masked = (((header_crc >> 15) | (header_crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    assert struct.unpack("<I", framed[8:12])[0] == masked
    assert framed[12:-4] == data
    path = tmp_path / "r"
    path.write_bytes(framed + records.frame(b""))
    assert records.read_records(str(path)) == [data, b""]
    bad = bytearray(framed)
    bad[14] ^= 1
    path.write_bytes(bytes(bad))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 12"):
        records.read_records(str(path))


def test_event_bytes_match_protobuf_encoding():
    # Event { wall_time: 1.5 step: 7 file_version: "brain.Event:2" }, encoded by hand
    want = b"\x09" + struct.pack("<d", 1.5) + b"\x10\x07" + b"\x1a\x0dbrain.Event:2"
    assert proto.event(1.5, 7, file_version="brain.Event:2") == want
    value = proto.scalar_value("loss", 0.25)
    # TF2's scalar: Value { tag: "loss" tensor { dtype: DT_FLOAT tensor_shape {} tensor_content: <f32> }
    #                       metadata { plugin_data { plugin_name: "scalars" } } }
    tensor = b"\x08\x01" + b"\x12\x00" + b"\x22\x04" + struct.pack("<f", 0.25)
    metadata = b"\x0a\x09" + b"\x0a\x07scalars"
    assert value == b"\x0a\x04loss" + b"\x42" + bytes([len(tensor)]) + tensor + b"\x4a" + bytes([len(metadata)]) + \
        metadata
    ev = proto.event(2.0, 300, values=[value])
    assert ev.endswith(b"\x2a" + bytes([len(value) + 2]) + b"\x0a" + bytes([len(value)]) + value)
    assert proto._varint(300) == b"\xac\x02" and proto._varint(-1) == b"\xff" * 9 + b"\x01"
    assert proto.decode_event(proto.event(0.0, -3))["step"] == -3


def test_scalar_histogram_text_eager(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=3):
        assert tf.summary.scalar("loss", 0.5)
        assert tf.summary.scalar("count", tf.constant(4), step=9)
        data = np.array([0.0, 1.0, 1.0, 2.0, 5.0, 9.0])
        tf.summary.histogram("weights", tf.constant(data), step=4, buckets=3)
        tf.summary.text("note", "hello", step=5, description="a note")
    writer.close()
    first, *rest = events_in(tmp_path)
    assert first["file_version"] == "brain.Event:2" and first["values"] == []
    assert [(e["step"], e["values"][0]["tag"]) for e in rest] == [(3, "loss"), (9, "count"), (4, "weights"),
                                                                  (5, "note")]
    assert rest[0]["values"][0]["simple_value"] == 0.5 and rest[1]["values"][0]["simple_value"] == 4.0
    histo = rest[2]["values"][0]
    assert histo["plugin"] == "histograms" and histo["histogram"].dtype == np.float64
    np.testing.assert_array_equal(histo["histogram"], [[0, 3, 4], [3, 6, 1], [6, 9, 1]])  # TF 2.21's buckets
    note = rest[3]["values"][0]
    assert note["text"] == ["hello"] and note["plugin"] == "text" and note["description"] == "a note"
    assert all(e["wall_time"] > 1e9 for e in rest)


def test_step_rules_and_noop_writer(tmp_path):
    assert tf.summary.scalar("x", 1.0, step=1) is False  # no default writer
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="no step set"):
            tf.summary.scalar("x", 1.0)
        tf.summary.experimental.set_step(11)
        try:
            assert tf.summary.experimental.get_step() == 11
            tf.summary.scalar("x", 1.0)
        finally:
            tf.summary.experimental.set_step(None)
        with tf.summary.record_if(False):
            assert tf.summary.scalar("skipped", 1.0, step=1) is False
        with pytest.raises(ValueError, match="scalar"):
            tf.summary.scalar("v", [1.0, 2.0], step=1)
    with tf.summary.create_noop_writer().as_default(step=1):
        assert tf.summary.scalar("y", 2.0) is False
    writer.flush()
    assert [(e["step"], e["values"][0]["tag"]) for e in events_in(tmp_path)[1:]] == [(11, "x")]

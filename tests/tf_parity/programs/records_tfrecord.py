"""tf.io.TFRecordWriter and tf.data.TFRecordDataset: several files, compression, parallel reads,
damaged files."""
import os
import tempfile


def _dir():
    return tempfile.mkdtemp(prefix="tfparity_rec_")


def _records(tf, path, recs, options=None):
    with tf.io.TFRecordWriter(path, options=options) as w:
        for r in recs:
            w.write(r)
    return path


def program_write_read_each_compression(tf):
    d = _dir()
    out = {}
    for ctype in ("", "GZIP", "ZLIB"):
        path = _records(tf, os.path.join(d, "r" + ctype), [b"hello", b"", "\u00e9".encode(), b"x" * 300], ctype)
        out[ctype or "none"] = list(tf.data.TFRecordDataset(path, compression_type=ctype).as_numpy_iterator())
    opts = tf.io.TFRecordOptions(compression_type="GZIP")
    path = _records(tf, os.path.join(d, "opt"), [b"a"], opts)
    out["options"] = list(tf.data.TFRecordDataset([path], compression_type="GZIP").as_numpy_iterator())
    out["spec"] = tf.data.TFRecordDataset(path, "GZIP").element_spec.dtype
    return out


def program_uncompressed_bytes(tf):
    d = _dir()
    path = _records(tf, os.path.join(d, "r"), [b"hello", b"", b"world!!"])
    with open(path, "rb") as f:
        return {"bytes": f.read()}


def program_several_files_and_parallel_reads(tf):
    d = _dir()
    a = _records(tf, os.path.join(d, "a"), [b"a1", b"a2", b"a3"])
    b = _records(tf, os.path.join(d, "b"), [b"b1"])
    c = _records(tf, os.path.join(d, "c"), [b"c1", b"c2"])
    return {"sequential": list(tf.data.TFRecordDataset([a, b, c]).as_numpy_iterator()),
            "parallel2": list(tf.data.TFRecordDataset([a, b, c], num_parallel_reads=2).as_numpy_iterator()),
            "tensor_names": list(tf.data.TFRecordDataset(tf.constant([c, a])).as_numpy_iterator())}


def program_write_tensor_records(tf):
    d = _dir()
    path = os.path.join(d, "t")
    with tf.io.TFRecordWriter(path) as w:
        w.write(tf.constant(b"from tensor").numpy())
        w.write(tf.io.serialize_tensor(tf.constant([1.5, 2.0])).numpy())
        try:
            w.write(tf.constant(b"a tensor"))
            tensor_write = "no error"
        except Exception as e:
            tensor_write = type(e).__name__
    recs = list(tf.data.TFRecordDataset(path))
    return {"first": recs[0], "parsed": tf.io.parse_tensor(recs[1], tf.float32), "tensor_write": tensor_write,
            "n": len(recs)}


def _damaged(tf, mutate):
    d = _dir()
    path = _records(tf, os.path.join(d, "r"), [b"hello", b"", b"world!!"])
    with open(path, "rb") as f:
        raw = bytearray(f.read())
    with open(path, "wb") as f:
        f.write(bytes(mutate(raw)))
    got = []
    try:
        for r in tf.data.TFRecordDataset(path):
            got.append(r.numpy())
        return {"got": got, "error": "none"}
    except Exception as e:
        return {"got": got, "error": type(e).__name__, "offset_named": any(
            s in str(e) for s in ("at 12", "at 21", "at 37"))}


def program_truncated_last_record(tf):
    return _damaged(tf, lambda raw: raw[:-3])


def program_truncated_inside_header(tf):
    return _damaged(tf, lambda raw: raw[:len(raw) - 15])


def _flip(i):
    def mutate(raw):
        raw[i] ^= 1
        return raw
    return mutate


def program_corrupted_length_crc(tf):
    return _damaged(tf, _flip(32))


def program_corrupted_data_crc(tf):
    return _damaged(tf, _flip(13))


def program_wrong_compression_and_missing(tf):
    d = _dir()
    path = _records(tf, os.path.join(d, "r"), [b"x"])
    out = {}
    for name, fn in [("gzip_of_plain", lambda: list(tf.data.TFRecordDataset(path, compression_type="GZIP"))),
                     ("missing", lambda: list(tf.data.TFRecordDataset(os.path.join(d, "nope"))))]:
        try:
            fn()
            out[name] = "no error"
        except Exception as e:
            out[name] = type(e).__name__
    return out


def program_empty_file(tf):
    d = _dir()
    path = os.path.join(d, "e")
    open(path, "wb").close()
    return {"records": list(tf.data.TFRecordDataset(path).as_numpy_iterator())}

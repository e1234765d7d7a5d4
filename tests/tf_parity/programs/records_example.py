"""tf.train.Example protos and tf.io.parse_example / parse_single_example, serialize_tensor."""
import os
import tempfile


def _example(tf, **kw):
    feats = {}
    for k, v in kw.items():
        if v is None:
            feats[k] = tf.train.Feature()
        elif isinstance(v[0], bytes):
            feats[k] = tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
        elif isinstance(v[0], float):
            feats[k] = tf.train.Feature(float_list=tf.train.FloatList(value=v))
        else:
            feats[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=v))
    return tf.train.Example(features=tf.train.Features(feature=feats))


def program_example_bytes_single_feature(tf):
    ex = _example(tf, a=[1, -2, 300])
    e2 = tf.train.Example()
    e2.features.feature["q"].float_list.value.extend([0.1, 2.5])
    return {"a": ex.SerializeToString(), "q": e2.SerializeToString(),
            "deterministic": _example(tf, z=[b"x"], b=[1.5], m=[7]).SerializeToString(deterministic=True)}


def program_example_round_trip_and_fields(tf):
    ex = _example(tf, ids=[1, 2], name=[b"caf\xc3\xa9"], w=[0.1], e=None)
    back = tf.train.Example.FromString(ex.SerializeToString())
    f = back.features.feature
    return {"equal": back == ex, "ids": list(f["ids"].int64_list.value), "w": list(f["w"].float_list.value),
            "kind": [f[k].WhichOneof("kind") for k in ("ids", "name", "w", "e")],
            "keys": sorted(f.keys()), "text": str(_example(tf, k=[-2]))}


def program_example_type_errors(tf):
    out = {}
    for name, fn in [("float_in_int", lambda: tf.train.Int64List(value=[1.5])),
                     ("str_in_bytes", lambda: tf.train.BytesList(value=["x"])),
                     ("bool_in_int", lambda: tf.train.Int64List(value=[True])),
                     ("too_big", lambda: tf.train.Int64List(value=[2 ** 64])),
                     ("corrupt", lambda: tf.train.Example.FromString(b"\xff\xff"))]:
        try:
            fn()
            out[name] = "no error"
        except Exception as e:
            out[name] = type(e).__name__
    return out


def _batch(tf):
    s1 = _example(tf, a=[1, 2], b=[1.5], c=[b"x"]).SerializeToString()
    s2 = _example(tf, a=[3, 4], c=[b"y", b"z"]).SerializeToString()
    return [s1, s2]


def program_parse_example_fixed_len(tf):
    out = tf.io.parse_example(_batch(tf), {"a": tf.io.FixedLenFeature([2], tf.int64),
                                           "b": tf.io.FixedLenFeature([], tf.float32, default_value=9.0),
                                           "m": tf.io.FixedLenFeature([2, 2], tf.int64,
                                                                      default_value=[[1, 2], [3, 4]])})
    return out


def program_parse_example_var_len(tf):
    out = tf.io.parse_example(_batch(tf), {"c": tf.io.VarLenFeature(tf.string), "b": tf.io.VarLenFeature(tf.float32)})
    return {"c": out["c"], "b": out["b"], "dense": tf.sparse.to_dense(out["b"], default_value=-1.0)}


def program_parse_example_sequence(tf):
    out = tf.io.parse_example(_batch(tf), {
        "c": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True),
        "b": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True, default_value=-1.0)})
    pairs = [_example(tf, a=[1, 2, 3, 4]).SerializeToString(), _example(tf, a=[5, 6]).SerializeToString()]
    out["pairs"] = tf.io.parse_example(pairs, {"a": tf.io.FixedLenSequenceFeature([2], tf.int64,
                                                                                 allow_missing=True)})["a"]
    return out


def program_parse_single_example(tf):
    s = _batch(tf)[1]
    return tf.io.parse_single_example(s, {"a": tf.io.FixedLenFeature([2], tf.int64),
                                          "c": tf.io.VarLenFeature(tf.string),
                                          "s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True),
                                          "b": tf.io.FixedLenFeature([1], tf.float32, default_value=[0.25])})


def _err(fn):
    try:
        fn()
        return "no error"
    except Exception as e:
        return type(e).__name__


def program_parse_example_errors(tf):
    b = _batch(tf)
    return {"missing": _err(lambda: tf.io.parse_example(b, {"b": tf.io.FixedLenFeature([], tf.float32)})),
            "count": _err(lambda: tf.io.parse_example(b, {"a": tf.io.FixedLenFeature([3], tf.int64)})),
            "type": _err(lambda: tf.io.parse_example(b, {"a": tf.io.FixedLenFeature([2], tf.float32)})),
            "seq_no_allow": _err(lambda: tf.io.parse_example(b, {"c": tf.io.FixedLenSequenceFeature([], tf.string)})),
            "stride": _err(lambda: tf.io.parse_example(b, {"a": tf.io.FixedLenSequenceFeature([3], tf.int64,
                                                                                             allow_missing=True)})),
            "rank2": _err(lambda: tf.io.parse_example([b], {"a": tf.io.FixedLenFeature([2], tf.int64)})),
            "empty_kind_required": _err(lambda: tf.io.parse_example(
                [_example(tf, a=None).SerializeToString()], {"a": tf.io.FixedLenFeature([], tf.int64)}))}


def program_parse_example_empty_kind_and_batch(tf):
    e = _example(tf, a=None).SerializeToString()
    empty = tf.io.parse_example(tf.constant([], tf.string), {"a": tf.io.FixedLenFeature([2], tf.int64, [7, 7]),
                                                             "v": tf.io.VarLenFeature(tf.int64)})
    return {"default": tf.io.parse_example([e], {"a": tf.io.FixedLenFeature([], tf.int64, default_value=3)})["a"],
            "varlen": tf.io.parse_example([e], {"a": tf.io.VarLenFeature(tf.int64)})["a"],
            "empty_a": empty["a"], "empty_v": empty["v"],
            "empty_bytes": tf.io.parse_single_example(b"", {"a": tf.io.FixedLenFeature([], tf.int64, 1)})["a"]}


def program_parse_example_in_function(tf):
    @tf.function
    def f(s):
        out = tf.io.parse_example(s, {"a": tf.io.FixedLenFeature([2], tf.int64)})
        return out["a"] * 10

    return {"out": f(tf.constant(_batch(tf))), "traces": f.experimental_get_tracing_count()}


def program_tfrecord_examples_pipeline(tf):
    path = os.path.join(tempfile.mkdtemp(prefix="tfparity_ex_"), "ex.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(5):
            ex = _example(tf, x=[float(i), i * 0.5], y=[i])
            ex.features.feature["t"].bytes_list.value.extend([b"t%d" % i] * (i % 3))
            w.write(ex.SerializeToString())
    spec = {"x": tf.io.FixedLenFeature([2], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64),
            "t": tf.io.VarLenFeature(tf.string)}

    def parse(s):
        out = tf.io.parse_example(s, spec)
        return {"x": out["x"], "y": out["y"], "t": tf.sparse.to_dense(out["t"])}

    batches = list(tf.data.TFRecordDataset(path).batch(2).map(parse))
    singles = tf.data.TFRecordDataset(path).map(lambda s: tf.io.parse_single_example(s, spec)["y"])
    return {"batches": batches, "singles": list(singles.as_numpy_iterator())}


def program_serialize_tensor(tf):
    ts = {"f": tf.reshape(tf.range(6, dtype=tf.float32) / 4, (2, 3)), "i": tf.constant([1, -2], tf.int64),
          "s": tf.constant([b"ab", b""]), "b": tf.constant(True), "e": tf.zeros((0, 2), tf.float64)}
    ser = {k: tf.io.serialize_tensor(v) for k, v in ts.items()}
    back = {k + "_back": tf.io.parse_tensor(ser[k], v.dtype) for k, v in ts.items()}
    return {**ser, **back}


def program_parse_tensor_errors(tf):
    s = tf.io.serialize_tensor(tf.constant(1.0))
    return {"mismatch": _err(lambda: tf.io.parse_tensor(s, tf.int32)),
            "garbage": _err(lambda: tf.io.parse_tensor(b"garbage", tf.int32))}

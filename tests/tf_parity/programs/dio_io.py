"""tf.io: matching_files, serialize_sparse / serialize_many_sparse / deserialize_many_sparse,
SparseFeature in parse_example, decode_and_crop_jpeg."""
import os
import tempfile


def program_matching_files(tf):
    d = tempfile.mkdtemp()
    for name in ("b.txt", "a.txt", "c.csv"):
        open(os.path.join(d, name), "w").close()
    got = tf.io.matching_files(os.path.join(d, "*.txt"))
    many = tf.io.matching_files([os.path.join(d, "c*"), os.path.join(d, "zz*")])
    return {"names": [os.path.basename(p) for p in got.numpy().astype(str)], "dtype": got.dtype,
            "many": [os.path.basename(p) for p in many.numpy().astype(str)], "rank": len(got.shape)}


def program_serialize_sparse(tf):
    sp = tf.SparseTensor([[0, 1], [2, 0]], tf.constant([1.5, 2.5]), [3, 4])
    s = tf.io.serialize_sparse(sp)
    o = tf.io.serialize_sparse(sp, out_type=tf.variant) if False else None
    parts = [tf.io.parse_tensor(s[0], tf.int64), tf.io.parse_tensor(s[1], tf.float32),
             tf.io.parse_tensor(s[2], tf.int64)]
    batch = tf.SparseTensor([[0, 0, 1], [1, 0, 0], [1, 1, 2]], tf.constant([1, 2, 3]), [2, 2, 3])
    many = tf.io.serialize_many_sparse(batch)
    back = tf.io.deserialize_many_sparse(many, tf.int32)
    return {"shape": s.shape, "dtype": s.dtype, "parts": parts, "many_shape": many.shape, "o": o,
            "back": tf.sparse.to_dense(back), "back_idx": back.indices, "back_shape": back.dense_shape}


def program_deserialize_many_sparse_rank_mismatch(tf):
    a = tf.io.serialize_sparse(tf.SparseTensor([[0]], [1], [2]))
    b = tf.io.serialize_sparse(tf.SparseTensor([[0, 0]], [1], [2, 2]))
    return {"v": tf.io.deserialize_many_sparse(tf.stack([a, b]), tf.int32)}


def program_sparse_feature(tf):
    def example(idx, val):
        f = tf.train.Features(feature={
            "ix": tf.train.Feature(int64_list=tf.train.Int64List(value=idx)),
            "val": tf.train.Feature(float_list=tf.train.FloatList(value=val))})
        return tf.train.Example(features=f).SerializeToString()
    recs = tf.constant([example([3, 1], [0.5, 1.5]), example([0], [2.0])])
    feats = {"sp": tf.io.SparseFeature(index_key="ix", value_key="val", dtype=tf.float32, size=5)}
    out = tf.io.parse_example(recs, feats)["sp"]
    one = tf.io.parse_single_example(recs[0], feats)["sp"]
    return {"idx": out.indices, "vals": out.values, "shape": out.dense_shape,
            "one_idx": one.indices, "one_vals": one.values, "one_shape": one.dense_shape,
            "spec": tf.io.SparseFeature("ix", "val", tf.float32, 5)}


def program_decode_and_crop_jpeg(tf):
    img = tf.cast(tf.reshape(tf.range(24 * 20 * 3) % 251, [24, 20, 3]), tf.uint8)
    data = tf.io.encode_jpeg(img, quality=90)
    crop = tf.io.decode_and_crop_jpeg(data, [3, 5, 10, 7])
    full = tf.io.decode_jpeg(data)
    return {"crop": crop, "same": bool(tf.reduce_all(crop == full[3:13, 5:12])),
            "gray": tf.image.decode_and_crop_jpeg(data, tf.constant([0, 0, 4, 4]), channels=1)}


def program_decode_and_crop_jpeg_outside(tf):
    img = tf.zeros([8, 8, 3], tf.uint8)
    return {"v": tf.io.decode_and_crop_jpeg(tf.io.encode_jpeg(img), [4, 4, 8, 8])}


def program_decode_and_crop_jpeg_windows(tf):
    # Windows that start past an iMCU column (libjpeg's region then starts at column 16) and
    # windows that end inside one; 4:2:0 chroma (TF's encode_jpeg default).
    img = tf.cast(tf.reshape(tf.range(20 * 40 * 3) * 7 % 253, [20, 40, 3]), tf.uint8)
    data = tf.io.encode_jpeg(img, quality=80)
    windows = [[3, 17, 10, 3], [0, 18, 20, 22], [5, 31, 7, 9], [1, 1, 1, 1], [0, 16, 20, 16], [1, 1, 2, 3],
               [0, 17, 3, 2], [2, 33, 4, 7], [0, 0, 20, 1]]
    out = {f"w{i}": tf.io.decode_and_crop_jpeg(data, w) for i, w in enumerate(windows)}
    out["plain"] = tf.io.decode_and_crop_jpeg(data, [2, 17, 5, 11], fancy_upscaling=False)

    @tf.function
    def traced(d, w):
        return tf.io.decode_and_crop_jpeg(d, w)
    out["traced"] = traced(data, tf.constant([3, 17, 10, 3]))
    return out


def program_decode_json_example(tf):
    js = tf.constant([
        '{"features": {"feature": {"a": {"int64List": {"value": ["3", 4]}}, '
        '"b": {"floatList": {"value": [1.5, 2]}}, "c": {"bytesList": {"value": ["aGk="]}}}}}',
        '{"features": {"feature": {"a": {"int64_list": {"value": [5]}}}}}', '{}'])
    ser = tf.io.decode_json_example(js)
    feats = {"a": tf.io.VarLenFeature(tf.int64), "b": tf.io.VarLenFeature(tf.float32),
             "c": tf.io.VarLenFeature(tf.string)}
    parsed = tf.io.parse_example(ser, feats)
    return {"shape": ser.shape, "a": tf.sparse.to_dense(parsed["a"]), "b": tf.sparse.to_dense(parsed["b"]),
            "c": parsed["c"].values, "first_bytes": ser[0]}


def program_decode_json_example_bad(tf):
    return {"v": tf.io.decode_json_example(tf.constant('{"features": 3}'))}

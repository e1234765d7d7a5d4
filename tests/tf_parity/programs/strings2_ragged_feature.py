"""tf.io.RaggedFeature in parse_example / parse_single_example, eagerly and in tf.function:
plain ragged values, each kind of partition, nested partitions, missing features, errors."""


def _ex(tf, **features):
    feats = {}
    for k, v in features.items():
        if v and isinstance(v[0], float):
            feats[k] = tf.train.Feature(float_list=tf.train.FloatList(value=v))
        elif v and isinstance(v[0], bytes):
            feats[k] = tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
        else:
            feats[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=v))
    return tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()


def _rows(tf):
    return [_ex(tf, v=[1, 2, 3, 4], s=[0, 1, 4], l=[1, 3], ids=[0, 2, 2, 2], st=[0, 3], lim=[1, 4],
                f=[1.5, -2.0], t=[b"a", b"bc", b""]),
            _ex(tf, v=[5], s=[0, 0, 1], l=[0, 1], ids=[1], st=[0], lim=[1], f=[], t=[b"z"]),
            _ex(tf, v=[], s=[0], l=[], ids=[], st=[], lim=[], t=[])]


def program_plain_ragged_features(tf):
    F = tf.io.RaggedFeature
    out = tf.io.parse_example(_rows(tf), {"v": F(tf.int64), "f": F(tf.float32), "t": F(tf.string),
                                          "missing": F(tf.int64)})
    return {k: out[k] for k in out}


def program_each_partition(tf):
    F = tf.io.RaggedFeature
    spec = {"splits": F(tf.int64, value_key="v", partitions=[F.RowSplits("s")]),
            "lengths": F(tf.int64, value_key="v", partitions=[F.RowLengths("l")]),
            "rowids": F(tf.int64, value_key="v", partitions=[F.ValueRowIds("ids")]),
            "starts": F(tf.int64, value_key="v", partitions=[F.RowStarts("st")]),
            "limits": F(tf.int64, value_key="v", partitions=[F.RowLimits("lim")])}
    out = tf.io.parse_example(_rows(tf), spec)
    return {k: out[k] for k in out}


def program_uniform_row_length(tf):
    F = tf.io.RaggedFeature
    rows = [_ex(tf, v=[1, 2, 3, 4]), _ex(tf, v=[5, 6]), _ex(tf, v=[])]
    out = tf.io.parse_example(rows, {"r": F(tf.int64, value_key="v", partitions=[F.UniformRowLength(2)])})
    return {"r": out["r"]}


def program_uniform_row_length_that_does_not_divide(tf):
    F = tf.io.RaggedFeature
    return {"r": tf.io.parse_example([_ex(tf, v=[1, 2, 3])],
                                     {"r": F(tf.int64, value_key="v", partitions=[F.UniformRowLength(2)])})["r"]}


def program_two_levels_of_row_lengths(tf):
    F = tf.io.RaggedFeature
    rows = [_ex(tf, v=[1, 2, 3, 4, 5], a=[2, 1], b=[1, 0, 4]), _ex(tf, v=[6, 7], a=[1], b=[2]),
            _ex(tf, v=[], a=[], b=[])]
    out = tf.io.parse_example(rows, {"r": F(tf.int64, value_key="v", partitions=[F.RowLengths("a"),
                                                                               F.RowLengths("b")])})
    return {"r": out["r"]}


def program_parse_single_example(tf):
    F = tf.io.RaggedFeature
    row = _rows(tf)[0]
    out = tf.io.parse_single_example(row, {"v": F(tf.int64), "r": F(tf.int64, value_key="v",
                                                                     partitions=[F.RowSplits("s")])})
    return {"v": out["v"], "r": out["r"]}


def program_wrong_dtype_is_an_error(tf):
    return {"r": tf.io.parse_example(_rows(tf), {"v": tf.io.RaggedFeature(tf.float32)})["v"]}


def program_ragged_feature_next_to_dense_ones(tf):
    F = tf.io.RaggedFeature
    out = tf.io.parse_example(_rows(tf), {"v": F(tf.int64), "l": tf.io.VarLenFeature(tf.int64),
                                          "x": tf.io.FixedLenFeature([], tf.int64, default_value=-1)})
    return {"v": out["v"], "l": tf.sparse.to_dense(out["l"]), "x": out["x"]}


def program_ragged_feature_in_a_function(tf):
    F = tf.io.RaggedFeature
    traces = []

    @tf.function
    def parse(serialized):
        traces.append(1)
        out = tf.io.parse_example(serialized, {"r": F(tf.int64, value_key="v", partitions=[F.RowLengths("l")]),
                                               "v": F(tf.int64)})
        return out["r"], out["v"], tf.reduce_sum(out["v"], axis=1)

    r, v, total = parse(tf.constant(_rows(tf)))
    r2, _, _ = parse(tf.constant(_rows(tf)[:1]))
    return {"r": r, "v": v, "sum": total, "r2": r2, "traces": len(traces)}


def program_ragged_feature_in_dataset_map(tf):
    F = tf.io.RaggedFeature
    ds = tf.data.Dataset.from_tensor_slices(_rows(tf)).batch(2).map(
        lambda s: tf.io.parse_example(s, {"v": F(tf.int64)})["v"])
    return {"batches": [b for b in ds]}

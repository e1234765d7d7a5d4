"""tf.io.parse_single_sequence_example / parse_sequence_example (context and feature lists)."""


def _seq(tf, length, tokens):
    ctx = tf.train.Features(feature={
        "len": tf.train.Feature(int64_list=tf.train.Int64List(value=[length])),
        "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"s%d" % length]))})
    fl = tf.train.FeatureLists(feature_list={
        "tok": tf.train.FeatureList(feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=t))
                                             for t in tokens]),
        "w": tf.train.FeatureList(feature=[tf.train.Feature(float_list=tf.train.FloatList(value=[len(t) / 2, 1.0]))
                                           for t in tokens])})
    return tf.train.SequenceExample(context=ctx, feature_lists=fl).SerializeToString()


def _specs(tf):
    ctx = {"len": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.FixedLenFeature([], tf.string),
           "missing": tf.io.FixedLenFeature([2], tf.float32, default_value=[9.0, 8.0])}
    seq = {"tok": tf.io.VarLenFeature(tf.int64), "w": tf.io.FixedLenSequenceFeature([2], tf.float32),
           "absent": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)}
    return ctx, seq


def program_single_sequence_example(tf):
    ctx_spec, seq_spec = _specs(tf)
    ctx, seq = tf.io.parse_single_sequence_example(_seq(tf, 3, [[1, 2], [3], [4, 5, 6]]), ctx_spec, seq_spec)
    return {"ctx": ctx, "w": seq["w"], "tok_idx": seq["tok"].indices, "tok_vals": seq["tok"].values,
            "tok_shape": seq["tok"].dense_shape, "absent": seq["absent"], "keys": sorted(seq)}


def program_sequence_example_batch(tf):
    ctx_spec, seq_spec = _specs(tf)
    recs = tf.constant([_seq(tf, 2, [[7], [8, 9]]), _seq(tf, 1, [[1, 2, 3]])])
    ctx, seq, lengths = tf.io.parse_sequence_example(recs, ctx_spec, seq_spec)
    return {"ctx": ctx, "w": seq["w"], "tok_idx": seq["tok"].indices, "tok_vals": seq["tok"].values,
            "tok_shape": seq["tok"].dense_shape, "absent": seq["absent"], "lengths": lengths}


def program_sequence_example_missing_list(tf):
    spec = {"gone": tf.io.FixedLenSequenceFeature([], tf.int64)}
    return {"v": tf.io.parse_single_sequence_example(_seq(tf, 1, [[1]]), sequence_features=spec)}


def program_sequence_example_wrong_width(tf):
    spec = {"w": tf.io.FixedLenSequenceFeature([3], tf.float32)}
    return {"v": tf.io.parse_single_sequence_example(_seq(tf, 1, [[1]]), sequence_features=spec)}


def program_sequence_example_sparse_context_in_map(tf):
    recs = [_seq(tf, 2, [[7], [8, 9]]), _seq(tf, 4, [[1, 2, 3]])]
    ctx_spec = {"len": tf.io.VarLenFeature(tf.int64)}
    seq_spec = {"tok": tf.io.VarLenFeature(tf.int64)}
    ds = tf.data.Dataset.from_tensor_slices(recs).map(
        lambda r: tf.io.parse_single_sequence_example(r, ctx_spec, seq_spec))
    out = [(c["len"].values, c["len"].dense_shape, tf.sparse.to_dense(s["tok"])) for c, s in ds]
    return {"v": out}

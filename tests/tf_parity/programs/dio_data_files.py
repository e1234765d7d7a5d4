"""tf.data.experimental save/load, snapshot, TFRecordWriter, parse_example_dataset,
make_batched_features_dataset and the lookup tables built from data sets."""
import os
import tempfile


def _items(ds):
    return list(ds.as_numpy_iterator())


def _examples(tf):
    out = []
    for i in range(4):
        f = tf.train.Features(feature={
            "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, i * 10])),
            "y": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 2]))})
        out.append(tf.train.Example(features=f).SerializeToString())
    return out


def program_save_load_snapshot(tf):
    x = tf.data.experimental
    ds = tf.data.Dataset.range(5).map(lambda v: (v, tf.cast(v, tf.float32) * 1.5))
    d = tempfile.mkdtemp()
    x.save(ds, os.path.join(d, "saved"))
    back = x.load(os.path.join(d, "saved"))
    snap = ds.apply(x.snapshot(os.path.join(d, "snap")))
    first, again = _items(snap), _items(snap)
    return {"loaded": _items(back), "spec": back.element_spec, "snap": first, "snap_again": again}


def program_tfrecord_writer_parse(tf):
    x = tf.data.experimental
    path = os.path.join(tempfile.mkdtemp(), "r.tfrecord")
    x.TFRecordWriter(path).write(tf.data.Dataset.from_tensor_slices(_examples(tf)))
    feats = {"x": tf.io.FixedLenFeature([2], tf.int64), "y": tf.io.FixedLenFeature([1], tf.float32)}
    parsed = tf.data.TFRecordDataset(path).batch(3).apply(x.parse_example_dataset(feats))
    made = x.make_batched_features_dataset(path, 2, feats, label_key="y", num_epochs=1, shuffle=False)
    # drop_final_batch: a static batch dimension (tapeflow's map after batch infers its spec
    # from the first element, so an unknown batch dimension would read as the first batch's).
    dropped = x.make_batched_features_dataset(path, 3, feats, num_epochs=2, shuffle=False,
                                              drop_final_batch=True)
    return {"parsed": _items(parsed), "made": _items(made), "dropped": _items(dropped),
            "spec": dropped.element_spec}


def program_tables_from_dataset(tf):
    x = tf.data.experimental
    keys = tf.data.Dataset.from_tensor_slices(["a", "b", "c"])
    idx = x.index_table_from_dataset(keys, num_oov_buckets=0, default_value=-1)
    pairs = tf.data.Dataset.from_tensor_slices((["p", "q"], [7, 9]))
    table = x.table_from_dataset(pairs, default_value=0)
    init = tf.lookup.StaticHashTable(x.DatasetInitializer(pairs), -5)
    probe = tf.constant(["c", "z", "a"])
    return {"idx": idx.lookup(probe), "idx_size": idx.size(),
            "table": table.lookup(tf.constant(["q", "r"])), "init": init.lookup(tf.constant(["p", "x"]))}

"""Sweep 4: more tf.data: text/records, structure, shuffling seeds, sparse and ragged elements."""
import os
import tempfile

import numpy as np


def program_tfrecord_roundtrip(tf):
    path = os.path.join(tempfile.mkdtemp(prefix="sweep4_"), "data.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(3):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i * 2.])),
                "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}))
            w.write(ex.SerializeToString())
    spec = {"x": tf.io.FixedLenFeature([2], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64)}
    ds = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_single_example(r, spec))
    batched = tf.data.TFRecordDataset(path).batch(2).map(lambda r: tf.io.parse_example(r, spec))
    return {"rows": [(d["x"], d["y"]) for d in ds], "batched": [(d["x"], d["y"]) for d in batched]}


def program_text_line_dataset(tf):
    d = tempfile.mkdtemp(prefix="sweep4_")
    for name, lines in (("a.txt", ["one", "two"]), ("b.txt", ["three"])):
        with open(os.path.join(d, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    files = sorted(os.path.join(d, n) for n in ("a.txt", "b.txt"))
    ds = tf.data.TextLineDataset(files)
    inter = tf.data.Dataset.from_tensor_slices(files).interleave(tf.data.TextLineDataset, cycle_length=2)
    return {"lines": list(ds.as_numpy_iterator()), "inter": list(inter.as_numpy_iterator()),
            "lens": list(ds.map(tf.strings.length).as_numpy_iterator())}


def program_sparse_elements_batch(tf):
    def to_sparse(x):
        return tf.sparse.from_dense(tf.one_hot(x, 4, dtype=tf.int64))

    ds = tf.data.Dataset.range(3).map(to_sparse).batch(2)
    return {"out": [tf.sparse.to_dense(s) for s in ds], "spec_type": type(ds.element_spec).__name__}


def program_shuffle_seed_order_stable(tf):
    tf.random.set_seed(5)
    a = list(tf.data.Dataset.range(8).shuffle(8, seed=1).as_numpy_iterator())
    tf.random.set_seed(5)
    b = list(tf.data.Dataset.range(8).shuffle(8, seed=1).as_numpy_iterator())
    return {"same": a == b, "perm": sorted(a) == list(range(8))}


def program_structure_namedtuple_and_nested(tf):
    import collections
    Point = collections.namedtuple("Point", ["x", "y"])
    ds = tf.data.Dataset.from_tensor_slices(Point(np.arange(3), np.arange(3) * 2.))
    ds = ds.map(lambda p: Point(p.x + 1, p.y * 10.))
    first = next(iter(ds))
    nested = tf.data.Dataset.from_tensor_slices(((np.arange(2), np.ones(2)), {"k": np.zeros(2)}))
    return {"type": type(first).__name__, "x": first.x, "y": first.y, "spec": nested.element_spec,
            "n": int(nested.cardinality())}


def program_dataset_apply_and_experimental(tf):
    ds = tf.data.Dataset.range(6).apply(tf.data.experimental.enumerate_dataset(start=2))
    ds2 = tf.data.Dataset.range(6).apply(lambda d: d.filter(lambda x: x % 2 == 0))
    return {"out": list(ds.as_numpy_iterator()), "out2": list(ds2.as_numpy_iterator())}


def program_dataset_from_tensor_slices_mismatch(tf):
    return {"ds": tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(4)))}


def program_repeat_shuffle_batch_order(tf):
    ds = tf.data.Dataset.range(3).repeat(2).batch(4)
    ds2 = tf.data.Dataset.range(3).batch(2).repeat(2)
    return {"a": list(ds.as_numpy_iterator()), "b": list(ds2.as_numpy_iterator())}


def program_dataset_save_load(tf):
    d = tempfile.mkdtemp(prefix="sweep4_")
    ds = tf.data.Dataset.range(5).map(lambda x: {"v": x * 2})
    ds.save(d)
    loaded = tf.data.Dataset.load(d)
    return {"out": [e["v"] for e in loaded], "spec": loaded.element_spec}


def program_distributed_like_shard(tf):
    ds = tf.data.Dataset.range(10)
    return {"s0": list(ds.shard(3, 0).as_numpy_iterator()), "s2": list(ds.shard(3, 2).as_numpy_iterator())}


def program_range_output_type(tf):
    ds = tf.data.Dataset.range(1, 7, 2, output_type=tf.int32)
    return {"out": list(ds.as_numpy_iterator()), "spec": ds.element_spec}


def program_concatenate_dtype_mismatch(tf):
    return {"ds": tf.data.Dataset.range(3).concatenate(tf.data.Dataset.from_tensor_slices([1.0]))}


def program_concatenate_relaxed_spec(tf):
    a = tf.data.Dataset.from_tensor_slices([[1, 2]])
    b = tf.data.Dataset.from_tensor_slices([[1, 2, 3]])
    ab = a.concatenate(b)
    return {"spec": ab.element_spec, "out": [x for x in ab]}


def program_group_by_reducer(tf):
    reducer = tf.data.experimental.Reducer(init_func=lambda key: np.int64(0),
                                           reduce_func=lambda state, x: state + x,
                                           finalize_func=lambda state: state * 10)
    ds = tf.data.Dataset.range(10).apply(tf.data.experimental.group_by_reducer(lambda x: x % 3, reducer))
    return {"out": list(ds.as_numpy_iterator())}


def program_ignore_errors_after_map(tf):
    ds = tf.data.Dataset.from_tensor_slices([1., 0., 2., 0., 4.])
    ds = ds.map(lambda x: tf.debugging.check_numerics(1. / x, "inf")).ignore_errors()
    strict = tf.data.Dataset.from_tensor_slices([1., 0.]).map(lambda x: tf.debugging.check_numerics(1. / x, "inf"))
    try:
        list(strict.as_numpy_iterator())
        err = None
    except Exception as e:
        err = type(e).__name__
    return {"out": list(ds.as_numpy_iterator()), "err": err, "card": int(ds.cardinality())}

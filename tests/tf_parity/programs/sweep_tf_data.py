"""TF guide "tf.data", written anew: sources, transformations, structure, windows, reductions."""
import numpy as np


def program_range_map_batch_structure(tf):
    ds = tf.data.Dataset.range(10).map(lambda x: (x, tf.cast(x, tf.float32) * 0.5)).batch(4)
    return {"spec": ds.element_spec, "items": list(ds.as_numpy_iterator()),
            "card": int(ds.cardinality())}


def program_from_tensors_vs_slices(tf):
    t = tf.constant([[1, 2], [3, 4], [5, 6]])
    a = tf.data.Dataset.from_tensors(t)
    b = tf.data.Dataset.from_tensor_slices(t)
    return {"a": [x for x in a], "b": [x for x in b], "a_spec": a.element_spec, "b_spec": b.element_spec}


def program_dict_features_map(tf):
    feats = {"a": np.arange(6, dtype="int64"), "b": np.linspace(0, 1, 6).astype("float32")}
    ds = tf.data.Dataset.from_tensor_slices((feats, np.arange(6) % 2))
    ds = ds.map(lambda f, y: ({"s": tf.cast(f["a"], tf.float32) + f["b"]}, y)).filter(lambda f, y: y == 1)
    return {"items": [(f["s"], y) for f, y in ds], "spec": ds.element_spec}


def program_reduce_and_scan(tf):
    ds = tf.data.Dataset.range(1, 6)
    total = ds.reduce(np.int64(0), lambda s, x: s + x)
    scanned = ds.scan(np.int64(0), lambda s, x: (s + x, s * 10 + x))
    return {"total": total, "scan": list(scanned.as_numpy_iterator())}


def program_window_flat_map(tf):
    ds = tf.data.Dataset.range(7).window(3, shift=2, drop_remainder=True)
    ds = ds.flat_map(lambda w: w.batch(3))
    return {"w": list(ds.as_numpy_iterator())}


def program_interleave_cycle(tf):
    ds = tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
    return {"out": list(ds.as_numpy_iterator())}


def program_padded_batch_shapes(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda x: tf.fill([x], x))
    pb = ds.padded_batch(2, padded_shapes=[6], padding_values=tf.constant(-1, tf.int64))
    return {"out": list(pb.as_numpy_iterator()), "spec": pb.element_spec}


def program_bucket_by_sequence_length(tf):
    seqs = [[1], [2, 2], [3, 3, 3], [4], [5, 5, 5, 5], [6, 6]]
    ds = tf.data.Dataset.from_generator(lambda: iter(seqs), output_signature=tf.TensorSpec([None], tf.int32))
    ds = ds.bucket_by_sequence_length(element_length_func=lambda e: tf.shape(e)[0],
                                      bucket_boundaries=[2, 4], bucket_batch_sizes=[2, 2, 2])
    return {"out": [b.numpy().tolist() for b in ds]}


def program_group_by_window(tf):
    ds = tf.data.Dataset.range(10).group_by_window(key_func=lambda x: x % 3,
                                                   reduce_func=lambda k, w: w.batch(2), window_size=2)
    return {"out": [b.numpy().tolist() for b in ds]}


def program_rejection_resample_free_take_while(tf):
    ds = tf.data.Dataset.range(20).take_while(lambda x: x < 5).concatenate(tf.data.Dataset.range(100, 102))
    return {"out": list(ds.as_numpy_iterator()), "card": int(ds.cardinality())}


def program_unique_and_apply(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 2, 3, 1, 4]).unique()

    def double(d):
        return d.map(lambda x: x * 2)
    return {"out": list(ds.apply(double).as_numpy_iterator())}


def program_map_with_py_function(tf):
    def py_upper(x):
        return np.int64(x.numpy() ** 2)
    ds = tf.data.Dataset.range(4).map(lambda x: tf.py_function(py_upper, [x], tf.int64))
    return {"out": list(ds.as_numpy_iterator()), "dtype": ds.element_spec.dtype}


def program_dataset_in_tf_function_loop(tf):
    ds = tf.data.Dataset.range(5).map(lambda x: x * 2)

    @tf.function
    def total(d):
        s = tf.constant(0, tf.int64)
        for x in d:
            s += x
        return s
    return {"t": total(ds), "t2": total(ds.take(2))}


def program_zip_repeat_cardinality(tf):
    a = tf.data.Dataset.range(3)
    b = tf.data.Dataset.range(10, 15)
    z = tf.data.Dataset.zip((a, b))
    inf = a.repeat()
    return {"z": list(z.as_numpy_iterator()), "card": int(z.cardinality()),
            "inf": int(inf.cardinality()), "is_inf": bool(inf.cardinality() == tf.data.INFINITE_CARDINALITY),
            "filt": int(a.filter(lambda x: x > 0).cardinality())}


def program_choose_and_sample(tf):
    a = tf.data.Dataset.from_tensors(tf.constant("a")).repeat(3)
    b = tf.data.Dataset.from_tensors(tf.constant("b")).repeat(3)
    choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 0, 1, 0], tf.int64))
    out = tf.data.Dataset.choose_from_datasets([a, b], choice)
    return {"out": [x.numpy().decode() for x in out]}


def program_batch_ragged_and_unbatch(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1, 2], [3, 4], [5, 6]])).batch(2).unbatch()
    e = tf.data.Dataset.range(3).map(lambda x: tf.range(x))
    rb = e.ragged_batch(3) if hasattr(e, "ragged_batch") else None
    return {"unb": list(ds.as_numpy_iterator()), "ragged": [r for r in rb]}


def program_options_and_iterator_get_next(tf):
    ds = tf.data.Dataset.range(3)
    opts = tf.data.Options()
    opts.deterministic = True
    ds = ds.with_options(opts)
    it = iter(ds)
    first = next(it)
    nxt = it.get_next()
    opt = it.get_next_as_optional()
    after = it.get_next_as_optional()
    return {"first": first, "nxt": nxt, "opt": opt.get_value(), "has": after.has_value(),
            "det": ds.options().deterministic}


def program_map_random_per_epoch(tf):
    tf.random.set_seed(7)
    ds = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform((), maxval=100, dtype=tf.int64))
    e1 = list(ds.as_numpy_iterator())
    e2 = list(ds.as_numpy_iterator())
    both = tf.data.Dataset.range(3).map(lambda x: (tf.random.uniform(()), tf.random.normal((), seed=3)))
    return {"same": e1 == e2, "e1": e1, "both": list(both.as_numpy_iterator()),
            "again": list(both.as_numpy_iterator())}


def program_map_random_op_seed_no_global(tf):
    tf.random.set_seed(None)
    ds = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform((), seed=5))
    return {"e1": list(ds.as_numpy_iterator()), "e2": list(ds.as_numpy_iterator())}

"""Sweep 4: tf.data pipelines as the tf.data guide builds them, written anew."""
import numpy as np


def program_from_generator_signature(tf):
    def gen():
        for i in range(1, 5):
            yield {"x": np.arange(i, dtype=np.float32), "y": i % 2}

    ds = tf.data.Dataset.from_generator(gen, output_signature={
        "x": tf.TensorSpec([None], tf.float32), "y": tf.TensorSpec([], tf.int32)})
    pb = ds.padded_batch(2, padded_shapes={"x": [None], "y": []})
    return {"spec": ds.element_spec, "items": [(d["x"], d["y"]) for d in pb],
            "card": int(ds.cardinality()), "pspec": pb.element_spec}


def program_from_generator_args(tf):
    def gen(n, scale):
        for i in range(int(n)):
            yield i * float(scale)

    ds = tf.data.Dataset.from_generator(gen, args=(3, 0.5), output_signature=tf.TensorSpec([], tf.float32))
    return {"items": list(ds.as_numpy_iterator())}


def program_interleave_parallel_deterministic(tf):
    ds = tf.data.Dataset.range(4).interleave(lambda x: tf.data.Dataset.range(x * 10, x * 10 + 3),
                                             cycle_length=3, block_length=1,
                                             num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    return {"out": list(ds.as_numpy_iterator())}


def program_window_variants(tf):
    ds = tf.data.Dataset.range(8)
    w1 = ds.window(3, shift=1, stride=2, drop_remainder=True).flat_map(lambda w: w.batch(3))
    w2 = ds.window(3).flat_map(lambda w: w.batch(10))
    z = tf.data.Dataset.zip((ds, ds.map(lambda x: x * x))).window(2).flat_map(
        lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))
    return {"w1": list(w1.as_numpy_iterator()), "w2": list(w2.as_numpy_iterator()),
            "z": list(z.as_numpy_iterator())}


def program_group_by_window_varied(tf):
    ds = tf.data.Dataset.range(12).group_by_window(
        key_func=lambda x: x % 2, reduce_func=lambda key, w: w.batch(4), window_size=4)
    return {"out": [b.numpy().tolist() for b in ds]}


def program_bucket_pad_to_boundary(tf):
    seqs = [[1] * n for n in (1, 3, 4, 2, 2, 4, 1)]
    ds = tf.data.Dataset.from_generator(lambda: iter(seqs), output_signature=tf.TensorSpec([None], tf.int32))
    ds = ds.bucket_by_sequence_length(lambda e: tf.shape(e)[0], bucket_boundaries=[3, 5],
                                      bucket_batch_sizes=[2, 2, 2], pad_to_bucket_boundary=True,
                                      drop_remainder=False)
    return {"shapes": [b.shape.as_list() for b in ds]}


def program_padded_batch_nested_and_drop(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda x: (tf.fill([x], x), tf.fill([2, x], -x)))
    pb = ds.padded_batch(2, padding_values=(tf.constant(0, tf.int64), tf.constant(9, tf.int64)),
                         drop_remainder=True)
    return {"out": list(pb.as_numpy_iterator())}


def program_rejection_resample(tf):
    tf.random.set_seed(3)
    ds = tf.data.Dataset.from_tensor_slices(np.array([0] * 40 + [1] * 10, np.int64)).repeat(4)
    res = ds.rejection_resample(lambda x: x, target_dist=[0.5, 0.5], initial_dist=[0.8, 0.2], seed=7)
    labels = [int(c) for c, _ in res.take(100)]
    return {"n": len(labels), "spec": res.element_spec, "balanced": abs(sum(labels) - 50) < 20}


def program_scan_running_mean(tf):
    ds = tf.data.Dataset.from_tensor_slices([2., 4., 6., 8.])
    out = ds.scan((tf.constant(0.), tf.constant(0.)), lambda st, x: ((st[0] + x, st[1] + 1.), (st[0] + x) / (st[1] + 1.)))
    return {"out": list(out.as_numpy_iterator())}


def program_unbatch_rebatch(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.reshape(tf.range(12), [3, 4])).unbatch().batch(5)
    ds2 = tf.data.Dataset.range(10).batch(4).rebatch(2)
    return {"out": list(ds.as_numpy_iterator()), "spec": ds.element_spec, "re": list(ds2.as_numpy_iterator())}


def program_options_and_autotune(tf):
    opts = tf.data.Options()
    opts.deterministic = True
    opts.experimental_optimization.map_parallelization = True
    ds = tf.data.Dataset.range(6).map(lambda x: x + 1, num_parallel_calls=tf.data.AUTOTUNE).with_options(opts)
    ds = ds.prefetch(tf.data.AUTOTUNE).cache()
    return {"out": list(ds.as_numpy_iterator()), "det": ds.options().deterministic, "autotune": tf.data.AUTOTUNE}


def program_take_while_enumerate_zip(tf):
    a = tf.data.Dataset.range(10).take_while(lambda x: x < 4)
    b = tf.data.Dataset.from_tensor_slices(["a", "b", "c"]).enumerate(start=5)
    z = tf.data.Dataset.zip(a, tf.data.Dataset.range(100, 103))
    return {"a": list(a.as_numpy_iterator()), "b": list(b.as_numpy_iterator()),
            "z": list(z.as_numpy_iterator()), "za": int(z.cardinality()), "card_a": int(a.cardinality())}


def program_cardinality_rules(tf):
    r = tf.data.Dataset.range(10)
    return {"batch": int(r.batch(3).cardinality()), "drop": int(r.batch(3, drop_remainder=True).cardinality()),
            "filter": int(r.filter(lambda x: x > 2).cardinality()), "repeat": int(r.repeat().cardinality()),
            "take_inf": int(r.repeat().take(5).cardinality()), "skip": int(r.skip(4).cardinality()),
            "shard": int(r.shard(3, 1).cardinality()), "concat": int(r.concatenate(r).cardinality()),
            "const_inf": tf.data.INFINITE_CARDINALITY, "unknown": tf.data.UNKNOWN_CARDINALITY,
            "fn": tf.data.experimental.cardinality(r.take(3))}


def program_shuffle_seeded_reshuffle(tf):
    ds = tf.data.Dataset.range(6).shuffle(6, seed=42, reshuffle_each_iteration=False)
    first = list(ds.as_numpy_iterator())
    second = list(ds.as_numpy_iterator())
    return {"same": first == second, "sorted": sorted(first)}


def program_map_with_py_function_tout(tf):
    def py_double(x):
        return x.numpy() * 2

    ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(py_double, [x], Tout=tf.int64))
    return {"out": list(ds.as_numpy_iterator())}


def program_filter_bad_predicate(tf):
    ds = tf.data.Dataset.range(3).filter(lambda x: x * 2)
    return {"out": list(ds.as_numpy_iterator())}


def program_dataset_of_dicts_batch_map(tf):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3, 4], "b": [[1., 2.], [3., 4.], [5., 6.], [7., 8.]]})
    ds = ds.batch(2).map(lambda d: {"s": tf.cast(d["a"], tf.float32)[:, None] * d["b"]})
    return {"out": [d["s"] for d in ds]}


def program_iterator_get_next_and_optional(tf):
    it = iter(tf.data.Dataset.range(2))
    a = next(it)
    b = it.get_next()
    opt = it.get_next_as_optional()
    try:
        next(it)
        end = None
    except StopIteration:
        end = "StopIteration"
    return {"a": a, "b": b, "has": opt.has_value(), "end": end, "spec": it.element_spec}


def program_dataset_in_function_reduce(tf):
    @tf.function
    def f(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)

    return {"a": f(tf.data.Dataset.range(5)), "b": f(tf.data.Dataset.range(10))}


def program_choose_and_sample(tf):
    a = tf.data.Dataset.from_tensors("a").repeat()
    b = tf.data.Dataset.from_tensors("b").repeat()
    choice = tf.data.Dataset.range(2).repeat(3)
    out = tf.data.Dataset.choose_from_datasets([a, b], choice)
    return {"out": list(out.as_numpy_iterator())}


def program_counter_and_random(tf):
    c = tf.data.Dataset.counter(start=3, step=2).take(4)
    return {"c": list(c.as_numpy_iterator()), "spec": c.element_spec}


def program_map_unknown_shape_then_batch(tf):
    ds = tf.data.Dataset.range(4).map(lambda x: tf.range(x % 2 + 1))
    return {"err_batch": _try(lambda: list(ds.batch(2).as_numpy_iterator())),
            "ragged": [r.to_list() for r in ds.ragged_batch(2)]}


def _try(fn):
    try:
        return fn()
    except Exception as e:
        return type(e).__name__

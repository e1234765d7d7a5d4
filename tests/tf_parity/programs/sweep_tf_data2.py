"""TF guide "tf.data", more: generators with args, text files, save/load, file caches,
sharding, parallel maps in order, sampling."""
import os

import numpy as np

from _sweep import tmp, tmp_path


def program_from_generator_args_and_signature(tf):
    def gen(stop):
        for i in range(int(stop)):
            yield i, np.arange(i, dtype="float32")
    ds = tf.data.Dataset.from_generator(gen, args=[4], output_signature=(
        tf.TensorSpec((), tf.int64), tf.TensorSpec((None,), tf.float32)))
    return {"spec": ds.element_spec, "items": [(int(a), b.numpy().tolist()) for a, b in ds],
            "card": int(ds.cardinality())}


def program_text_line_dataset_skip_header(tf):
    path = tmp_path("lines.csv")
    with open(path, "w") as f:
        f.write("name,value\na,1\nb,2\nc,3\n")
    ds = tf.data.TextLineDataset(path).skip(1).map(lambda line: tf.strings.split(line, ","))
    return {"rows": [r.numpy().tolist() for r in ds],
            "nums": list(tf.data.TextLineDataset(path).skip(1).map(
                lambda l: tf.strings.to_number(tf.strings.split(l, ",")[1])).as_numpy_iterator())}


def program_dataset_save_and_load(tf):
    ds = tf.data.Dataset.range(5).map(lambda x: {"x": x, "sq": x * x})
    path = os.path.join(tmp(), "saved_ds")
    ds.save(path)
    back = tf.data.Dataset.load(path)
    return {"items": list(back.as_numpy_iterator()), "spec": back.element_spec}


def program_cache_to_file_twice(tf):
    calls = []

    def count(x):
        calls.append(1)
        return x
    ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(count, [x], tf.int64)).cache(tmp_path("cache"))
    a = list(ds.as_numpy_iterator())
    b = list(ds.as_numpy_iterator())
    return {"a": a, "b": b, "calls": len(calls)}


def program_shard_and_rebatch(tf):
    ds = tf.data.Dataset.range(10)
    return {"s0": list(ds.shard(3, 0).as_numpy_iterator()), "s2": list(ds.shard(3, 2).as_numpy_iterator()),
            "rebatch": [b.tolist() for b in ds.batch(4).rebatch(3).as_numpy_iterator()]}


def program_parallel_map_keeps_order(tf):
    ds = tf.data.Dataset.range(20).map(lambda x: x * 3, num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.batch(5).prefetch(tf.data.AUTOTUNE)
    return {"out": [b.tolist() for b in ds.as_numpy_iterator()]}


def program_sample_from_datasets_seeded(tf):
    a = tf.data.Dataset.from_tensors(np.int64(0)).repeat(10)
    b = tf.data.Dataset.from_tensors(np.int64(1)).repeat(10)
    mixed = tf.data.Dataset.sample_from_datasets([a, b], weights=[0.3, 0.7], seed=42)
    return {"first": list(mixed.take(12).as_numpy_iterator())}


def program_map_dict_and_nested_tuple_structure(tf):
    ds = tf.data.Dataset.from_tensor_slices(({"a": [1, 2], "b": [[1.0], [2.0]]}, ([3, 4], [5, 6])))
    ds = ds.map(lambda f, t: (f["a"] + t[0], {"b": f["b"] * 2.0, "c": t[1]}))
    return {"spec": ds.element_spec, "items": list(ds.as_numpy_iterator())}


def program_enumerate_filter_cardinality_unknown(tf):
    ds = tf.data.Dataset.range(6).enumerate(start=10).filter(lambda i, x: x % 2 == 0)
    return {"items": list(ds.as_numpy_iterator()), "card": int(ds.cardinality()),
            "unknown": bool(ds.cardinality() == tf.data.UNKNOWN_CARDINALITY)}


def program_cache_file_shared_and_load_missing(tf):
    path = tmp_path("shared_cache")
    first = tf.data.Dataset.range(4).map(lambda x: tf.fill([x], x)).cache(path)
    a = [r.tolist() for r in first.as_numpy_iterator()]
    second = tf.data.Dataset.range(100).map(lambda x: tf.fill([x], x)).cache(path)  # the cache on disk wins
    out = {"a": a, "b": [r.tolist() for r in second.as_numpy_iterator()]}
    try:
        tf.data.Dataset.load(os.path.join(tmp(), "nothing_here"))
        out["missing"] = "ok"
    except Exception as e:
        out["missing"] = type(e).__name__
    return out

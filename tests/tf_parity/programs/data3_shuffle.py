"""Dataset.shuffle, Dataset.random and Dataset.counter: TensorFlow's orders and numbers for the
same seeds (op seed, global seed, both), epoch after epoch."""
import os
import tempfile


def _values(ds):
    return [x.tolist() for x in ds.as_numpy_iterator()]


def _epochs(ds, n):
    return {f"epoch{i}": _values(ds) for i in range(n)}


def program_op_seed(tf):
    tf.random.set_seed(None)
    return {"full_buffer": _values(tf.data.Dataset.range(4).shuffle(4, seed=1)),
            "small_buffer": _values(tf.data.Dataset.range(10).shuffle(3, seed=1)),
            "buffer_of_one": _values(tf.data.Dataset.range(5).shuffle(1, seed=1)),
            "larger_buffer": _values(tf.data.Dataset.range(7).shuffle(100, seed=11)),
            "two_datasets_same_seed": [_values(tf.data.Dataset.range(6).shuffle(6, seed=4)) for _ in range(2)]}


def program_global_seed_only(tf):
    tf.random.set_seed(5)
    first = _values(tf.data.Dataset.range(6).shuffle(6))
    second = _values(tf.data.Dataset.range(6).shuffle(6))
    tf.random.set_seed(5)
    return {"first": first, "second": second, "after_reset": _values(tf.data.Dataset.range(6).shuffle(6))}


def program_global_and_op_seed(tf):
    tf.random.set_seed(5)
    a = _values(tf.data.Dataset.range(6).shuffle(6, seed=3))
    tf.random.set_seed(6)
    return {"a": a, "other_global": _values(tf.data.Dataset.range(6).shuffle(6, seed=3))}


def program_reshuffle_each_iteration(tf):
    tf.random.set_seed(None)
    return {"reshuffle": _epochs(tf.data.Dataset.range(6).shuffle(3, seed=2, reshuffle_each_iteration=True), 3),
            "fixed": _epochs(tf.data.Dataset.range(6).shuffle(3, seed=2, reshuffle_each_iteration=False), 3),
            "default": _epochs(tf.data.Dataset.range(8).shuffle(8, seed=9), 2)}


def program_repeat_around_shuffle(tf):
    tf.random.set_seed(None)
    r = tf.data.Dataset.range(5)
    return {"shuffle_then_repeat": _values(r.shuffle(3, seed=2).repeat(3)),
            "fixed_then_repeat": _values(r.shuffle(3, seed=2, reshuffle_each_iteration=False).repeat(3)),
            "repeat_then_shuffle": _values(r.repeat(3).shuffle(4, seed=2)),
            "global_only_repeat": _global_repeat(tf)}


def _global_repeat(tf):
    tf.random.set_seed(8)
    return _values(tf.data.Dataset.range(4).shuffle(2).repeat(2))


def program_shuffle_batch_take(tf):
    tf.random.set_seed(None)
    ds = tf.data.Dataset.range(100).shuffle(10, seed=3).batch(7).take(2)
    return {"batches": _values(ds), "cardinality": ds.cardinality()}


def program_shuffle_structures(tf):
    tf.random.set_seed(None)
    ds = tf.data.Dataset.from_tensor_slices(({"x": tf.range(5) * 10}, tf.constant([b"a", b"b", b"c", b"d", b"e"])))
    out = [(e[0]["x"].numpy().tolist(), e[1].numpy()) for e in ds.shuffle(5, seed=7)]
    return {"pairs": out, "spec": str(ds.shuffle(2, seed=1).element_spec)}


def program_random_dataset(tf):
    tf.random.set_seed(None)
    rerandom = tf.data.Dataset.random(seed=4, rerandomize_each_iteration=True).take(3)
    ds = tf.data.Dataset.random(seed=4)
    return {"fixed": _epochs(ds.take(3), 2), "rerandomize": _epochs(rerandom, 2),
            "spec": str(ds.element_spec), "cardinality": ds.cardinality()}


def program_random_dataset_global_seed(tf):
    tf.random.set_seed(12)
    return {"a": _values(tf.data.Dataset.random().take(4)), "b": _values(tf.data.Dataset.random(seed=1).take(2))}


def program_counter(tf):
    c = tf.data.Dataset.counter()
    return {"default": _values(c.take(4)), "start_step": _values(tf.data.Dataset.counter(10, -3).take(4)),
            "int32": _values(tf.data.Dataset.counter(2, dtype=tf.int32).take(2)),
            "spec": str(tf.data.Dataset.counter(dtype=tf.int32).element_spec), "cardinality": c.cardinality()}


def program_random_shuffle_op(tf):
    tf.random.set_seed(3)
    a = tf.random.shuffle(tf.range(8), seed=3)
    b = tf.random.shuffle(tf.range(8), seed=3)
    return {"a": a, "b": b, "rows": tf.random.shuffle(tf.reshape(tf.range(12), [4, 3]), seed=1),
            "global_only": tf.random.shuffle(tf.range(6))}


def program_list_files_shuffled(tf):
    tf.random.set_seed(None)
    root = tempfile.mkdtemp(prefix="tfparity_data3_")
    for i in range(6):
        with open(os.path.join(root, f"f{i}.txt"), "w") as f:
            f.write(str(i))
    ds = tf.data.Dataset.list_files(os.path.join(root, "*.txt"), shuffle=True, seed=5)
    names = lambda: [os.path.basename(p.decode()) for p in ds.as_numpy_iterator()]
    return {"epoch0": names(), "epoch1": names(),
            "unshuffled": [os.path.basename(p.decode()) for p in
                           tf.data.Dataset.list_files(os.path.join(root, "*.txt"), shuffle=False).as_numpy_iterator()]}


def program_shuffle_endless_input(tf):
    tf.random.set_seed(None)
    ds = tf.data.Dataset.counter().shuffle(4, seed=tf.constant(1, tf.int64)).take(8)
    return {"v": _values(ds), "cardinality": tf.data.Dataset.counter().shuffle(4).cardinality(),
            "random_shuffled": _values(tf.data.Dataset.random(seed=2).shuffle(3, seed=2).take(3))}


def program_shuffle_bad_buffer(tf):
    return tf.data.Dataset.range(3).shuffle(0)


def program_shuffle_unknown_buffer(tf):
    tf.random.set_seed(None)
    return {"whole": _values(tf.data.Dataset.range(10).shuffle(-2, seed=1)),
            "filtered": _values(tf.data.Dataset.range(10).filter(lambda x: x < 7).shuffle(-2, seed=1)),
            "empty": _values(tf.data.Dataset.range(0).shuffle(-2, seed=1))}


def program_experimental_aliases(tf):
    tf.random.set_seed(None)
    e = tf.data.experimental
    return {"counter": _values(e.Counter(2).take(2)), "random": _values(e.RandomDataset(seed=4).take(2)),
            "shuffle_and_repeat": _values(tf.data.Dataset.range(5).apply(e.shuffle_and_repeat(5, 2, seed=1)))}

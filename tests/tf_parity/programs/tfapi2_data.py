"""tf.data.experimental enumerate_dataset, dense_to_ragged_batch, shuffle_and_repeat,
map_and_batch, unbatch, Counter (through Dataset.apply)."""


def program_experimental_transforms(tf):
    ds = tf.data.Dataset.range(5)
    x = tf.data.experimental
    shuffled = list(ds.apply(x.shuffle_and_repeat(5, count=2, seed=3)).as_numpy_iterator())
    return {"enum": list(ds.apply(x.enumerate_dataset(start=10)).as_numpy_iterator()),
            "ragged": [r for r in tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n)).apply(
                x.dense_to_ragged_batch(2))],
            "shuffled_sorted": sorted(int(v) for v in shuffled), "shuffled_len": len(shuffled),
            "map_batch": list(ds.apply(x.map_and_batch(lambda v: v * 2, 2)).as_numpy_iterator()),
            "map_batch_drop": list(ds.apply(x.map_and_batch(lambda v: v * 2, 2, drop_remainder=True))
                                   .as_numpy_iterator()),
            "unbatch": list(tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).apply(x.unbatch())
                            .as_numpy_iterator()),
            "counter": list(x.Counter(start=3, step=-2).take(4).as_numpy_iterator()),
            "counter_f": list(x.Counter(1, 0.5, dtype=tf.float32).take(3).as_numpy_iterator()),
            "counter_spec": x.Counter().element_spec.dtype}

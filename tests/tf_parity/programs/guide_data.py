"""TF guide: tf.data basics."""
import numpy as np


def _list(ds):
    return [e for e in ds]


def program_from_tensor_slices(tf):
    ds = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
    return {"elems": _list(ds), "spec": ds.element_spec.shape, "reduce": ds.reduce(0, lambda s, v: s + v)}


def program_map_filter_batch(tf):
    ds = tf.data.Dataset.range(10).map(lambda x: x * 2).filter(lambda x: x % 3 == 0).batch(2)
    return {"elems": _list(ds)}


def program_batch_drop_remainder(tf):
    ds = tf.data.Dataset.range(7).batch(3, drop_remainder=True)
    return {"elems": _list(ds), "shape": ds.element_spec.shape}


def program_zip_and_tuples(tf):
    a = tf.data.Dataset.range(3)
    b = tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return {"elems": _list(tf.data.Dataset.zip((a, b)))}


def program_dict_elements(tf):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[1.0], [2.0]]})
    return {"elems": _list(ds)}


def program_repeat_take_skip(tf):
    ds = tf.data.Dataset.range(3).repeat(2).skip(1).take(4)
    return {"elems": _list(ds)}


def program_padded_batch(tf):
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(2)
    return {"elems": _list(ds)}


def program_shuffle_seeded_no_reshuffle(tf):
    ds = tf.data.Dataset.range(5).shuffle(5, seed=1, reshuffle_each_iteration=False)
    first = [int(v) for v in ds]
    second = [int(v) for v in ds]
    return {"same": first == second, "sorted": sorted(first)}


def program_generator(tf):
    def gen():
        for i in range(4):
            yield i, np.ones([i], "float32")
    ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec([], tf.int32),
                                                                tf.TensorSpec([None], tf.float32)))
    return {"elems": _list(ds)}


def program_enumerate_window(tf):
    ds = tf.data.Dataset.range(5).enumerate(start=10)
    return {"elems": _list(ds)}


def program_cardinality(tf):
    ds = tf.data.Dataset.range(10).batch(3)
    return {"card": ds.cardinality(), "filtered": tf.data.Dataset.range(4).filter(lambda x: x > 1).cardinality()}


def program_unbatch_flat_map(tf):
    ds = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).unbatch()
    fm = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(2))
    return {"unbatch": _list(ds), "flat_map": _list(fm)}


def program_iterator_in_function(tf):
    ds = tf.data.Dataset.range(5)

    @tf.function
    def total(d):
        s = tf.constant(0, tf.int64)
        for x in d:
            s += x
        return s
    return {"s": total(ds)}


def program_prefetch_cache(tf):
    ds = tf.data.Dataset.range(4).map(lambda x: x + 1).cache().prefetch(tf.data.AUTOTUNE)
    return {"a": _list(ds), "b": _list(ds)}

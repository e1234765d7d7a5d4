"""tf.random.experimental.index_shuffle / tf.random_index_shuffle (TensorFlow's cipher: every
block size from 16 to 64 bits, batched seeds and bounds, dtypes) and
tf.random.experimental.stateless_shuffle (TensorFlow's order for a seed), plus errors."""
import numpy as np


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


def program_index_shuffle_permutations(tf):
    out = {}
    for top in (0, 1, 3, 9, 100, 65535, 65536, 70000):
        idx = tf.range(min(top, 200) + 1, dtype=tf.int64)
        out[f"max{top}"] = tf.random.experimental.index_shuffle(idx, [5, 9], tf.constant(top, tf.int64))
    out["doc"] = tf.random.experimental.index_shuffle(tf.range(4), seed=[5, 9], max_index=3)
    out["scalar"] = tf.random.experimental.index_shuffle(2, [5, 8], 9)
    return out


def program_index_shuffle_wide_blocks(tf):
    out = {}
    for top in (2 ** 20 + 7, 2 ** 31 - 1, 2 ** 40 + 12345, 2 ** 62, 2 ** 63 - 1):
        idx = tf.constant([0, 1, 17, 2 ** 19, 2 ** 20], tf.int64)
        out[str(top)] = tf.random.experimental.index_shuffle(idx, tf.constant([123456789, -42], tf.int64),
                                                             tf.constant(top, tf.int64))
    out["uint64"] = tf.random.experimental.index_shuffle(tf.constant(np.array([3, 2 ** 63 + 5], np.uint64)), [1, 2],
                                                         tf.constant(np.uint64(2 ** 64 - 1)))
    out["uint32"] = tf.random.experimental.index_shuffle(tf.constant([7, 4000000000], tf.uint32), [3, 4],
                                                         tf.constant(4294967295, tf.uint32))
    return out


def program_random_index_shuffle_raw(tf):
    idx = tf.constant([0, 1, 2, 3, 4, 5], tf.int32)
    seeds = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 2, 3], [0, 0, 0], [2 ** 31 - 1, -1, 5]], tf.int32)
    tops = tf.constant([10, 10, 10, 300, 5, 99999], tf.int32)
    return {"batched": tf.random_index_shuffle(idx, seeds, tops),
            "rounds8": tf.random_index_shuffle(idx, [1, 2, 3], 20, rounds=8),
            "shared_seed": tf.random_index_shuffle(idx, tf.constant([9, 9, 9], tf.int64), 7),
            "dtype": tf.random_index_shuffle(tf.constant(1, tf.int64), [1, 2, 3], tf.constant(5, tf.int64)).dtype}


def program_index_shuffle_errors(tf):
    return {"batched_user_seed": _outcome(lambda: tf.random.experimental.index_shuffle(
                tf.constant([1, 2]), tf.constant([[1, 2], [3, 4]]), tf.constant([5, 5]))),
            "length_mismatch": _outcome(lambda: tf.random_index_shuffle(tf.constant([1, 2]), [1, 2, 3],
                                                                        tf.constant([5, 5, 5]))),
            "float_index": _outcome(lambda: tf.random_index_shuffle(tf.constant(1.0), [1, 2, 3], 4.0)),
            "in_function": tf.function(lambda i: tf.random.experimental.index_shuffle(i, [7, 7], 50))(
                tf.range(10))}


def program_stateless_shuffle(tf):
    v = tf.constant([[1, 2], [3, 4], [5, 6]])
    out = {"doc": tf.random.experimental.stateless_shuffle(v, seed=[8, 9]),
           "vector": tf.random.experimental.stateless_shuffle(tf.range(20), seed=tf.constant([1, 2], tf.int64)),
           "again": tf.random.experimental.stateless_shuffle(tf.range(20), seed=[1, 2]),
           "strings": tf.random.experimental.stateless_shuffle(tf.constant(["a", "b", "c", "d", "e"]), [3, 3]),
           "one_row": tf.random.experimental.stateless_shuffle(tf.ones([1, 4]), [1, 1]),
           "empty": tf.random.experimental.stateless_shuffle(tf.zeros([0, 2]), [1, 1]).shape,
           "philox": tf.random.experimental.stateless_shuffle(tf.range(6), [4, 5], alg="philox"),
           "scalar": _outcome(lambda: tf.random.experimental.stateless_shuffle(tf.constant(3), [1, 1])),
           "threefry": _outcome(lambda: tf.random.experimental.stateless_shuffle(tf.range(6), [4, 5],
                                                                                  alg="threefry"))}
    out["traced"] = tf.function(lambda x: tf.random.experimental.stateless_shuffle(x, [8, 9]))(
        tf.constant(np.arange(12.0).reshape(6, 2)))
    return out

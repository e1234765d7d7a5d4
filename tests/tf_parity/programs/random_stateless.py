"""Stateless random ops: TensorFlow's Philox numbers for the same seed pair (TF guide: random numbers)."""


def program_normal_f32(tf):
    return {"a": tf.random.stateless_normal([7], seed=[1, 2]),
            "b": tf.random.stateless_normal([2, 3], seed=[1, 2], mean=3.0, stddev=0.5)}


def program_normal_f64(tf):
    return {"a": tf.random.stateless_normal([5], seed=[3, 4], dtype=tf.float64)}


def program_normal_same_seed_same_numbers(tf):
    a = tf.random.stateless_normal([4], seed=[9, 9])
    b = tf.random.stateless_normal([4], seed=[9, 9])
    return {"equal": bool(tf.reduce_all(a == b)), "a": a}


def program_uniform_f32(tf):
    return {"a": tf.random.stateless_uniform([9], seed=[5, 6]),
            "ranged": tf.random.stateless_uniform([4], seed=[5, 6], minval=-2.0, maxval=3.0)}


def program_uniform_f64(tf):
    return {"a": tf.random.stateless_uniform([3], seed=[7, 8], dtype=tf.float64, minval=1.0, maxval=2.0)}


def program_uniform_int32(tf):
    return {"a": tf.random.stateless_uniform([10], seed=[1, 2], minval=0, maxval=10, dtype=tf.int32)}


def program_uniform_int64(tf):
    return {"a": tf.random.stateless_uniform([5], seed=[1, 2], minval=-100, maxval=100, dtype=tf.int64)}


def program_uniform_full_int(tf):
    return {"i32": tf.random.stateless_uniform([4], seed=[1, 2], minval=None, maxval=None, dtype=tf.int32),
            "i64": tf.random.stateless_uniform([3], seed=[1, 2], minval=None, maxval=None, dtype=tf.int64)}


def program_uniform_int_needs_both_bounds(tf):
    return {"a": tf.random.stateless_uniform([2], seed=[1, 2], maxval=5, minval=None, dtype=tf.int32)}


def program_truncated_normal(tf):
    x = tf.random.stateless_truncated_normal([300], seed=[11, 12])
    return {"head": x[:10], "max_abs": tf.reduce_max(tf.abs(x)), "tail": x[-6:]}


def program_truncated_normal_f64(tf):
    return {"a": tf.random.stateless_truncated_normal([9], seed=[2, 3], dtype=tf.float64, stddev=2.0)}


def program_int64_seed_tensor(tf):
    return {"a": tf.random.stateless_normal([3], seed=tf.constant([123456789012, -7], tf.int64))}


def program_negative_seed(tf):
    return {"a": tf.random.stateless_uniform([3], seed=[-1, -2])}


def program_seed_zero(tf):
    return {"a": tf.random.stateless_uniform([3], seed=[0, 0])}


def program_alg_philox(tf):
    return {"a": tf.random.stateless_normal([3], seed=[1, 2], alg="philox"),
            "b": tf.random.stateless_normal([3], seed=[1, 2], alg=tf.random.Algorithm.PHILOX)}


def program_categorical(tf):
    logits = tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])
    return {"a": tf.random.stateless_categorical(logits, 8, seed=[4, 2])}


def program_categorical_int32(tf):
    return {"a": tf.random.stateless_categorical([[1.0, 2.0, 3.0, 0.5]], 5, seed=[7, 1], dtype=tf.int32)}


def program_in_function(tf):
    @tf.function
    def f(seed):
        return tf.random.stateless_normal([3], seed=seed)
    return {"a": f(tf.constant([1, 2])), "b": f(tf.constant([1, 2])), "c": f(tf.constant([2, 2]))}


def program_bad_seed_shape(tf):
    return {"a": tf.random.stateless_normal([2], seed=[1, 2, 3])}


def program_matrix_shapes(tf):
    x = tf.random.stateless_uniform([2, 3, 2], seed=[3, 3])
    return {"shape": x.shape, "x": x}


def program_large_normal_moments(tf):
    x = tf.random.stateless_normal([5000], seed=[8, 8])
    return {"mean": tf.reduce_mean(x), "std": tf.math.reduce_std(x), "first": x[:4], "last": x[-4:]}


def program_seeds_from_generator(tf):
    g = tf.random.Generator.from_seed(7)
    seeds = g.make_seeds(2)
    return {"seeds": seeds, "draw": tf.random.stateless_normal([3], seed=seeds[:, 0]),
            "draw2": tf.random.stateless_normal([3], seed=seeds[:, 1])}


def program_split_seed_via_fold(tf):
    seed = tf.constant([5, 6], tf.int64)
    new = tf.random.stateless_uniform([2], seed=seed, minval=None, maxval=None, dtype=tf.int64)
    return {"new_seed": new, "draw": tf.random.stateless_uniform([3], seed=new)}

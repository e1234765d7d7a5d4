"""tf.random.set_seed and op seeds: TensorFlow's derived seeds and numbers (tf.random.set_seed docs)."""


def program_global_seed_only(tf):
    tf.random.set_seed(5)
    return {"a": tf.random.normal([3]), "b": tf.random.normal([3]), "u": tf.random.uniform([2])}


def program_global_seed_repeats(tf):
    tf.random.set_seed(1234)
    a = tf.random.uniform([2])
    tf.random.set_seed(1234)
    return {"a": a, "again": tf.random.uniform([2])}


def program_op_seed_continues(tf):
    tf.random.set_seed(5)
    return {"a": tf.random.normal([3], seed=7), "b": tf.random.normal([3], seed=7)}


def program_op_seed_restarts_after_set_seed(tf):
    tf.random.set_seed(5)
    a = tf.random.uniform([2], seed=1)
    tf.random.uniform([2], seed=1)
    tf.random.set_seed(5)
    return {"a": a, "again": tf.random.uniform([2], seed=1)}


def program_uniform_int(tf):
    tf.random.set_seed(3)
    return {"a": tf.random.uniform([6], 0, 5, dtype=tf.int32, seed=4),
            "b": tf.random.uniform([3], -10, 10, dtype=tf.int64, seed=4)}


def program_uniform_ranges(tf):
    tf.random.set_seed(9)
    return {"a": tf.random.uniform([3], minval=0.1, maxval=0.3, seed=1),
            "b": tf.random.uniform([3], maxval=4.0, seed=2), "c": tf.random.uniform([2], dtype=tf.float64, seed=3)}


def program_truncated(tf):
    tf.random.set_seed(2)
    return {"a": tf.random.truncated_normal([6], seed=3), "b": tf.random.truncated_normal([4], stddev=0.1)}


def program_normal_mean_std(tf):
    tf.random.set_seed(8)
    return {"a": tf.random.normal([2, 2], mean=10.0, stddev=0.5, seed=1), "f64": tf.random.normal([2], dtype=tf.float64)}


def program_function_op_seeds(tf):
    tf.random.set_seed(5)

    @tf.function
    def f():
        return tf.random.normal([2]), tf.random.normal([2])
    a = f()
    b = f()
    return {"a": a, "b": b}


def program_function_with_op_seed(tf):
    tf.random.set_seed(4)

    @tf.function
    def f():
        return tf.random.uniform([3], seed=1)
    return {"a": f(), "b": f()}


def program_categorical_seeded(tf):
    tf.random.set_seed(3)
    logits = tf.math.log([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    return {"a": tf.random.categorical(logits, 5, seed=2), "b": tf.random.categorical(logits, 3)}


def program_shuffle_seeded(tf):
    tf.random.set_seed(3)
    return {"a": tf.random.shuffle(tf.range(10), seed=3), "b": tf.random.shuffle(tf.range(6))}


def program_seed_zero_zero(tf):
    tf.random.set_seed(0)
    return {"a": tf.random.uniform([2], seed=0)}


def program_op_seed_without_global(tf):
    # With no global seed TensorFlow pairs an op seed with its default graph seed.
    a = tf.random.uniform([2], seed=42)
    return {"shape": a.shape}


def program_large_seed(tf):
    tf.random.set_seed(2 ** 40 + 3)
    return {"a": tf.random.uniform([2], seed=2 ** 33)}

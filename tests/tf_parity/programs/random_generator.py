"""tf.random.Generator: state as TensorFlow's Philox state, draws with its numbers."""


def program_from_seed_state(tf):
    return {"int": tf.random.Generator.from_seed(42).state, "pair": tf.random.Generator.from_seed([1, 2]).state,
            "big": tf.random.Generator.from_seed(2 ** 70 + 5).state, "alg": tf.random.Generator.from_seed(1).algorithm}


def program_normal(tf):
    g = tf.random.Generator.from_seed(42)
    a = g.normal([3])
    return {"a": a, "state": g.state, "b": g.normal([2, 2], mean=1.0, stddev=3.0), "state2": g.state}


def program_uniform(tf):
    g = tf.random.Generator.from_seed(1234)
    return {"a": g.uniform([4]), "b": g.uniform([3], minval=2.0, maxval=4.0), "c": g.uniform([2], dtype=tf.float64)}


def program_uniform_int(tf):
    g = tf.random.Generator.from_seed(9)
    return {"a": g.uniform([6], minval=0, maxval=10, dtype=tf.int32),
            "b": g.uniform([3], minval=-5, maxval=5, dtype=tf.int64), "state": g.state}


def program_uniform_full_int(tf):
    g = tf.random.Generator.from_seed(3)
    return {"a": g.uniform_full_int([3], dtype=tf.int64), "b": g.uniform_full_int([2], dtype=tf.int32),
            "c": g.uniform([2], dtype=tf.int64, minval=None, maxval=None)}


def program_truncated_normal(tf):
    g = tf.random.Generator.from_seed(5)
    x = g.truncated_normal([50])
    return {"x": x, "max_abs": tf.reduce_max(tf.abs(x)), "state": g.state}


def program_split(tf):
    g = tf.random.Generator.from_seed(42)
    g.normal([3])
    a, b = g.split(2)
    return {"a_state": a.state, "b_state": b.state, "parent": g.state, "a": a.normal([2]), "b": b.normal([2])}


def program_make_seeds(tf):
    g = tf.random.Generator.from_seed(11)
    return {"seeds": g.make_seeds(3), "state": g.state}


def program_reset_from_seed(tf):
    g = tf.random.Generator.from_seed(1)
    first = g.normal([3])
    g.normal([5])
    g.reset_from_seed(1)
    return {"first": first, "again": g.normal([3])}


def program_skip(tf):
    g = tf.random.Generator.from_seed(8)
    g.skip(10)
    return {"state": g.state, "x": g.uniform([2])}


def program_from_state(tf):
    g = tf.random.Generator.from_state([1, 2, 3], alg="philox")
    return {"x": g.normal([3]), "state": g.state}


def program_copy_from(tf):
    g = tf.random.Generator.from_seed(21)
    g.normal([2])
    h = tf.random.Generator(copy_from=g)
    return {"g": g.normal([3]), "h": h.normal([3])}


def program_state_is_variable(tf):
    g = tf.random.Generator.from_seed(2)
    return {"dtype": g.state.dtype, "shape": g.state.shape, "trainable": g.state.trainable}


def program_in_function_advances(tf):
    g = tf.random.Generator.from_seed(77)

    @tf.function
    def f():
        return g.normal([2])
    return {"a": f(), "b": f(), "state": g.state}


def program_binomial_shape(tf):
    g = tf.random.Generator.from_seed(4)
    x = g.binomial([5], counts=10.0, probs=0.5)
    return {"dtype": x.dtype, "shape": x.shape, "in_range": bool(tf.reduce_all((x >= 0) & (x <= 10)))}


def program_reset_state(tf):
    g = tf.random.Generator.from_seed(3)
    s = g.state.numpy()
    a = g.normal([2])
    g.reset(s)
    return {"a": a, "b": g.normal([2])}


def program_normal_f64(tf):
    g = tf.random.Generator.from_seed(99)
    return {"x": g.normal([3], dtype=tf.float64)}


def program_global_generator_reset(tf):
    tf.random.set_global_generator(tf.random.Generator.from_seed(6))
    return {"x": tf.random.get_global_generator().normal([2])}

"""tf.random.set_seed and op seeds, the cases tf.random.set_seed's documentation and the random
numbers guide describe: the sequences, the per-kernel counters, their reset, tf.function graphs."""


def program_doc_global_seed_sequence(tf):
    tf.random.set_seed(1234)
    a1, a2 = tf.random.uniform([1]), tf.random.uniform([1])
    tf.random.set_seed(1234)
    return {"a1": a1, "a2": a2, "again": [tf.random.uniform([1]), tf.random.uniform([1])],
            "normal": tf.random.normal([2])}


def program_doc_op_seed_counter_and_reset(tf):
    tf.random.set_seed(1234)
    first = [tf.random.uniform([1], seed=1), tf.random.uniform([1], seed=1)]
    tf.random.set_seed(1234)
    return {"first": first, "after_reset": [tf.random.uniform([1], seed=1), tf.random.uniform([1], seed=1)]}


def program_doc_two_functions_same_sequence(tf):
    tf.random.set_seed(1234)

    @tf.function
    def f():
        return tf.random.uniform([1]), tf.random.uniform([1])

    @tf.function
    def g():
        return tf.random.uniform([1]), tf.random.uniform([1])
    return {"f": f(), "g": g(), "f_again": f()}


def program_doc_op_seed_in_function(tf):
    tf.random.set_seed(1234)

    @tf.function
    def foo():
        return tf.random.uniform([1], seed=1), tf.random.uniform([1], seed=1)
    return {"first": foo(), "second": foo()}


def program_doc_global_seed_in_function(tf):
    tf.random.set_seed(1234)

    @tf.function
    def bar():
        return tf.random.uniform([1]), tf.random.uniform([1])
    return {"first": bar(), "second": bar()}


def program_same_op_seed_two_functions(tf):
    tf.random.set_seed(7)

    @tf.function
    def f():
        return tf.random.normal([2], seed=3)

    @tf.function
    def g():
        return tf.random.normal([2], seed=3)
    return {"f": f(), "g": g(), "f2": f(), "g2": g(), "eager": tf.random.normal([2], seed=3)}


def program_set_seed_resets_function_counters(tf):
    tf.random.set_seed(5)

    @tf.function
    def f():
        return tf.random.uniform([2], seed=2), tf.random.uniform([2])
    a, b = f(), f()
    tf.random.set_seed(5)
    return {"a": a, "b": b, "after_reset": f(), "traces": f.experimental_get_tracing_count()}


def program_eager_and_function_interleaved(tf):
    tf.random.set_seed(11)

    @tf.function
    def f():
        return tf.random.uniform([2])
    return {"e1": tf.random.uniform([2]), "f1": f(), "e2": tf.random.uniform([2]), "f2": f(),
            "e3": tf.random.normal([1])}


def program_retrace_draws_same_graph_sequence(tf):
    tf.random.set_seed(3)

    @tf.function
    def f(x):
        return x + tf.random.uniform([2], dtype=x.dtype)
    # A new trace is a new graph: its unseeded ops count from 0 again.
    return {"f32": f(tf.constant([0.0, 0.0])), "f64": f(tf.constant([0.0, 0.0], tf.float64)),
            "f32_again": f(tf.constant([1.0, 1.0])), "traces": f.experimental_get_tracing_count()}


def program_global_seed_only_dtypes_and_ops(tf):
    tf.random.set_seed(21)
    return {"u": tf.random.uniform([3]), "n": tf.random.normal([3]), "t": tf.random.truncated_normal([3]),
            "i": tf.random.uniform([3], 0, 100, dtype=tf.int32), "f64": tf.random.uniform([2], dtype=tf.float64),
            "shuffle": tf.random.shuffle(tf.range(6)), "cat": tf.random.categorical(tf.math.log([[0.5, 0.5]]), 4)}


def program_op_seed_differs_by_op(tf):
    tf.random.set_seed(2)
    return {"uniform": tf.random.uniform([3], seed=9), "normal": tf.random.normal([3], seed=9),
            "uniform_f64": tf.random.uniform([3], seed=9, dtype=tf.float64),
            "uniform_shape": tf.random.uniform([2, 2], seed=9), "uniform_again": tf.random.uniform([3], seed=9)}


def program_get_seed(tf):
    tf.random.set_seed(10)
    eager = [tf.compat.v1.get_seed(None), tf.compat.v1.get_seed(5)]
    tf.random.set_seed(0)
    zero = tf.compat.v1.get_seed(0)

    @tf.function
    def f():
        return tf.constant(0), tf.compat.v1.get_seed(None), tf.compat.v1.get_seed(None)
    tf.random.set_seed(10)
    return {"eager": eager, "zero": zero, "in_function": f()[1:]}


def program_generator_unaffected_by_set_seed(tf):
    g = tf.random.Generator.from_seed(1)
    tf.random.set_seed(1)
    a = g.normal([2])
    tf.random.set_seed(1)
    return {"a": a, "b": g.normal([2]), "state": g.state}

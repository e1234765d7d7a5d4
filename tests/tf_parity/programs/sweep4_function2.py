"""Sweep 4: more of the tf.function guide: retracing rules, closures, iterators, graphs."""


def program_closure_captures_value_at_trace(tf):
    scale = tf.constant(2.)

    @tf.function
    def f(x):
        return x * scale

    a = f(tf.constant(1.))
    scale = tf.constant(10.)
    b = f(tf.constant(1.))
    return {"a": a, "b": b}


def program_closure_python_value_captured_once(tf):
    state = {"k": 1}

    @tf.function
    def f(x):
        return x + state["k"]

    a = f(tf.constant(1))
    state["k"] = 100
    b = f(tf.constant(1))
    c = f(tf.constant([1, 2]))
    return {"a": a, "b": b, "c": c}


def program_iterator_next_in_function(tf):
    it = iter(tf.data.Dataset.range(1, 10))

    @tf.function
    def step():
        return next(it)

    return {"r": [step(), step(), step()]}


def program_function_graph_inspection(tf):
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.square(x))

    cf = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    return {"n_ops_positive": len(cf.graph.get_operations()) > 0, "n_inputs": len(cf.inputs),
            "n_outputs": len(cf.outputs), "out": cf(tf.constant([1., 2., 3.]))}


def program_tf_function_in_tf_function(tf):
    inner_traces = []

    @tf.function
    def inner(x):
        inner_traces.append(1)
        return x * 3

    @tf.function
    def outer(x):
        return inner(x) + inner(x + 1)

    # (TensorFlow traces inner once and calls it twice; tapeflow inlines each call: not compared)
    return {"r": outer(tf.constant(1)), "r2": outer(tf.constant(2)), "outer": outer.experimental_get_tracing_count()}


def program_retracing_on_shapes_and_none_dims(tf):
    @tf.function
    def f(x):
        return tf.shape(x)

    for n in (1, 2, 3):
        f(tf.zeros([n, 2]))
    first = f.experimental_get_tracing_count()
    f(tf.zeros([4, 2]))
    return {"first": first, "after": f.experimental_get_tracing_count()}


def program_run_functions_eagerly(tf):
    out = []

    @tf.function
    def f(x):
        out.append(type(x).__name__ != "SymbolicTensor")
        return x + 1

    tf.config.run_functions_eagerly(True)
    try:
        a = f(tf.constant(1))
        b = f(tf.constant(2))
    finally:
        tf.config.run_functions_eagerly(False)
    return {"a": a, "b": b, "calls": len(out), "eager": tf.executing_eagerly()}


def program_executing_eagerly_inside(tf):
    seen = []

    @tf.function
    def f():
        seen.append(tf.executing_eagerly())
        return tf.constant(1)

    f()
    return {"inside": seen, "outside": tf.executing_eagerly(), "inside_function": tf.inside_function()}


def program_shape_inside_function(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        static = x.shape
        dynamic = tf.shape(x)
        return tf.reshape(x, [dynamic[0] * 3]), static.as_list()[1]

    r, n = f(tf.ones([2, 3]))
    return {"r": r, "n": n}


def program_cond_with_tensor_and_python_branches(tf):
    @tf.function
    def f(x, use_square):
        if use_square:
            y = x * x
        else:
            y = x + 1
        if tf.reduce_sum(y) > 10:
            y = y / 2
        return y

    return {"a": f(tf.constant([1., 5.]), True), "b": f(tf.constant([1., 5.]), False),
            "count": f.experimental_get_tracing_count()}


def program_while_loop_explicit(tf):
    i0 = tf.constant(0)
    m0 = tf.ones([2, 2])
    i, m = tf.while_loop(lambda i, m: i < 3, lambda i, m: (i + 1, tf.concat([m, m], 0)), [i0, m0],
                         shape_invariants=[i0.get_shape(), tf.TensorShape([None, 2])])
    return {"i": i, "shape": m.shape}


def program_switch_case_and_case(tf):
    @tf.function
    def f(i):
        return tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20)], default=lambda: tf.constant(-1))

    x = tf.constant(3)
    c = tf.case([(x < 2, lambda: tf.constant("small")), (x < 5, lambda: tf.constant("mid"))],
                default=lambda: tf.constant("big"))
    return {"a": f(tf.constant(0)), "b": f(tf.constant(1)), "d": f(tf.constant(7)), "c": c}

"""tf.case, tf.grad_pass_through, tf.recompute_grad, tf.inside_function, tf.timestamp:
eager and inside tf.function."""


def program_case_eager(tf):
    x = tf.constant(3.0)
    first = tf.case([(x > 5, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))], default=lambda: tf.constant(3))
    both = tf.case([(x > 1, lambda: tf.constant(10)), (x > 2, lambda: tf.constant(20))])
    none_default = tf.case([(x > 7, lambda: tf.constant(1))], default=lambda: tf.constant(-1))
    as_dict = tf.case({x < 0: lambda: tf.constant(0.5), x > 0: lambda: tf.constant(1.5)})
    return {"first": first, "both": both, "none_default": none_default, "as_dict": as_dict}


def program_case_traced(tf):
    traces = []

    @tf.function
    def f(v):
        traces.append(1)
        return tf.case([(v < 0, lambda: -v), (v < 10, lambda: v * 2.0)], default=lambda: v + 100.0)
    return {"vals": [f(tf.constant(-2.0)), f(tf.constant(3.0)), f(tf.constant(30.0))], "traces": len(traces)}


def program_case_exclusive_violated(tf):
    x = tf.constant(3.0)
    return {"v": tf.case([(x > 1, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))], exclusive=True)}


def program_case_no_true_without_default(tf):
    x = tf.constant(3.0)
    return {"v": tf.case([(x > 5, lambda: tf.constant(1)), (x > 4, lambda: tf.constant(2))])}


def program_case_exclusive_violated_traced(tf):
    f = tf.function(lambda x: tf.case([(x > 1, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))],
                                      exclusive=True))
    return {"ok": f(tf.constant(1.5)), "v": f(tf.constant(3.0))}


def program_grad_pass_through(tf):
    x = tf.constant([0.4, 1.6, -2.2])
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = tf.grad_pass_through(tf.round)(x * w)
        loss = tf.reduce_sum(y * y)
    traced = tf.function(lambda v: tf.grad_pass_through(tf.floor)(v))
    return {"y": y, "grad_w": tape.gradient(loss, w), "traced": traced(x)}


def program_recompute_grad(tf):
    w = tf.Variable([[1.0, -1.0], [0.5, 2.0]])
    block = tf.recompute_grad(lambda v: tf.tanh(tf.matmul(v, w)))
    x = tf.constant([[0.3, -0.7], [1.2, 0.1]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(block(block(x)) ** 2)
    gx, gw = tape.gradient(loss, [x, w])

    @tf.function
    def step(v):
        with tf.GradientTape() as t:
            t.watch(v)
            out = tf.reduce_sum(block(v))
        return out, t.gradient(out, v)
    return {"loss": loss, "gx": gx, "gw": gw, "traced": step(x)}


def program_inside_function_and_timestamp(tf):
    seen = []

    @tf.function
    def f():
        seen.append(tf.inside_function())
        t = tf.timestamp()
        return t * 0.0, tf.shape(t)

    zero, shape = f()
    now = tf.timestamp()
    return {"eager": tf.inside_function(), "traced": seen, "zero": zero, "shape": shape,
            "eager_dtype": now.dtype, "eager_shape": now.shape, "positive": bool(now.numpy() > 1.6e9)}

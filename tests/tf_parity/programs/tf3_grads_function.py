"""Gradients through tf.py_function (eagerly and in tf.function), tf.custom_gradient with
variables, tf.autodiff.ForwardAccumulator (JVPs, nested with a tape: Hessian-vector products),
and tf.function's input_signature with None dimensions and reduce_retracing (trace counts)."""
from _sweep import outcomes
from parity import tolerance


def program_py_function_gradients(tf):
    x = tf.Variable([1.0, 2.0, 3.0])

    def cube(v):
        return v ** 3  # runs eagerly on each call, recorded on the tape

    with tf.GradientTape() as tape:
        y = tf.py_function(cube, [x], tf.float32)
        loss = tf.reduce_sum(y * tf.constant([1.0, 0.5, 2.0]))
    eager = tape.gradient(loss, x)

    @tf.function
    def in_graph(v):
        with tf.GradientTape() as t:
            t.watch(v)
            out = tf.py_function(lambda a: tf.sin(a) * a, [v], tf.float32)
        return out, t.gradient(out, v)
    out, g = in_graph(tf.constant([0.5, 1.0]))
    with tf.GradientTape() as tape2:
        two = tf.py_function(lambda a, b: (a * b, a + b), [x, tf.constant(2.0)], [tf.float32, tf.float32])
        total = tf.reduce_sum(two[0]) + tf.reduce_sum(two[1])
    return {"eager": eager, "graph_out": out, "graph_grad": g, "two_grad": tape2.gradient(total, x),
            "shape_unknown": out.shape.rank}


@tolerance(rtol=1e-5, atol=1e-6)
def program_custom_gradient_with_variables(tf):
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    @tf.custom_gradient
    def dense(x):
        y = tf.matmul(x, w)

        def grad(dy, variables=None):
            dx = tf.matmul(dy, w, transpose_b=True) * 2.0  # deliberately doubled
            dw = [tf.matmul(x, dy, transpose_a=True) * 3.0]  # tripled
            return dx, dw
        return y, grad

    x = tf.constant([[1.0, -1.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(dense(x) ** 2)
    gx, gw = tape.gradient(loss, [x, w])

    @tf.function
    def graph_grads(x):
        with tf.GradientTape() as t:
            t.watch(x)
            l2 = tf.reduce_sum(dense(x))
        return t.gradient(l2, [x, w])
    return {"gx": gx, "gw": gw, "graph": graph_grads(x)}


def program_custom_gradient_errors(tf):
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def no_var_grads(x):
        def grad(dy):
            return dy * w
        return x * w, grad

    @tf.custom_gradient
    def wrong_count(x):
        def grad(dy, variables=None):
            return dy, []
        return x * w, grad

    def call(f):
        with tf.GradientTape() as tape:
            y = f(tf.constant(3.0))
        return tape.gradient(y, w)
    return outcomes({"no_variables_kw": lambda: call(no_var_grads), "wrong_count": lambda: call(wrong_count)})


@tolerance(rtol=1e-5, atol=1e-6)
def program_forward_accumulator(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    v = tf.constant([1.0, 0.0, -1.0])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = tf.reduce_sum(tf.sin(x) * x)
        z = tf.exp(x) / (1.0 + x)
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.autodiff.ForwardAccumulator(w, tf.ones_like(w)) as acc2:
        m = tf.matmul(w, w)
    with tf.autodiff.ForwardAccumulator(x, v) as acc3:
        unrelated = tf.constant(5.0) * 2.0
    return {"y": y, "jvp_y": acc.jvp(y), "jvp_z": acc.jvp(z), "jvp_m": acc2.jvp(m),
            "unrelated": acc3.jvp(unrelated),
            "unconnected_zeros": acc3.jvp(unrelated, unconnected_gradients=tf.UnconnectedGradients.ZERO)}


@tolerance(rtol=1e-5, atol=1e-5)
def program_forward_over_back_hvp(tf):
    x = tf.Variable([0.5, -1.0, 2.0])
    v = tf.constant([1.0, 2.0, 0.5])

    def f(x):
        return tf.reduce_sum(x ** 3 * tf.constant([1.0, 2.0, 3.0])) + tf.reduce_prod(x)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            y = f(x)
        g = tape.gradient(y, x)
    hvp_fwd = acc.jvp(g)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y2 = f(x)
        g2 = inner.gradient(y2, x)
        dot = tf.reduce_sum(g2 * v)
    return {"grad": g, "hvp": hvp_fwd, "hvp_back": outer.gradient(dot, x)}


def program_input_signature_none_dims(tf):
    traces = []

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def f(x, k):
        traces.append(x.shape.as_list())
        return tf.reduce_sum(x, axis=1) * tf.cast(k, tf.float32), tf.shape(x)[0]
    a = f(tf.ones([3, 2]), tf.constant(2))
    b = f(tf.zeros([5, 2]), 1)
    errors = outcomes({
        "rank": lambda: f(tf.ones([2]), 1),
        "last_dim": lambda: f(tf.ones([2, 3]), 1),
        "dtype": lambda: f(tf.ones([2, 2], tf.float64), 1),
        "extra_arg": lambda: f(tf.ones([2, 2]), 1, 2),
        "python_list": lambda: f([[1.0, 2.0]], 1)[1].numpy(),
    }, keep_values=True)
    cf = f.get_concrete_function()
    return {"a": a, "b": b, "traces": traces, "n_traces": f.experimental_get_tracing_count(), "errors": errors,
            "cf_inputs": [t.shape for t in cf.inputs], "structured": cf.structured_input_signature[0]}


def program_reduce_retracing_and_shapes(tf):
    traces = []

    @tf.function(reduce_retracing=True)
    def g(x):
        traces.append(x.shape.as_list())
        return tf.reduce_sum(x)
    outs = [g(tf.ones([n])) for n in (1, 2, 3, 4)]
    plain = []

    @tf.function
    def h(x):
        plain.append(x.shape.as_list())
        return x * 2
    for n in (1, 2, 3):
        h(tf.ones([n]))
    h(tf.ones([2]))
    return {"outs": outs, "traces": traces, "count": g.experimental_get_tracing_count(),
            "plain": plain, "plain_count": h.experimental_get_tracing_count()}


def program_function_python_args_retrace(tf):
    traces = []

    @tf.function
    def f(x, mode):
        traces.append(mode)
        return x * 2 if mode == "double" else x + 1
    r = [f(tf.constant(1.0), "double"), f(tf.constant(2.0), "double"), f(tf.constant(1.0), "inc"),
         f(tf.constant(1.0), mode="inc")]
    return {"r": r, "traces": traces, "count": f.experimental_get_tracing_count()}


def program_tape_and_signature_misuse(tf):
    v = tf.Variable(1.0)

    def two_args(x):
        return x

    def unentered():
        return tf.GradientTape().gradient(v * 2.0, v)

    def used_twice():
        with tf.GradientTape() as tape:
            y = v * 3.0
        tape.gradient(y, v)
        return tape.gradient(y, v)

    def persistent_twice():
        with tf.GradientTape(persistent=True) as tape:
            y = v * 3.0
        return [tape.gradient(y, v), tape.gradient(y * y, v)]
    return outcomes({
        "unentered": unentered, "used_twice": used_twice, "persistent_twice": persistent_twice,
        "signature_too_long": lambda: tf.function(two_args, input_signature=[tf.TensorSpec([]), tf.TensorSpec([])]),
        "signature_ok": lambda: tf.function(two_args, input_signature=[tf.TensorSpec([])])(tf.constant(2.0)),
        "signature_shorter": lambda: tf.function(lambda x, y=1.0: x * y, input_signature=[tf.TensorSpec([])])(3.0),
    }, keep_values=True)

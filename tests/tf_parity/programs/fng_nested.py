"""Nested tf.functions (traced once per signature and called from the caller's graph) and
tf.gradients in loops and through nested calls: variables made on the first call, tapes
inside and outside, structured and Python outputs, variable arguments, a Keras model."""


def program_nested_creates_variable(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = None

        @tf.function
        def inner(self, x):
            if self.v is None:
                self.v = tf.Variable(2.0)
            return x * self.v
    m = M()

    @tf.function
    def outer(x):
        return m.inner(x) + 1.0
    return {"outer": outer(tf.constant(3.0)), "inner": m.inner(tf.constant(1.0))}


def program_nested_with_tapes(tf):
    @tf.function
    def sq(x):
        return x * x

    @tf.function
    def g(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = sq(x) * 3.0
        return t.gradient(y, x)

    @tf.function
    def outer(x):
        return sq(x) + 1.0
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = outer(x)
    return {"inner_tape": g(tf.constant(2.0)), "outer_tape": t.gradient(y, x),
            "sq_count": sq.experimental_get_tracing_count()}


def program_gradients_in_loop_and_nested(tf):
    @tf.function
    def sq(x):
        return x * x

    @tf.function
    def h(x):
        acc = tf.zeros_like(x)
        for i in tf.range(3):
            y = x * x * tf.cast(i, tf.float32)
            acc += tf.gradients(y, x)[0]
        return acc

    @tf.function
    def k(x):
        return tf.gradients(sq(x) + sq(x * 2.0), x)[0]
    return {"loop": h(tf.constant([1.0, 2.0])), "nested": k(tf.constant(1.5))}


def program_nested_structures_and_variables(tf):
    @tf.function
    def stats(x):
        return {"m": tf.reduce_mean(x), "n": 3, "t": (x, None)}

    @tf.function
    def use(x):
        s = stats(x)
        return s["m"] * tf.cast(s["n"], tf.float32) + tf.reduce_sum(s["t"][0]) + (0.0 if s["t"][1] is None else 1.0)
    va, vb = tf.Variable(1.0), tf.Variable(5.0)

    @tf.function
    def addv(v, x):
        return v + x

    @tf.function
    def usev(x):
        return addv(va, x) + addv(vb, x)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones")])

    @tf.function
    def run(x):
        return model(x)
    return {"use": use(tf.constant([1.0, 2.0])), "usev": usev(tf.constant(1.0)),
            "addv_count": addv.experimental_get_tracing_count(), "keras": run(tf.ones([1, 3]))}

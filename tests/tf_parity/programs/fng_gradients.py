"""tf.gradients / tf.hessians inside tf.function (eager use raises RuntimeError): grad_ys,
stop_gradients, unconnected_gradients, aggregation_method, lists of ys and xs, variables,
sources computed from other sources, control flow on the path."""


def program_gradients_eager_raises(tf):
    x = tf.constant(1.0)
    out = {}
    for name, fn in (("gradients", lambda: tf.gradients(x * x, x)), ("hessians", lambda: tf.hessians(x * x, x))):
        try:
            fn()
            out[name] = "no error"
        except Exception as exc:
            out[name] = type(exc).__name__
    return out


def program_gradients_basic(tf):
    @tf.function
    def f(x, y):
        z = x * x * y + tf.sin(y)
        return tf.gradients(z, [x, y]), tf.gradients([z, x * 3.0], x), tf.gradients(z, x)
    (gx, gy), (g2,), (g3,) = f(tf.constant([1.0, 2.0]), tf.constant([3.0, -1.0]))
    return {"gx": gx, "gy": gy, "g_two_ys": g2, "g_single": g3}


def program_gradients_grad_ys(tf):
    @tf.function
    def f(x):
        a = x * 2.0
        b = tf.reduce_sum(x * x)
        return tf.gradients([a, b], x, grad_ys=[tf.constant([1.0, 10.0, 100.0]), None]), \
            tf.gradients(a, x, grad_ys=tf.constant([0.5, 0.5, 0.5]))
    (g1,), (g2,) = f(tf.constant([1.0, 2.0, 3.0]))
    return {"g1": g1, "g2": g2}


def program_gradients_stop_gradients(tf):
    @tf.function
    def f(a):
        b = 2.0 * a
        both = tf.gradients(a + b, [a, b], stop_gradients=[a, b])
        plain = tf.gradients(a + b, [a, b])
        only_b = tf.gradients(a + b, a, stop_gradients=b)
        return both, plain, only_b
    both, plain, only_b = f(tf.constant(1.5))
    return {"both": both, "plain": plain, "only_b": only_b}


def program_gradients_unconnected(tf):
    @tf.function
    def f(x, y):
        z = x * 3.0
        none = tf.gradients(z, [x, y])
        zero = tf.gradients(z, [x, y], unconnected_gradients=tf.UnconnectedGradients.ZERO)
        zero_str = tf.gradients(z, [x, y], unconnected_gradients="zero")
        return [g is None for g in none], zero, zero_str
    is_none, zero, zero_str = f(tf.constant([1.0, 2.0]), tf.constant([[1.0], [2.0]]))
    return {"is_none": is_none, "zero": zero, "zero_str": zero_str}


def program_gradients_aggregation(tf):
    @tf.function
    def f(x):
        y = x * x + x * 3.0 + tf.exp(x)
        return [tf.gradients(y, x, aggregation_method=m)[0] for m in (
            tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
            tf.AggregationMethod.EXPERIMENTAL_TREE, tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)]
    values = {"consts": [tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
                         tf.AggregationMethod.EXPERIMENTAL_TREE, tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]}
    values["grads"] = f(tf.constant([0.5, 1.0]))

    @tf.function
    def bad(x):
        return tf.gradients(x * x, x, aggregation_method=7)
    try:
        bad(tf.constant(1.0))
        values["bad"] = "no error"
    except Exception as exc:
        values["bad"] = type(exc).__name__
    return values


def program_gradients_variables(tf):
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable(3.0)

    @tf.function
    def f(x):
        y = tf.reduce_sum(v * x) + v[0] * w + w * w
        return tf.gradients(y, [v, w, x])
    gv, gw, gx = f(tf.constant([4.0, 5.0]))
    return {"gv": gv, "gw": gw, "gx": gx}


def program_gradients_dependent_sources(tf):
    @tf.function
    def f(a):
        b = 2.0 * a
        c = b * b
        return tf.gradients(a + b + c, [a, b, c]), tf.gradients(c, c), tf.gradients(b, [b, a])
    return dict(zip(["three", "self", "b_a"], f(tf.constant(1.5))))


def program_gradients_control_flow(tf):
    @tf.function
    def f(x):
        y = x
        for _ in tf.range(3):
            y = y * x
        if tf.reduce_sum(x) > 0:
            z = tf.sin(y)
        else:
            z = y
        return tf.gradients(z, x), tf.gradients(tf.reduce_sum(y), x)
    (g1,), (g2,) = f(tf.constant([0.5, 1.5]))
    return {"g1": g1, "g2": g2}


def program_gradients_integer_and_shapes(tf):
    @tf.function
    def f(x, i):
        y = tf.reduce_mean(tf.reshape(x, [2, 3]), axis=1) * tf.cast(i, tf.float32)
        g = tf.gradients(y, [x, i])
        return g[0], g[1] is None
    gx, i_none = f(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), tf.constant(2))
    return {"gx": gx, "i_none": i_none}


def program_gradients_second_order(tf):
    @tf.function
    def f(x):
        y = x * x * x
        (g,) = tf.gradients(y, x)
        (gg,) = tf.gradients(g, x)
        return g, gg
    g, gg = f(tf.constant([1.0, -2.0]))
    return {"g": g, "gg": gg}


def program_hessians(tf):
    @tf.function
    def f(x, y):
        z = tf.reduce_sum(x * x * y * y) + tf.reduce_sum(tf.sin(x))
        return tf.hessians(z, [x, y]), tf.hessians([z, tf.reduce_sum(x * x * x)], x)
    (hx, hy), (h1,) = f(tf.constant([1.0, 2.0]), tf.constant([3.0, -1.0]))

    @tf.function
    def g(m):
        return tf.hessians(tf.reduce_sum(m * m * m), m)[0]
    h2 = g(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return {"hx": hx, "hy": hy, "h1": h1, "h2": h2, "h2_shape": h2.shape}


def program_hessians_linear_raises(tf):
    @tf.function
    def f(x, y):
        return tf.hessians(tf.reduce_sum(x * x * y), [x, y])
    return f(tf.constant([1.0, 2.0]), tf.constant([3.0, -1.0]))


def program_gradients_under_tape(tf):
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x * x * x)
            (g,) = tf.gradients(y, x)
            s = tf.reduce_sum(g * g)
        return g, tape.gradient(s, x)
    g, gg = f(tf.constant([1.0, 2.0]))
    return {"g": g, "tape_of_gradients": gg}


def program_gradients_unconnected_variable(tf):
    v = tf.Variable([1.0, 2.0])
    u = tf.Variable(5.0)

    @tf.function
    def f(x):
        y = x * 2.0 + v
        return tf.gradients(y, [u, v], unconnected_gradients="zero"), tf.gradients(y, u)[0] is None
    (gu, gv), none = f(tf.constant([1.0, 1.0]))
    return {"gu": gu, "gv": gv, "none": none}


def program_gradients_keras_layer(tf):
    layer = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")

    @tf.function
    def f(x):
        loss = tf.reduce_sum(tf.tanh(layer(x)))
        return tf.gradients(loss, layer.trainable_variables + [x])
    gk, gb, gx = f(tf.constant([[0.1, 0.2, 0.3]]))
    return {"gk": gk, "gb": gb, "gx": gx}


def program_gradients_random_not_redrawn(tf):
    @tf.function
    def f(w):
        noise = tf.random.uniform([4]) + w * 0.0
        y = tf.reduce_sum(noise * w)
        (g,) = tf.gradients(y, w)
        return tf.reduce_all(tf.equal(g, noise))
    return {"same_draw": f(tf.constant([1.0, 2.0, 3.0, 4.0]))}


def program_gradients_captured_constant(tf):
    c = tf.constant([2.0, 3.0])

    @tf.function
    def f(x):
        y = tf.reduce_sum(x * c * c)
        return tf.gradients(y, [c, x])
    gc, gx = f(tf.constant([1.0, -1.0]))
    return {"gc": gc, "gx": gx}

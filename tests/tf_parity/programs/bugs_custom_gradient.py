"""tf.custom_gradient over captured variables, eagerly and inside tf.function (issue #11),
and the rules of the `variables=` keyword."""


def _scaled(tf, v):
    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy * v, [dy * x * 10.0 for _ in variables]
        return x * v, grad
    return f


def _grads(tf, f, x, v):
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x) * 2.0
    return t.gradient(y, [x, v])


def program_captured_variable_eager(tf):
    v = tf.Variable(2.0)
    return {"g": _grads(tf, _scaled(tf, v), tf.constant(3.0), v)}


def program_captured_variable_in_function(tf):
    v = tf.Variable(2.0)
    f = _scaled(tf, v)
    return {"g": tf.function(lambda x: _grads(tf, f, x, v))(tf.constant(3.0))}


def program_captured_variable_only_in_function(tf):
    v = tf.Variable([1.0, 2.0])
    f = _scaled(tf, v)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(f(x))
        return t.gradient(loss, v)
    return {"g": step(tf.constant([3.0, 4.0]))}


def program_captured_variable_read_before_in_function(tf):
    # The variable is also read outside f, before the call.
    v = tf.Variable(2.0)
    f = _scaled(tf, v)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            loss = f(x) + v * v
        return t.gradient(loss, v)
    return {"g": step(tf.constant(3.0))}


def program_captured_variable_keras_training_step(tf):
    v = tf.Variable(1.0)
    f = _scaled(tf, v)
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            loss = f(x)
        grads = t.gradient(loss, [v])
        opt.apply_gradients(zip(grads, [v]))
        return loss
    losses = [step(tf.constant(0.5)) for _ in range(3)]
    return {"losses": losses, "v": v}


def _no_keyword(tf, w):
    @tf.custom_gradient
    def g(x):
        def grad(dy):
            return dy * 5.0
        return x * w, grad
    return g


def program_grad_without_variables_keyword_raises_eager(tf):
    w = tf.Variable(3.0)
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = _no_keyword(tf, w)(x)
    return {"g": t.gradient(y, x)}


def program_grad_without_variables_keyword_raises_in_function(tf):
    w = tf.Variable(3.0)
    g = _no_keyword(tf, w)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = g(x)
        return t.gradient(y, x)
    return {"g": step(tf.constant(1.0))}


def program_grad_without_variables_keyword_no_tape(tf):
    w = tf.Variable(3.0)
    return {"y": _no_keyword(tf, w)(tf.constant(2.0))}


def program_non_trainable_variable_is_not_captured(tf):
    w = tf.Variable(3.0, trainable=False)
    g = _no_keyword(tf, w)
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = g(x)
    eager = t.gradient(y, x)

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = g(x)
        return t.gradient(y, x)
    return {"eager": eager, "graph": step(tf.constant(1.0))}


def program_variables_keyword_without_capture(tf):
    seen = []

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            seen.append(variables is None)
            return dy * 3.0
        return x * 2.0, grad
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    eager = t.gradient(y, x)
    graph = tf.function(lambda x: _grads(tf, f, x, tf.constant(0.0))[0])(tf.constant(1.0))
    return {"eager": eager, "graph": graph, "seen": seen}


def program_variable_input_is_an_input_in_function(tf):
    @tf.custom_gradient
    def scale(v):
        def grad(dy):
            return dy * 10.0
        return v * 1.0, grad
    v = tf.Variable(2.0)

    @tf.function
    def step():
        with tf.GradientTape() as t:
            y = scale(v)
        return t.gradient(y, v)
    return {"g": step()}


def program_wrong_number_of_variable_gradients(tf):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy * v, []
        return x * v, grad
    return {"g": _grads(tf, f, tf.constant(3.0), v)}


def program_two_captured_variables_kwargs_grad(tf):
    a, b = tf.Variable(2.0, name="a"), tf.Variable(5.0, name="b")

    @tf.custom_gradient
    def f(x):
        def grad(dy, **kwargs):
            vs = kwargs["variables"]
            return dy * a * b, [dy * 100.0 for _ in vs]
        return x * a * b, grad

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            y = f(x)
        return t.gradient(y, [a, b])
    return {"g": step(tf.constant(1.0))}

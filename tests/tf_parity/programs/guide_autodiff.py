"""TF guide: Introduction to gradients and automatic differentiation."""


def program_scalar(tf):
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    return {"dy_dx": tape.gradient(y, x)}


def program_dense_layer(tf):
    w = tf.Variable([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], name="w")
    b = tf.Variable([0.1, -0.2], name="b")
    x = [[1.0, 2.0, 3.0]]
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    dw, db = tape.gradient(loss, [w, b])
    grads = tape.gradient(loss, {"w": w, "b": b})
    return {"dw": dw, "db": db, "dict_b": grads["b"]}


def program_keras_layer(tf):
    layer = tf.keras.layers.Dense(2, activation="relu")
    x = tf.constant([[1.0, 2.0, 3.0]])
    layer.build(x.shape)
    layer.kernel.assign([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]])
    layer.bias.assign([0.0, 0.1])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_mean(y ** 2)
    grad = tape.gradient(loss, layer.trainable_variables)
    return {"grads": grad, "n": len(layer.trainable_variables)}


def program_watch_constant(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x ** 2
    return {"dy_dx": tape.gradient(y, x)}


def program_non_trainable_not_watched(tf):
    x0 = tf.Variable(3.0, name="x0")
    x1 = tf.Variable(3.0, name="x1", trainable=False)
    x2 = tf.Variable(2.0, name="x2") + 1.0
    x3 = tf.constant(3.0, name="x3")
    with tf.GradientTape() as tape:
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    return {"grads": [g if g is not None else "None" for g in grad],
            "watched": [v.name for v in tape.watched_variables()]}


def program_watch_accessed_variables_false(tf):
    x0 = tf.Variable(0.0)
    x1 = tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.softplus(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {"x0": x0, "x1": x1})
    return {"x0": "None" if grad["x0"] is None else grad["x0"], "x1": grad["x1"]}


def program_intermediate(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return {"dz_dy": tape.gradient(z, y)}


def program_persistent(tf):
    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return {"dz_dx": tape.gradient(z, x), "dy_dx": tape.gradient(y, x)}


def program_non_persistent_second_call_raises(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return {"again": tape.gradient(y, x)}


def program_multiple_targets(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y0 = x ** 2
        y1 = 1 / x
    return {"sum": tape.gradient({"y0": y0, "y1": y1}, x)}


def program_nonscalar_target(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * [3.0, 4.0]
    return {"g": tape.gradient(y, x)}


def program_elementwise_sigmoid(tf):
    x = tf.linspace(-10.0, 10.0, 9)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    return {"dy_dx": tape.gradient(y, x)}


def program_control_flow(tf):
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    return {"dv0": dv0, "dv1": "None" if dv1 is None else dv1, "dx": "None" if tape.gradient(result, x) is None else 1}


def program_unconnected_zero(tf):
    x = tf.Variable([2.0, 2.0])
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y ** 2
    return {"g": tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)}


def program_integer_no_gradient(tf):
    x = tf.constant(10)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    return {"g": "None" if g.gradient(y, x) is None else "grad"}


def program_assign_add_stateful_stops(tf):
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1 ** 2
    return {"g": "None" if tape.gradient(y, x0) is None else "grad"}


def program_stop_gradient(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * tf.stop_gradient(x * 3.0)
    return {"g": tape.gradient(y, x)}


def program_source_dtypes_and_unconnected_none(tf):
    # (formerly hand-written in tests/programs/test_prog_guide_autodiff.py)
    x = tf.Variable([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.exp(x))
    g64 = t.gradient(y, x)
    v = tf.Variable(3)
    with tf.GradientTape() as t:
        y = tf.cast(v, tf.float32) * 2.0
    g_int = t.gradient(y, v)
    w = tf.Variable([2.0, 2.0])
    s = tf.Variable(3.0)
    with tf.GradientTape() as t:
        z = s ** 2
    unconnected = t.gradient(z, w, unconnected_gradients="none")
    return {"float64": g64, "int": "None" if g_int is None else g_int,
            "none": "None" if unconnected is None else unconnected}

"""Cells of TF's autodiff and advanced-autodiff guides (site/en/guide/autodiff.ipynb,
advanced_autodiff.ipynb) that guide_autodiff.py and tfguide_*autodiff*.py do not check:
our own small programs doing what each cell does."""
from _cells import error_name
from parity import tolerance


def program_dict_and_list_targets(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x ** 2
        y1 = 1 / x
    return {"dict": tape.gradient({"y0": y0, "y1": y1}, x),
            "list": tape.gradient([y0, y1], x),
            "nested_sources": tape.gradient(y0, {"a": [x], "b": (x,)})}


def program_watch_mixed_sources(tf):
    x0 = tf.Variable(3.0, name="x0")
    x1 = tf.Variable(3.0, name="x1", trainable=False)
    x2 = tf.Variable(2.0, name="x2") + 1.0
    x3 = tf.constant(3.0, name="x3")
    with tf.GradientTape() as tape:
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    return {"grad": grad, "watched": [v.name for v in tape.watched_variables()]}


def program_integer_sources_give_none(tf):
    x = tf.constant(10)
    v = tf.Variable(3)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x + v
    return {"grads": g.gradient(y, [x, v])}


def program_watch_python_number(tf):
    def watch():
        with tf.GradientTape() as g:
            g.watch(3.0)
    return {"error": error_name(watch)}


def program_gradient_inside_tape_context(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        dy = tape.gradient(y, x)   # TF warns: computing inside the context is inefficient
        z = dy * x
    return {"dy": dy, "dz": tape.gradient(z, x)}


@tolerance(atol=1e-6)  # the sum of the rows vs the gradient: float32 rounding
def program_jacobian_without_pfor(tf):
    x = tf.random.stateless_normal([7, 5], seed=[1, 2])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu,
                                  kernel_initializer=tf.keras.initializers.Constant(0.1))
    with tf.GradientTape(persistent=True) as tape:
        y = layer(x)
    j = tape.jacobian(y, layer.kernel, experimental_use_pfor=False)
    jp = tape.jacobian(y, layer.kernel)
    g = tape.gradient(y, layer.kernel)
    return {"shape": j.shape, "same": bool(tf.reduce_all(j == jp)),
            "sum_is_gradient": float(tf.reduce_max(tf.abs(tf.reduce_sum(j, axis=[0, 1]) - g)))}


@tolerance(rtol=1e-5)  # tanh: TensorFlow uses a fast approximation
def program_batch_jacobian_via_einsum(tf):
    x = tf.random.stateless_normal([2, 3], seed=[3, 4])
    w = tf.random.stateless_normal([3, 4], seed=[5, 6])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(x @ w)
    j = tape.jacobian(y, x)
    return {"jshape": j.shape, "einsum": tf.einsum("bxby->bxy", j),
            "batch": tape.batch_jacobian(y, x)}


def program_jacobian_unconnected(tf):
    x = tf.constant([1.0, 2.0])
    u = tf.constant([3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = x * 2.0
    return {"none": tape.jacobian(y, u),
            "zero": tape.jacobian(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO)}


def program_stop_recording_in_tape(tf):
    x = tf.constant(2.0)
    y = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch([x, y])
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    return {"dx": grad["x"], "dy": grad["y"]}


def program_custom_gradient_log1pexp(tf):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad
    x = tf.constant([0.0, 10.0, 100.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(log1pexp(x))
    return {"y": y, "grad": tape.gradient(y, x)}


def program_gradient_through_cond_and_loop_in_function(tf):
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            if x > 0.0:
                result = v0
            else:
                result = v1 ** 2
            for _ in tf.range(3):
                result = result * x
        return tape.gradient(result, [v0, v1, x])
    return {"pos": f(tf.constant(1.5)), "neg": f(tf.constant(-1.5))}


def program_second_order_nested_tapes(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    x.assign(3.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t4:
            y = tf.sin(x)
        g = t4.gradient(y, x)
    return {"dy_dx": dy_dx, "d2y_dx2": d2y_dx2, "sin2": t3.gradient(g, x)}


def program_layer_gradient_names(tf):
    layer = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones", name="dense_g5")
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_mean(y ** 2)
    grad = tape.gradient(loss, layer.trainable_variables)
    return {"lines": [f"{v.name}, shape: {g.shape}" for v, g in zip(layer.trainable_variables, grad)],
            "paths": [v.path for v in layer.trainable_variables], "grad": grad}


def program_sigmoid_gradient_linspace(tf):
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    dy_dx = tape.gradient(y, x)
    return {"shape": dy_dx.shape, "max": tf.reduce_max(dy_dx), "at_zero": dy_dx[100],
            "sum": tf.reduce_sum(dy_dx)}


def program_variable_plus_one_is_tensor(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x + 1
    for_x = tape.gradient(y, x)
    x2 = x + 1
    with tf.GradientTape() as tape2:
        y2 = x2 * 2
    return {"type_is_variable": isinstance(x2, tf.Variable), "grad": for_x,
            "unwatched": tape2.gradient(y2, x2) is None}


def program_stateful_assign_in_tape(tf):
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)   # the tape does not record through an assignment
        y = x1 ** 2
    return {"grad": tape.gradient(y, x0)}

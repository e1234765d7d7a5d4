"""Sweep 4: advanced autodiff as the guides use it, written anew."""
from parity import tolerance


@tolerance(rtol=1e-5, atol=1e-5)
def program_jacobian_and_batch_jacobian(tf):
    x = tf.Variable([[1., 2.], [3., 4.]])
    w = tf.constant([[1., -1., 0.5], [2., 0., 1.]])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.tanh(x @ w)
    j = tape.jacobian(y, x)
    bj = tape.batch_jacobian(y, x)
    return {"j_shape": j.shape, "j": j, "bj": bj, "bj_shape": bj.shape}


def program_jacobian_scalar_and_vector(tf):
    x = tf.constant([1., 2., 3.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return {"jac": tape.jacobian(y, x)}


def program_gradient_of_gradient(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x ** 3
        dy = t1.gradient(y, x)
    d2y = t2.gradient(dy, x)
    return {"dy": dy, "d2y": d2y}


def program_hessian_via_jacobian(tf):
    x = tf.Variable([1., 2.])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.reduce_sum(x ** 2 * tf.reverse(x, [0]))
        g = t1.gradient(y, x)
    h = t2.jacobian(g, x)
    return {"g": g, "h": h}


def program_stop_recording(tf):
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
        with tape.stop_recording():
            z = y * 100.
        w = y + z
    return {"g": tape.gradient(w, x)}


def program_watch_accessed_variables_false(tf):
    a = tf.Variable(2.0)
    b = tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(a)
        y = a * b
    ga, gb = tape.gradient(y, [a, b])
    return {"ga": ga, "gb": gb, "watched": [v.name for v in tape.watched_variables()]}


def program_unconnected_gradients_zero(tf):
    x = tf.Variable([1., 2.])
    z = tf.Variable(5.)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * 2.)
    g = tape.gradient(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    with tf.GradientTape() as tape2:
        y2 = x * 1.
    g_none = tape2.gradient(y2, z)
    return {"g": g, "none": g_none is None}


def program_integer_and_stateful_no_gradient(tf):
    x = tf.Variable(2)
    y = tf.Variable(2.)
    with tf.GradientTape(persistent=True) as tape:
        a = x * 2
        b = y.assign_add(1.)
        c = tf.cast(y, tf.int32)
        d = tf.cast(c, tf.float32) * y
    return {"gx": tape.gradient(a, x) is None, "gd": tape.gradient(d, y)}


def program_custom_gradient_clip(tf):
    @tf.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad

    x = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(clip_grad(x) * tf.constant([0.1, 1., -3.]))
    return {"g": tape.gradient(y, x)}


def program_custom_gradient_log1pexp(tf):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    x = tf.constant(100.)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    return {"y": y, "g": tape.gradient(y, x)}


def program_custom_gradient_with_variables(tf):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy * 10., [dy * 7. for _ in variables]
        return x * v, grad

    x = tf.constant(3.)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gv = tape.gradient(y, [x, v])
    return {"y": y, "gx": gx, "gv": gv}


def program_recompute_grad_and_function_grad(tf):
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.sin(x) * x)

    x = tf.Variable([0.5, 1.0])
    with tf.GradientTape() as tape:
        y = f(x)
    return {"y": y, "g": tape.gradient(y, x)}


def program_gradient_through_control_flow(tf):
    x = tf.Variable(3.0)

    @tf.function
    def f(x):
        y = tf.constant(1.)
        for _ in tf.range(3):
            if y < 10.:
                y = y * x
        return y

    with tf.GradientTape() as tape:
        r = f(x)
    return {"r": r, "g": tape.gradient(r, x)}


def program_gradient_of_non_scalar_target(tf):
    x = tf.Variable([1., 2.])
    with tf.GradientTape() as tape:
        y = x * [3., 4.]
    return {"g": tape.gradient(y, x)}


def program_persistent_tape_multiple(tf):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    out = {"dz": tape.gradient(z, x), "dy": tape.gradient(y, x)}
    del tape
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    t.gradient(y, x)
    try:
        t.gradient(y, x)
    except Exception as e:
        out["second"] = type(e).__name__
    return out


def program_output_gradients(tf):
    x = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as tape:
        y = x ** 2
    return {"g": tape.gradient(y, x, output_gradients=tf.constant([1., 0., -1.]))}


def program_forward_accumulator_jvp(tf):
    x = tf.constant([1., 2.])
    v = tf.constant([1., 0.])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = tf.reduce_sum(x ** 3)
    return {"jvp": acc.jvp(y)}


def program_gradient_of_dict_and_nested(tf):
    params = {"w": tf.Variable([1., 2.]), "b": tf.Variable(0.5)}
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(params["w"] * 3.) + params["b"] ** 2
    g = tape.gradient(loss, params)
    return {"g": g}

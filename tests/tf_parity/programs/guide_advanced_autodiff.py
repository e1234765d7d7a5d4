"""TF guide: Advanced automatic differentiation (moved here from hand-written expectations in
tests/programs/test_prog_guide_advanced_autodiff.py: custom gradient clip, multiple tapes,
higher-order gradients)."""
from parity import tolerance


def program_stop_recording(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    return {"dx": grad["x"], "dy": "None" if grad["y"] is None else grad["y"]}


def program_reset_tape(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    reset = True
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            t.reset()
        z = x * x + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    return {"dx": grad["x"], "dy": "None" if grad["y"] is None else grad["y"]}


def program_custom_gradient_clip(tf):
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    return {"g": t.gradient(output, v)}


def program_multiple_tapes(tf):
    x0 = tf.constant(0.0)
    x1 = tf.constant(0.0)
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
        tape0.watch(x0)
        tape1.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.sigmoid(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    return {"d0": tape0.gradient(ys, x0), "d1": tape1.gradient(ys, x1)}


def program_higher_order(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    return {"dy_dx": dy_dx, "d2y_dx2": t2.gradient(dy_dx, x)}


def program_jacobian_scalar_source(tf):
    x = tf.linspace(-2.0, 2.0, 5)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    return {"j": tape.jacobian(y, delta)}


@tolerance(rtol=1e-5, atol=1e-5)   # 1 - tanh(x)**2 near saturation: float32 cancellation
def program_jacobian_matrix(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable([[0.5, -1.0, 0.0], [1.0, 0.25, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.nn.tanh(x @ w)
    j = tape.jacobian(y, w)
    return {"shape": j.shape, "j": j}


def program_batch_jacobian(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x * 2.0)[:, :2] * tf.reduce_sum(x, axis=1, keepdims=True)
    j = tape.batch_jacobian(y, x)
    return {"shape": j.shape, "j": j}


def program_hessian_via_nested_jacobian(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.reduce_sum(x ** 3) + x[0] * x[1]
        g = t1.gradient(y, x)
    return {"h": t2.jacobian(g, x)}


def program_gradient_of_nonscalar_sums(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t:
        y = tf.stack([x[0] * x[1], x[0] ** 2])
    return {"g": t.gradient(y, x)}


def program_output_gradients(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t:
        y = x * x
    return {"g": t.gradient(y, x, output_gradients=tf.constant([10.0, 0.5]))}

"""TF guide "Advanced automatic differentiation" (site/en/guide/advanced_autodiff.ipynb), cell by cell.

tf.random.normal inputs and Keras' random initial weights are replaced by fixed
values (the layers are built, then their weights assigned), so both libraries
compute the same numbers.  Plotting cells are left out.
"""
import os
import tempfile

from parity import tolerance


def _ramp(tf, shape, scale=0.37, shift=0.0):
    n = 1
    for d in shape:
        n *= d
    return tf.reshape(tf.sin(tf.range(n, dtype=tf.float32) * scale + shift), shape)


def _dense(tf, units, activation, in_features, shift):
    layer = tf.keras.layers.Dense(units, activation=activation)
    layer.build((None, in_features))
    layer.kernel.assign(_ramp(tf, [in_features, units], 0.61, shift))
    layer.bias.assign(_ramp(tf, [units], 0.23, shift) * 0.1)
    return layer


def program_stop_recording(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {'x': x, 'y': y})
    return {"dx": grad['x'], "dy": grad['y']}


def program_reset(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    reset = True
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            t.reset()
        z = x * x + y_sq
    grad = t.gradient(z, {'x': x, 'y': y})
    return {"dx": grad['x'], "dy": grad['y']}


def program_stop_gradient(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y_sq = y ** 2
        z = x ** 2 + tf.stop_gradient(y_sq)
    grad = t.gradient(z, {'x': x, 'y': y})
    return {"dx": grad['x'], "dy": grad['y']}


def _clip_gradients(tf):
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward
    return clip_gradients


def program_custom_gradient_clip(tf):
    clip_gradients = _clip_gradients(tf)
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    return {"grad": t.gradient(output, v), "output": output}


def program_custom_gradient_saved_model(tf):
    clip_gradients = _clip_gradients(tf)

    class MyModule(tf.Module):
        # The guide's TensorSpec(None) (unknown rank) is a scalar spec here: tapeflow
        # traces unknown-rank signatures per rank met, not once (see the report).
        @tf.function(input_signature=[tf.TensorSpec([])])
        def call_custom_grad(self, x):
            return clip_gradients(x)
    model = MyModule()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "saved_model")
        tf.saved_model.save(model, path,
                            options=tf.saved_model.SaveOptions(experimental_custom_gradients=True))
        v = tf.Variable(2.0)
        loaded = tf.saved_model.load(path)
        with tf.GradientTape() as t:
            output = loaded.call_custom_grad(v * v)
        return {"grad": t.gradient(output, v), "output": output}


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
    return {"g0": tape0.gradient(ys, x0).numpy(), "g1": tape1.gradient(ys, x1).numpy()}


def program_higher_order(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    return {"dy_dx": dy_dx.numpy(), "d2y_dx2": d2y_dx2.numpy()}


def program_input_gradient_regularization(tf):
    x = _ramp(tf, [7, 5])
    layer = _dense(tf, 10, tf.nn.relu, 5, 0.3)
    with tf.GradientTape() as t2:
        with tf.GradientTape(watch_accessed_variables=False) as t1:
            t1.watch(x)
            y = layer(x)
            out = tf.reduce_sum(layer(x) ** 2)
        g1 = t1.gradient(out, x)
        g1_mag = tf.norm(g1)
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    return {"shapes": [var.shape for var in dg1_mag], "dg1_mag": dg1_mag, "g1_mag": g1_mag, "y": y}


def program_jacobian_scalar_source(tf):
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    dy_dx = tape.jacobian(y, delta)
    return {"y_shape": y.shape, "dy_dx_shape": dy_dx.shape, "dy_dx": dy_dx}


@tolerance(rtol=1e-4, atol=1e-5)
def program_jacobian_tensor_source(tf):
    x = _ramp(tf, [7, 5])
    layer = _dense(tf, 10, tf.nn.relu, 5, 0.1)
    with tf.GradientTape(persistent=True) as tape:
        y = layer(x)
    j = tape.jacobian(y, layer.kernel)
    g = tape.gradient(y, layer.kernel)
    j_sum = tf.reduce_sum(j, axis=[0, 1])
    delta = tf.reduce_max(abs(g - j_sum)).numpy()
    return {"y_shape": y.shape, "kernel_shape": layer.kernel.shape, "j_shape": j.shape,
            "g_shape": g.shape, "small_delta": bool(delta < 1e-3), "j": j}


@tolerance(rtol=1e-3, atol=1e-5)
def program_hessian_newton_step(tf):
    x = _ramp(tf, [7, 5])
    layer1 = _dense(tf, 8, tf.nn.relu, 5, 0.2)
    layer2 = _dense(tf, 6, tf.nn.relu, 8, 0.9)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            x = layer1(x)
            x = layer2(x)
            loss = tf.reduce_mean(x ** 2)
        g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)
    n_params = tf.reduce_prod(layer1.kernel.shape)
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])
    eps = 1e-3
    eye_eps = tf.eye(h_mat.shape[0]) * eps
    update = tf.linalg.solve(h_mat + eye_eps, g_vec)
    _ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
    return {"kernel_shape": layer1.kernel.shape, "h_shape": h.shape, "n_params": n_params,
            "symmetric": bool(tf.reduce_max(abs(h_mat - tf.transpose(h_mat))) < 1e-5),
            "h_mat": h_mat, "g_vec": g_vec}


@tolerance(rtol=1e-4, atol=1e-5)
def program_batch_jacobian(tf):
    x = _ramp(tf, [7, 5])
    layer1 = _dense(tf, 8, tf.nn.elu, 5, 0.4)
    layer2 = _dense(tf, 6, tf.nn.elu, 8, 0.5)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = layer2(y)
    j = tape.jacobian(y, x)
    j_sum = tf.reduce_sum(j, axis=2)
    j_select = tf.einsum('bxby->bxy', j)
    jb = tape.batch_jacobian(y, x)
    error = tf.reduce_max(abs(jb - j_sum))
    off_diagonal = tf.reduce_max(abs(j[:, 0, :, 0] - tf.linalg.diag(tf.linalg.diag_part(j[:, 0, :, 0]))))
    return {"y_shape": y.shape, "j_shape": j.shape, "j_sum_shape": j_sum.shape,
            "j_select_shape": j_select.shape, "jb_shape": jb.shape, "small_error": bool(error < 1e-3),
            "diagonal": bool(off_diagonal == 0.0), "jb": jb}


@tolerance(rtol=1e-3, atol=1e-5)
def program_batch_jacobian_batch_norm(tf):
    x = _ramp(tf, [7, 5])
    layer1 = _dense(tf, 8, tf.nn.elu, 5, 0.4)
    bn = tf.keras.layers.BatchNormalization()
    layer2 = _dense(tf, 6, tf.nn.elu, 8, 0.5)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = bn(y, training=True)
        y = layer2(y)
    j = tape.jacobian(y, x)
    jb = tape.batch_jacobian(y, x)
    off_diagonal = tf.reduce_max(abs(j[:, 0, :, 0] - tf.linalg.diag(tf.linalg.diag_part(j[:, 0, :, 0]))))
    return {"j_shape": j.shape, "jb_shape": jb.shape, "not_diagonal": bool(off_diagonal > 0.0), "j": j}


def program_custom_gradient_returning_input_in_function(tf):
    # Regression: a custom_gradient whose forward returns its argument unchanged, called
    # in a tf.function under a tape, added the plain identity gradient to the custom one.
    clip_gradients = _clip_gradients(tf)

    @tf.function
    def f(x):
        return clip_gradients(x)
    x = tf.constant(4.0)
    v = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        out_x = f(x)
        out_v = f(v * v)
    return {"dx": t.gradient(out_x, x), "dv": t.gradient(out_v, v)}


# ---- Small exact cases of the same APIs (formerly guide_advanced_autodiff.py).
@tolerance(rtol=1e-5, atol=1e-5)   # 1 - tanh(x)**2 near saturation: float32 cancellation
def program_jacobian_matrix(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable([[0.5, -1.0, 0.0], [1.0, 0.25, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.nn.tanh(x @ w)
    j = tape.jacobian(y, w)
    return {"shape": j.shape, "j": j}


def program_batch_jacobian_small(tf):
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



@tolerance(rtol=1e-5, atol=1e-6)
def program_batch_jacobian_in_function(tf):
    layer = _dense(tf, 3, "tanh", 2, 0.7)
    x = _ramp(tf, [4, 2], 0.9)

    def jacobian(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x)
        return tape.batch_jacobian(y, x)
    return {"graph": tf.function(jacobian)(x), "eager": jacobian(x)}

"""TF guides "variables", "modules" and "advanced autodiff", written anew."""
import numpy as np


def program_variable_dtype_shape_assign_ops(tf):
    v = tf.Variable([[1, 2], [3, 4]])
    v.assign_sub([[1, 1], [1, 1]])
    w = tf.Variable(tf.zeros([2, 3]), name="w")
    b = tf.Variable(True)
    out = {"v": v, "dtype": v.dtype, "shape": v.shape, "name": w.name, "b": b,
           "cvt": tf.convert_to_tensor(v), "argmax": tf.math.argmax(v, axis=1), "np": v.numpy()}
    try:
        v.assign([1.0, 2.0])
    except Exception as e:
        out["bad_assign"] = type(e).__name__
    try:
        v.assign(tf.constant([[0.5, 1.5], [2.5, 3.5]]))
    except Exception as e:
        out["bad_dtype"] = type(e).__name__
    return out


def program_variable_shape_none_and_lifecycle(tf):
    v = tf.Variable([1.0], shape=tf.TensorShape(None))
    v.assign([1.0, 2.0, 3.0])
    c = tf.Variable(1.0)
    d = tf.Variable(c)
    c.assign(5.0)
    return {"v": v, "shape": v.shape, "d": d, "c": c, "deref": (c + 1.0)}


def program_variable_aggregation_sync_flags(tf):
    v = tf.Variable(1.0, trainable=False, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.MEAN)
    return {"trainable": v.trainable, "agg": v.aggregation == tf.VariableAggregation.MEAN,
            "sync": v.synchronization == tf.VariableSynchronization.ON_READ,
            "default": tf.Variable(1.0).aggregation == tf.VariableAggregation.NONE}


def program_module_tracks_submodules(tf):
    class Dense(tf.Module):
        def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.ones([in_features, out_features]) * 0.5, name="w")
            self.b = tf.Variable(tf.zeros([out_features]), name="b")

        def __call__(self, x):
            return tf.nn.relu(x @ self.w + self.b)

    class Seq(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.layers = [Dense(3, 3, name="d1"), Dense(3, 2, name="d2")]
            self.cfg = {"scale": tf.Variable(2.0, trainable=False)}

        @tf.function
        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x * self.cfg["scale"]
    m = Seq(name="the_model")
    y = m(tf.constant([[1.0, 2.0, 3.0]]))
    return {"y": y, "n_vars": len(m.variables), "n_tv": len(m.trainable_variables),
            "subs": [s.name for s in m.submodules], "names": sorted(v.name for v in m.variables),
            "scope": m.name_scope.name}


def program_module_with_name_scope(tf):
    class M(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self, x):
            if not hasattr(self, "v"):
                self.v = tf.Variable(x * 0 + 1.0, name="v")
            return x * self.v
    m = M(name="mm")
    r = m(tf.constant([2.0]))
    return {"r": r, "vname": m.v.name}


def program_jacobian_vector_to_vector(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = tf.stack([x[0] * x[1], tf.sin(x[2]), tf.reduce_sum(x ** 2)])
    return {"j": tape.jacobian(y, x)}


def program_jacobian_matrix_source_shape(tf):
    x = tf.random.stateless_normal([2, 3], seed=[1, 2])
    layer_w = tf.Variable(tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) * 0.1)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.nn.tanh(x @ layer_w)
    j = tape.jacobian(y, layer_w)
    bj = tape.batch_jacobian(y, x)
    return {"j_shape": j.shape, "bj_shape": bj.shape, "bj": bj, "j_sum": tf.reduce_sum(j, axis=[0, 1])}


def program_jacobian_unconnected_zero(tf):
    x = tf.Variable([1.0, 2.0])
    z = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2.0
    return {"none": tape.jacobian(y, z) is None,
            "zero": tape.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO),
            "no_pfor": tape.jacobian(y, x, experimental_use_pfor=False)}


def program_gradient_of_gradient_nested_tapes(tf):
    x = tf.Variable(1.5)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x ** 3 + tf.sin(x)
        dy = t1.gradient(y, x)
    d2y = t2.gradient(dy, x)
    return {"dy": dy, "d2y": d2y}


def program_hessian_via_jacobian_of_gradient(tf):
    w = tf.Variable([[1.0, -1.0], [0.5, 2.0]])
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = tf.reduce_sum(tf.nn.softplus(x @ w))
        g = t1.gradient(loss, w)
    h = t2.jacobian(g, w)
    return {"g": g, "h_shape": h.shape, "h": tf.reshape(h, [4, 4])}


def program_stop_recording_and_reset(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        a = x * y
        with tape.stop_recording():
            b = x * x
        c = a + b
    g = tape.gradient(c, [x, y])
    with tf.GradientTape() as t:
        p = x * 10.0
        t.reset()
        q = x * 3.0
    return {"g": g, "reset": t.gradient(q + p, x)}


def program_gradient_with_watch_and_constants(tf):
    x = tf.constant([1.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sqrt(x) * tf.stop_gradient(x)
    watched = [v.shape for v in tape.watched_variables()]
    return {"g": tape.gradient(y, x), "watched": watched}


def program_batch_jacobian_dense_layer(tf):
    x = tf.constant(np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4))
    layer = tf.keras.layers.Dense(3, activation="elu",
                                  kernel_initializer=tf.keras.initializers.Constant(0.2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    bj = tape.batch_jacobian(y, x)
    return {"shape": bj.shape, "bj": bj}


def program_forward_accumulator_jvp(tf):
    x = tf.constant([1.0, 2.0])
    v = tf.constant([1.0, 0.0])
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=v) as acc:
        y = tf.reduce_sum(x ** 3)
    return {"jvp": acc.jvp(y)}


def program_custom_gradient_clip(tf):
    @tf.custom_gradient
    def clip_grad(x):
        def grad(upstream):
            return tf.clip_by_norm(upstream, 0.5)
        return tf.identity(x), grad
    x = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(clip_grad(x) * 2.0)
    return {"g": tape.gradient(y, x)}


def program_gradient_in_tf_function_traces(tf):
    w = tf.Variable([1.0, 2.0])
    traces = []

    @tf.function
    def grad(x):
        traces.append(1)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(w * x ** 2)
        return tape.gradient(y, [w, x] if False else w)
    a = grad(tf.constant([1.0, 1.0]))
    b = grad(tf.constant([2.0, 3.0]))
    return {"a": a, "b": b, "traces": len(traces)}

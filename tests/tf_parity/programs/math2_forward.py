"""tf.autodiff.ForwardAccumulator: forward-mode JVPs, the ForwardAccumulator docstring's and
the advanced-autodiff guide's cells, forward-over-backward and backward-over-forward
Hessian-vector products, a Keras Dense layer, unconnected tangents, inside tf.function."""
from parity import tolerance


def program_docstring_scalar(tf):
    v = tf.Variable([1., 2.])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1., 3.])) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.)
        backward = tape.gradient(y, v)
    return {"backward": backward, "hvp": acc.jvp(backward), "jvp_y": acc.jvp(y)}


def program_jvp_of_primal_is_tangent(tf):
    x = tf.constant([1.0, 2.0, 3.0])
    t = tf.constant([0.5, -1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = x * 1.0
    return {"x": acc.jvp(x), "y": acc.jvp(y)}


def program_jvp_elementwise(tf):
    x = tf.constant([[0.1, -0.7], [1.3, 2.0]])
    t = tf.constant([[1.0, 2.0], [-0.5, 0.25]])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        outs = {"tanh": tf.tanh(x), "exp": tf.exp(x), "sin": tf.sin(x), "square": x * x,
                "div": 1.0 / (1.0 + x * x), "sigmoid": tf.nn.sigmoid(x), "relu": tf.nn.relu(x),
                "pow": tf.pow(tf.abs(x) + 1.0, 1.5)}
    return {k: acc.jvp(v) for k, v in outs.items()}


@tolerance(rtol=1e-5, atol=1e-5)
def program_jvp_matmul_softmax_reductions(tf):
    x = tf.constant([[1.0, 2.0, 0.5], [3.0, -1.0, 0.0]])
    w = tf.constant([[0.5, -1.0], [1.0, 0.25], [0.0, 2.0]])
    tx = tf.constant([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
    tw = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    with tf.autodiff.ForwardAccumulator([x, w], [tx, tw]) as acc:
        mm = tf.matmul(x, w)
        sm = tf.nn.softmax(mm)
        lsm = tf.nn.log_softmax(mm, axis=0)
        total = tf.reduce_sum(x)
        mean = tf.reduce_mean(x, axis=1)
        mx = tf.reduce_max(x, axis=0)
        lse = tf.reduce_logsumexp(mm)
        norm = tf.norm(x)
    return {"mm": acc.jvp(mm), "sm": acc.jvp(sm), "lsm": acc.jvp(lsm), "sum": acc.jvp(total),
            "mean": acc.jvp(mean), "max": acc.jvp(mx), "lse": acc.jvp(lse), "norm": acc.jvp(norm)}


def program_unconnected(tf):
    x = tf.constant([1.0, 2.0])
    z = tf.constant([3.0, 4.0])
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = z * 2.0
        am = tf.argmax(x)
    after = x * 3.0
    none = acc.jvp(y)
    zero = acc.jvp(y, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return {"none": "None" if none is None else none, "zero": zero,
            "after": "None" if acc.jvp(after) is None else acc.jvp(after),
            "argmax": "None" if acc.jvp(am) is None else acc.jvp(am)}


def program_nested_structures(tf):
    a = tf.constant(2.0)
    b = tf.constant([1.0, -1.0])
    with tf.autodiff.ForwardAccumulator({"a": a, "b": b}, {"a": tf.constant(1.0), "b": tf.constant([0.0, 2.0])}) as acc:
        y = a * b
        z = tf.reduce_sum(b * b) + a
    out = acc.jvp({"y": y, "z": [z, y]})
    return {"y": out["y"], "z0": out["z"][0], "z1": out["z"][1]}


@tolerance(rtol=1e-5, atol=1e-5)
def program_dense_layer(tf):
    x = tf.constant([[2.0, 3.0], [1.0, 4.0]])
    targets = tf.constant([[1.], [-1.]])
    dense = tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant([[0.5], [-0.25]]),
                                  bias_initializer="ones")
    dense.build([None, 2])
    # Keras 3 wraps the tf.Variable (`.value`, a property), and TF's ForwardAccumulator
    # rejects the wrapper; tapeflow's layers hold the variable itself.
    kernel = dense.kernel
    kernel = kernel.value if isinstance(getattr(type(kernel), "value", None), property) else kernel
    with tf.autodiff.ForwardAccumulator(primals=kernel, tangents=tf.constant([[1.], [0.]])) as acc:
        out = dense(x)
        loss = tf.reduce_sum((out - targets) ** 2.)
    return {"loss": loss, "jvp_loss": acc.jvp(loss), "jvp_out": acc.jvp(out)}


@tolerance(rtol=1e-5, atol=1e-5)
def program_dense_relu_jacobian_vector(tf):
    layer = tf.keras.layers.Dense(3, activation="relu",
                                  kernel_initializer=tf.keras.initializers.Constant(
                                      [[0.5, -1.0, 0.2], [1.0, 0.3, -0.4]]))
    x = tf.constant([[2.0, 3.0], [1.0, -4.0]])
    layer.build(x.shape)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([[1.0, 0.0], [0.5, 0.5]])) as acc:
        y = layer(x)
    return {"y": y, "jvp": acc.jvp(y)}


def program_back_over_forward_hvp(tf):
    x = tf.constant([[2.0, 3.0], [1.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([[1., 0.], [0., 0.]])) as acc:
            loss = tf.reduce_sum(x ** 3.0) + tf.reduce_prod(x)
        jvp = acc.jvp(loss)
    return {"jvp": jvp, "hvp": tape.gradient(jvp, x)}


@tolerance(rtol=1e-5, atol=1e-5)
def program_forward_over_back_hvp_guide(tf):
    # The guide's hvp: forward-over-backward through a small model's loss.
    w = tf.Variable([[0.5, -0.25], [0.1, 0.2]])
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    tangent = tf.constant([[1.0, 0.0], [0.0, 1.0]])
    with tf.autodiff.ForwardAccumulator(w, tangent) as acc:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.tanh(x @ w) ** 2)
        grad = tape.gradient(loss, w)
    return {"grad": grad, "hvp": acc.jvp(grad)}


def program_forward_over_forward(tf):
    x = tf.constant(1.5)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as inner:
            y = x ** 3.0
        dy = inner.jvp(y)
    return {"dy": dy, "d2y": outer.jvp(dy)}


def program_in_tf_function(tf):
    traces = []

    @tf.function
    def jvp(x, t):
        traces.append(1)
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            y = tf.reduce_sum(tf.sin(x) * x)
        return y, acc.jvp(y)
    a = jvp(tf.constant([1.0, 2.0]), tf.constant([1.0, 0.0]))
    b = jvp(tf.constant([0.5, -2.0]), tf.constant([0.0, 1.0]))
    return {"a": a, "b": b, "traces": len(traces)}


def program_hvp_in_tf_function(tf):
    @tf.function
    def hvp(x, v):
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(x ** 4.0)
            g = tape.gradient(y, x)
        return acc.jvp(g)
    return {"hvp": hvp(tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0]))}


def program_tangent_shape_mismatch(tf):
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0, 3.0])) as acc:
        y = x * 2.0
    return {"y": acc.jvp(y)}


def program_primal_twice(tf):
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator([x, x], [tf.ones_like(x), tf.ones_like(x)]) as acc:
        y = x * 2.0
    return {"y": acc.jvp(y)}


def program_tangent_count_mismatch(tf):
    x = tf.constant([1.0, 2.0])
    z = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator([x, z], [tf.ones_like(x)]) as acc:
        y = x * z
    return {"y": acc.jvp(y)}


def program_integer_primal(tf):
    x = tf.constant([1, 2])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1, 1])) as acc:
        y = x * 2
    return {"y": "None" if acc.jvp(y) is None else acc.jvp(y)}


def program_through_tf_function_called_inside(tf):
    # (Backward-over-forward through such a call is None in TensorFlow: its function's JVP
    # is not recorded on outer tapes; tapeflow's is, so that case is not a program here.)
    @tf.function
    def f(x):
        return tf.sin(x) * x
    x = tf.constant([1.0, 2.0])
    t = tf.constant([1.0, 0.5])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    return {"jvp": acc.jvp(y), "hvp": acc.jvp(g)}

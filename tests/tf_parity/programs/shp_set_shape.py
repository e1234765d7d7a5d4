"""Tensor.set_shape on symbolic tensors inside tf.function: the static shape is refined
(later ops and Keras layers see the known dims), conflicts raise ValueError while
tracing, the value is not checked when it runs, gradients (also second order) pass."""


def _shapes_fn(tf, log):
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        log.append(x.shape.as_list())
        x.set_shape([None, 3])
        log.append(x.shape.as_list())
        y = x * 2.0
        log.append(y.shape.as_list())
        y.set_shape([2, None])
        log.append(y.shape.as_list())
        z = tf.reduce_sum(y, axis=1)
        log.append(z.shape.as_list())
        return y
    return f


def program_shp_refines_in_function(tf):
    log = []
    f = _shapes_fn(tf, log)
    out = f(tf.ones([2, 3]))
    cf = f.get_concrete_function(tf.ones([2, 3]))
    return {"log": log, "out": out, "structured_output": cf.structured_outputs.shape.as_list()}


def program_shp_unknown_rank_takes_the_shape(tf):
    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def f(blob):
        x = tf.io.parse_tensor(blob, tf.float32)
        before = x.shape.rank
        x.set_shape([None, 2])
        return {"before": before, "after": x.shape.as_list(), "sum": tf.reduce_sum(x, axis=1)}
    return f(tf.io.serialize_tensor(tf.ones([3, 2])))


def program_shp_value_not_checked(tf):
    # set_shape only refines the static shape: a value of another shape passes through.
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        x.set_shape([None, 3])
        return tf.identity(x)
    return {"out": f(tf.ones([2, 5]))}


def program_shp_no_op_when_known(tf):
    @tf.function
    def f(x):
        before = x.shape.as_list()
        x.set_shape([None, None])
        x.set_shape(None)
        x.set_shape(tf.TensorShape([2, None]))
        return {"before": before, "after": x.shape.as_list(), "x": x + 1.0}
    return f(tf.ones([2, 3]))


def program_shp_conflicting_dim(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        x.set_shape([None, 4])
        return x
    return f(tf.ones([2, 3]))


def program_shp_conflicting_rank(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        x.set_shape([None, 3, 1])
        return x
    return f(tf.ones([2, 3]))


def program_shp_eager_tensor(tf):
    t = tf.zeros([2, 3])
    t.set_shape([None, 3])
    return {"shape": t.shape.as_list()}


def program_shp_eager_conflict(tf):
    t = tf.zeros([2, 3])
    t.set_shape([2, 4])
    return {"shape": t.shape.as_list()}


def program_shp_keras_layer_from_refined_dims(tf):
    # The time-series WindowGenerator pattern: a Dense layer needs the refined last dim.
    layer = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")

    @tf.function(input_signature=[tf.TensorSpec([None, None, None], tf.float32)])
    def f(x):
        inputs = x[:, :4, :]
        inputs.set_shape([None, 4, 3])
        return layer(inputs)
    out = f(tf.reshape(tf.range(30, dtype=tf.float32), [1, 10, 3]))
    # Keras 3's symbolic inputs (KerasTensor) have no set_shape.
    return {"out": out, "kernel_shape": layer.kernel.shape.as_list(),
            "keras_tensor_has_set_shape": hasattr(tf.keras.Input([None, 3]), "set_shape")}


def program_shp_gradient_under_tape_in_function(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.exp(x)          # y is an op's output the tapes saw
                y.set_shape([None, 2])
                loss = tf.reduce_sum(y * y)
            g = inner.gradient(loss, x)
            g_sum = tf.reduce_sum(g)
        return g, outer.gradient(g_sum, x), y.shape.as_list()
    g, gg, y_shape = f(tf.constant([[0.5, -1.0], [0.0, 2.0]]))
    return {"g": g, "gg": gg, "y_shape": y_shape}


def program_shp_gradient_watched_then_refined(tf):
    # The watched source itself is refined: the gradient w.r.t. it still arrives.
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            x.set_shape([3])
            y = tf.reduce_sum(x ** 3)
            g = tape.gradient(y, x)
        return g, tape.gradient(g, x), g.shape.as_list()
    g, gg, shape = f(tf.constant([1.0, 2.0, 3.0]))
    return {"g": g, "gg": gg, "shape": shape}


def program_shp_earlier_ops_keep_their_shape(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        before = x + 1.0
        x.set_shape([None, 3])
        after = x + 1.0
        return {"before": before.shape.as_list(), "after": after.shape.as_list(),
                "x": x.shape.as_list(), "sum": tf.reduce_sum(before + after)}
    return f(tf.ones([2, 3]))


def program_shp_in_cond_branch_and_loop(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32), tf.TensorSpec([], tf.bool)])
    def f(x, flag):
        y = x * 1.0

        def yes():
            y.set_shape([None, 2])      # an outer tensor refined from inside a branch
            return y * 2.0

        out = tf.cond(flag, yes, lambda: y)
        shapes = [y.shape.as_list(), out.shape.as_list()]

        def body(i, acc):
            acc.set_shape([None, 2])
            return i + 1, acc + 1.0
        _, acc = tf.while_loop(lambda i, acc: i < 3, body, [0, x])
        return {"shapes": shapes, "out": out, "acc": acc, "acc_shape": acc.shape.as_list()}
    return f(tf.ones([1, 2]), tf.constant(True))


def program_shp_in_dataset_map(tf):
    def split(w):
        inputs = w[:, :3]
        inputs.set_shape([None, 3])
        return inputs, w[:, 3:]
    ds = tf.data.Dataset.from_tensor_slices(tf.reshape(tf.range(40.0), [10, 4])).batch(4).map(split)
    first = next(iter(ds))
    return {"spec": [s.shape.as_list() for s in ds.element_spec], "first": first}


def program_shp_in_custom_gradient(tf):
    # The placeholders of f's graph (x) and of its gradient's (dy) are refined.
    @tf.custom_gradient
    def scaled(x):
        x.set_shape([None, 2])
        y = x * 1.0

        def grad(dy):
            dy.set_shape([None, 2])
            return dy * 3.0
        return y * 3.0, grad

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = scaled(x)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, x), y.shape.as_list()
    y, g, shape = f(tf.constant([[1.0, 2.0]]))
    return {"y": y, "g": g, "shape": shape}

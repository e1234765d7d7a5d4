"""tf.IndexedSlices (issue #11): the class, the gradients of gathers that TensorFlow gives
as slices, Variable.scatter_* and optimizers applying slices as Keras 3 does."""
import numpy as np


def _table(tf, dtype="float32"):
    return tf.Variable(np.arange(8, dtype=dtype).reshape(4, 2) / 4)


def _parts(tf, g):
    if isinstance(g, tf.IndexedSlices):
        return {"slices": True, "values": g.values, "indices": g.indices, "dense_shape": g.dense_shape,
                "dense": tf.convert_to_tensor(g)}
    return {"slices": False, "dense": g}


def _gather_grad(tf, v, ids, axis=0):
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, ids, axis=axis) * 2.0)
    return t.gradient(y, v)


def program_gather_of_variable_gives_slices(tf):
    v = _table(tf)
    g = _gather_grad(tf, v, [0, 2, 0])
    return dict(_parts(tf, g), shape=g.shape, dtype=g.dtype)


def program_gather_in_function_gives_slices(tf):
    v = _table(tf)

    @tf.function
    def f(ids):
        g = _gather_grad(tf, v, ids)
        return g.values, g.indices, tf.convert_to_tensor(g)
    return {"out": f(tf.constant([3, 3, 1]))}


def program_gather_matrix_indices(tf):
    return _parts(tf, _gather_grad(tf, _table(tf), [[0, 2], [2, 2]]))


def program_gather_other_axis_is_dense(tf):
    return _parts(tf, _gather_grad(tf, _table(tf), [1], axis=1))


def program_two_gathers_concatenate(tf):
    v = _table(tf)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, [0])) + tf.reduce_sum(tf.gather(v, [1, 0]) * 3.0)
    return _parts(tf, t.gradient(y, v))


def program_gather_plus_dense_use_is_dense(tf):
    v = _table(tf)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v, [0])) + tf.reduce_sum(v * v)
    return _parts(tf, t.gradient(y, v))


def program_gather_of_watched_tensor(tf):
    x = tf.constant(np.ones((3, 2), np.float32))
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.gather(x, [2]))
    return _parts(tf, t.gradient(y, x))


def program_embedding_lookup_and_cast(tf):
    v = _table(tf, "float64")
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.cast(tf.nn.embedding_lookup(v, [1, 1]), tf.float32))
    return _parts(tf, t.gradient(y, v))


def program_gather_then_further_ops_densify(tf):
    v = _table(tf)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(v * 2.0, [1, 3]))
    return _parts(tf, t.gradient(y, v))


def program_user_slices(tf):
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([2, 0]), tf.constant([3, 2]))
    return {"dense": tf.convert_to_tensor(s), "neg": tf.convert_to_tensor(-s), "shape": s.shape,
            "dtype": s.dtype, "add_n": tf.add_n([s, tf.ones([3, 2])])}


def program_slices_times_number_raises(tf):
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([0]), tf.constant([2, 2]))
    return {"x": s * 2.0}


def program_slices_plus_slices_raises(tf):
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([0]), tf.constant([2, 2]))
    return {"x": s + s}


def program_variable_scatters(tf):
    out = {}
    delta = tf.IndexedSlices(tf.constant([[10.0, -10.0], [0.5, 0.5]]), tf.constant([1, 3]))
    for kind in ("update", "add", "sub", "max", "min"):
        v = _table(tf)
        getattr(v, "scatter_" + kind)(delta)
        out[kind] = v
    return out


def program_variable_scatter_add_repeated_index(tf):
    v = _table(tf)
    v.scatter_add(tf.IndexedSlices(tf.constant([[1.0, 1.0], [2.0, 2.0]]), tf.constant([0, 0])))
    return {"v": v}


def program_variable_scatter_needs_slices(tf):
    v = _table(tf)
    v.scatter_update(tf.constant([[1.0, 1.0]]))
    return {"v": v}


def program_variable_scatter_nd(tf):
    v = _table(tf)
    v.scatter_nd_update([[0, 1], [3, 0]], [9.0, 8.0])
    w = _table(tf)
    w.scatter_nd_add([[1], [1]], [[1.0, 1.0], [1.0, 1.0]])
    return {"v": v, "w": w}


def _train(tf, opt, steps=3, ids=(0, 2, 0, 0)):
    v = _table(tf)
    for _ in range(steps):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.square(tf.gather(v, list(ids)) - 1.0))
        g = t.gradient(loss, v)
        opt.apply_gradients([(g, v)])
    return v


@__import__("parity").tolerance(rtol=1e-5, atol=1e-6)
def program_optimizers_apply_slices(tf):
    k = tf.keras.optimizers
    return {"sgd": _train(tf, k.SGD(0.1)), "sgd_momentum": _train(tf, k.SGD(0.1, momentum=0.9)),
            "adam": _train(tf, k.Adam(0.1)), "adamw": _train(tf, k.AdamW(0.1)),
            "adagrad": _train(tf, k.Adagrad(0.1)), "rmsprop": _train(tf, k.RMSprop(0.1)),
            "rmsprop_centered": _train(tf, k.RMSprop(0.1, momentum=0.5, centered=True)),
            "nadam": _train(tf, k.Nadam(0.1)), "adamax": _train(tf, k.Adamax(0.1)),
            "lion": _train(tf, k.Lion(0.1)), "adadelta": _train(tf, k.Adadelta(1.0)),
            "ftrl": _train(tf, k.Ftrl(0.5, l1_regularization_strength=0.01))}


def program_optimizer_slices_in_function(tf):
    v = _table(tf)
    opt = tf.keras.optimizers.Adam(0.1)

    @tf.function
    def step(ids):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.gather(v, ids) ** 2)
        opt.apply_gradients([(t.gradient(loss, v), v)])
        return loss
    losses = [step(tf.constant([1, 1, 2])) for _ in range(3)]
    return {"losses": losses, "v": v}


def program_optimizer_slices_with_clipnorm(tf):
    return {"v": _train(tf, tf.keras.optimizers.Adam(0.1, clipnorm=0.5))}


def program_keras_embedding_fit_repeated_ids(tf):
    out = {}
    for name in ("adam", "adagrad", "rmsprop"):
        model = tf.keras.Sequential([tf.keras.Input((3,), dtype="int32"),
                                     tf.keras.layers.Embedding(5, 2, embeddings_initializer="ones"),
                                     tf.keras.layers.Flatten(),
                                     tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(tf.keras.optimizers.get({"class_name": name, "config": {"learning_rate": 0.1}}), "mse")
        x = np.array([[1, 1, 2], [3, 1, 1]], np.int32)
        y = np.array([[0.0], [1.0]], np.float32)
        model.fit(x, y, batch_size=2, epochs=3, verbose=0, shuffle=False)
        out[name] = model.layers[0].embeddings
    return out


def program_optimizer_slices_with_global_clipnorm(tf):
    return {"v": _train(tf, tf.keras.optimizers.Adam(0.1, global_clipnorm=0.5)),
            "w": _train(tf, tf.keras.optimizers.RMSprop(0.1, clipvalue=0.5))}


def program_optimizer_sparse_and_dense_variables(tf):
    v, w = _table(tf), tf.Variable([1.0, -1.0])
    opt = tf.keras.optimizers.Adagrad(0.5)
    for _ in range(2):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.gather(v, [3, 3]) * w)
        opt.apply_gradients(zip(t.gradient(loss, [v, w]), [v, w]))
    return {"v": v, "w": w}


def program_clip_functions_on_slices(tf):
    g = _gather_grad(tf, _table(tf), [0, 2, 0])
    by_norm = tf.clip_by_norm(g, 1.0)
    (clipped, _), norm = tf.clip_by_global_norm([g, tf.ones([2])], 1.5), tf.linalg.global_norm([g])
    by_value = tf.clip_by_value(g, 0.0, 1.0)
    return {"by_norm": _parts(tf, by_norm), "global": _parts(tf, clipped), "norm": norm,
            "by_value": _parts(tf, by_value)}



def program_py_function_gradient_of_gather(tf):
    x = tf.convert_to_tensor(_table(tf))
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.py_function(lambda x: tf.reduce_sum(tf.gather(x, [1, 1])), [x], tf.float32)
    return {"g": t.gradient(y, x)}

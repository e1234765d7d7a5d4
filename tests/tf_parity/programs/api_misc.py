"""Small public APIs the guides reach for."""


def program_sparse_expand_dims(tf):
    s = tf.sparse.SparseTensor(indices=[[0, 1], [2, 0]], values=[5, 6], dense_shape=[3, 2])
    a = tf.sparse.expand_dims(s, 0)
    b = tf.sparse.expand_dims(s, -1)
    c = tf.sparse.expand_dims(s, 1)
    return {"a": a, "b": b, "c": c, "dense": tf.sparse.to_dense(c)}


def program_sparse_expand_dims_bad_axis(tf):
    s = tf.sparse.SparseTensor(indices=[[0, 1]], values=[5], dense_shape=[3, 2])
    return {"a": tf.sparse.expand_dims(s, 5)}


def program_one_hot_int(tf):
    return {"a": tf.one_hot([0, 2, -1, 5], 3), "b": tf.one_hot([[1], [0]], 2, on_value=5, off_value=-1)}


def program_py_function_decorator(tf):
    @tf.py_function(Tout=tf.float32)
    def f(x):
        return x * 2.0
    return {"y": f(tf.constant(3.0))}


def program_py_function_in_graph(tf):
    def g(x):
        return x.numpy() + 1

    @tf.function
    def h(x):
        return tf.py_function(g, [x], Tout=tf.int32)
    return {"y": h(tf.constant(4))}


def program_print_float32(tf):
    return {"a": str(tf.constant(0.1)), "b": str(tf.constant([0.1, 0.7])), "c": str(tf.constant(1e-8)),
            "d": repr(tf.constant(1.5))}


def program_log_zero_no_error(tf):
    return {"log": tf.math.log(0.0), "div": tf.constant(1.0) / 0.0, "nan": tf.constant(0.0) / 0.0}


def program_errors_namespace(tf):
    return {"names": [n for n in ("InvalidArgumentError", "OutOfRangeError", "OpError", "UnimplementedError",
                                  "NotFoundError", "FailedPreconditionError", "ResourceExhaustedError")
                      if hasattr(tf.errors, n)],
            "iae_is_op_error": issubclass(tf.errors.OutOfRangeError, tf.errors.OpError)}


def program_out_of_range_from_get_next(tf):
    it = iter(tf.data.Dataset.range(1))
    it.get_next()
    return {"x": it.get_next()}


def program_linalg_svd(tf):
    a = tf.constant([[3.0, 1.0], [1.0, 3.0], [0.0, 1.0]])
    s, u, v = tf.linalg.svd(a)
    return {"s": s, "shapes": [u.shape, v.shape], "rebuilt": tf.matmul(u * s, v, transpose_b=True),
            "abs_u": tf.abs(u), "only_s": tf.linalg.svd(a, compute_uv=False),
            "full": [t.shape for t in tf.linalg.svd(a, full_matrices=True)]}


def program_linalg_svd_gradient_of_s(tf):
    x = tf.Variable([[3.0, 1.0], [1.0, 3.0], [0.0, 1.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.svd(x, compute_uv=False))
    return {"g": tape.gradient(y, x)}


def program_initializer_callables(tf):
    d = tf.keras.layers.Dense(2, kernel_initializer=lambda shape, dtype=None: tf.ones(shape, dtype=dtype) * 3,
                              bias_initializer=tf.zeros)
    e = tf.keras.layers.Dense(3, kernel_initializer=tf.random.normal)
    x = tf.ones([1, 2])
    return {"d": d(x), "e_shape": e(x).shape, "e_dtype": tf.as_dtype(e.kernel.dtype)}


def program_compiled_loss_with_regularization(tf):
    import warnings
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_regularizer="l2",
                                                                         kernel_initializer="ones")])
    m.compile(loss="mse")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = m.compiled_loss(tf.ones([1, 1]), m(tf.ones([1, 2])), regularization_losses=m.losses)
    b = m.compute_loss(y=tf.ones([1, 1]), y_pred=m(tf.ones([1, 2])))
    return {"compiled": a, "compute": b}

"""tf.compat.v1 names that TF2 programs (migrated per the "Migrate to TF2" guide) still call
eagerly: v1 optimizers minimizing a callable loss, v1 losses, v1 random ops, v1 variable names."""
from _sweep import outcomes
from parity import tolerance


def program_v1_gradient_descent_minimize_var_list(tf):
    w = tf.Variable([1.0, -2.0])
    b = tf.Variable(0.5)
    opt = tf.compat.v1.train.GradientDescentOptimizer(learning_rate=0.1)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.constant([1.0, 0.0])
    losses = []
    for _ in range(3):
        loss = lambda: tf.reduce_mean(tf.square(tf.linalg.matvec(x, w) + b - y))
        losses.append(loss())
        opt.minimize(loss, var_list=[w])   # b is left alone
    return {"w": w, "b": b, "losses": losses}


def program_v1_momentum_adam_minimize(tf):
    out = {}
    for name, make in [("momentum", lambda: tf.compat.v1.train.MomentumOptimizer(0.05, momentum=0.9)),
                       ("nesterov", lambda: tf.compat.v1.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True)),
                       ("adam", lambda: tf.compat.v1.train.AdamOptimizer(0.1)),
                       ("rmsprop", lambda: tf.compat.v1.train.RMSPropOptimizer(0.05)),
                       ("adagrad", lambda: tf.compat.v1.train.AdagradOptimizer(0.2))]:
        v = tf.Variable([2.0, -1.0, 0.5])
        opt = make()
        for _ in range(4):
            opt.minimize(lambda: tf.reduce_sum(v ** 2 * tf.constant([1.0, 2.0, 3.0])), var_list=[v])
        out[name] = v
    return out


def program_v1_compute_apply_gradients(tf):
    v = tf.Variable([1.0, 2.0])
    step = tf.Variable(0, dtype=tf.int64)
    opt = tf.compat.v1.train.GradientDescentOptimizer(0.5)
    gv = opt.compute_gradients(lambda: tf.reduce_sum(v * v), var_list=[v])
    grads = [g for g, _ in gv]
    opt.apply_gradients(gv, global_step=step)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), v)], global_step=step)
    return {"grads": grads, "v": v, "step": step, "var_is_v": gv[0][1] is v}


def program_v1_losses_reductions(tf):
    labels = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    preds = tf.constant([[0.8, 0.1], [0.3, 0.6], [0.5, 0.9]])
    w = tf.constant([[1.0], [0.0], [2.0]])
    R = tf.compat.v1.losses.Reduction
    return {"mse": tf.compat.v1.losses.mean_squared_error(labels, preds),
            "mse_w": tf.compat.v1.losses.mean_squared_error(labels, preds, weights=w),
            "mse_none": tf.compat.v1.losses.mean_squared_error(labels, preds, reduction=R.NONE),
            "mse_sum": tf.compat.v1.losses.mean_squared_error(labels, preds, weights=w, reduction=R.SUM),
            "mse_mean": tf.compat.v1.losses.mean_squared_error(labels, preds, weights=w, reduction=R.MEAN),
            "abs": tf.compat.v1.losses.absolute_difference(labels, preds),
            "sig": tf.compat.v1.losses.sigmoid_cross_entropy(labels, preds, label_smoothing=0.1),
            "soft": tf.compat.v1.losses.softmax_cross_entropy(labels, preds, label_smoothing=0.2),
            "sparse": tf.compat.v1.losses.sparse_softmax_cross_entropy(tf.constant([0, 1, 1]), preds),
            "huber": tf.compat.v1.losses.huber_loss(labels, preds, delta=0.3),
            "log": tf.compat.v1.losses.log_loss(labels, preds),
            "hinge": tf.compat.v1.losses.hinge_loss(labels, preds),
            "cos": tf.compat.v1.losses.cosine_distance(tf.math.l2_normalize(labels, 1),
                                                       tf.math.l2_normalize(preds, 1), axis=1)}


def program_v1_random_seeded(tf):
    tf.compat.v1.set_random_seed(7)
    a = tf.compat.v1.random_normal([3], seed=1)
    b = tf.compat.v1.random_uniform([2, 2], minval=0, maxval=10, dtype=tf.int32, seed=2)
    c = tf.compat.v1.truncated_normal([3], stddev=0.5, seed=3)
    d = tf.compat.v1.random.uniform([2], seed=4)
    e = tf.compat.v1.random.categorical(tf.math.log([[0.1, 0.9]]), 5, seed=5)
    f = tf.compat.v1.multinomial(tf.math.log([[0.5, 0.5]]), 4, seed=6)
    g = tf.compat.v1.random_shuffle(tf.range(6), seed=8)
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g}


def program_v1_names_eager(tf):
    x = tf.constant([[1.0, 4.0], [9.0, 16.0]])
    return {"log": tf.compat.v1.log(x), "to_int": tf.compat.v1.to_int32(x),
            "argmax": tf.compat.v1.argmax(x, axis=1), "arg_max": tf.compat.v1.arg_max(x, 0),
            "sum_ri": tf.compat.v1.reduce_sum(x, reduction_indices=[0]),
            "mean_kd": tf.compat.v1.reduce_mean(x, axis=1, keep_dims=True),
            "div": tf.compat.v1.div(tf.constant(7), tf.constant(2)),
            "eager": tf.compat.v1.executing_eagerly(),
            "count": tf.compat.v1.count_nonzero(tf.constant([0, 1, 2]), dtype=tf.int32)}


def program_v1_variables_eager(tf):
    cases = {
        "get_variable": lambda: tf.compat.v1.get_variable(
            "w", shape=[2], initializer=tf.compat.v1.zeros_initializer()).numpy().tolist(),
        "variable_scope": lambda: tf.compat.v1.variable_scope("s") is not None,
        "glorot": lambda: tf.compat.v1.glorot_uniform_initializer(seed=1)([2, 2]).shape.as_list(),
        "const_init": lambda: tf.compat.v1.constant_initializer(3.0)([2]).numpy().tolist(),
        "Variable": lambda: tf.compat.v1.Variable(1.5).numpy().item(),
        "trainable_variables": lambda: len(tf.compat.v1.trainable_variables()),
    }
    return outcomes(cases, keep_values=True)


def program_v1_layers_dense_eager(tf):
    layer = tf.compat.v1.layers.Dense(2, kernel_initializer=tf.compat.v1.constant_initializer(0.5),
                                      bias_initializer=tf.compat.v1.zeros_initializer())
    y = layer(tf.constant([[1.0, 2.0, 3.0]]))
    return {"y": y, "n": len(layer.trainable_variables),
            "kernel": layer.kernel.shape}


def program_v1_get_variable_scopes_and_errors(tf):
    names = []
    with tf.compat.v1.variable_scope("enc"):
        with tf.compat.v1.variable_scope("layer"):
            a = tf.compat.v1.get_variable("w", [2, 3])
            names += [a.name, tf.Variable(1.0, name="v").name, tf.compat.v1.get_variable_scope().name]
    with tf.name_scope("ns"):
        names.append(tf.compat.v1.get_variable("g", [1]).name)
    for _ in range(2):
        with tf.compat.v1.variable_scope(None, default_name="block") as sc:
            names.append(sc.name)
    again = tf.compat.v1.get_variable("w", [1])
    cases = {
        "const_and_shape": lambda: tf.compat.v1.get_variable("c", [2], initializer=tf.constant([1.0, 2.0])),
        "no_shape": lambda: tf.compat.v1.get_variable("q"),
        "reuse_finds_nothing": lambda: _reuse(tf),
    }
    return {"names": names, "again": again.name, "shape": a.shape, "dtype": a.dtype,
            "int_zero": tf.compat.v1.get_variable("i", [2], dtype=tf.int32),
            "from_value": tf.compat.v1.get_variable("f", initializer=[1.5, 2.5]),
            "keras_init": tf.compat.v1.get_variable("k", [2], dtype=tf.float64,
                                                    initializer=tf.keras.initializers.Ones()),
            "untrainable": tf.compat.v1.get_variable("u", [1], trainable=False).trainable,
            "errors": outcomes(cases), "collections": [tf.compat.v1.trainable_variables(),
                                                       tf.compat.v1.global_variables()]}


def _reuse(tf):
    with tf.compat.v1.variable_scope("enc", reuse=True):
        return tf.compat.v1.get_variable("w")


def program_v1_initializers_seeded(tf):
    tf.random.set_seed(11)
    out = {"glorot_u": tf.compat.v1.glorot_uniform_initializer(seed=1)([2, 3]),
           "glorot_n": tf.compat.v1.glorot_normal_initializer(seed=2)([3, 2]),
           "normal": tf.compat.v1.random_normal_initializer(0.5, 2.0, seed=3)([3]),
           "trunc": tf.compat.v1.truncated_normal_initializer(stddev=0.1, seed=4)([4]),
           "uniform": tf.compat.v1.random_uniform_initializer(-1.0, 1.0, seed=5)([3]),
           "vs_avg": tf.compat.v1.variance_scaling_initializer(2.0, "fan_avg", "uniform", seed=6)([2, 2, 3]),
           "vs_untrunc": tf.compat.v1.variance_scaling_initializer(
               mode="fan_out", distribution="untruncated_normal", seed=7)([4, 2]),
           "vs_f64": tf.compat.v1.variance_scaling_initializer(seed=8)([2], dtype=tf.float64)}
    init = tf.compat.v1.random_normal_initializer(seed=9)
    out["twice_differ"] = bool(tf.reduce_any(init([3]) != init([3])))
    tf.random.set_seed(5)
    out["default_init"] = tf.compat.v1.get_variable("d", [2])
    out["bad_mode"] = outcomes({"m": lambda: tf.compat.v1.variance_scaling_initializer(mode="fan")})
    return out


def program_v1_reductions_and_pairwise(tf):
    x = tf.constant([[1.0, 5.0, 2.0], [4.0, 0.5, 3.0]])
    labels = tf.constant([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]])
    preds = tf.constant([[0.9, 0.2, 1.5], [0.3, 0.7, 1.4]])
    return {"sum": tf.compat.v1.reduce_sum(x, reduction_indices=1, keep_dims=True),
            "max": tf.compat.v1.reduce_max(x, 1, keepdims=True),
            "mean": tf.compat.v1.reduce_mean(x, reduction_indices=[0, 1]),
            "prod": tf.compat.v1.reduce_prod(x, axis=0),
            "any": tf.compat.v1.reduce_any(x > 4.0, reduction_indices=0),
            "lse": tf.compat.v1.reduce_logsumexp(x, 1),
            "argmin": tf.compat.v1.argmin(x, dimension=1),
            "argmax_default": tf.compat.v1.argmax(x),
            "both": outcomes({"b": lambda: tf.compat.v1.reduce_sum(x, axis=0, reduction_indices=0)}),
            "pairwise": tf.compat.v1.losses.mean_pairwise_squared_error(labels, preds),
            "pairwise_w": tf.compat.v1.losses.mean_pairwise_squared_error(labels, preds,
                                                                          weights=tf.constant([[2.0], [0.5]])),
            "bad_weights": outcomes({"w": lambda: tf.compat.v1.losses.mean_pairwise_squared_error(
                labels, preds, weights=tf.constant([2.0, 0.5])),
                "mse": lambda: tf.compat.v1.losses.mean_squared_error(labels, preds, weights=tf.ones([3, 1]))}),
            "huber_w": tf.compat.v1.losses.huber_loss(labels, preds, weights=tf.constant([[1.0], [0.0]])),
            "cos_noaxis": outcomes({"c": lambda: tf.compat.v1.losses.cosine_distance(labels, preds)}),
            "get_losses": tf.compat.v1.losses.get_losses()}


def program_v1_spellings_and_names(tf):
    v1 = tf.compat.v1
    x = tf.constant([[3.0, 4.0], [1.0, 2.0]])
    sp = tf.sparse.SparseTensor([[0, 1], [1, 0]], [2.0, 5.0], [2, 2])
    return {
        "squeeze": v1.squeeze(tf.ones([1, 2, 1]), squeeze_dims=[0]).shape,
        "expand": v1.expand_dims(tf.ones([2]), dim=1).shape,
        "norm": v1.norm(x, axis=1, keep_dims=True),
        "moments": v1.nn.moments(x, axes=[0], keep_dims=True),
        "dropout_keep1": v1.nn.dropout(x, keep_prob=1.0),
        "dropout_seeded": v1.nn.dropout(tf.ones([8]), keep_prob=0.5, seed=3).shape,
        "s2d": v1.sparse_to_dense([[0], [2]], [4], [1, 2]),
        "s2d_scalar": v1.sparse_to_dense([1, 3], [5], 7, default_value=-1),
        "where_v2": v1.where_v2(tf.constant([True, False]), 1, 0),
        "batch_gather": v1.batch_gather(tf.constant([[1, 2], [3, 4]]), tf.constant([[1], [0]])),
        "substr": v1.substr("hello", 1, 2),
        "py_func": v1.py_func(lambda a: a * 2, [tf.constant(3)], tf.int32),
        "Print": v1.Print(tf.constant(1), [tf.constant(2)], message="v: "),
        "dim": v1.dimension_value(tf.TensorShape([3, None])[0]),
        "spdm": v1.sparse_tensor_dense_matmul(sp, x),
        "seg": v1.unsorted_segment_sum([1, 2, 3], [0, 1, 0], 2),
        "segment_sum": v1.segment_sum([1, 2, 3], [0, 0, 1]),
        "inits": [v1.global_variables_initializer(), v1.local_variables_initializer(), v1.tables_initializer()],
        "uninit": v1.report_uninitialized_variables(),
        "one_shot": v1.data.make_one_shot_iterator(tf.data.Dataset.range(3)).get_next(),
        "shapes": v1.data.get_output_shapes(tf.data.Dataset.from_tensor_slices(({"a": [[1]]}, [2]))),
        "types": v1.data.get_output_types(tf.data.Dataset.from_tensor_slices(({"a": [[1]]}, [2.0]))),
        "poisson": v1.random_poisson(2.0, [3], seed=1).shape,
        "stateless": v1.random.stateless_multinomial(tf.math.log([[0.5, 0.5]]), 6, seed=[1, 2]),
        "metrics": outcomes({"acc": lambda: v1.metrics.accuracy([1, 0], [1, 1])}),
        "auto_reuse": v1.AUTO_REUSE is v1.AUTO_REUSE,
    }


def program_v1_learning_rate_decays(tf):
    step = tf.Variable(0, dtype=tf.int64)
    v1 = tf.compat.v1.train
    decays = {"exp": v1.exponential_decay(0.1, step, 4, 0.5, staircase=True),
              "piecewise": v1.piecewise_constant(step, [3, 7], [1.0, 0.5, 0.1]),
              "poly": v1.polynomial_decay(0.1, step, 6, end_learning_rate=0.01, power=2.0),
              "poly_cycle": v1.polynomial_decay(0.1, step, 4, cycle=True),
              "cos": v1.cosine_decay(0.1, step, 8, alpha=0.1),
              "inv": v1.inverse_time_decay(0.1, step, 4, 0.5),
              "inv_stair": v1.inverse_time_decay(0.1, step, 4, 0.5, staircase=True),
              "nat": v1.natural_exp_decay(0.1, step, 4, 0.5)}
    out = {k: [] for k in decays}
    for s in (0, 3, 5, 9):
        step.assign(s)
        for k, fn in decays.items():
            out[k].append(float(fn()))
    w = tf.Variable(1.0)
    opt = tf.compat.v1.train.GradientDescentOptimizer(decays["piecewise"])
    step.assign(5)
    opt.minimize(lambda: w * 2.0, var_list=[w])
    out["w"] = w
    out["callable"] = callable(decays["cos"])
    return out


def program_v1_initializers_namespace(tf):
    tf.random.set_seed(21)
    init = tf.compat.v1.initializers
    return {"he_normal": init.he_normal(seed=1)([3]), "he_uniform": init.he_uniform(seed=2)([2, 2]),
            "lecun_normal": init.lecun_normal(seed=3)([3]), "lecun_uniform": init.lecun_uniform(seed=4)([3]),
            "glorot": init.glorot_uniform(seed=5)([3]), "normal": init.random_normal(seed=6)([3]),
            "trunc": init.truncated_normal(seed=7)([3]), "uniform": init.random_uniform(seed=8)([3]),
            "vs": init.variance_scaling(seed=9)([3]), "zeros": init.zeros()([2]), "ones": init.ones()([2]),
            "const": init.constant(2.0)([2]), "orth": init.orthogonal(seed=10)([2, 3]),
            "orth_tall": tf.compat.v1.orthogonal_initializer(gain=2.0, seed=11)([3, 2]),
            "orth_conv": init.orthogonal(seed=12)([2, 2, 3]), "identity": init.identity(gain=0.5)([2, 3]),
            "orth_1d": outcomes({"o": lambda: init.orthogonal()([3])})}


def program_v1_nn_spellings_and_while_loop(tf):
    v1 = tf.compat.v1
    img = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    preds = tf.constant([[0.1, 0.9, 0.0], [0.5, 0.2, 0.3]])
    return {"conv": v1.nn.conv2d(img, filter=tf.ones([2, 2, 1, 1]), strides=[1, 1, 1, 1], padding="VALID",
                                 use_cudnn_on_gpu=True),
            "avg": v1.nn.avg_pool(value=img, ksize=2, strides=2, padding="VALID"),
            "max": v1.nn.max_pool(value=img, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME"),
            "emb": v1.nn.embedding_lookup(tf.eye(3), [2, 0], partition_strategy="div"),
            "softmax": v1.nn.softmax(preds, dim=0), "log_softmax": v1.nn.log_softmax(preds, dim=-1),
            "math_softmax": v1.math.softmax(preds, dim=1),
            "in_top_k": v1.nn.in_top_k(preds, tf.constant([1, 2]), 2), "math_in_top_k": v1.math.in_top_k(preds, [0, 0], 1),
            "xw": v1.nn.xw_plus_b(tf.ones([1, 2]), tf.ones([2, 2]), tf.constant([1.0, -5.0])),
            "relu_layer": v1.nn.relu_layer(tf.ones([1, 2]), tf.ones([2, 2]), tf.constant([1.0, -5.0])),
            "rev": v1.reverse_sequence([[1, 2, 3], [4, 5, 6]], [2, 3], seq_dim=1, batch_dim=0),
            "s2b": v1.space_to_batch(img, [[0, 0], [0, 0]], block_size=2),
            "while1": v1.while_loop(lambda i: i < 3, lambda i: i + 1, [0]),
            "while2": v1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), [0, 1.0]),
            "while_same": v1.while_loop(lambda i: i < 2, lambda i: [i + 1], [0], return_same_structure=True),
            "while_v2": tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + 0.5), (0, 1.0)),
            "while_v2_list": tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [0]),
            "seed": [v1.random.set_random_seed(4), v1.random.get_seed(7)]}


def program_v1_more_optimizers(tf):
    out = {}
    t = tf.compat.v1.train
    makers = {"adadelta": lambda: t.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-6),
              "ftrl": lambda: t.FtrlOptimizer(0.5),
              "ftrl_l1l2": lambda: t.FtrlOptimizer(0.5, l1_regularization_strength=0.1, l2_regularization_strength=0.2,
                                                   initial_accumulator_value=0.2),
              "ftrl_power": lambda: t.FtrlOptimizer(0.3, learning_rate_power=-0.3,
                                                    l2_shrinkage_regularization_strength=0.1),
              "prox_gd": lambda: t.ProximalGradientDescentOptimizer(0.2, l1_regularization_strength=0.05,
                                                                    l2_regularization_strength=0.1),
              "prox_gd_plain": lambda: t.ProximalGradientDescentOptimizer(0.2),
              "prox_adagrad": lambda: t.ProximalAdagradOptimizer(0.3, l1_regularization_strength=0.05)}
    for name, make in makers.items():
        v = tf.Variable([2.0, -1.0, 0.5])
        opt = make()
        for _ in range(4):
            opt.minimize(lambda: tf.reduce_sum(v ** 2 * tf.constant([1.0, 2.0, 3.0]) + v), var_list=[v])
        out[name] = v
    out["bad_power"] = outcomes({"p": lambda: t.FtrlOptimizer(0.1, learning_rate_power=0.5)})
    return out


@tolerance(rtol=1e-5, atol=1e-4)  # float32 sums of squares: the gradient's last bits follow the sum order
def program_v1_image_legacy_resizes(tf):
    v1 = tf.compat.v1
    img = tf.reshape(tf.range(2 * 4 * 5 * 2, dtype=tf.float32) * 0.37, [2, 4, 5, 2])
    u8 = tf.cast(tf.reshape(tf.range(4 * 5), [1, 4, 5, 1]) * 7 % 255, tf.uint8)
    out = {}
    for ac in (False, True):
        for size in ([2, 3], [7, 9], [1, 1], [3, 8]):
            key = f"{'ac' if ac else 'plain'}_{size[0]}x{size[1]}"
            out[key] = [v1.image.resize_bilinear(img, size, align_corners=ac),
                        v1.image.resize_nearest_neighbor(u8, size, align_corners=ac),
                        v1.image.resize_images(img[0], size, align_corners=ac),
                        v1.image.resize_images(u8, size, method=v1.image.ResizeMethod.NEAREST_NEIGHBOR,
                                               align_corners=ac)]
    with tf.GradientTape() as tape:
        tape.watch(img)
        y = tf.reduce_sum(v1.image.resize_bilinear(img, [3, 7]) ** 2)
    out["grad"] = tape.gradient(y, img)
    out["graph"] = tf.function(lambda x: v1.image.resize_bilinear(x, [3, 3], align_corners=True))(img)
    out["dtypes"] = [v1.image.resize_bilinear(u8, [2, 2]).dtype, v1.image.resize_images(u8, [2, 2]).dtype,
                     v1.image.resize_nearest_neighbor(u8, [2, 2]).dtype]
    out["half_pixel"] = [v1.image.resize_bilinear(img, [3, 3], half_pixel_centers=True),
                         v1.image.resize_nearest_neighbor(img, [3, 7], half_pixel_centers=True)]
    out["errors"] = outcomes({"rank3": lambda: v1.image.resize_bilinear(img[0], [3, 3]),
                              "rank1": lambda: v1.image.resize_images(tf.ones([2]), [2, 2])})
    return out


def program_v1_string_split(tf):
    v1 = tf.compat.v1
    x = ["a b  c", "", " d", "e,f g"]
    in_graph = tf.function(lambda t: v1.string_split(t, delimiter=" ,", result_type="RaggedTensor"))
    return {"default": v1.string_split(x), "keep_empty": v1.string_split(x, skip_empty=False),
            "two_delims": v1.string_split(x, delimiter=", "), "sep": v1.string_split(x, sep=","),
            "bytes": v1.string_split(["abc", "de"], delimiter=""),
            "ragged": v1.string_split(x, result_type="RaggedTensor"), "graph": in_graph(tf.constant(x)),
            "special": v1.string_split(["a]b^c-d\\\\e"], delimiter="]^-\\\\")}

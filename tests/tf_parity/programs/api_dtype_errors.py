"""Ops given dtypes TF has no kernel for raise TF's error, eagerly and in tf.function:
InvalidArgumentError eagerly, TypeError while tracing (never a silent result)."""


def _both(tf, fn):
    out = {}
    for mode in ("eager", "graph"):
        try:
            r = fn() if mode == "eager" else tf.function(fn)()
            out[mode] = r.dtype.name
        except Exception as e:
            out[mode] = type(e).__name__
    return out


def program_bool_arithmetic(tf):
    t, f = tf.constant([True]), tf.constant([False])
    return {"add": _both(tf, lambda: t + f), "sub": _both(tf, lambda: t - f), "mul": _both(tf, lambda: t * f),
            "div": _both(tf, lambda: t / f), "max": _both(tf, lambda: tf.maximum(t, f)),
            "neg": _both(tf, lambda: -t), "abs": _both(tf, lambda: tf.abs(t)),
            "sum": _both(tf, lambda: tf.reduce_sum(t)), "square": _both(tf, lambda: tf.square(t)),
            "pow": _both(tf, lambda: t ** f), "less": _both(tf, lambda: t < f), "equal": _both(tf, lambda: t == f)}


def program_unsigned_sign_ops(tf):
    u = tf.constant([3], tf.uint8)
    return {"neg": _both(tf, lambda: -u), "abs": _both(tf, lambda: tf.abs(u)), "sign": _both(tf, lambda: tf.sign(u)),
            "add": _both(tf, lambda: u + u), "square": _both(tf, lambda: tf.square(u)),
            "neg32": _both(tf, lambda: -tf.constant([3], tf.uint32))}


def program_integer_inputs_to_float_ops(tf):
    i = tf.constant([1, 2])
    return {"log": _both(tf, lambda: tf.math.log(i)), "sqrt": _both(tf, lambda: tf.sqrt(i)),
            "softmax": _both(tf, lambda: tf.nn.softmax(i)), "sigmoid": _both(tf, lambda: tf.sigmoid(i)),
            "tanh": _both(tf, lambda: tf.tanh(i)), "floor": _both(tf, lambda: tf.floor(i)),
            "is_nan": _both(tf, lambda: tf.math.is_nan(i)), "round": _both(tf, lambda: tf.round(i)),
            "mean": _both(tf, lambda: tf.reduce_mean(i)), "truediv": _both(tf, lambda: i / i)}


def program_shape_errors(tf):
    return {"tile_rank": _both(tf, lambda: tf.tile(tf.ones([2]), [2, 2])),
            "stack_shape": _both(tf, lambda: tf.stack([tf.ones([2]), tf.ones([3])])),
            "conv_channels": _both(tf, lambda: tf.nn.conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 3, 1]), 1, "SAME")),
            "expand_axis": _both(tf, lambda: tf.expand_dims(tf.ones([2]), 3)),
            "argmax_axis": _both(tf, lambda: tf.argmax(tf.ones([2]), axis=1)),
            "slice_oob": _both(tf, lambda: tf.slice(tf.ones([3]), [2], [5]))}

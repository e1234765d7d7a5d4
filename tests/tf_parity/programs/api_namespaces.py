"""One public object per name: tf.X and tf.math.X (tf.nn.X, tf.dtypes.X) are the same function,
and the ops TensorFlow dispatches on a RaggedTensor do so in every namespace they appear in."""


def program_same_object_in_each_namespace(tf):
    return {"add": tf.add is tf.math.add, "sigmoid": tf.nn.sigmoid is tf.math.sigmoid,
            "tanh": tf.nn.tanh is tf.math.tanh, "matmul": tf.linalg.matmul is tf.matmul,
            "softplus": tf.nn.softplus is tf.math.softplus, "cast": tf.dtypes.cast is tf.cast,
            "l2_normalize": tf.nn.l2_normalize is tf.math.l2_normalize}


def program_ragged_dispatch_in_every_namespace(tf):
    rt = tf.ragged.constant([[-1.0, 2.0], [], [3.0]])
    return {"relu": tf.nn.relu(rt), "nn_sigmoid": tf.nn.sigmoid(rt), "nn_softplus": tf.nn.softplus(rt),
            "math_add": tf.math.add(rt, 1.0), "dtypes_cast": tf.dtypes.cast(rt, tf.int32),
            "math_reduce_sum": tf.math.reduce_sum(rt, axis=1), "tanh": tf.nn.tanh(rt)}


def program_namespace_modules_import(tf):
    import importlib
    found = {}
    for path in ("math", "nn", "linalg", "random", "config", "config.experimental", "debugging"):
        mod = importlib.import_module(f"{tf.__name__}.{path}")
        found[path] = mod is eval(f"tf.{path}", {"tf": tf})  # noqa: S307 - a fixed dotted path
    return found

"""Tensors: construction, dtype rules, printing, conversion (TF guide: tensors)."""


def program_constant_dtypes(tf):
    return {"float": tf.constant(1.5), "int": tf.constant([1, 2]), "bool": tf.constant(True),
            "f64": tf.constant([1.0], dtype=tf.float64), "cast": tf.cast(tf.constant([1.7, -1.7]), tf.int32)}


def program_int_division_is_float64(tf):
    return {"truediv": tf.constant([7, 8]) / tf.constant([2, 3]),
            "floordiv": tf.constant([7, -8]) // tf.constant([2, 3]),
            "mod": tf.constant([7, -8]) % tf.constant([3, 3])}


def program_mixed_dtypes_raise(tf):
    return {"sum": tf.constant(1) + tf.constant(1.0)}


def program_scalar_numpy_and_str(tf):
    x = tf.constant(0.1)
    return {"numpy": x.numpy(), "str": str(x), "repr_int": repr(tf.constant([1, 2])),
            "shape": x.shape, "dtype": x.dtype, "py": float(x)}


def program_reductions(tf):
    x = tf.reshape(tf.range(12, dtype=tf.float32), (3, 4))
    return {"sum0": tf.reduce_sum(x, axis=0), "mean1": tf.reduce_mean(x, axis=1, keepdims=True),
            "max": tf.reduce_max(x), "argmax": tf.argmax(x, axis=1), "std": tf.math.reduce_std(x)}


def program_function_trace_count(tf):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x * 2

    outs = [f(tf.constant(1.0)), f(tf.constant(2.0)), f(tf.constant([1.0, 2.0])), f(3), f(3), f(4)]
    return {"outs": outs, "traces": len(traces)}

"""keras.ops numpy-style functions (values, dtypes, broadcasting) and mixed precision policies."""
import numpy as np


def _k(tf):
    return tf.keras.ops


def program_ops_broadcast_add_dtypes(tf):
    o = _k(tf)
    a = np.arange(3, dtype="int32")
    b = np.ones((2, 1), "float32")
    r = o.add(a, b)
    return {"r": r, "dt": str(r.dtype), "py": str(o.add(a, 2).dtype), "pyf": str(o.add(a, 2.5).dtype)}


def program_ops_int_division(tf):
    o = _k(tf)
    a = np.array([7, -7, 3], "int32")
    return {"div": o.divide(a, 2), "fdiv": o.floor_divide(a, 2), "mod": o.mod(a, 2),
            "true_dt": str(o.true_divide(a, 2).dtype)}


def program_ops_reductions(tf):
    o = _k(tf)
    x = np.arange(12, dtype="float32").reshape(3, 4)
    return {"sum": o.sum(x, axis=0), "mean": o.mean(x, axis=1, keepdims=True), "max": o.max(x),
            "argmax": o.argmax(x, axis=1), "std": o.std(x), "var": o.var(x, axis=0), "prod": o.prod(x[:, :2], axis=1),
            "cumsum": o.cumsum(x, axis=1), "any": o.any(x > 10), "all": o.all(x >= 0, axis=0)}


def program_ops_shape_functions(tf):
    o = _k(tf)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    return {"t": o.transpose(x), "r": o.reshape(x, (3, -1)), "e": o.expand_dims(x, 0).shape,
            "sq": o.squeeze(o.expand_dims(x, 1)).shape, "stack": o.stack([x, x], axis=1),
            "concat": o.concatenate([x, x], axis=0), "tile": o.tile(x, (1, 2)), "flip": o.flip(x, axis=1),
            "moveaxis": o.moveaxis(o.zeros((2, 3, 4)), 0, -1).shape}


def program_ops_where_clip_sort(tf):
    o = _k(tf)
    x = np.array([3., -1., 2., 5.], "float32")
    return {"where": o.where(x > 0, x, 0), "clip": o.clip(x, 0, 3), "sort": o.sort(x),
            "argsort": o.argsort(x), "top": o.top_k(x, 2)[0]}


def program_ops_matmul_einsum_dot(tf):
    o = _k(tf)
    a = np.arange(6, dtype="float32").reshape(2, 3)
    b = np.arange(12, dtype="float32").reshape(3, 4)
    return {"mm": o.matmul(a, b), "ein": o.einsum("ij,jk->ik", a, b), "dot": o.dot(a[0], a[1]),
            "outer": o.outer(a[0], a[1]), "tensordot": o.tensordot(a, b, axes=1)}


def program_ops_creation(tf):
    o = _k(tf)
    return {"arange": o.arange(1, 7, 2), "ar_dt": str(o.arange(3).dtype), "arf": str(o.arange(0.0, 1.0, 0.5).dtype),
            "lin": o.linspace(0, 1, 5), "eye": o.eye(3, k=1), "full": o.full((2, 2), 7),
            "full_dt": str(o.full((2,), 7).dtype), "zl": o.zeros_like(np.ones((2,), "int32")),
            "tri": o.tri(3), "ones_dt": str(o.ones((1,)).dtype)}


def program_ops_math_elementwise(tf):
    o = _k(tf)
    x = np.array([0.5, 1.0, 2.0], "float32")
    return {"exp": o.exp(x), "log1p": o.log1p(x), "sqrt": o.sqrt(x), "pow": o.power(x, 2), "sign": o.sign(x - 1),
            "round": o.round(np.array([0.5, 1.5, 2.5], "float32")), "int_sqrt": str(o.sqrt(np.array([4], "int32")).dtype),
            "abs": o.absolute(np.array([-2, 3])), "square_dt": str(o.square(np.array([2], "int32")).dtype)}


def program_ops_logical_compare(tf):
    o = _k(tf)
    a = np.array([1, 2, 3])
    b = np.array([3, 2, 1])
    return {"eq": o.equal(a, b), "gt": o.greater(a, b), "and": o.logical_and(a > 1, b > 1),
            "isclose": o.isclose(np.array([1.0, 1.1]), np.array([1.0, 1.0])), "count": o.count_nonzero(a - 2)}


def program_ops_nn_functions(tf):
    o = _k(tf)
    x = np.array([[-1., 0., 2.]], "float32")
    return {"softmax": o.softmax(x), "relu": o.relu(x), "sigmoid": o.sigmoid(x), "gelu": o.gelu(x),
            "logsm": o.log_softmax(x), "onehot": o.one_hot(np.array([0, 2]), 3), "silu": o.silu(x)}


def program_ops_convert_and_cast(tf):
    o = _k(tf)
    t = o.convert_to_tensor([1, 2])
    c = o.cast(t, "float16")
    return {"dt": str(t.dtype), "c": c, "cdt": str(c.dtype), "np": o.convert_to_numpy(c),
            "is": o.is_tensor(t), "shape": tuple(o.shape(o.zeros((2, 3))))}


def program_dtype_policy_object(tf):
    p = tf.keras.DTypePolicy("mixed_bfloat16") if hasattr(tf.keras, "DTypePolicy") else \
        tf.keras.mixed_precision.Policy("mixed_bfloat16")
    return {"name": p.name, "c": p.compute_dtype, "v": p.variable_dtype}


def program_layer_dtype_arg_float64(tf):
    d = tf.keras.layers.Dense(1, dtype="float64", kernel_initializer="ones")
    y = d(np.ones((1, 2), "float32"))
    return {"y": str(y.dtype), "cfg": d.get_config()["dtype"]}

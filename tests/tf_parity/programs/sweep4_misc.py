"""Sweep 4: smaller corners the guides touch: function arguments, methods, variables, math."""
import numpy as np


def program_function_methods_per_instance(tf):
    class Scaler(tf.Module):
        def __init__(self, k):
            super().__init__()
            self.k = tf.Variable(k)

        @tf.function
        def __call__(self, x):
            return x * self.k

    a, b = Scaler(2.), Scaler(3.)
    r = [a(tf.constant(1.)), b(tf.constant(1.)), a(tf.constant(2.))]
    return {"r": r, "a_count": a.__call__.experimental_get_tracing_count(),
            "b_count": b.__call__.experimental_get_tracing_count()}


def program_function_python_object_arg(tf):
    traces = []

    class Config:
        def __init__(self, n):
            self.n = n

    @tf.function
    def f(x, cfg):
        traces.append(1)
        return x + cfg.n

    c1 = Config(1)
    r = [f(tf.constant(1), c1), f(tf.constant(2), c1), f(tf.constant(1), Config(1))]
    return {"r": r, "traces": len(traces)}


def program_function_follow_type_hints(tf):
    traces = []

    @tf.function(experimental_follow_type_hints=True)
    def f(x: tf.Tensor):
        traces.append(1)
        return x * 2

    r = [f(1), f(2), f(3)]
    return {"r": r, "traces": len(traces)}


def program_variable_properties_and_ops(tf):
    v = tf.Variable([1., 2., 3.], name="vec", trainable=False)
    w = tf.Variable(np.ones([2, 2]), dtype=tf.float64)
    return {"name": v.name, "trainable": v.trainable, "dtype": v.dtype, "w_dtype": w.dtype,
            "neg": -v, "add": v + 1, "matmul": tf.matmul(tf.reshape(v, [1, 3]), tf.reshape(v, [3, 1])),
            "np": v.numpy(), "shape": v.get_shape(), "device_is_str": isinstance(v.device, str),
            "convert": tf.convert_to_tensor(v), "identity": tf.identity(v), "sync": str(v.synchronization)}


def program_variable_tensor_initial_value_other_dtype(tf):
    return {"v": tf.Variable(tf.ones([2]), dtype=tf.float64)}


def program_variable_assign_wrong_dtype(tf):
    v = tf.Variable(1, dtype=tf.int32)
    v.assign(2.5)
    return {"v": v}


def program_variable_in_tf_function_assign_and_read(tf):
    v = tf.Variable(1.0)

    @tf.function
    def f():
        v.assign(2.0)
        a = v.read_value()
        v.assign_add(1.0)
        return a, v.read_value()

    return {"r": f(), "v": v}


def program_complex_and_special_math(tf):
    z = tf.complex(tf.constant([1., 0.]), tf.constant([1., -2.]))
    x = tf.constant([0.5, 1.5, 2.5])
    return {"abs": tf.abs(z), "angle": tf.math.angle(z), "conj": tf.math.conj(z), "real": tf.math.real(z),
            "lgamma": tf.math.lgamma(x), "erf": tf.math.erf(x), "round": tf.round(x),
            "cumsum": tf.cumsum(x, exclusive=True), "cumprod": tf.math.cumprod(x, reverse=True),
            "softplus": tf.math.softplus(x), "l2": tf.math.l2_normalize(x), "bincount": tf.math.bincount([1, 1, 3]),
            "segment": tf.math.segment_sum([1., 2., 3.], [0, 0, 1]), "polyval": tf.math.polyval([1., 2.], 3.)}


def program_linalg_basics(tf):
    a = tf.constant([[4., 1.], [1., 3.]])
    b = tf.constant([[1.], [2.]])
    return {"inv": tf.linalg.inv(a), "det": tf.linalg.det(a), "solve": tf.linalg.solve(a, b),
            "chol": tf.linalg.cholesky(a), "eigh": tf.linalg.eigh(a)[0], "trace": tf.linalg.trace(a),
            "band": tf.linalg.band_part(tf.ones([3, 3]), 0, 1), "diag": tf.linalg.diag([1, 2]),
            "einsum": tf.einsum("ij,jk->ik", a, b), "norm": tf.norm(a), "tensordot": tf.tensordot(a, b, 1),
            "matvec": tf.linalg.matvec(a, [1., 1.])}


def program_sort_search_and_sets(tf):
    x = tf.constant([3, 1, 2, 5, 4])
    return {"sort": tf.sort(x, direction="DESCENDING"), "argsort": tf.argsort(x),
            "searchsorted": tf.searchsorted(tf.constant([1, 3, 5, 7]), tf.constant([0, 3, 6])),
            "in_top_k": tf.math.in_top_k(tf.constant([2, 0]), tf.constant([[0.1, 0.2, 0.7], [0.5, 0.3, 0.2]]), 1)}


def program_clip_and_norms(tf):
    g = [tf.constant([3., 4.]), tf.constant([0., 12.])]
    clipped, norm = tf.clip_by_global_norm(g, 6.5)
    return {"clipped": clipped, "norm": norm, "by_norm": tf.clip_by_norm(tf.constant([3., 4.]), 1.),
            "by_value": tf.clip_by_value(tf.constant([-2, 5, 9]), 0, 6), "gn": tf.linalg.global_norm(g)}


def program_random_seeded_shapes(tf):
    tf.random.set_seed(11)
    a = tf.random.uniform([2, 3], minval=0, maxval=10, dtype=tf.int32)
    n = tf.random.normal([4])
    s = tf.random.stateless_uniform([3], seed=[1, 2])
    return {"a_shape": a.shape, "a_dtype": a.dtype, "n_shape": n.shape, "s": s,
            "in_range": bool(tf.reduce_all((a >= 0) & (a < 10))),
            "cat": tf.random.stateless_categorical(tf.math.log([[0.5, 0.5]]), 5, seed=[3, 4]).shape}


def program_nest_utilities(tf):
    s = {"b": [1, 2], "a": (3, {"c": 4})}
    flat = tf.nest.flatten(s)
    packed = tf.nest.pack_sequence_as(s, [x * 10 for x in flat])
    mapped = tf.nest.map_structure(lambda x: x + 1, s)
    try:
        tf.nest.assert_same_structure(s, {"a": 1, "b": 2})
        same = True
    except (ValueError, TypeError) as e:
        same = type(e).__name__
    return {"flat": flat, "packed": packed, "mapped": mapped, "same": same,
            "is_nested": tf.nest.is_nested([1])}


def program_string_tensor_basics(tf):
    s = tf.constant(["hello", "world"])
    return {"dtype": s.dtype, "shape": s.shape, "len": tf.strings.length(s), "upper": tf.strings.upper(s),
            "join": tf.strings.reduce_join(s, separator=" "), "num": tf.strings.to_number(["1.5", "2"]),
            "as_str": tf.strings.as_string(tf.constant([1, 22])), "sub": tf.strings.substr(s, 1, 3),
            "bytes": s.numpy().tolist()}


def program_tensor_equality_and_hash(tf):
    a = tf.constant([1, 2])
    out = {"eq": a == tf.constant([1, 3]), "eq_list": a == [1, 2], "ne": a != 1}
    try:
        hash(a)
    except TypeError:
        out["hash"] = "TypeError"
    out["ref"] = a.ref().deref() is a
    out["in_set"] = len({a.ref(), a.ref()})
    return out


def program_numpy_interop(tf):
    x = tf.constant([[1., 2.], [3., 4.]])
    return {"np_mean": np.mean(x), "np_dot": np.dot(x, x), "array": np.asarray(x).dtype.name,
            "tf_from_np": tf.add(np.ones(2, np.float32), 1.).dtype,
            "np_f64_mix": tf.constant(np.float64(1.5)) * 2., "np_int": tf.constant(np.arange(3)).dtype,
            "multiply_np": x * np.float32(2)}

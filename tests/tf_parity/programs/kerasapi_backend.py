"""The legacy tf.keras.backend (K) functions of TF1-era programs: reductions, shapes,
variables, K.dot / K.batch_dot, elementwise functions and crossentropies."""
import numpy as np

from parity import tolerance

A = np.arange(24, dtype="float32").reshape(2, 3, 4) / 10.0
B = np.linspace(-1, 1, 40, dtype="float32").reshape(2, 4, 5)


@tolerance(rtol=1e-5, atol=1e-6)
def program_reductions_and_shapes(tf):
    K = tf.keras.backend
    x = tf.constant(A)
    return {
        "sum": K.sum(x), "sum1": K.sum(x, axis=1), "sum_keep": K.sum(x, axis=-1, keepdims=True),
        "mean": K.mean(x, axis=0), "mean_bool": K.mean(x > 1.0), "max": K.max(x, 1), "min": K.min(x),
        "prod": K.prod(x[:, :, :2] + 1.0, axis=2), "std": K.std(x, axis=2), "var": K.var(x),
        "any": K.any(x > 2.2), "all": K.all(x >= 0, axis=1), "argmax": K.argmax(x), "argmin": K.argmin(x, 1),
        "int_shape": K.int_shape(x), "shape": K.shape(x), "ndim": K.ndim(x), "count": K.count_params(x),
        "flatten": K.flatten(x), "batch_flatten": K.batch_flatten(x), "reshape": K.reshape(x, (4, 6)),
        "expand": K.expand_dims(x, 1).shape, "squeeze": K.squeeze(K.expand_dims(x, 1), 1).shape,
        "permute": K.permute_dimensions(x, (2, 0, 1)), "transpose": K.transpose(x[0]),
        "concat": K.concatenate([x, x]), "concat0": K.concatenate([x, x], axis=0).shape,
        "stack": K.stack([x[0], x[1]], axis=1), "tile": K.tile(x[0], (2, 1)),
        "repeat": K.repeat(x[0], 2), "repeat_elements": K.repeat_elements(x, 2, axis=1),
        "reverse": K.reverse(x, 1), "gather": K.gather(x[0], [2, 0]), "one_hot": K.one_hot([0, 2, 1], 3),
        "arange": K.arange(5), "arange_f": K.arange(1, 7, 2, dtype="float32"),
        "cumsum": K.cumsum(x, 1), "cumprod": K.cumprod(x[0] + 1.0, axis=1),
    }


@tolerance(rtol=1e-5, atol=1e-6)
def program_elementwise(tf):
    K = tf.keras.backend
    x = tf.constant(A[0] - 1.0)
    y = tf.constant(A[1] / 3.0)
    out = {name: getattr(K, name)(x) for name in ("abs", "exp", "square", "sign", "round", "sin", "cos", "tanh",
                                                  "sigmoid", "softplus", "softsign", "elu", "softmax")}
    out.update({name: getattr(K, name)(x, y) for name in ("equal", "not_equal", "greater", "greater_equal", "less",
                                                          "less_equal", "maximum", "minimum")})
    out["sqrt"] = K.sqrt(y)
    out["log"] = K.log(y + 1.0)
    out["pow"] = K.pow(y, 2.5)
    out["clip"] = K.clip(x, -0.5, 0.5)
    out["clip_swapped"] = K.clip(x, 0.5, -0.5)
    out["cast"] = K.cast(x > 0, "float32")
    out["cast_to_floatx"] = K.cast_to_floatx(np.array([1, 2], "int32"))
    out["relu"] = K.relu(x, alpha=0.1, max_value=0.5)
    out["relu_t"] = K.relu(x, threshold=0.2)
    out["l2"] = K.l2_normalize(x, axis=1)
    out["switch"] = K.switch(x > 0, x, -x)
    out["epsilon"] = K.epsilon()
    out["floatx"] = K.floatx()
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def program_dots(tf):
    K = tf.keras.backend
    a, b = tf.constant(A), tf.constant(B)
    m = tf.constant(A[0])
    return {
        "dot2": K.dot(m, tf.constant(B[0])), "dot3": K.dot(a, tf.constant(B[0])), "dot33": K.dot(a, b),
        "batch_dot": K.batch_dot(a, b), "batch_dot_axes": K.batch_dot(a, a, axes=(2, 2)),
        "batch_dot_1": K.batch_dot(a, a, axes=1), "batch_dot_2d": K.batch_dot(a[:, 0, :], a[:, 1, :], axes=1),
        "batch_dot_23": K.batch_dot(a[:, 0, :], b), "batch_dot_int": K.batch_dot(a, b, axes=[2, 1]),
    }


def program_batch_dot_axis0(tf):
    return {"x": tf.keras.backend.batch_dot(tf.ones((2, 3)), tf.ones((2, 3)), axes=0)}


def program_variables(tf):
    K = tf.keras.backend
    v = K.variable(np.ones((2, 2)), name="v")
    o, z, e = K.ones((2, 3)), K.zeros((3,), dtype="int32"), K.eye(3)
    K.set_value(v, [[1.0, 2.0], [3.0, 4.0]])
    K.update_add(v, tf.ones((2, 2)))
    K.update_sub(o, 0.5 * tf.ones((2, 3)))
    K.batch_set_value([(z, [4, 5, 6])])
    return {"v": K.get_value(v), "v_dtype": v.dtype, "o": K.eval(o), "z": K.batch_get_value([z])[0],
            "eye": K.eval(e), "is_var": [isinstance(t, tf.Variable) for t in (v, o, z, e)],
            "const": K.constant([1, 2]), "ones_like": K.ones_like(v), "zeros_like": K.zeros_like(v, dtype="int32")}


@tolerance(rtol=1e-5, atol=1e-6)
def program_crossentropies(tf):
    K = tf.keras.backend
    t = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    p = tf.constant([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]])
    return {"bce": K.binary_crossentropy(t, p), "bce_logits": K.binary_crossentropy(t, p * 4 - 2, from_logits=True),
            "cce": K.categorical_crossentropy(t, p), "cce_logits": K.categorical_crossentropy(t, p, from_logits=True),
            "scce": K.sparse_categorical_crossentropy([1, 0], p),
            "scce_logits": K.sparse_categorical_crossentropy([[1], [2]], p, from_logits=True)}

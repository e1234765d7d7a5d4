"""tf.bfloat16 as a real dtype: storage (ml_dtypes' NumPy type), TF's rounding of casts and
arithmetic, reductions and matmul accumulated in float32, printing, graphs (compiled or
through NumPy) equal to eager, gradients; the float8 / int4 names of tf.dtypes.experimental."""
import numpy as np
from parity import tolerance

_X = [1.00390625, 1.01171875, 3.3, -7.77, 1e-3, 65504.0, 1e38, -0.0]


def program_bf16_dtype_facts(tf):
    d = tf.bfloat16
    return {"same": d is tf.dtypes.bfloat16, "eq_name": d == "bfloat16", "repr": repr(d), "str": str(d),
            "floating": d.is_floating, "integer": d.is_integer, "size": d.size, "min": float(d.min),
            "max": float(d.max), "np_name": np.dtype(d.as_numpy_dtype).name,
            "from_np": tf.as_dtype(np.dtype(d.as_numpy_dtype)), "as_dtype": tf.as_dtype("bfloat16")}


def program_bf16_constants_and_printing(tf):
    b = tf.constant(_X, tf.bfloat16)
    c = tf.cast(tf.constant(_X), tf.bfloat16)
    return {"b": b, "c": c, "str": str(b), "repr": repr(b), "numpy_dtype": b.numpy().dtype.name,
            "numpy_type": type(b.numpy()).__name__, "scalar": str(tf.constant(2.5, tf.bfloat16)),
            "zeros": tf.zeros([2], tf.bfloat16), "ones": tf.ones([2], "bfloat16"),
            "from_numpy": tf.constant(np.array([1.5, 3.3], np.float32).astype(b.numpy().dtype)).dtype}


def program_bf16_casts(tf):
    b = tf.constant(_X[:5], tf.bfloat16)
    return {"int32": tf.cast(b, tf.int32), "float16": tf.cast(b, tf.float16), "float64": tf.cast(b, tf.float64),
            "bool": tf.cast(b, tf.bool), "from_int": tf.cast(tf.constant([257, 1025, -3]), tf.bfloat16),
            "from_f64": tf.cast(tf.constant([0.1, 1 / 3], tf.float64), tf.bfloat16),
            "round_even": tf.cast(tf.constant([1.00390625, 1.01171875, 1.005859375]), tf.bfloat16)}


def program_bf16_arithmetic(tf):
    c = tf.constant(_X[:5], tf.bfloat16)
    return {"poly": c * c + c, "div": c / 3, "sub": c - 0.1, "neg": -c, "exp": tf.exp(c), "tanh": tf.tanh(c),
            "sigmoid": tf.sigmoid(c), "sqrt_abs": tf.sqrt(tf.abs(c)), "relu": tf.nn.relu(c),
            "softmax": tf.nn.softmax(c), "max": tf.maximum(c, 1.0), "floor": tf.floor(c), "pow": c ** 2,
            "cmp": c > 1.0, "where": tf.where(c > 1.0, c, tf.zeros_like(c))}


def program_bf16_reductions_accumulate_in_float32(tf):
    t = tf.fill([1000], tf.constant(0.1, tf.bfloat16))
    m = tf.reshape(tf.range(12, dtype=tf.float32) / 7, [3, 4])
    mb = tf.cast(m, tf.bfloat16)
    return {"sum": tf.reduce_sum(t), "mean": tf.reduce_mean(t), "max": tf.reduce_max(mb, axis=1),
            "prod": tf.reduce_prod(mb + 1, axis=0), "sum_axis": tf.reduce_sum(mb, axis=0, keepdims=True),
            "matmul": tf.matmul(tf.ones([3, 300], tf.bfloat16) * 0.1, tf.ones([300, 2], tf.bfloat16)),
            "matmul_t": tf.matmul(mb, mb, transpose_b=True), "cumsum": tf.cumsum(mb, axis=1),
            "argmax": tf.argmax(mb, axis=1)}


def program_bf16_mixing_dtypes_is_an_error(tf):
    c = tf.constant([1.0], tf.bfloat16)
    try:
        c + tf.constant(1.0)
        return {"raised": None}
    except Exception as e:
        return {"raised": type(e).__name__}


def program_bf16_in_function(tf):
    c = tf.constant(_X[:5], tf.bfloat16)

    @tf.function
    def f(x):
        y = tf.nn.relu(x * 2.0 + 1.0)
        return y, tf.reduce_sum(x * x), tf.cast(y, tf.float32) / 3.0, tf.matmul(x[None, :], x[:, None])

    out = f(c)
    return {"graph": out, "eager": (tf.nn.relu(c * 2.0 + 1.0), tf.reduce_sum(c * c))}


# One bfloat16 ulp: the tape adds v's three gradient terms (2 from v*v, 1 from sin) in another
# order than TF's AddN, and one of the sums is a rounding tie
@tolerance(rtol=8e-3, atol=1e-6)
def program_bf16_gradients_and_variables(tf):
    v = tf.Variable(tf.constant(_X[:4], tf.bfloat16))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v + tf.sin(v))
    g = tape.gradient(y, v)
    v.assign_add(tf.ones([4], tf.bfloat16) * 0.01)
    return {"y": y, "g": g, "v": v, "dtype": v.dtype, "numpy_dtype": v.numpy().dtype.name}


def program_bf16_dense_layer(tf):
    x = tf.constant([[0.5, -1.25, 2.0]], tf.bfloat16)
    w = tf.constant([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]], tf.bfloat16)
    return {"dense": tf.nn.relu(tf.matmul(x, w) + tf.constant([0.01, 0.02], tf.bfloat16)),
            "conv": tf.nn.conv1d(tf.reshape(tf.range(8, dtype=tf.bfloat16), [1, 8, 1]) / 3,
                                 tf.ones([3, 1, 1], tf.bfloat16), 1, "VALID")}


def _cast_outcome(tf, x, d):
    try:
        return tf.cast(tf.cast(x, d), x.dtype)
    except Exception as e:
        return type(e).__name__


@tolerance(rtol=0, atol=0)
def program_bf16_experimental_names(tf):
    e = tf.dtypes.experimental
    x = tf.constant([0.3, 1.7, -2.6, 448.0, 500.0])
    sources = (x, tf.cast(x, tf.bfloat16), tf.cast(x, tf.float16), tf.cast(x, tf.float64),
               tf.constant([1, 5, 7]), tf.constant([1, 5, 7], tf.int64), tf.constant([1, 5, 7], tf.int8),
               tf.constant([1, 5, 7], tf.int16), tf.constant([1, 5, 7], tf.uint8), tf.constant([1, 5, 7], tf.uint32),
               tf.constant([True, False, True]))
    out = {}
    for name in ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
                 "float4_e2m1fn", "int4", "uint4", "int2", "uint2"):
        d = getattr(e, name)
        out[name] = [d.name, d.size, d.is_floating, d.is_integer] + [_cast_outcome(tf, s, d) for s in sources]
    out["fp8_pair"] = _cast_outcome(tf, tf.cast(x, e.float8_e5m2), e.float8_e4m3fn)
    out["int4_pair"] = _cast_outcome(tf, tf.cast(tf.constant([1, 5]), e.int4), e.uint4)
    out["fp8_int4"] = _cast_outcome(tf, tf.cast(x, e.float8_e5m2), e.int4)
    out["int4_limits"] = [int(e.int4.min), int(e.int4.max), int(e.uint4.max)]
    return out


def program_bf16_mean_and_log_softmax(tf):
    x = tf.constant([[0.3, -1.7, 2.2], [4.5, 0.0, -0.25]], tf.bfloat16)
    return {"mean": tf.reduce_mean(x * x, 1), "graph_mean": tf.function(lambda a: tf.reduce_mean(a * a, 1))(x),
            "mean_all": tf.reduce_mean(x), "variance": tf.math.reduce_variance(x, 0), "std": tf.math.reduce_std(x),
            # not log_softmax: TF's bfloat16 kernel adds the exponentials in bfloat16 (rounded each
            # step), tapeflow in float32: they differ by a few ulps on some rows
            "log_softmax_row0": tf.nn.log_softmax(x)[0], "softmax": tf.nn.softmax(x), "l2": tf.math.l2_normalize(x, 1),
            "ops": [tf.reduce_max(x, 1), tf.sort(x), tf.math.top_k(x, 2).values, tf.cumsum(x, 1), tf.norm(x),
                    tf.einsum("ij,kj->ik", x, x), tf.tensordot(x, tf.transpose(x), 1), tf.math.segment_sum(x, [0, 0]),
                    tf.one_hot([0, 2], 3, dtype=tf.bfloat16), tf.range(0, 3, dtype=tf.bfloat16), x // 2.0,
                    tf.math.floormod(x, 2.0), tf.reduce_logsumexp(x, 1)]}


@tolerance(rtol=0, atol=0)
def program_half_precision_random_draws(tf):
    # float16 and bfloat16 uniforms as TF's kernels draw them (16 random bits each), also in
    # Generator and stateless dropout (Keras 3's Dropout under mixed precision)
    out = {}
    for d in (tf.float16, tf.bfloat16):
        tf.random.set_seed(5)
        g = tf.random.Generator.from_seed(7)
        out[d.name] = [tf.random.stateless_uniform([5], [1, 2], dtype=d),
                       tf.random.stateless_uniform([3], [3, 4], minval=-2.0, maxval=3.0, dtype=d),
                       tf.random.uniform([4], dtype=d, seed=2), g.uniform([3], dtype=d),
                       tf.nn.experimental.stateless_dropout(tf.ones([6], d), 0.5, seed=[1, 2]),
                       tf.random.stateless_normal([5], [1, 2], dtype=d),  # drawn in float32, then cast
                       tf.random.stateless_truncated_normal([3], [3, 4], dtype=d)]
    return out

"""Complex dtypes (tf.complex64 / tf.complex128) as TensorFlow's guides use them:
construction, parts, arithmetic, matmul, reductions, casts, transcendental functions,
printing, dtype errors (TensorFlow never promotes), gradients of real-valued functions of
complex inputs, and tf.function."""
from parity import tolerance


def program_constants(tf):
    import numpy as np
    a = tf.constant(1 + 2j)
    b = tf.constant([1 + 2j, 3 - 1j], dtype=tf.complex64)
    c = tf.constant(np.array([[1 + 1j, 2], [0, -1j]], dtype=np.complex64))
    d = tf.constant([1.0, 2.0], dtype=tf.complex128)
    return {"a": a, "b": b, "c": c, "d": d, "dtypes": [a.dtype, b.dtype, c.dtype, d.dtype],
            "np": b.numpy(), "is_complex": [tf.complex64.is_complex, tf.float32.is_complex,
                                             tf.complex64.is_floating],
            "real_dtype": [tf.complex64.real_dtype, tf.complex128.real_dtype, tf.float32.real_dtype],
            "size": [tf.complex64.size, tf.complex128.size], "as_dtype": tf.as_dtype(np.complex64)}


def program_parts(tf):
    z = tf.complex(tf.constant([1.0, -2.0, 0.0]), tf.constant([0.5, 3.0, -1.0]))
    z64 = tf.complex(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64))
    r = tf.constant([1.5, -2.0])
    return {"z": z, "z64": z64, "real": tf.math.real(z), "imag": tf.math.imag(z), "conj": tf.math.conj(z),
            "abs": tf.abs(z), "math_abs": tf.math.abs(z), "angle": tf.math.angle(z),
            "real_of_real": tf.math.real(r), "imag_of_real": tf.math.imag(r), "conj_of_real": tf.math.conj(r),
            "angle_of_real": tf.math.angle(r), "attr_real": tf.math.real(z64)}


def program_complex_of_mismatched_parts(tf):
    return {"z": tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64))}


def program_complex_of_ints(tf):
    return {"z": tf.complex(tf.constant([1]), tf.constant([1]))}


def program_arithmetic(tf):
    x = tf.constant([1 + 2j, -0.5 + 1j, 3 - 4j], tf.complex64)
    y = tf.constant([2 - 1j, 1j, 0.25 + 0.5j], tf.complex64)
    return {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y, "neg": -x,
            "scalar_mul": x * 2.0, "scalar_add": x + 1, "complex_scalar": x * (1 + 1j),
            "square": tf.square(x), "pow": x ** 2, "eq": tf.equal(x, y), "eq_self": x == x,
            "ne": x != y, "reciprocal": tf.math.reciprocal(x)}


@tolerance(rtol=1e-5, atol=1e-5)
def program_matmul_reduce(tf):
    a = tf.constant([[1 + 1j, 2 - 1j], [0.5j, -1 + 0j]], tf.complex64)
    b = tf.constant([[2 + 0j, 1j], [1 - 1j, 3 + 2j]], tf.complex64)
    return {"matmul": tf.matmul(a, b), "at": a @ b, "adj": tf.matmul(a, b, adjoint_b=True),
            "adj_a": tf.matmul(a, b, adjoint_a=True), "transpose": tf.transpose(a),
            "conj_t": tf.transpose(a, conjugate=True), "linalg_adjoint": tf.linalg.adjoint(a),
            "sum": tf.reduce_sum(a), "sum0": tf.reduce_sum(a, axis=0), "mean": tf.reduce_mean(a),
            "mean1": tf.reduce_mean(a, axis=1, keepdims=True), "prod": tf.reduce_prod(a),
            "reshape": tf.reshape(a, [4]), "concat": tf.concat([a, b], 0), "stack": tf.stack([a, b]),
            "gather": tf.gather(a, [1, 0]), "slice": a[:, 1], "tile": tf.tile(a, [1, 2]),
            "where": tf.where(tf.constant([True, False]), a[0], b[0]), "zeros": tf.zeros([2], tf.complex64),
            "ones_like": tf.ones_like(a), "einsum": tf.einsum("ij,jk->ik", a, b)}


def program_casts(tf):
    z = tf.constant([1.5 + 2j, -3.25 - 1j], tf.complex64)
    f = tf.constant([1.5, -2.0])
    i = tf.constant([3, -4])
    return {"to_f32": tf.cast(z, tf.float32), "to_f64": tf.cast(z, tf.float64), "to_int": tf.cast(z, tf.int32),
            "to_c128": tf.cast(z, tf.complex128), "f_to_c": tf.cast(f, tf.complex64),
            "i_to_c": tf.cast(i, tf.complex128), "to_bool": tf.cast(z, tf.bool),
            "dtypes_cast": tf.dtypes.cast(f, tf.complex128)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_transcendental(tf):
    z = tf.constant([1 + 2j, -0.5 + 0.25j, 2 - 1j, -4 + 0j], tf.complex64)
    z128 = tf.cast(z, tf.complex128)
    return {"exp": tf.exp(z), "log": tf.math.log(z), "sqrt": tf.sqrt(z), "sqrt128": tf.sqrt(z128),
            "sin": tf.sin(z), "cos": tf.cos(z), "tanh": tf.tanh(z), "log128": tf.math.log(z128),
            "exp128": tf.exp(z128), "rsqrt": tf.math.rsqrt(z), "expm1": tf.math.expm1(z128)}


def program_printing(tf):
    z = tf.constant([1 + 2j, -0.5 + 0j], tf.complex64)
    s = tf.constant(3 - 4j)
    return {"repr": repr(z), "str": str(z), "repr_scalar": repr(s), "str_scalar": str(s),
            "dtype_repr": repr(tf.complex64)}


def program_mixed_add(tf):
    return {"r": tf.constant([1 + 1j], tf.complex64) + tf.constant([1.0])}


def program_mixed_mul_precisions(tf):
    return {"r": tf.constant([1 + 1j], tf.complex64) * tf.constant([1 + 1j], tf.complex128)}


def program_mixed_matmul(tf):
    return {"r": tf.matmul(tf.constant([[1 + 1j]], tf.complex64), tf.constant([[1.0]]))}


def program_complex_min_max(tf):
    return {"max": tf.complex64.max}


def program_reduce_max_complex(tf):
    return {"r": tf.reduce_max(tf.constant([1 + 1j, 2 + 0j]))}


def program_less_complex(tf):
    return {"r": tf.constant([1 + 1j]) < tf.constant([2 + 0j])}


def program_gradient_abs_squared(tf):
    z = tf.constant([1 + 2j, -0.5 + 1j], tf.complex64)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.reduce_sum(tf.abs(z) ** 2)
    return {"g": tape.gradient(y, z)}


def program_gradient_real_imag(tf):
    z = tf.constant([1 + 2j, -0.5 + 1j], tf.complex128)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(z)
        re = tf.reduce_sum(tf.math.real(z) * tf.constant([1.0, 2.0], tf.float64))
        im = tf.reduce_sum(tf.math.imag(z) * tf.constant([3.0, -1.0], tf.float64))
        both = tf.reduce_sum(tf.math.real(z * z))
        conj = tf.reduce_sum(tf.math.imag(tf.math.conj(z) * z * 1j))
    return {"re": tape.gradient(re, z), "im": tape.gradient(im, z), "both": tape.gradient(both, z),
            "conj": tape.gradient(conj, z)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_gradient_through_ops(tf):
    z = tf.constant([1 + 2j, -0.5 + 1j], tf.complex128)
    w = tf.constant([[0.5 - 1j, 2 + 0j], [1j, -1 + 1j]], tf.complex128)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([z, w])
        h = tf.linalg.matvec(w, tf.exp(z) / (z + 2.0))
        loss = tf.reduce_sum(tf.abs(h)) + tf.reduce_sum(tf.math.real(tf.sqrt(z) * tf.math.log(z)))
        mean_loss = tf.abs(tf.reduce_mean(tf.matmul(w, w, adjoint_b=True)))
        angle_loss = tf.reduce_sum(tf.math.angle(z))
    return {"dz": tape.gradient(loss, z), "dw": tape.gradient(loss, w), "dmean": tape.gradient(mean_loss, w),
            "dangle": tape.gradient(angle_loss, z)}


def program_gradient_from_real_parts(tf):
    x = tf.Variable([1.0, -2.0])
    y = tf.Variable([0.5, 0.25])
    with tf.GradientTape() as tape:
        z = tf.complex(x, y)
        loss = tf.reduce_sum(tf.abs(z * z + 1.0))
    gx, gy = tape.gradient(loss, [x, y])
    return {"gx": gx, "gy": gy}


def program_gradient_of_complex_target(tf):
    z = tf.constant([1 + 2j], tf.complex64)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = z * z
    return {"g": tape.gradient(y, z)}


def program_complex_variable(tf):
    v = tf.Variable([1 + 1j, 2 - 1j], dtype=tf.complex64)
    v.assign_add(tf.constant([1j, 1 + 0j], tf.complex64))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.math.real(v * tf.math.conj(v)))
    return {"v": v, "g": tape.gradient(loss, v), "dtype": v.dtype}


def program_in_tf_function(tf):
    traces = []

    @tf.function
    def f(x, y):
        traces.append(1)
        z = tf.complex(x, y)
        w = tf.exp(z) * tf.math.conj(z) + z * z / (z + 1.0)
        return tf.math.real(w), tf.math.imag(w), tf.abs(w), tf.reduce_sum(w), tf.cast(w, tf.float32)
    a = f(tf.constant([1.0, -0.5]), tf.constant([0.25, 2.0]))
    b = f(tf.constant([2.0, 0.0]), tf.constant([-1.0, 1.0]))
    return {"a": a, "b": b, "traces": len(traces)}


def program_gradient_in_tf_function(tf):
    @tf.function
    def g(z):
        with tf.GradientTape() as tape:
            tape.watch(z)
            loss = tf.reduce_sum(tf.abs(tf.exp(z) * z) ** 2)
        return tape.gradient(loss, z)
    return {"g": g(tf.constant([0.5 + 1j, -1 + 0.25j], tf.complex128))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_more_ops(tf):
    z = tf.constant([1 + 1j, -2 + 0.5j, 0j], tf.complex64)
    m = tf.reshape(tf.concat([z, z * 1j, z + 1.0], 0), [3, 3])
    return {"sign": tf.sign(z), "sigmoid": tf.sigmoid(z), "norm": tf.norm(z),
            "euclidean_norm": tf.math.reduce_euclidean_norm(z), "cumsum": tf.cumsum(z),
            "segment_sum": tf.math.segment_sum(z, [0, 0, 1]), "add_n": tf.add_n([z, z]),
            "trace": tf.linalg.trace(m), "matvec": tf.linalg.matvec(m, z), "squared_difference":
            tf.math.squared_difference(z, z * 2.0), "where": tf.where(tf.abs(z) > 1, z, tf.zeros_like(z))}


def _refuse(op):
    def program(tf):
        z = tf.constant([1 + 1j, -2 + 0.5j, 0j], tf.complex64)
        return {"r": op(tf, z)}
    return program


# TensorFlow has no complex kernel for these (NumPy would order complex numbers).
_REFUSED = {
    "maximum": lambda tf, z: tf.maximum(z, z), "relu": lambda tf, z: tf.nn.relu(z),
    "atan2": lambda tf, z: tf.math.atan2(z, z), "floormod": lambda tf, z: tf.math.floormod(z, z),
    "is_nan": lambda tf, z: tf.math.is_nan(z), "is_finite": lambda tf, z: tf.math.is_finite(z),
    "argmax": lambda tf, z: tf.argmax(z), "sort": lambda tf, z: tf.sort(z), "argsort": lambda tf, z: tf.argsort(z),
    "top_k": lambda tf, z: tf.math.top_k(z, 2).values, "erf": lambda tf, z: tf.math.erf(z),
    "floor": lambda tf, z: tf.floor(z), "reduce_min": lambda tf, z: tf.reduce_min(z),
    "segment_max": lambda tf, z: tf.math.segment_max(z, [0, 0, 1]),
}
for _name, _op in _REFUSED.items():
    globals()[f"program_refuses_{_name}"] = _refuse(_op)

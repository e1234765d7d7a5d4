"""tf.linalg.svd gradients through u and v (not only s).  Singular vectors are unique up to
sign (and the null-space basis of full_matrices up to rotation), so every program
differentiates a function of u, v that does not depend on those choices."""
from parity import tolerance


def _invariant(tf, s, u, v):
    k = s.shape[-1]
    u1, v1 = u[..., :k], v[..., :k]
    rebuilt = tf.matmul(u1 * (s * s)[..., None, :], v1, transpose_b=True)
    out = tf.reduce_sum(rebuilt * rebuilt) + tf.reduce_sum(tf.sin(u1 * u1)) + tf.reduce_sum(v1 ** 4)
    for q in (u[..., k:], v[..., k:]):
        p = tf.matmul(q, q, transpose_b=True)
        out = out + tf.reduce_sum(p * tf.linspace(tf.constant(-1.0, p.dtype), 1.0, p.shape[-1]))
    return out


def _grad(tf, a, full_matrices=False):
    with tf.GradientTape() as tape:
        tape.watch(a)
        s, u, v = tf.linalg.svd(a, full_matrices=full_matrices)
        y = _invariant(tf, s, u, v)
    return {"y": y, "grad": tape.gradient(y, a)}


A32 = [[1.0, 2.0, 0.5], [-1.0, 3.0, 2.0], [0.5, -2.0, 4.0], [2.0, 1.0, -1.0]]


@tolerance(rtol=1e-4, atol=1e-4)
def program_tall_reduced(tf):
    return _grad(tf, tf.constant(A32))


@tolerance(rtol=1e-4, atol=1e-4)
def program_wide_reduced(tf):
    return _grad(tf, tf.transpose(tf.constant(A32)))


@tolerance(rtol=1e-4, atol=1e-4)
def program_square(tf):
    return _grad(tf, tf.constant(A32[:3]))


def program_tall_full_float64(tf):
    return _grad(tf, tf.constant(A32, tf.float64), full_matrices=True)


def program_wide_full_float64(tf):
    return _grad(tf, tf.transpose(tf.constant(A32, tf.float64)), full_matrices=True)


def program_batched_float64(tf):
    a = tf.reshape(tf.range(1.0, 25.0, dtype=tf.float64), [2, 4, 3]) ** 1.5 / 10.0
    return _grad(tf, a)


def program_abs_u_and_v(tf):
    a = tf.constant(A32[:3], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        s, u, v = tf.linalg.svd(a)
        gu = tf.reduce_sum(tf.abs(u) * tf.constant([[1.0, 2.0, 3.0]], tf.float64))
        gv = tf.reduce_sum(tf.abs(v[:, :2]))
    return {"du": tape.gradient(gu, a), "dv": tape.gradient(gv, a)}


def program_s_only_and_compute_uv_false(tf):
    a = tf.constant(A32, tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        s = tf.linalg.svd(a)[0]
        s2 = tf.linalg.svd(a, compute_uv=False)
        y = tf.reduce_sum(s * tf.constant([1.0, -2.0, 0.5], tf.float64))
        y2 = tf.reduce_sum(s2 ** 2)
    return {"dy": tape.gradient(y, a), "dy2": tape.gradient(y2, a)}


def program_in_tf_function(tf):
    @tf.function
    def grad(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            s, u, v = tf.linalg.svd(a)
            y = _invariant(tf, s, u, v)
        return tape.gradient(y, a)
    return {"g": grad(tf.constant(A32, tf.float64))}

"""tf.linalg.eig / tf.eig / tf.linalg.eigvals / tf.eigvals on general matrices: complex
eigenvalues (compared sorted) and eigenvectors (compared up to phase: |v| and A v - v e),
dtypes, batches, gradients of phase-invariant losses, errors."""
import numpy as np
from parity import tolerance

_A = [[1.0, 2.0, 0.5], [-3.0, 4.0, 1.0], [0.0, 1.0, -2.0]]  # a complex-conjugate pair
_B = [[2.0, 1.0], [0.5, -1.0]]


def _sorted(e):
    e = np.asarray(e)
    return np.take_along_axis(e, np.lexsort((e.imag.round(4), e.real.round(4)), axis=-1), -1)


@tolerance(rtol=1e-4, atol=1e-5)
def program_eig_float32(tf):
    a = tf.constant(_A)
    e, v = tf.linalg.eig(a)
    residual = tf.matmul(tf.cast(a, tf.complex64), v) - v * e[tf.newaxis, :]
    return {"dtypes": [e.dtype, v.dtype], "shapes": [e.shape, v.shape], "e": _sorted(e.numpy()),
            "residual_max": float(tf.reduce_max(tf.abs(residual))) < 1e-4,
            "column_norms": tf.norm(v, axis=0), "same": tf.eig is tf.linalg.eig}


@tolerance(rtol=1e-8, atol=1e-10)
def program_eig_float64_batch(tf):
    a = tf.constant([_A, [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 3.0]]], tf.float64)
    e, v = tf.linalg.eig(a)
    return {"dtypes": [e.dtype, v.dtype], "e": _sorted(e.numpy()), "abs_v_sorted": np.sort(np.abs(v.numpy()), -1),
            "eigvals": _sorted(tf.linalg.eigvals(a).numpy()), "tf_eigvals": _sorted(tf.eigvals(a).numpy())}


@tolerance(rtol=1e-4, atol=1e-5)
def program_eig_complex_input(tf):
    a = tf.constant([[1 + 1j, 2], [0.5j, -1]], tf.complex64)
    e = tf.linalg.eigvals(a)
    return {"dtype": e.dtype, "e": _sorted(e.numpy()), "empty": [t.shape for t in tf.linalg.eig(tf.zeros([2, 0, 0]))]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_eig_gradients(tf):
    x = tf.Variable(_B)
    with tf.GradientTape(persistent=True) as g:
        e, v = tf.linalg.eig(x)
        by_values = tf.reduce_sum(tf.abs(e))
        by_vectors = tf.reduce_sum(tf.abs(v) * [[1.0, 2.0], [3.0, 4.0]])
        by_eigvals = tf.reduce_sum(tf.math.real(tf.linalg.eigvals(x)) ** 2)
    xc = tf.Variable(tf.constant(_B, tf.complex64))
    with tf.GradientTape() as gc:
        yc = tf.reduce_sum(tf.math.real(tf.linalg.eigvals(xc) ** 2))
    return {"values": g.gradient(by_values, x), "vectors": g.gradient(by_vectors, x),
            "eigvals": g.gradient(by_eigvals, x), "complex": gc.gradient(yc, xc)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_eig_in_function(tf):
    f = tf.function(lambda a: tf.reduce_sum(tf.abs(tf.linalg.eigvals(a))))
    x = tf.Variable(_A)
    with tf.GradientTape() as g:
        y = f(x)
    return {"y": y, "grad": g.gradient(y, x), "traces": f.experimental_get_tracing_count()}


def program_eig_not_square_raises(tf):
    return tf.linalg.eig(tf.constant([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]]))


def program_eig_rank1_raises(tf):
    return tf.linalg.eigvals(tf.constant([1.0, 2.0]))


@tolerance(rtol=1e-5, atol=1e-5)
def program_eigh_tridiagonal(tf):
    alpha, beta = tf.constant([1.0, 2, 3, 4]), tf.constant([0.5, 0.5, 0.5])
    e, v = tf.linalg.eigh_tridiagonal(alpha, beta, eigvals_only=False)
    return {"all": tf.linalg.eigh_tridiagonal(alpha, beta),
            "by_index": tf.linalg.eigh_tridiagonal(alpha, beta, select="i", select_range=[1, 2]),
            "by_value": tf.linalg.eigh_tridiagonal(alpha, beta, select="v", select_range=[1.5, 3.5]),
            "vectors": [e, tf.abs(v)],
            "f64": tf.linalg.eigh_tridiagonal(tf.constant([1.0, 2], tf.float64), tf.constant([1.0], tf.float64)),
            "one": tf.linalg.eigh_tridiagonal(tf.constant([1.0]), tf.constant([], tf.float32))}


def program_eigh_tridiagonal_bad_select_raises(tf):
    return tf.linalg.eigh_tridiagonal(tf.constant([1.0, 2]), tf.constant([1.0]), select="x")


def program_eigh_tridiagonal_bad_beta_raises(tf):
    return tf.linalg.eigh_tridiagonal(tf.constant([1.0, 2, 3, 4]), tf.constant([1.0]))

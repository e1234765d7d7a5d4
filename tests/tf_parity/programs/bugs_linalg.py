"""tf.linalg LU (lu, lu_solve, lu_reconstruct, lu_matrix_inverse), expm and
tridiagonal_solve, values and gradients (issue #11)."""
import numpy as np

from parity import tolerance

_A = np.array([[2.0, -1.0, 0.5], [4.0, 1.0, -2.0], [-1.0, 3.0, 1.0]])
_B = np.array([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [2.0, 5.0]]])


def program_lu_values(tf):
    lu, p = tf.linalg.lu(tf.constant(_A))
    lu32, p32 = tf.linalg.lu(tf.constant(_B, tf.float32))
    _, p64 = tf.linalg.lu(tf.constant(_B, tf.float32), output_idx_type=tf.int64)
    return {"lu": lu, "p": p, "lu32": lu32, "p64": p64,
            "back": tf.linalg.lu_reconstruct(lu, p), "back32": tf.linalg.lu_reconstruct(lu32, p32)}


def program_lu_solve_and_inverse(tf):
    a = tf.constant(_A)
    lu, p = tf.linalg.lu(a)
    rhs = tf.constant([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0]], tf.float64)
    return {"x": tf.linalg.lu_solve(lu, p, rhs), "inv": tf.linalg.lu_matrix_inverse(lu, p)}


def program_lu_has_no_gradient(tf):
    a = tf.constant(_A)
    with tf.GradientTape() as t:
        t.watch(a)
        lu, _ = tf.linalg.lu(a)
        loss = tf.reduce_sum(lu)
    return {"g": t.gradient(loss, a)}


@tolerance(rtol=1e-6, atol=1e-8)
def program_lu_solve_and_reconstruct_gradients(tf):
    lu, p = tf.linalg.lu(tf.constant(_A))
    rhs = tf.constant([[1.0], [2.0], [-1.0]], tf.float64)
    w = tf.reshape(tf.range(9, dtype=tf.float64), [3, 3]) / 7.0
    with tf.GradientTape(persistent=True) as t:
        t.watch([lu, rhs])
        solved = tf.reduce_sum(tf.linalg.lu_solve(lu, p, rhs) * tf.constant([[1.0], [3.0], [2.0]], tf.float64))
        recon = tf.reduce_sum(tf.linalg.lu_reconstruct(lu, p) * w)
        inverse = tf.reduce_sum(tf.linalg.lu_matrix_inverse(lu, p) * w)
    return {"solve": t.gradient(solved, [lu, rhs]), "recon": t.gradient(recon, lu), "inverse": t.gradient(inverse, lu)}


def program_lu_in_function(tf):
    f = tf.function(lambda a: tf.linalg.lu(a))
    return {"out": f(tf.constant(_B))}


def program_lu_rejects_non_square(tf):
    return {"out": tf.linalg.lu(tf.ones([2, 3]))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_expm_values(tf):
    small = tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.float64)
    big = tf.constant([[1.0, 20.0, 0.0], [0.0, 2.0, 5.0], [-3.0, 0.5, 4.0]], tf.float64)
    return {"rotation": tf.linalg.expm(small), "big": tf.linalg.expm(big), "f32": tf.linalg.expm(tf.constant(_B, tf.float32)),
            "zero": tf.linalg.expm(tf.zeros([2, 2]))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_expm_gradient_and_function(tf):
    a = tf.constant([[0.5, 1.0], [0.2, -0.3]], tf.float64)
    with tf.GradientTape() as t:
        t.watch(a)
        y = tf.reduce_sum(tf.linalg.expm(a) * tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64))
    f = tf.function(tf.linalg.expm)
    return {"g": t.gradient(y, a), "graph": f(tf.constant(_B * 3.0))}


def program_tridiagonal_solve_formats(tf):
    diags = tf.constant([[2.0, 1.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 3.0]], tf.float64)
    rhs = tf.constant([[1.0], [2.0], [3.0]], tf.float64)
    matrix = tf.constant([[4.0, 2.0, 0.0], [1.0, 5.0, 1.0], [0.0, 3.0, 6.0]], tf.float64)
    return {"compact": tf.linalg.tridiagonal_solve(diags, rhs),
            "sequence": tf.linalg.tridiagonal_solve(tuple(tf.unstack(diags)), rhs, diagonals_format="sequence"),
            "matrix": tf.linalg.tridiagonal_solve(matrix, rhs, diagonals_format="matrix"),
            "transposed": tf.linalg.tridiagonal_solve(diags, tf.constant([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]], tf.float64),
                                                      transpose_rhs=True),
            "vector": tf.linalg.tridiagonal_solve(diags, tf.constant([1.0, 2.0, 3.0], tf.float64))}


def program_tridiagonal_solve_gradient_batched(tf):
    diags = tf.constant([[[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 1.0, 1.0]],
                         [[0.5, 0.5, 0.0], [2.0, 2.0, 2.0], [0.0, 0.5, 0.5]]], tf.float64)
    rhs = tf.constant([[[1.0], [0.0], [1.0]], [[2.0], [1.0], [0.0]]], tf.float64)
    with tf.GradientTape() as t:
        t.watch([diags, rhs])
        x = tf.linalg.tridiagonal_solve(diags, rhs)
        loss = tf.reduce_sum(x * x)
    g_d, g_r = t.gradient(loss, [diags, rhs])
    # TF's gradient also has values at the two ignored corners (zero here): compare the used entries.
    mask = tf.constant([[1.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]], tf.float64)
    return {"x": x, "g_d": g_d * mask, "g_r": g_r}

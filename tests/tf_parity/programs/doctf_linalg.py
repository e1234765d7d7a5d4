"""TensorFlow 2.21's tf.linalg docstring examples as programs: set_diag / diag_part of a band
of diagonals (k = (lo, hi), the four alignments) as banded_triangular_solve's example builds its
matrices, and examples that already matched (einsum, matmul, triangular_solve, tridiagonal
operators) as regression guards."""
_BANDS = [0, 1, -1, 3, -2, (-1, 0), (0, 1), (-2, 1), (1, 3), (-2, -1), (-1, 2)]
_ALIGNS = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]


def _band_shape(k, m, n):
    lo, hi = (k, k) if isinstance(k, int) else k
    longest = min(m + min(hi, 0), n - max(lo, 0))
    return [longest] if lo == hi else [hi - lo + 1, longest]


def program_set_diag_band_as_banded_solve_example(tf):
    lower = [[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]]
    z = tf.linalg.set_diag(tf.zeros([3, 3]), lower, align="LEFT_RIGHT", k=(-1, 0))
    soln = tf.linalg.banded_triangular_solve(lower, tf.ones([3, 1]))
    upper = [[2.0, 3.0, 4.0, 5.0], [-1.0, -2.0, -3.0, -4.0]]
    z_up = tf.linalg.set_diag(tf.zeros([4, 4]), upper, align="LEFT_RIGHT", k=(0, 1))
    soln_up = tf.linalg.banded_triangular_solve(upper, tf.ones([4, 1]), lower=False)
    return {"z": z, "soln": soln,
            "same_as_dense": tf.reduce_all(soln == tf.linalg.triangular_solve(z, tf.ones([3, 1]))),
            "corner_ignored": tf.reduce_all(soln == tf.linalg.banded_triangular_solve(
                [[2.0, 3.0, 4.0], [10000.0, 2.0, 3.0]], tf.ones([3, 1]))),
            "z_up": z_up, "soln_up": soln_up,
            "up_same_as_dense": tf.reduce_all(
                soln_up == tf.linalg.triangular_solve(z_up, tf.ones([4, 1]), lower=False))}


def program_set_diag_every_band_and_alignment(tf):
    x = tf.reshape(tf.range(1.0, 13.0), [3, 4])
    out = {}
    for k in _BANDS:
        shape = _band_shape(k, 3, 4)
        size = shape[0] * (shape[1] if len(shape) == 2 else 1)
        d = tf.reshape(tf.range(100.0, 100.0 + size), shape)
        for align in _ALIGNS:
            out[f"{k}/{align}"] = tf.linalg.set_diag(x, d, k=k, align=align)
    return out


def program_diag_part_every_band_and_alignment(tf):
    x = tf.reshape(tf.range(1.0, 13.0), [3, 4])
    tall = tf.reshape(tf.range(1, 13), [4, 3])
    out = {}
    for k in _BANDS:
        for align in _ALIGNS:
            out[f"{k}/{align}"] = tf.linalg.diag_part(x, k=k, align=align, padding_value=-7)
    out["tall"] = tf.linalg.diag_part(tall, k=(-2, 1))
    out["tall_right"] = tf.linalg.diag_part(tall, k=(-3, 0), align="RIGHT_RIGHT", padding_value=9)
    return out


def program_set_diag_band_batched_traced_and_gradient(tf):
    x = tf.reshape(tf.range(1.0, 13.0), [3, 4])
    batch = tf.stack([x, -x])
    v = tf.Variable(tf.ones([2, 3]))
    with tf.GradientTape() as g:
        y = tf.reduce_sum(tf.linalg.set_diag(x, v, k=(0, 1)) * tf.reshape(tf.range(12.0), [3, 4]))
    w = tf.Variable(x)
    with tf.GradientTape() as g2:
        y2 = tf.reduce_sum(tf.linalg.diag_part(w, k=(-1, 1)) * tf.reshape(tf.range(9.0), [3, 3]))
    return {"batched": tf.linalg.set_diag(batch, tf.reshape(tf.range(12.0), [2, 2, 3]), k=(-1, 0)),
            "traced_set": tf.function(lambda a, d: tf.linalg.set_diag(a, d, k=(-1, 1)))(x, tf.ones([3, 3])),
            "traced_part": tf.function(lambda a: tf.linalg.diag_part(a, k=(-1, 1), align="LEFT_LEFT"))(x),
            "grad_diag": g.gradient(y, v), "grad_matrix": g2.gradient(y2, w)}


def program_set_diag_band_wrong_diagonal_shape_raises(tf):
    return tf.linalg.set_diag(tf.zeros([3, 4]), tf.ones([2, 2]), k=(0, 1))


def program_set_diag_k_reversed_raises(tf):
    return tf.linalg.set_diag(tf.zeros([3, 4]), tf.ones([3]), k=(2, 0))


def program_set_diag_k_out_of_bounds_raises(tf):
    return tf.linalg.set_diag(tf.zeros([3, 4]), tf.ones([3]), k=4)


def program_set_diag_bad_alignment_raises(tf):
    return tf.linalg.set_diag(tf.zeros([3, 4]), tf.ones([3]), align="UP")


def program_diag_part_three_ks_raises(tf):
    return tf.linalg.diag_part(tf.zeros([3, 4]), k=(0, 1, 2))


def program_linalg_examples_that_matched(tf):
    m0 = tf.reshape(tf.range(6.0), [2, 3])
    m1 = tf.reshape(tf.range(12.0), [3, 4])
    a = tf.reshape(tf.range(1, 13, dtype=tf.int32), [2, 2, 3])
    b = tf.reshape(tf.range(13, 25, dtype=tf.int32), [2, 3, 2])
    tri = tf.linalg.LinearOperatorTridiag([[3.0, 4.0, 5.0], [1.0, -1.0, 2.0], [6.0, 7.0, 8.0]],
                                          diagonals_format="sequence")
    lower = tf.constant([[3.0, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]])
    return {"einsum_matmul": tf.einsum("ij,jk->ik", m0, m1),
            "einsum_dot": tf.einsum("i,i->", tf.range(3.0), tf.range(3.0)),
            "einsum_outer": tf.einsum("i,j->ij", tf.range(2.0), tf.range(3.0)),
            "einsum_transpose": tf.einsum("ij->ji", m0),
            "einsum_batch": tf.einsum("bij,bjk->bik", tf.cast(a, tf.float32), tf.cast(b, tf.float32)),
            "einsum_trace": tf.einsum("ii", tf.reshape(tf.range(9.0), [3, 3])),
            "einsum_ellipsis": tf.einsum("...ij,...jk->...ik", tf.cast(a, tf.float32), tf.cast(b, tf.float32)),
            "matmul_int_batch": tf.linalg.matmul(a, b),
            "matmul_transpose": tf.linalg.matmul(m0, m0, transpose_b=True),
            "tensor_diag_part": tf.linalg.tensor_diag_part(tf.reshape(tf.range(16), [2, 2, 2, 2])),
            "triangular_solve": tf.linalg.triangular_solve(lower, tf.constant([[4.0], [2], [4], [2]])),
            "tridiag_dense": tri.to_dense(), "tridiag_shape": tri.shape,
            "tridiag_logdet": tri.log_abs_determinant()}

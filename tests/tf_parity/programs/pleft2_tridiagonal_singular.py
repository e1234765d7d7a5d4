"""tf.linalg.tridiagonal_solve on singular systems: TF 2.21's kernel fills the solution of each
singular system of a batch with NaN (an exact zero pivot; without partial pivoting, a zero
Thomas denominator), keeps the others, and raises nothing — eagerly and in a tf.function."""

_SINGULAR = [[1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 1.0]]
_REGULAR = [[1.0, 1.0, 0.0], [4.0, 4.0, 4.0], [0.0, 1.0, 1.0]]
_ZERO_FIRST_PIVOT = [[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]  # [[0, 1], [1, 1]]: regular


def program_singular_system_is_nan(tf):
    rhs = tf.constant([[1.0], [2.0], [3.0]])
    f = tf.function(lambda d, r: tf.linalg.tridiagonal_solve(d, r))
    return {"compact": tf.linalg.tridiagonal_solve(tf.constant(_SINGULAR), rhs),
            "vector_rhs": tf.linalg.tridiagonal_solve(tf.constant(_SINGULAR), tf.constant([1.0, 2.0, 3.0])),
            "float64": tf.linalg.tridiagonal_solve(tf.constant(_SINGULAR, tf.float64), tf.cast(rhs, tf.float64)),
            "matrix": tf.linalg.tridiagonal_solve(tf.constant([[1.0, 1.0], [1.0, 1.0]]), tf.constant([[1.0], [2.0]]),
                                                  diagonals_format="matrix"),
            "in_function": f(tf.constant(_SINGULAR), rhs)}


def program_singular_member_of_a_batch(tf):
    rhs = tf.constant([[1.0], [2.0], [3.0]])
    return {"batch": tf.linalg.tridiagonal_solve(tf.constant([_SINGULAR, _REGULAR]), tf.stack([rhs, rhs])),
            "sequence": tf.linalg.tridiagonal_solve([tf.constant([1.0, 1.0, 0.0]), tf.zeros([3]), tf.constant([0.0, 1.0, 1.0])],
                                                    rhs, diagonals_format="sequence")}


def program_zero_pivot_with_and_without_pivoting(tf):
    d, rhs = tf.constant(_ZERO_FIRST_PIVOT), tf.constant([[1.0], [2.0]])
    return {"pivoting": tf.linalg.tridiagonal_solve(d, rhs),
            "no_pivoting": tf.linalg.tridiagonal_solve(d, rhs, partial_pivoting=False),
            "no_pivoting_regular": tf.linalg.tridiagonal_solve(tf.constant(_REGULAR), tf.constant([[1.0], [2.0], [3.0]]),
                                                               partial_pivoting=False)}


def program_regular_member_keeps_its_gradient(tf):
    d = tf.constant([_SINGULAR, _REGULAR])
    rhs = tf.constant([[[1.0], [2.0], [3.0]]] * 2)
    with tf.GradientTape() as tape:
        tape.watch(d)
        x = tf.linalg.tridiagonal_solve(d, rhs)
        loss = tf.reduce_sum(x[1])
    return {"x": x[1], "grad_regular": tape.gradient(loss, d)[1]}

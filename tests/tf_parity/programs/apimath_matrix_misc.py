"""tf.linalg.tridiagonal_matmul (compact, sequence and matrix formats, gradients),
tf.required_space_to_batch_paddings and tf.parallel_stack (graph only)."""

_COMPACT = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 0.0]]
_RHS = [[1.0, -1.0], [2.0, 0.5], [3.0, 4.0]]


def program_tridiagonal_matmul_formats(tf):
    rhs = tf.constant(_RHS)
    seq = [tf.constant(row) for row in _COMPACT]
    full = tf.constant([[3.0, 0.0, 0.0], [7.0, 4.0, 1.0], [0.0, 0.0, 5.0]])
    batch = tf.stack([tf.constant(_COMPACT, tf.float64), 2 * tf.constant(_COMPACT, tf.float64)])
    return {"compact": tf.linalg.tridiagonal_matmul(tf.constant(_COMPACT), rhs),
            "sequence": tf.linalg.tridiagonal_matmul(seq, rhs, diagonals_format="sequence"),
            "matrix": tf.linalg.tridiagonal_matmul(full, rhs, diagonals_format="matrix"),
            "batch": tf.linalg.tridiagonal_matmul(batch, tf.constant([_RHS, _RHS], tf.float64))}


def program_tridiagonal_matmul_gradient(tf):
    d = tf.Variable([[[1.0, 2, 3], [4.0, 5, 6], [7.0, 8, 9]]])
    r = tf.Variable([[[1.0, 2], [3, 4], [5, 6]]])
    with tf.GradientTape() as g:
        y = tf.reduce_sum(tf.linalg.tridiagonal_matmul(d, r) * [[1.0, 2], [3, 4], [5, 6]])
    f = tf.function(lambda d, r: tf.linalg.tridiagonal_matmul(d, r))
    return {"grads": g.gradient(y, [d, r]), "graph": f(d, r)}


def program_tridiagonal_matmul_bad_format_raises(tf):
    return tf.linalg.tridiagonal_matmul(tf.constant(_COMPACT), tf.constant(_RHS), diagonals_format="bad")


def program_required_space_to_batch_paddings(tf):
    return {"plain": list(tf.required_space_to_batch_paddings([5, 7], [2, 3])),
            "base": list(tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]])),
            "exact": list(tf.required_space_to_batch_paddings(tf.constant([4, 6]), [2, 3])),
            "none": [t.shape for t in tf.required_space_to_batch_paddings(tf.zeros([0], tf.int32),
                                                                          tf.zeros([0], tf.int32))],
            "graph": list(tf.function(lambda s: tf.required_space_to_batch_paddings(s, [4]))(tf.constant([9])))}


def program_parallel_stack_in_function(tf):
    f = tf.function(lambda a, b: tf.parallel_stack([a, b]))
    return {"out": f(tf.constant([1, 2]), tf.constant([3, 4])),
            "floats": f(tf.constant([[1.0]]), tf.constant([[2.0]]))}


def program_parallel_stack_eager_raises(tf):
    return tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])])


def program_banded_triangular_solve(tf):
    bands = tf.constant([[1.0, 2, 3, 4], [5.0, 6, 7, 8]])
    rhs = tf.constant([[1.0, 0.5], [2, -1], [3, 0], [4, 2]])
    wide = tf.constant([[2.0, 3, 4], [1.0, 1, 1], [0.5, 0.5, 0.5]], tf.float64)
    x = tf.Variable(bands)
    with tf.GradientTape() as g:
        y = tf.reduce_sum(tf.linalg.banded_triangular_solve(x, rhs) * [[1.0, 2]])
    f = tf.function(lambda b, r: tf.linalg.banded_triangular_solve(b, r, lower=False))
    return {"lower": tf.linalg.banded_triangular_solve(bands, rhs),
            "upper": tf.linalg.banded_triangular_solve(bands, rhs, lower=False),
            "adjoint": tf.linalg.banded_triangular_solve(bands, rhs, adjoint=True),
            "k2_upper": tf.linalg.banded_triangular_solve(wide, tf.ones([3, 1], tf.float64), lower=False),
            "k2_lower": tf.linalg.banded_triangular_solve(wide, tf.ones([3, 1], tf.float64)),
            "grad": g.gradient(y, x), "graph": f(bands, rhs)}

"""tf.linalg.LinearOperator structured kinds: Circulant (1-D, 2-D, 3-D), Toeplitz, Tridiag
(compact / sequence / matrix), BlockLowerTriangular, Householder, Permutation, Zeros —
every method's values against TF, hints, errors, a gradient and tf.function."""
import numpy as np
from parity import tolerance


def _methods(tf, op, x, solve=True):
    v = x[..., 0]
    out = {"dense": op.to_dense(), "matmul": op.matmul(x), "matmul_adj": op.matmul(x, adjoint=True),
           "matmul_adj_arg": op.matmul(tf.linalg.adjoint(x), adjoint_arg=True), "matvec": op.matvec(v),
           "det": op.determinant(), "logdet": op.log_abs_determinant(), "trace": op.trace(), "diag": op.diag_part(),
           "shape": op.shape, "batch": op.batch_shape, "dtype": op.dtype,
           "hints": [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square]}
    if solve:
        out.update(solve=op.solve(x), solve_adj=op.solve(x, adjoint=True), solvevec=op.solvevec(v))
    return out


def _x(tf, n, k=2, dtype="float32"):
    return tf.cast(tf.reshape(tf.range(n * k, dtype=tf.float64) / 5.0 - 0.7, [n, k]), dtype)


def _outcome(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the exception type is the recorded outcome
        return type(e).__name__


@tolerance(rtol=1e-4, atol=1e-4)
def program_linop_circulant(tf):
    spectrum = tf.complex([6.0, 2.0, 1.0, 2.0], [0.0, -1.0, 0.0, 1.0])  # Hermitian: a real kernel
    op = tf.linalg.LinearOperatorCirculant(spectrum)
    out = _methods(tf, op, _x(tf, 4, dtype=tf.complex64))
    real = tf.linalg.LinearOperatorCirculant(tf.constant([6.0, 2.0, 1.0, 2.0]), input_output_dtype=tf.float32)
    out.update(kernel=op.convolution_kernel(), eig=real.eigvals(), block_shape=op.block_shape,
               depth=op.block_depth, real=_methods(tf, real, _x(tf, 4)), kinds=[
                   type(op.inverse()).__name__, type(op.adjoint()).__name__, type(real @ real).__name__],
               squared=(real @ real).to_dense(), inv=real.inverse().to_dense(),
               not_sa=_outcome(lambda: tf.linalg.LinearOperatorCirculant([1.0, 2.0], is_self_adjoint=False)),
               batch=tf.linalg.LinearOperatorCirculant(tf.constant([[4.0, 1.0, 1.0], [3.0, -1.0, -1.0]]),
                                                      input_output_dtype=tf.float32).matmul(_x(tf, 3)))
    return out


@tolerance(rtol=1e-4, atol=1e-4)
def program_linop_circulant_2d_3d(tf):
    s2 = tf.constant([[8.0, 2.0, 2.0], [1.0, 0.5, 0.5]])
    op2 = tf.linalg.LinearOperatorCirculant2D(s2, input_output_dtype=tf.float32)
    s3 = tf.constant(np.arange(1.0, 9.0).reshape(2, 2, 2), tf.float32)
    op3 = tf.linalg.LinearOperatorCirculant3D(s3, input_output_dtype=tf.float32)
    return {"two": _methods(tf, op2, _x(tf, 6)), "three": _methods(tf, op3, _x(tf, 8)),
            "block_shapes": [op2.block_shape, op3.block_shape], "kernel": op2.convolution_kernel(),
            "rank_error": _outcome(lambda: tf.linalg.LinearOperatorCirculant2D([1.0, 2.0]))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_toeplitz(tf):
    op = tf.linalg.LinearOperatorToeplitz(col=[4.0, 1.0, 0.5, -1.0], row=[9.0, 2.0, -0.5, 0.25])
    out = _methods(tf, op, _x(tf, 4))
    sym = tf.linalg.LinearOperatorToeplitz(col=[3.0, 1.0, 0.5], row=[3.0, 1.0, 0.5], is_self_adjoint=True,
                                           is_positive_definite=True)
    out.update(sym=_methods(tf, sym, _x(tf, 3)), batch=tf.linalg.LinearOperatorToeplitz(
        col=[[2.0, 1.0], [3.0, 0.5]], row=[2.0, -1.0]).to_dense(), row=op.row, col=op.col,
        mismatch=_outcome(lambda: tf.linalg.LinearOperatorToeplitz([1.0, 2.0], [1.0, 2.0, 3.0])))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_tridiag(tf):
    sup, diag, sub = [1.0, 2.0, 3.0, 99.0], [4.0, 5.0, 6.0, 7.0], [99.0, -1.0, 0.5, 2.0]
    compact = tf.linalg.LinearOperatorTridiag(tf.constant([sup, diag, sub]))
    sequence = tf.linalg.LinearOperatorTridiag([sup, diag, sub], diagonals_format="sequence")
    matrix = tf.linalg.LinearOperatorTridiag(compact.to_dense() + tf.constant(np.triu(np.ones((4, 4)), 2),
                                                                               tf.float32), diagonals_format="matrix")
    return {"compact": _methods(tf, compact, _x(tf, 4)), "sequence": _methods(tf, sequence, _x(tf, 4)),
            "matrix_matmul": matrix.matmul(_x(tf, 4)), "matrix_solve": matrix.solve(_x(tf, 4)),
            "matrix_dense": matrix.to_dense(), "format": compact.diagonals_format,
            "bad": _outcome(lambda: tf.linalg.LinearOperatorTridiag([sup, diag, sub], diagonals_format="banded"))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_block_lower_triangular(tf):
    a = tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [0.5, 3.0]])
    b = tf.linalg.LinearOperatorFullMatrix([[1.0, -1.0], [2.0, 0.5], [0.0, 1.0]])
    c = tf.linalg.LinearOperatorDiag([1.5, -2.0, 4.0])
    op = tf.linalg.LinearOperatorBlockLowerTriangular([[a], [b, c]])
    out = _methods(tf, op, _x(tf, 5))
    out.update(n=[len(r) for r in op.operators],
               bad_rows=_outcome(lambda: tf.linalg.LinearOperatorBlockLowerTriangular([[a], [c]])),
               bad_dims=_outcome(lambda: tf.linalg.LinearOperatorBlockLowerTriangular([[a], [c, c]])),
               singular=tf.linalg.LinearOperatorBlockLowerTriangular(
                   [[a], [b, tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0], is_non_singular=False)]]).is_non_singular)
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_linop_householder_permutation_zeros(tf):
    h = tf.linalg.LinearOperatorHouseholder([1.0, 2.0, -2.0])
    p = tf.linalg.LinearOperatorPermutation([2, 0, 3, 1])
    z = tf.linalg.LinearOperatorZeros(3, batch_shape=[2])
    zr = tf.linalg.LinearOperatorZeros(2, num_columns=3, is_square=False, is_self_adjoint=False)
    return {"householder": _methods(tf, h, _x(tf, 3)), "h_eig": h.eigvals(), "h_cond": h.cond(),
            "h_same": [h.inverse() is h, h.adjoint() is h],
            "perm": _methods(tf, p, _x(tf, 4)), "p_dtype": tf.linalg.LinearOperatorPermutation(
                [1, 0], dtype=tf.float64).to_dense(),
            "zeros": _methods(tf, z, _x(tf, 3), solve=False), "z_eig": z.eigvals(),
            "z_add": z.add_to_tensor(tf.ones([3, 3])), "zr_shape": zr.shape, "zr_matmul": zr.matmul(tf.ones([3, 2])),
            "z_compose": type(z @ tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0])).__name__,
            "errors": [_outcome(lambda: tf.linalg.LinearOperatorPermutation([0, 0, 1])),
                       _outcome(lambda: tf.linalg.LinearOperatorPermutation([0.0, 1.0])),
                       _outcome(lambda: tf.linalg.LinearOperatorHouseholder([1.0, 2.0], is_positive_definite=True)),
                       _outcome(lambda: tf.linalg.LinearOperatorZeros(2, is_non_singular=True)),
                       _outcome(lambda: tf.linalg.LinearOperatorZeros(2, num_columns=3)),
                       _outcome(lambda: z.solve(tf.ones([3, 1])))]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_structured_gradients(tf):
    col = tf.Variable([4.0, 1.0, 0.5])
    spectrum = tf.Variable([6.0, 2.0, 2.0])
    axis = tf.Variable([1.0, 2.0, -2.0])
    x = _x(tf, 3)
    with tf.GradientTape(persistent=True) as g:
        t = tf.reduce_sum(tf.linalg.LinearOperatorToeplitz(col, col).matmul(x) ** 2)
        c = tf.reduce_sum(tf.linalg.LinearOperatorCirculant(spectrum, input_output_dtype=tf.float32).solve(x))
        h = tf.reduce_sum(tf.linalg.LinearOperatorHouseholder(axis).matmul(x) * x)
    return {"toeplitz": g.gradient(t, col), "circulant": g.gradient(c, spectrum), "householder": g.gradient(h, axis)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_structured_in_function(tf):
    @tf.function
    def f(d, x):
        tri = tf.linalg.LinearOperatorTridiag(d)
        circ = tf.linalg.LinearOperatorCirculant(d[1], input_output_dtype=tf.float32)
        return tri.solve(x), tri.matmul(x, adjoint=True), circ.matmul(x)

    return {"out": f(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, -1.0, 0.5]]), _x(tf, 3))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_linop_batch_slicing(tf):
    m = tf.reshape(tf.range(24.0), [3, 2, 2, 2]) / 10.0 + tf.eye(2)
    full = tf.linalg.LinearOperatorFullMatrix(m)                                   # batch [3, 2]
    diag = tf.linalg.LinearOperatorDiag([[1.0, 2.0]])                               # batch [1]
    ops = {"full": full, "diag": diag, "kron": tf.linalg.LinearOperatorKronecker([full, diag]),
           "scaled": tf.linalg.LinearOperatorScaledIdentity(2, [[1.0], [2.0], [3.0]]),
           "identity": tf.linalg.LinearOperatorIdentity(2, batch_shape=[3, 2]),
           "low_rank": tf.linalg.LinearOperatorLowRankUpdate(full, tf.ones([2, 1]), diag_update=[[2.0], [3.0]]),
           "block": tf.linalg.LinearOperatorBlockDiag([full, diag]),
           "circulant": tf.linalg.LinearOperatorCirculant(tf.ones([3, 2, 4]), input_output_dtype=tf.float32),
           "tridiag": tf.linalg.LinearOperatorTridiag(tf.ones([3, 2, 3, 4]))}
    out = {}
    for key, op in ops.items():
        out[key] = {"first": [op[0].shape, op[0].to_dense()], "tail": [op[1:].shape, op[1:].to_dense()],
                    "ellipsis": op[..., 1:].shape, "kind": type(op[0]).__name__}
    return out

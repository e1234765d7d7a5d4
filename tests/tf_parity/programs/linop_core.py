"""tf.linalg.LinearOperator: FullMatrix, Diag, Identity, ScaledIdentity, LowerTriangular —
shapes, hints, every method's values (adjoint / adjoint_arg), the operators that the algebra
returns, batch broadcasting, dtype and shape errors, gradients and tf.function."""
from parity import tolerance

_M = [[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.0]]
_X = [[1.0, 2.0], [-1.0, 0.5], [3.0, 1.0]]


def _all_methods(tf, op, x, v):
    return {"dense": op.to_dense(), "matmul": op.matmul(x), "matmul_adj": op.matmul(x, adjoint=True),
            "matmul_adj_arg": op.matmul(tf.linalg.adjoint(x), adjoint_arg=True),
            "solve_adj_arg": op.solve(tf.linalg.adjoint(x), adjoint_arg=True, adjoint=True),
            "matvec": op.matvec(v), "matvec_adj": op.matvec(v, adjoint=True), "solve": op.solve(x),
            "solve_adj": op.solve(x, adjoint=True), "solvevec": op.solvevec(v), "det": op.determinant(),
            "logdet": op.log_abs_determinant(), "trace": op.trace(), "diag": op.diag_part(),
            "add": op.add_to_tensor(op.to_dense()), "shape": op.shape, "batch": op.batch_shape,
            "shape_t": op.shape_tensor(), "batch_t": op.batch_shape_tensor(), "dims": [
                int(op.domain_dimension), int(op.range_dimension)], "rank": op.tensor_rank,
            "dtype": op.dtype, "hints": [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite,
                                         op.is_square]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_full_matrix(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_M, is_self_adjoint=True, is_positive_definite=True)
    out = _all_methods(tf, op, tf.constant(_X), tf.constant([1.0, -2.0, 0.5]))
    out.update(eig=op.eigvals(), cond=op.cond(), name=op.name, inv=op.inverse().to_dense(),
               chol=op.cholesky().to_dense(), kinds=[type(op.inverse()).__name__, type(op.cholesky()).__name__,
                                                     type(op.adjoint()).__name__, type(op @ op).__name__])
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_full_matrix_general(tf):
    op = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [1.0, 0.0, 1.0]])
    out = _all_methods(tf, op, tf.constant(_X), tf.constant([1.0, -2.0, 0.5]))
    rect = tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 3, 2], tf.float64))
    out.update(adj_dense=op.adjoint().to_dense(), adj_kind=type(op.adjoint()).__name__,
               inv_matmul=op.inverse().matmul(tf.constant(_X)), rect_shape=rect.shape,
               rect_square=rect.is_square, rect_matmul=rect.matmul(tf.ones([2, 1], tf.float64)),
               at=(op @ tf.constant(_X)))
    return out


def program_linop_full_matrix_errors(tf):
    op = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    out = {}
    cases = {"bad_dim": lambda: op.matmul(tf.ones([3, 1])), "bad_dtype": lambda: op.matmul(tf.ones([2, 1], tf.float64)),
             "int_matrix": lambda: tf.linalg.LinearOperatorFullMatrix([[1, 2], [3, 4]]),
             "rank1": lambda: tf.linalg.LinearOperatorFullMatrix([1.0, 2.0]),
             "pd_singular": lambda: tf.linalg.LinearOperatorFullMatrix(_M, is_positive_definite=True,
                                                                      is_non_singular=False),
             "sa_not_square": lambda: tf.linalg.LinearOperatorFullMatrix(_M, is_self_adjoint=True, is_square=False),
             "chol_not_pd": lambda: op.cholesky(), "eig_not_sa": lambda: op.eigvals(),
             "square_false": lambda: tf.linalg.LinearOperatorFullMatrix(_M, is_square=False).is_square,
             "singular_solve": lambda: tf.linalg.LinearOperatorFullMatrix(_M, is_non_singular=False).solve(_X),
             "rect_det": lambda: tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 3])).determinant(),
             "rect_inverse": lambda: tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 3])).inverse(),
             "bad_vec": lambda: op.matvec([1.0, 2.0, 3.0])}
    for key, fn in cases.items():
        try:
            out[key] = fn()
        except Exception as e:  # noqa: BLE001 - the exception type is the recorded outcome
            out[key] = type(e).__name__
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_linop_diag(tf):
    op = tf.linalg.LinearOperatorDiag([[1.0, 2.0, -4.0], [0.5, 3.0, 1.0]])
    x = tf.constant([_X, _X])
    out = _all_methods(tf, op, x, tf.constant([1.0, -2.0, 0.5]))
    pd = tf.linalg.LinearOperatorDiag([1.0, 4.0, 9.0], is_positive_definite=True)
    prod = op @ pd
    out.update(eig=op.eigvals(), cond=op.cond(), inv=op.inverse().to_dense(), chol=pd.cholesky().to_dense(),
               kinds=[type(op.inverse()).__name__, type(pd.cholesky()).__name__, type(op.adjoint()).__name__,
                      type(prod).__name__, type(op.solve(pd)).__name__],
               prod=prod.to_dense(), prod_hints=[prod.is_self_adjoint, prod.is_positive_definite],
               solve_op=op.solve(pd).to_dense(), adjoint_is_self=op.adjoint() is op,
               broadcast=op.matmul(tf.ones([3, 1])))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_linop_diag_complex(tf):
    d = tf.constant([1 + 2j, 3 - 1j], tf.complex64)
    op = tf.linalg.LinearOperatorDiag(d)
    x = tf.constant([[1 + 1j], [2 - 1j]], tf.complex64)
    adj = op.adjoint()
    return {"hints": [op.is_self_adjoint, op.is_square], "matmul_adj": op.matmul(x, adjoint=True),
            "solve_adj": op.solve(x, adjoint=True), "logdet": op.log_abs_determinant(), "det": op.determinant(),
            "adj": adj.to_dense(), "adj_kind": type(adj).__name__, "trace": op.trace()}


def program_linop_diag_errors(tf):
    out = {}
    cases = {"scalar": lambda: tf.linalg.LinearOperatorDiag(1.0),
             "not_sa": lambda: tf.linalg.LinearOperatorDiag([1.0, 2.0], is_self_adjoint=False),
             "not_square": lambda: tf.linalg.LinearOperatorDiag([1.0, 2.0], is_square=False),
             "bad_dtype": lambda: tf.linalg.LinearOperatorDiag([1.0, 2.0]).matvec(tf.constant([1, 2]))}
    for key, fn in cases.items():
        try:
            out[key] = fn()
        except Exception as e:  # noqa: BLE001
            out[key] = type(e).__name__
    return out


def program_linop_identity(tf):
    op = tf.linalg.LinearOperatorIdentity(3, batch_shape=[2])
    x = tf.constant(_X)
    out = _all_methods(tf, op, x, tf.constant([1.0, -2.0, 0.5]))
    plain = tf.linalg.LinearOperatorIdentity(2, dtype=tf.float64)
    out.update(eig=op.eigvals(), cond=op.cond(), plain_matmul=plain.matmul(tf.ones([2, 2], tf.float64)),
               plain_dtype=plain.dtype, inverse_is_self=op.inverse() is op, adjoint_is_self=op.adjoint() is op,
               chol=type(op.cholesky()).__name__, compose=type(op @ tf.linalg.LinearOperatorDiag(
                   [1.0, 2.0, 3.0])).__name__, plain_shape=plain.shape)
    for key, fn in {"not_sa": lambda: tf.linalg.LinearOperatorIdentity(2, is_self_adjoint=False),
                    "float_rows": lambda: tf.linalg.LinearOperatorIdentity(2.0),
                    "negative": lambda: tf.linalg.LinearOperatorIdentity(-1),
                    "bad_batch": lambda: tf.linalg.LinearOperatorIdentity(2, batch_shape=2)}.items():
        try:
            out[key] = fn()
        except Exception as e:  # noqa: BLE001
            out[key] = type(e).__name__
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_linop_scaled_identity(tf):
    op = tf.linalg.LinearOperatorScaledIdentity(3, [2.0, -0.5])
    x = tf.constant(_X)
    out = _all_methods(tf, op, x, tf.constant([1.0, -2.0, 0.5]))
    pd = tf.linalg.LinearOperatorScaledIdentity(3, 4.0, is_positive_definite=True)
    out.update(eig=op.eigvals(), cond=op.cond(), inv=op.inverse().to_dense(), chol=pd.cholesky().to_dense(),
               kinds=[type(op.inverse()).__name__, type(pd @ pd).__name__,
                      type(pd @ tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0])).__name__],
               prod=(pd @ tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0])).to_dense(),
               zero_cond=tf.linalg.LinearOperatorScaledIdentity(2, [0.0, 1.0]).cond())
    try:
        out["not_square"] = tf.linalg.LinearOperatorScaledIdentity(2, 1.0, is_square=False)
    except ValueError as e:
        out["not_square"] = type(e).__name__
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_lower_triangular(tf):
    tril = tf.constant([[2.0, 9.0, 9.0], [1.0, 3.0, 9.0], [-1.0, 0.5, 1.5]])
    op = tf.linalg.LinearOperatorLowerTriangular(tril)
    out = _all_methods(tf, op, tf.constant(_X), tf.constant([1.0, -2.0, 0.5]))
    d = tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0])
    out.update(eig_tri=op.to_dense(), kinds=[type(op @ d).__name__, type(d @ op).__name__, type(d.solve(op)).__name__],
               op_d=(op @ d).to_dense(), d_op=(d @ op).to_dense(), d_solve=d.solve(op).to_dense(),
               batch=tf.linalg.LinearOperatorLowerTriangular(tf.stack([tril, 2 * tril])).solve(tf.constant(_X)))
    try:
        out["not_square"] = tf.linalg.LinearOperatorLowerTriangular(tril, is_square=False)
    except ValueError as e:
        out["not_square"] = type(e).__name__
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_gradients(tf):
    m = tf.Variable(_M)
    d = tf.Variable([1.0, 2.0, 3.0])
    x = tf.constant(_X)
    full = tf.linalg.LinearOperatorFullMatrix(m)
    diag = tf.linalg.LinearOperatorDiag(d)
    with tf.GradientTape(persistent=True) as g:
        a = tf.reduce_sum(full.solve(x)) + full.log_abs_determinant()
        b = tf.reduce_sum(diag.matmul(x) ** 2) + diag.log_abs_determinant() + tf.reduce_sum(diag.solve(x))
        c = tf.reduce_sum((full @ diag).matmul(x))
    return {"full": g.gradient(a, m), "diag": g.gradient(b, d), "comp": g.gradient(c, [m, d]),
            "module": [isinstance(full, tf.Module), len(full.trainable_variables), len((full @ diag).variables),
                       [v.shape for v in tf.linalg.LinearOperatorKronecker([full, diag]).trainable_variables]]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_in_function(tf):
    @tf.function
    def f(m, d, x):
        op = tf.linalg.LinearOperatorFullMatrix(m, is_self_adjoint=True, is_positive_definite=True)
        diag = tf.linalg.LinearOperatorDiag(d)
        return op.solve(x), (op @ diag).matmul(x), op.log_abs_determinant(), diag.determinant()

    return {"out": f(tf.constant(_M), tf.constant([1.0, 2.0, 3.0]), tf.constant(_X))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_user_subclass(tf):
    class Scaled(tf.linalg.LinearOperator):
        """2 * matrix, defining only the abstract methods."""

        def __init__(self, matrix):
            self._m = tf.convert_to_tensor(matrix)
            super().__init__(dtype=self._m.dtype, is_square=True, parameters={"matrix": matrix})

        def _shape(self):
            return self._m.shape

        def _shape_tensor(self):
            return tf.shape(self._m)

        def _matmul(self, x, adjoint=False, adjoint_arg=False):
            return 2.0 * tf.matmul(self._m, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    op = Scaled([[2.0, 1.0], [0.5, 3.0]])
    x = tf.constant([[1.0], [2.0]])
    f = tf.function(lambda o, v: o.solve(v) + o.matmul(v))
    return {"dense": op.to_dense(), "det": op.determinant(), "solve": op.solve(x), "logdet": op.log_abs_determinant(),
            "trace": op.trace(), "diag": op.diag_part(), "inv": op.inverse().to_dense(), "name": op.name,
            "params": sorted(op.parameters), "adj": op.adjoint().matmul(x), "comp": (op @ op).to_dense(),
            "hints": [op.is_square, op.is_self_adjoint],
            "function_arg": f(tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [0.5, 3.0]]), x),
            "complex_solve": tf.linalg.LinearOperatorFullMatrix(
                tf.complex([[2.0, 1.0], [0.0, 1.0]], [[0.5, 0.0], [1.0, -1.0]])).solve(
                    tf.complex([[1.0], [2.0]], [[0.0], [1.0]])),
            "complex_det": [tf.linalg.LinearOperatorFullMatrix(tf.complex([[2.0, 1.0], [0.0, 1.0]], [[0.5, 0.0], [
                1.0, -1.0]])).determinant(), tf.linalg.LinearOperatorFullMatrix(tf.complex([[2.0, 1.0], [0.0, 1.0]], [
                    [0.5, 0.0], [1.0, -1.0]])).log_abs_determinant()]}



@tolerance(rtol=1e-5, atol=1e-6)
def program_linop_function_arguments(tf):
    traces = []

    @tf.function
    def apply(op, x):
        traces.append(type(op).__name__)
        return op.matvec(x)

    x = tf.constant([1.0, 2.0])
    out = [apply(tf.linalg.LinearOperatorFullMatrix(tf.eye(2) * k), x) for k in (1.0, 2.0, 3.0)]
    out.append(apply(tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorDiag([1.0, 2.0]),
                                                           tf.ones([2, 1]), diag_update=tf.constant([3.0])), x))
    out.append(apply(tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorDiag(tf.ones([1])),
                                                        tf.linalg.LinearOperatorFullMatrix(tf.eye(2) * 5.0)]), x))
    build = tf.function(lambda m: tf.linalg.LinearOperatorFullMatrix(m) @ tf.linalg.LinearOperatorDiag(m[0]))
    made = [build(tf.eye(2) + 1.0), build(tf.eye(2) + 2.0)]
    return {"values": out, "traces": traces, "made": [type(made[0]).__name__] + [m.to_dense() for m in made],
            "flat": [len(tf.nest.flatten(made[0])), len(tf.nest.flatten(made[0], expand_composites=True))]}

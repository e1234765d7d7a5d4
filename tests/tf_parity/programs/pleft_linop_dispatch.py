"""tf.matmul / tf.linalg.matmul given a LinearOperator call the operator's matmul, as
TensorFlow's dispatch does (either operand; transposes and sparse flags refused), beside the
dispatched tf.linalg functions matvec, solve, det, inv, logdet, adjoint, cholesky, diag_part and
trace; functions TF does not dispatch refuse an operator (issue #11)."""
import numpy as np

_A = np.array([[4.0, 1.0], [2.0, 3.0]])
_X = np.array([[1.0, 2.0], [3.0, 4.0]])


def _dense(r):
    """A result, or an operator as its class name and dense matrix."""
    return [type(r).__name__, r.to_dense()] if hasattr(r, "to_dense") else r


def _error(fn):
    try:
        fn()
    except Exception as exc:
        return type(exc).__name__
    return "no error"


def program_matmul_operator_first(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_A)
    x = tf.constant(_X)
    return {"plain": tf.matmul(op, x), "linalg": tf.linalg.matmul(op, x),
            "adjoint_a": tf.matmul(op, x, adjoint_a=True), "adjoint_b": tf.matmul(op, x, adjoint_b=True),
            "both": tf.matmul(op, x, adjoint_a=True, adjoint_b=True), "operator": op @ x}


def program_matmul_operator_second(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_A)
    x = tf.constant(_X)
    return {"plain": tf.matmul(x, op), "adjoint_a": tf.matmul(x, op, adjoint_a=True),
            "adjoint_b": tf.matmul(x, op, adjoint_b=True),
            "both": tf.matmul(x, op, adjoint_a=True, adjoint_b=True), "operator": x @ op}


def program_matmul_structured_operators(tf):
    diag = tf.linalg.LinearOperatorDiag([2.0, 3.0])
    tril = tf.linalg.LinearOperatorLowerTriangular([[1.0, 0.0], [2.0, 5.0]])
    x = tf.constant(_X, tf.float32)
    batch = tf.linalg.LinearOperatorFullMatrix(tf.reshape(tf.range(8.0), [2, 2, 2]))
    return {"diag": tf.matmul(diag, x), "diag_right": tf.matmul(x, diag), "tril": tf.matmul(tril, x, adjoint_a=True),
            "batch": tf.matmul(batch, x), "operators": _dense(tf.matmul(diag, tril))}


def program_matmul_refuses_transpose_and_sparse(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_A)
    x = tf.constant(_X)
    return {"transpose_a": _error(lambda: tf.matmul(op, x, transpose_a=True)),
            "transpose_b": _error(lambda: tf.matmul(x, op, transpose_b=True)),
            "sparse": _error(lambda: tf.matmul(op, x, a_is_sparse=True)),
            "matvec_transpose": _error(lambda: tf.linalg.matvec(op, [1.0, 2.0], transpose_a=True))}


def program_matmul_operator_in_function(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_A)

    @tf.function
    def f(x):
        return tf.matmul(op, x) + tf.matmul(x, op, adjoint_b=True), tf.linalg.matvec(op, x[0])
    return {"out": f(tf.constant(_X))}


def program_matmul_operator_gradient(tf):
    m = tf.Variable(_A)
    op = tf.linalg.LinearOperatorFullMatrix(m)
    x = tf.constant(_X)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.matmul(op, x) * tf.constant([[1.0, -1.0], [2.0, 0.5]], tf.float64))
    return {"grad": tape.gradient(loss, m)}


def program_dispatched_linalg_functions(tf):
    op = tf.linalg.LinearOperatorFullMatrix([[4.0, 1.0], [1.0, 3.0]], is_self_adjoint=True,
                                            is_positive_definite=True)
    rhs = tf.constant([[1.0], [2.0]])
    return {"matvec": tf.linalg.matvec(op, [1.0, 2.0]), "matvec_adj": tf.linalg.matvec(op, [1.0, 2.0], adjoint_a=True),
            "solve": tf.linalg.solve(op, rhs), "solve_adj": tf.linalg.solve(op, rhs, adjoint=True),
            "det": tf.linalg.det(op), "logdet": tf.linalg.logdet(op), "inv": _dense(tf.linalg.inv(op)),
            "adjoint": _dense(tf.linalg.adjoint(op)), "cholesky": _dense(tf.linalg.cholesky(op)),
            "diag_part": tf.linalg.diag_part(op), "trace": tf.linalg.trace(op)}


def program_undispatched_functions_refuse_operators(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_A)
    return {name: _error(fn) for name, fn in {
        "eigvalsh": lambda: tf.linalg.eigvalsh(op), "slogdet": lambda: tf.linalg.slogdet(op),
        "transpose": lambda: tf.transpose(op), "reduce_sum": lambda: tf.reduce_sum(op),
        "convert": lambda: tf.convert_to_tensor(op)}.items()}


def program_tensors_unchanged(tf):
    a = tf.constant(_A)
    x = tf.constant(_X)
    return {"matmul": tf.matmul(a, x, transpose_a=True), "matvec": tf.linalg.matvec(a, tf.constant([1.0, 2.0], tf.float64)),
            "solve": tf.linalg.solve(a, x), "det": tf.linalg.det(a), "trace": tf.linalg.trace(a)}

"""tf.linalg.sqrtm (tf.matrix_square_root), tf.linalg.logm, tf.linalg.experimental.
conjugate_gradient and the tf.linalg functions that take a LinearOperator (adjoint, det,
trace, solve, ...): values, dtypes, batches, errors, gradients and tf.function."""
import numpy as np
from parity import tolerance

_S = [[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.0]]           # symmetric positive definite
_G = [[2.0, -1.0, 0.5], [1.0, 3.0, 0.0], [0.25, 0.5, 1.5]]           # general, complex eigenvalues


def _outcome(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the exception type is the recorded outcome
        return type(e).__name__


@tolerance(rtol=1e-4, atol=1e-5)
def program_linalg2_sqrtm(tf):
    s, g = tf.constant(_S), tf.constant(_G)
    rot = tf.constant([[0.0, -1.0], [1.0, 0.0]])
    c = tf.complex(g, 0.3 * g)
    return {"spd": tf.linalg.sqrtm(s), "general": tf.linalg.sqrtm(g), "rotation": tf.linalg.sqrtm(rot),
            "f64": tf.linalg.sqrtm(tf.constant(_G, tf.float64)), "batch": tf.linalg.sqrtm(tf.stack([s, g, 2 * s])),
            "complex": tf.linalg.sqrtm(c), "alias": tf.matrix_square_root(s),
            "negative": tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]])),
            "empty": tf.linalg.sqrtm(tf.zeros([2, 0, 0])).shape, "same": tf.matrix_square_root is tf.linalg.sqrtm,
            "errors": [_outcome(lambda: tf.linalg.sqrtm(tf.ones([2, 3]))),
                       _outcome(lambda: tf.linalg.sqrtm(tf.ones([2, 2], tf.int32)))]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linalg2_sqrtm_gradient(tf):
    v = tf.Variable(_G)
    w = tf.constant([[1.0, 2.0, 0.0], [3.0, 4.0, -1.0], [0.5, 0.0, 1.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.sqrtm(v) * w)
    f = tf.function(lambda a: tf.linalg.sqrtm(a) @ tf.linalg.sqrtm(a))
    return {"grad": tape.gradient(y, v), "function": f(tf.constant(_S))}


@tolerance(rtol=1e-4, atol=1e-4)
def program_linalg2_logm(tf):
    s = tf.complex(tf.constant(_S), tf.zeros([3, 3]))
    g = tf.complex(tf.constant(_G), tf.constant(np.triu(np.ones((3, 3)), 1) * 0.2, tf.float32))
    big = tf.complex(tf.constant([[50.0, 3.0], [-2.0, 0.05]]), tf.zeros([2, 2]))
    return {"spd": tf.linalg.logm(s), "general": tf.linalg.logm(g), "f64": tf.linalg.logm(tf.cast(g, tf.complex128)),
            "spread": tf.linalg.logm(big), "batch": tf.linalg.logm(tf.stack([s, g])),
            "round_trip": tf.linalg.expm(tf.math.real(tf.linalg.logm(s))),
            "in_function": tf.function(tf.linalg.logm)(g),
            "errors": [_outcome(lambda: tf.linalg.logm(tf.constant(_S))),
                       _outcome(lambda: tf.linalg.logm(tf.ones([2, 3], tf.complex64)))]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linalg2_conjugate_gradient(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_S, is_self_adjoint=True, is_positive_definite=True)
    rhs = tf.constant([1.0, -2.0, 0.5])
    plain = tf.linalg.experimental.conjugate_gradient(op, rhs)
    pre = tf.linalg.experimental.conjugate_gradient(op, rhs, preconditioner=tf.linalg.LinearOperatorDiag(
        [0.25, 1 / 3.0, 0.5], is_positive_definite=True), tol=1e-6)
    started = tf.linalg.experimental.conjugate_gradient(op, rhs, x=tf.constant([0.1, -0.5, 0.0]), max_iter=2)
    batch = tf.linalg.experimental.conjugate_gradient(op, tf.stack([rhs, 2 * rhs + 1.0]))
    one_step = tf.linalg.experimental.conjugate_gradient(op, rhs, max_iter=1)
    f = tf.function(lambda r: tf.linalg.experimental.conjugate_gradient(op, r).x)
    return {"fields": list(type(plain)._fields), "type": type(plain).__name__,
            "plain": [plain.i, plain.x, plain.gamma], "pre": [pre.i, pre.x], "started": [started.i, started.x],
            "batch": [batch.i, batch.x], "one": [one_step.i, one_step.x, one_step.r, one_step.p, one_step.gamma],
            "function": f(rhs),
            "not_pd": _outcome(lambda: tf.linalg.experimental.conjugate_gradient(
                tf.linalg.LinearOperatorFullMatrix(_S), rhs))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linalg2_dispatch(tf):
    op = tf.linalg.LinearOperatorFullMatrix(_S, is_self_adjoint=True, is_positive_definite=True)
    g = tf.linalg.LinearOperatorFullMatrix(_G)
    d = tf.linalg.LinearOperatorDiag([1.0, 2.0, 4.0])
    rhs = tf.constant([[1.0], [2.0], [3.0]])
    return {"adjoint": [type(tf.linalg.adjoint(g)).__name__, tf.linalg.adjoint(g).to_dense()],
            "det": [tf.linalg.det(op), tf.linalg.det(d)], "trace": tf.linalg.trace(g),
            "logdet": tf.linalg.logdet(op), "logdet_bad": _outcome(lambda: tf.linalg.logdet(g)),
            "inv": [type(tf.linalg.inv(d)).__name__, tf.linalg.inv(d).to_dense(), tf.linalg.inv(g).to_dense()],
            "solve": [tf.linalg.solve(g, rhs), tf.linalg.solve(g, rhs, adjoint=True)],
            "cholesky": [type(tf.linalg.cholesky(op)).__name__, tf.linalg.cholesky(op).to_dense()],
            "diag_part": tf.linalg.diag_part(g), "tensors": [tf.linalg.det(_S), tf.linalg.trace(_G),
                                                             tf.linalg.diag_part(_G), tf.linalg.adjoint(_G)]}


def program_linalg2_assertions_and_matvec(tf):
    ok = tf.linalg.LinearOperatorFullMatrix(_S, is_self_adjoint=True, is_positive_definite=True)
    not_pd = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [2.0, 1.0]], is_self_adjoint=True)
    singular = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [2.0, 4.0]])
    diag = tf.linalg.LinearOperatorDiag([1.0, 0.0, -2.0])
    cases = {"ok_pd": lambda: ok.assert_positive_definite(), "ok_ns": lambda: ok.assert_non_singular(),
             "ok_sa": lambda: ok.assert_self_adjoint(), "not_pd": lambda: not_pd.assert_positive_definite(),
             "singular": lambda: singular.assert_non_singular(), "not_sa": lambda: singular.assert_self_adjoint(),
             "diag_zero": lambda: diag.assert_non_singular(), "diag_pd": lambda: diag.assert_positive_definite(),
             "general_pd": lambda: tf.linalg.LinearOperatorFullMatrix(_G).assert_positive_definite(),
             "zeros": lambda: tf.linalg.LinearOperatorZeros(2).assert_non_singular(),
             "matvec": lambda: tf.linalg.matvec(ok, [1.0, 2.0, 3.0]),
             "matvec_adj": lambda: tf.linalg.matvec(tf.linalg.LinearOperatorFullMatrix(_G), [1.0, 2.0, 3.0],
                                                    adjoint_a=True),
             "matvec_t": lambda: tf.linalg.matvec(ok, [1.0, 2.0, 3.0], transpose_a=True)}
    out = {}
    for key, fn in cases.items():
        try:
            out[key] = fn()
        except Exception as e:  # noqa: BLE001
            out[key] = type(e).__name__
    return out

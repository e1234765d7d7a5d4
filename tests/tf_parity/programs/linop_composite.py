"""tf.linalg.LinearOperator composites: Composition, BlockDiag, Kronecker, LowRankUpdate,
Adjoint, Inversion — values of every method against TF, hints, the operators the algebra
returns, batches, errors, a gradient and tf.function."""
from parity import tolerance

_A = [[4.0, 1.0], [1.0, 3.0]]
_B = [[2.0, 0.5, 0.0], [0.5, 3.0, 1.0], [0.0, 1.0, 2.5]]
_G = [[1.0, 2.0], [-1.0, 3.0]]


def _methods(tf, op, x):
    v = x[..., 0]
    out = {"dense": op.to_dense(), "matmul": op.matmul(x), "matmul_adj": op.matmul(x, adjoint=True),
           "matmul_adj_arg": op.matmul(tf.linalg.adjoint(x), adjoint_arg=True), "matvec": op.matvec(v),
           "matvec_adj": op.matvec(v, adjoint=True), "det": op.determinant(), "logdet": op.log_abs_determinant(),
           "trace": op.trace(), "diag": op.diag_part(), "shape": op.shape, "batch": op.batch_shape,
           "shape_t": op.shape_tensor(), "dtype": op.dtype,
           "hints": [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square]}
    if op.is_non_singular is not False:
        out.update(solve=op.solve(x), solve_adj=op.solve(x, adjoint=True), solvevec=op.solvevec(v),
                   solve_adj_arg=op.solve(tf.linalg.adjoint(x), adjoint_arg=True))
    return out


def _x(tf, n, k=2, batch=()):
    return tf.reshape(tf.range(n * k * max(1, int(__import__("numpy").prod(batch))), dtype=tf.float32) / 7.0 - 0.6,
                      list(batch) + [n, k])


def _outcome(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the exception type is the recorded outcome
        return type(e).__name__


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_composition(tf):
    a = tf.linalg.LinearOperatorFullMatrix(_G)
    d = tf.linalg.LinearOperatorDiag([2.0, -1.0])
    comp = tf.linalg.LinearOperatorComposition([a, d, a])
    out = _methods(tf, comp, _x(tf, 2))
    aat = tf.linalg.LinearOperatorComposition([a, a.adjoint()])
    l = tf.linalg.LinearOperatorLowerTriangular([[2.0, 0.0], [1.0, -3.0]], is_non_singular=True)
    llt = tf.linalg.LinearOperatorComposition([l, l.adjoint()])
    out.update(name=comp.name, n=len(comp.operators), aat_hints=[aat.is_self_adjoint, aat.is_square,
                                                                 aat.is_positive_definite],
               llt_chol=llt.cholesky().to_dense(), aat_chol=aat.cholesky().to_dense() if aat.is_positive_definite
               else "not pd", rect=tf.linalg.LinearOperatorComposition(
                   [tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 3])),
                    tf.linalg.LinearOperatorFullMatrix(tf.ones([3, 2]))]).to_dense(),
               empty=_outcome(lambda: tf.linalg.LinearOperatorComposition([])),
               mixed=_outcome(lambda: tf.linalg.LinearOperatorComposition(
                   [a, tf.linalg.LinearOperatorDiag(tf.constant([1.0, 2.0], tf.float64))])),
               mismatch=_outcome(lambda: a @ tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0])))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_block_diag(tf):
    a = tf.linalg.LinearOperatorFullMatrix(_A, is_self_adjoint=True, is_positive_definite=True)
    b = tf.linalg.LinearOperatorFullMatrix(_B, is_self_adjoint=True, is_positive_definite=True)
    op = tf.linalg.LinearOperatorBlockDiag([a, b])
    out = _methods(tf, op, _x(tf, 5))
    blocks = op.matmul([tf.ones([2, 1]), tf.ones([3, 1])])
    vec_blocks = [op.matvec([tf.ones([2]), tf.ones([3])]), op.solvevec([tf.ones([2]), tf.ones([3])]),
                  op.solve([tf.ones([2, 1]), tf.ones([3, 1])], adjoint=True)]
    out.update(eig=op.eigvals(), chol=op.cholesky().to_dense(), inv=op.inverse().to_dense(),
               kinds=[type(op.inverse()).__name__, type(op.cholesky()).__name__, type(op @ op).__name__],
               squared=(op @ op).to_dense(), blocks=blocks, vec_blocks=vec_blocks, name=op.name,
               batch=tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorDiag([[1.0, 2.0], [3.0, 4.0]]),
                                                        b]).to_dense(),
               bad_hint=_outcome(lambda: tf.linalg.LinearOperatorBlockDiag([a, b], is_non_singular=False)))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_kronecker(tf):
    a = tf.linalg.LinearOperatorFullMatrix(_G)
    b = tf.linalg.LinearOperatorFullMatrix(_B)
    op = tf.linalg.LinearOperatorKronecker([a, b])
    out = _methods(tf, op, _x(tf, 6))
    pa = tf.linalg.LinearOperatorFullMatrix(_A, is_self_adjoint=True, is_positive_definite=True)
    pb = tf.linalg.LinearOperatorDiag([1.0, 2.0, 0.5], is_positive_definite=True)
    pd = tf.linalg.LinearOperatorKronecker([pa, pb])
    three = tf.linalg.LinearOperatorKronecker([a, pb, tf.linalg.LinearOperatorDiag([1.0, -2.0])])
    out.update(eig=pd.eigvals(), chol=pd.cholesky().to_dense(), inv=op.inverse().to_dense(),
               hints=[pd.is_self_adjoint, pd.is_positive_definite], kinds=[
                   type(pd.cholesky()).__name__, type(op.inverse()).__name__, type(op.adjoint()).__name__],
               three=_methods(tf, three, _x(tf, 12, 1)), name=op.name,
               batch=tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorDiag([[1.0, 2.0], [3.0, 4.0]]),
                                                        b]).matmul(_x(tf, 6)))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_low_rank_update(tf):
    base = tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0], is_positive_definite=True)
    u = tf.constant([[1.0, 0.5], [0.0, 1.0], [2.0, -1.0]])
    sym = tf.linalg.LinearOperatorLowRankUpdate(base, u)
    out = {"sym": _methods(tf, sym, _x(tf, 3))}
    v = tf.constant([[0.5, 1.0], [1.0, 0.0], [-1.0, 0.5]])
    gen = tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorFullMatrix(_B), u, diag_update=[2.0, 0.25],
                                                v=v)
    out["general"] = _methods(tf, gen, _x(tf, 3))
    with_d = tf.linalg.LinearOperatorLowRankUpdate(base, u, diag_update=[2.0, 0.5], is_diag_update_positive=True)
    out.update(with_d=_methods(tf, with_d, _x(tf, 3)), fields=[sym.is_diag_update_positive, sym.v is sym.u,
                                                               type(sym.diag_operator).__name__],
               bad=_outcome(lambda: tf.linalg.LinearOperatorLowRankUpdate(base, u, is_diag_update_positive=False)),
               not_pd=_outcome(lambda: tf.linalg.LinearOperatorLowRankUpdate(base, u, is_positive_definite=False)),
               bad_u=_outcome(lambda: tf.linalg.LinearOperatorLowRankUpdate(base, tf.ones([2, 1]))))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_adjoint_inversion(tf):
    a = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [1.0, 0.0, 1.0]])
    adj = tf.linalg.LinearOperatorAdjoint(a)
    inv = tf.linalg.LinearOperatorInversion(a)
    c = tf.linalg.LinearOperatorFullMatrix(tf.constant([[1 + 1j, 2], [0.5j, 3 - 1j]], tf.complex64))
    cadj = c.adjoint()
    return {"adj": _methods(tf, adj, _x(tf, 3)), "inv": _methods(tf, inv, _x(tf, 3)), "names": [adj.name, inv.name],
            "back": [adj.adjoint() is a, inv.inverse() is a], "cadj": cadj.to_dense(),
            "ctrace": cadj.trace(), "solve_op": type(a.solve(a)).__name__, "solve_dense": a.solve(a).to_dense(),
            "singular": _outcome(lambda: tf.linalg.LinearOperatorInversion(
                tf.linalg.LinearOperatorFullMatrix(_A, is_non_singular=False))),
            "bad_hint": _outcome(lambda: tf.linalg.LinearOperatorAdjoint(
                tf.linalg.LinearOperatorDiag([1.0, 2.0]), is_self_adjoint=False))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_composite_gradients(tf):
    g = tf.Variable(_G)
    b = tf.Variable(_B)
    u = tf.Variable([[1.0], [0.5], [-1.0]])
    x = _x(tf, 6)
    with tf.GradientTape(persistent=True) as tape:
        kron = tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix(g),
                                                  tf.linalg.LinearOperatorFullMatrix(b)])
        k = tf.reduce_sum(kron.matmul(x)) + kron.log_abs_determinant() + tf.reduce_sum(kron.solve(x))
        lr = tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorDiag([1.0, 2.0, 3.0],
                                                                                 is_positive_definite=True), u)
        r = lr.log_abs_determinant() + tf.reduce_sum(lr.solve(x[:3]))
        blk = tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix(g),
                                                 tf.linalg.LinearOperatorFullMatrix(b)])
        s = tf.reduce_sum(blk.solve(x[:5])) + blk.trace()
    return {"kron": tape.gradient(k, [g, b]), "low_rank": tape.gradient(r, u), "block": tape.gradient(s, [g, b])}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_composite_in_function(tf):
    @tf.function
    def f(g, b, x):
        kron = tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix(g),
                                                  tf.linalg.LinearOperatorFullMatrix(b)])
        blk = tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix(g),
                                                 tf.linalg.LinearOperatorFullMatrix(b)])
        return kron.solve(x), kron.determinant(), blk.matmul(x[:5]), (blk @ blk).to_dense()

    return {"out": f(tf.constant(_G), tf.constant(_B), _x(tf, 6))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_linop_batch_broadcasting(tf):
    batch_full = tf.linalg.LinearOperatorFullMatrix(tf.stack([tf.constant(_G), tf.constant(_A)]))  # [2, 2, 2]
    d = tf.linalg.LinearOperatorDiag([[1.0, 2.0]])                                                 # [1, 2, 2]
    x = tf.reshape(tf.range(12.0), [3, 1, 2, 2]) / 5.0                                             # [3, 1, 2, 2]
    kron = tf.linalg.LinearOperatorKronecker([batch_full, d])
    low = tf.linalg.LinearOperatorLowRankUpdate(batch_full, tf.ones([2, 1]))
    tri = tf.linalg.LinearOperatorLowerTriangular(batch_full.to_dense())
    ident = tf.linalg.LinearOperatorScaledIdentity(2, [[2.0], [3.0], [4.0]])                      # [3, 1, 2, 2]
    comp = batch_full @ d
    out = {}
    for key, op in {"full": batch_full, "low": low, "tri": tri, "ident": ident, "comp": comp}.items():
        out[key] = [op.shape, op.matmul(x), op.solve(x), op.matvec(x[..., 0]), op.determinant()]
    out["kron"] = [kron.shape, kron.matmul(tf.ones([3, 1, 4, 2])), kron.solve(tf.ones([4, 1]))]
    out["block"] = tf.linalg.LinearOperatorBlockDiag([batch_full, d]).matmul(tf.ones([3, 1, 4, 1]))
    return out

"""Op-table rows for the matrix primitives of decomp_ops (merged into test_ops_table.ROWS).
Cholesky's inputs are made symmetric positive-definite inside the case, so that
finite differences move the matrix the way the (symmetric) gradient assumes."""
import numpy as np

import tapeflow as tf

from op_cases import F32, Case, Row, rand


def well_conditioned(shape, dtype=np.float64):
    n = shape[-1]
    return (rand(shape, -1, 1) + 3 * np.eye(n)).astype(dtype)


def _spd(x):
    n = x.shape[-1]
    return tf.matmul(x, x, transpose_b=True) + tf.eye(n, dtype=x.dtype) * float(n)


def _np_spd(x):
    return x @ np.swapaxes(x, -1, -2) + np.eye(x.shape[-1]) * x.shape[-1]


def _np_slogdet(a):
    s, l = np.linalg.slogdet(a)
    return [s, l]


def _svd_rebuilt(a):
    s, u, v = tf.linalg.svd(a)
    return tf.matmul(u * s[..., None, :], v, transpose_b=True)


def _svd_abs_u(a):
    return tf.abs(tf.linalg.svd(a)[1])


def _svd_uv_invariant(a, full_matrices=False):
    """A function of u and v unchanged by the sign of each singular pair: the rebuilt
    matrix with s squared, squares of u and v, and (full) the projections on u's and v's
    extra columns (any orthonormal basis of the null space may come out: only the
    projection is a function of the matrix)."""
    s, u, v = tf.linalg.svd(a, full_matrices=full_matrices)
    k = s.shape[-1]
    u1, v1 = u[..., :k], v[..., :k]
    w = tf.constant(np.linspace(-1.0, 2.0, u1.shape[-2] * k).reshape(u1.shape[-2:]))
    out = tf.matmul(u1 * (s * s)[..., None, :], v1, transpose_b=True)
    out = tf.reduce_sum(out * out) + tf.reduce_sum(u1 * u1 * w) + tf.reduce_sum(tf.sin(v1 * v1))
    for q in (u[..., k:], v[..., k:]):
        p = tf.matmul(q, q, transpose_b=True)
        out = out + tf.reduce_sum(p * tf.constant(np.arange(p.shape[-1] ** 2).reshape(p.shape[-2:]) / 7.0))
    return out


def _np_svd_uv_invariant(a, full_matrices=False):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    v, k = np.swapaxes(vh, -1, -2), s.shape[-1]
    u1, v1 = u[..., :k], v[..., :k]
    w = np.linspace(-1.0, 2.0, u1.shape[-2] * k).reshape(u1.shape[-2:])
    out = (u1 * (s * s)[..., None, :]) @ np.swapaxes(v1, -1, -2)
    out = np.sum(out * out) + np.sum(u1 * u1 * w) + np.sum(np.sin(v1 * v1))
    for q in (u[..., k:], v[..., k:]):
        p = q @ np.swapaxes(q, -1, -2)
        out = out + np.sum(p * (np.arange(p.shape[-1] ** 2).reshape(p.shape[-2:]) / 7.0))
    return out


def _np_abs_u(a):
    return np.abs(np.linalg.svd(a, full_matrices=False)[0])


def _sym(x):
    return x + tf.linalg.matrix_transpose(x)


def _np_sym(x):
    return x + np.swapaxes(x, -1, -2)


def _qr_rebuilt(a):
    q, r = tf.linalg.qr(a)
    return tf.matmul(q, r)


def _qr_invariants(a):
    # sign-free functions of Q and R, so that finite differences see a smooth function
    q, r = tf.linalg.qr(a)
    return [tf.abs(r), q * q]


def _np_qr_invariants(a):
    q, r = np.linalg.qr(a)
    return [np.abs(r), q * q]


def _eigh_invariants(x):
    e, v = tf.linalg.eigh(_sym(x))
    return [e, v * v]


def _np_eigh_invariants(x):
    e, v = np.linalg.eigh(_np_sym(x))
    return [e, v * v]


def _lu_checks(a):
    """lu(a) rebuilt (L @ U == a[p]), |L| <= 1 below the diagonal (partial pivoting), p sorted."""
    lu, p = tf.linalg.lu(a)
    lower = tf.linalg.band_part(lu, -1, 0) - tf.linalg.band_part(lu, 0, 0)
    return [tf.linalg.lu_reconstruct(lu, p), tf.cast(tf.reduce_max(tf.abs(lower)) <= 1.0, tf.float64),
            tf.sort(p, axis=-1)]


def _np_lu_checks(a):
    n = a.shape[-1]
    return [a, np.float64(1.0), np.broadcast_to(np.arange(n, dtype=np.int32), a.shape[:-1])]


def _eig_checks(x):
    """Phase- and order-free: A v - v diag(e) (0), the columns' norms (1), sorted Re(e)."""
    e, v = tf.linalg.eig(x)
    residual = tf.matmul(tf.cast(x, v.dtype), v) - v * e[..., tf.newaxis, :]
    return [tf.abs(residual), tf.norm(v, axis=-2), tf.sort(tf.math.real(e), axis=-1)]


def _np_eig_checks(x):
    return [np.zeros(x.shape), np.ones(x.shape[:-1]), np.sort(np.linalg.eigvals(x).real, axis=-1)]


def _eig_loss(x):  # invariant under the columns' order and phases
    e, v = tf.linalg.eig(x)
    return [tf.reduce_sum(tf.abs(v) ** 3), tf.sort(tf.math.real(e * e), axis=-1)]


SPREAD = rand((3, 3), -0.5, 0.5) + np.diag([0.0, 2.0, 4.0])  # distinct real eigenvalues

ROWS = {
    "eig": Row([Case(_eig_checks, _np_eig_checks, [rand((3, 3))], tol=1e-9),
                Case(_eig_checks, _np_eig_checks, [rand((2, 4, 4))], tol=1e-9),
                Case(_eig_checks, _np_eig_checks, [rand((3, 3), dtype=F32)], tol=1e-4),
                Case(_eig_loss, lambda x: [np.sum(np.abs(np.linalg.eig(x)[1]) ** 3),
                                           np.sort((np.linalg.eigvals(x) ** 2).real)], [SPREAD], wrt=(0,))], True),
    # lu has no gradient in TensorFlow (its VJP raises TF's LookupError): no gradient cases.
    "lu": Row([Case(_lu_checks, _np_lu_checks, [rand((4, 4))]), Case(_lu_checks, _np_lu_checks, [rand((2, 3, 3))]),
               Case(_lu_checks, _np_lu_checks, [rand((3, 3), dtype=F32)])], True),
    "qr": Row([Case(_qr_rebuilt, lambda a: a, [rand((4, 3))], wrt=(0,)),
               Case(_qr_invariants, _np_qr_invariants, [rand((4, 3))], wrt=(0,)),
               Case(_qr_invariants, _np_qr_invariants, [rand((2, 3, 3))], wrt=(0,)),
               Case(lambda a: tf.linalg.qr(a, full_matrices=True)[0].shape.as_list(),
                    lambda a: [5, 5], [rand((5, 2))], trace=False)], True),
    "eigh": Row([Case(_eigh_invariants, _np_eigh_invariants, [rand((3, 3))], wrt=(0,)),
                 Case(_eigh_invariants, _np_eigh_invariants, [rand((2, 4, 4))], wrt=(0,)),
                 # only the lower triangle is read: the gradient above the diagonal is 0
                 Case(lambda x: tf.linalg.eigvalsh(x), lambda x: np.linalg.eigvalsh(x), [rand((3, 3))],
                      wrt=(0,))], True),
    # u and v are unique up to sign: compare the rebuilt matrix and |u|; s has a gradient
    "svd": Row([Case(_svd_rebuilt, lambda a: a, [rand((4, 3))]),
                Case(_svd_rebuilt, lambda a: a, [rand((2, 2, 3))]),
                Case(_svd_abs_u, _np_abs_u, [rand((3, 3))], wrt=(0,)),
                Case(lambda a: tf.linalg.svd(a)[0], lambda a: np.linalg.svd(a, compute_uv=False),
                     [rand((3, 4))], wrt=(0,))]
               # gradients through u and v: tall, wide, square, batched, full_matrices
               + [Case(lambda a, f=f: _svd_uv_invariant(a, f), lambda a, f=f: _np_svd_uv_invariant(a, f),
                       [rand(shape)], wrt=(0,), tol=1e-5)
                  for shape in ((4, 3), (3, 5), (3, 3), (2, 4, 2)) for f in (False, True)], True),
    "singular_values": Row([Case(lambda a: tf.linalg.svd(a, compute_uv=False),
                                 lambda a: np.linalg.svd(a, compute_uv=False), [rand((4, 3))], wrt=(0,)),
                            Case(lambda a: tf.linalg.svd(a, compute_uv=False),
                                 lambda a: np.linalg.svd(a, compute_uv=False), [rand((2, 3, 3))], wrt=(0,))],
                           True),
    "matrix_inverse": Row([Case(tf.linalg.inv, np.linalg.inv, [well_conditioned((3, 3))], wrt=(0,)),
                           Case(tf.linalg.inv, np.linalg.inv, [well_conditioned((2, 4, 4))], wrt=(0,)),
                           Case(tf.linalg.inv, np.linalg.inv, [well_conditioned((3, 3), F32)], tol=1e-5)], True),
    "matrix_determinant": Row([Case(tf.linalg.det, np.linalg.det, [rand((3, 3))], wrt=(0,)),
                               Case(tf.linalg.det, np.linalg.det, [rand((2, 2, 2))], wrt=(0,))], True),
    "log_matrix_determinant": Row([Case(tf.linalg.slogdet, _np_slogdet, [rand((3, 3))], wrt=(0,)),
                                   Case(lambda a: tf.linalg.slogdet(a)[1], lambda a: np.linalg.slogdet(a)[1],
                                        [rand((2, 3, 3))], wrt=(0,))], True),
    "matrix_solve": Row([Case(tf.linalg.solve, np.linalg.solve, [well_conditioned((3, 3)), rand((3, 2))],
                              wrt=(0, 1)),
                         Case(lambda a, b: tf.linalg.solve(a, b, adjoint=True),
                              lambda a, b: np.linalg.solve(np.swapaxes(a, -1, -2), b),
                              [well_conditioned((2, 3, 3)), rand((2, 3, 1))], wrt=(0, 1))], True),
    "triangular_solve": Row([Case(lambda a, b, lo=lo, adj=adj: tf.linalg.triangular_solve(a, b, lo, adj),
                                  lambda a, b, lo=lo, adj=adj: np.linalg.solve(
                                      np.swapaxes(np.tril(a) if lo else np.triu(a), -1, -2) if adj
                                      else (np.tril(a) if lo else np.triu(a)), b),
                                  [well_conditioned((3, 3)), rand((3, 2))], wrt=(0, 1))
                             for lo in (True, False) for adj in (False, True)], True),
    "cholesky": Row([Case(lambda x: tf.linalg.cholesky(_spd(x)), lambda x: np.linalg.cholesky(_np_spd(x)),
                          [rand((3, 3))], wrt=(0,)),
                     Case(lambda x: tf.linalg.cholesky(_spd(x)), lambda x: np.linalg.cholesky(_np_spd(x)),
                          [rand((2, 4, 4))], wrt=(0,))], True),
}

"""keras.ops linear algebra, segment reductions and erfc / erfinv, as keras.ops-written layers
use them (a whitening layer by cholesky / solve_triangular, a graph-pooling layer by segment_sum)."""
import numpy as np

from parity import tolerance
from _sweep import outcomes

A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], "float32")
B = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]], "float32")


@tolerance(rtol=1e-4, atol=1e-5)
def program_ops_linalg(tf):
    ops = tf.keras.ops
    la = ops.linalg
    u, s, vh = la.svd(B, full_matrices=False)
    lu, piv = la.lu_factor(A)
    w, v = la.eigh(A)
    q, r = la.qr(B)
    qc, rc = ops.qr(B, mode="complete")
    return {"cholesky": la.cholesky(A), "upper": ops.cholesky(A, upper=True),
            "cholesky_inverse": la.cholesky_inverse(la.cholesky(A)), "det": la.det(A), "inv": la.inv(A),
            "lu": lu, "piv": piv, "eigh_w": w, "eigh_v_abs": ops.abs(v), "qr_r_abs": ops.abs(r),
            "qr_q_shape": tuple(q.shape), "qc_shape": (tuple(qc.shape), tuple(rc.shape)),
            "solve_vec": la.solve(A, np.array([1.0, 2.0, 3.0], "float32")), "solve_mat": ops.solve(A, B),
            "tri": la.solve_triangular(np.triu(A), np.array([1.0, 1.0, 1.0], "float32")),
            "tri_lower": ops.solve_triangular(np.tril(A), B, lower=True),
            "svd_s": s, "svd_recon": ops.matmul(u * s, vh), "svd_only_s": ops.svd(B, compute_uv=False),
            "lstsq": la.lstsq(B, np.array([1.0, 0.0, 2.0], "float32")), "lstsq_mat": ops.lstsq(B, A),
            "rank": ops.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0]], "float32")), "pinv": ops.pinv(B),
            "logdet": ops.logdet(A), "slogdet": ops.slogdet(-A), "norm": la.norm(B, axis=0),
            "errors": outcomes({"qr_mode": lambda: ops.qr(B, mode="full"),
                                "lstsq_rows": lambda: ops.lstsq(B, np.ones(2, "float32")),
                                "cholesky_not_pd": lambda: ops.cholesky(-A), "det_1d": lambda: ops.det(B[0]),
                                "inv_square": lambda: ops.inv(B), "lu_square": lambda: ops.lu_factor(B),
                                "solve_rows": lambda: ops.solve(A, B[:2]),
                                "solve_vec": lambda: ops.solve(A, np.ones(2, "float32"))})}


def program_ops_segments_and_erf(tf):
    ops = tf.keras.ops
    data = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], "float32")
    ids = np.array([0, 0, 2, 2])
    return {"sum": ops.segment_sum(data, np.array([0, 1, 1, 0])), "sum_n": ops.segment_sum(data, ids, num_segments=4),
            "sum_sorted": ops.segment_sum(data, ids, sorted=True), "max": ops.segment_max(data, ids),
            "min": ops.segment_min(data, np.array([1, 0, 1, 0]), num_segments=3),
            "prod": ops.segment_prod(data, ids, sorted=True),
            "errors": outcomes({"sorted_n": lambda: ops.segment_sum(data, ids, num_segments=3, sorted=True),
                                "unique_count": lambda: ops.segment_sum(data, ids)}),
            "erfc": ops.erfc(np.array([-1.0, 0.0, 0.5, 2.0], "float32")),
            "erfinv": ops.erfinv(np.array([-0.9, 0.0, 0.3, 0.99], "float32")),
            "erfinv16": ops.erfinv(np.array([0.5], "float16"))}


@tolerance(rtol=1e-4, atol=1e-5)
def program_ops_written_whitening_and_pooling_layers(tf):
    keras = tf.keras
    ops = keras.ops

    class Whiten(keras.layers.Layer):
        def call(self, x):
            c = ops.matmul(ops.transpose(x), x) / ops.cast(ops.shape(x)[0], x.dtype) + ops.eye(3) * 0.1
            return ops.transpose(ops.linalg.solve_triangular(ops.linalg.cholesky(c), ops.transpose(x),
                                                             lower=True))

    class SegmentPool(keras.layers.Layer):
        def call(self, x, ids):
            return ops.segment_sum(x, ids, num_segments=2) / ops.expand_dims(
                ops.segment_sum(ops.ones_like(x[:, 0]), ids, num_segments=2), -1)

    x = np.array([[1.0, 0.5, -1.0], [0.2, 2.0, 0.3], [-0.5, 0.1, 1.5], [1.2, -0.7, 0.4]], "float32")
    white = Whiten()
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = ops.sum(ops.square(white(v)))
    return {"white": white(x), "pooled": SegmentPool()(x, np.array([0, 1, 0, 1])),
            "grad": tape.gradient(y, v)}

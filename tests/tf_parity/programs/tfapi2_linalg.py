"""tf.linalg qr, eigh, eigvalsh, pinv, matrix_rank, normalize (values and gradients), and
tf.dynamic_partition, tf.dynamic_stitch, tf.shape_n.  Q's columns and eigenvectors are
unique up to sign: the programs return products and absolute values."""
from parity import tolerance


def _a(tf):
    return tf.constant([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 1.0], [-1.0, 0.25, 2.0]], tf.float64)


@tolerance(rtol=1e-6, atol=1e-8)
def program_qr(tf):
    a = _a(tf)
    q, r = tf.linalg.qr(a)
    qf, rf = tf.linalg.qr(a, full_matrices=True)
    with tf.GradientTape() as tape:
        tape.watch(a)
        q2, r2 = tf.linalg.qr(a)
        loss = tf.reduce_sum(tf.abs(r2) * tf.constant([1.0, 2.0, 3.0], tf.float64)) + tf.reduce_sum(
            tf.abs(q2)[:, 0] * tf.constant([1.0, -1.0, 2.0, 0.5], tf.float64))
    batch = tf.reshape(tf.range(24, dtype=tf.float64), [2, 4, 3]) ** 1.5
    qb, rb = tf.linalg.qr(batch)
    return {"q_shape": q.shape, "r_shape": r.shape, "qf_shape": qf.shape, "rf_shape": rf.shape,
            "rebuilt": tf.matmul(q, r), "abs_r": tf.abs(r), "upper": tf.linalg.band_part(r, 0, -1) - r,
            "orth": tf.matmul(q, q, transpose_a=True), "full_orth": tf.matmul(qf, qf, transpose_a=True),
            "grad": tape.gradient(loss, a), "batch_rebuilt": tf.matmul(qb, rb)}


@tolerance(rtol=1e-6, atol=1e-8)
def program_eigh(tf):
    a = _a(tf)
    s = tf.matmul(a, a, transpose_a=True) + tf.constant([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0], [1.0, 2.0, 0.0]],
                                                         tf.float64)
    e, v = tf.linalg.eigh(s)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(s)
        e2, v2 = tf.linalg.eigh(s)
        loss_e = tf.reduce_sum(e2 * tf.constant([1.0, 2.0, -1.0], tf.float64))
        loss_v = tf.reduce_sum(tf.abs(v2) * tf.reshape(tf.range(9, dtype=tf.float64), [3, 3]))
        loss_s = tf.reduce_sum(tf.linalg.eigvalsh(s) ** 2)
    f = tf.function(lambda m: tf.linalg.eigvalsh(m))
    return {"e": e, "abs_v": tf.abs(v), "rebuilt": tf.matmul(v * e, v, transpose_b=True),
            "eigvalsh": tf.linalg.eigvalsh(s), "grad_e": tape.gradient(loss_e, s),
            "grad_v": tape.gradient(loss_v, s), "grad_s": tape.gradient(loss_s, s),
            "traced": f(tf.cast(s, tf.float32))}


@tolerance(rtol=1e-5, atol=1e-7)
def program_pinv_rank_normalize(tf):
    a = _a(tf)
    low = tf.constant([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(a)
        loss = tf.reduce_sum(tf.linalg.pinv(a) * tf.reshape(tf.range(12, dtype=tf.float64), [3, 4]))
    n1, norm1 = tf.linalg.normalize(low)
    n2, norm2 = tf.linalg.normalize(low, axis=1)
    n3, norm3 = tf.linalg.normalize(tf.constant([3.0, -4.0]), ord=1)
    return {"pinv": tf.linalg.pinv(a), "pinv_low": tf.linalg.pinv(low), "grad": tape.gradient(loss, a),
            "rank": tf.linalg.matrix_rank(a), "rank_low": tf.linalg.matrix_rank(low),
            "rank_batch": tf.linalg.matrix_rank(tf.stack([tf.eye(3), tf.zeros([3, 3])])),
            "rank_tol": tf.linalg.matrix_rank(tf.constant([[1.0, 0.0], [0.0, 1e-3]]), tol=0.01),
            "n1": n1, "norm1": norm1, "n2": n2, "norm2": norm2, "n3": n3, "norm3": norm3}


def program_dynamic_partition_stitch(tf):
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]])
    parts = tf.dynamic_partition(data, tf.constant([2, 0, 2, 1, 0]), 3)
    idx = tf.dynamic_partition(tf.range(5), tf.constant([2, 0, 2, 1, 0]), 3)
    back = tf.dynamic_stitch(idx, parts)
    grid = tf.dynamic_partition(tf.reshape(tf.range(6), [2, 3]), tf.constant([[0, 1, 0], [1, 1, 0]]), 2)
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        p0, p1 = tf.dynamic_partition(x, tf.constant([1, 0, 1]), 2)
        loss = tf.reduce_sum(p0 * 10.0) + tf.reduce_sum(p1 * tf.constant([1.0, 2.0]))
    stitched = tf.dynamic_stitch([tf.constant([6, 2]), tf.constant([[4, 1], [0, 5]])],
                                 [tf.constant([[1, 1], [2, 2]]), tf.constant([[[3, 3], [4, 4]], [[5, 5], [6, 6]]])])
    return {"parts": parts, "back": back, "grid": grid, "grad": tape.gradient(loss, x),
            "stitched": stitched, "empty_part": tf.dynamic_partition(tf.constant([1, 2]), tf.constant([0, 0]), 2)[1],
            "shape_n": tf.shape_n([data, tf.zeros([2, 0, 4]), tf.constant(1.0)]),
            "shape_n64": tf.shape_n([data], out_type=tf.int64)}


def program_dynamic_partition_out_of_range(tf):
    return {"v": tf.dynamic_partition(tf.constant([1, 2]), tf.constant([0, 2]), 2)}

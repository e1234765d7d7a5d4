"""tf.linalg banded and tridiagonal solves (every diagonals format, batches, gradients) and
tf.sparse ops eagerly and inside tf.function: sparse_dense_matmul, reorder, reduce_sum
(dense and sparse outputs), to_dense, add, slice, and their errors."""
import numpy as np

from _sweep import outcomes
from parity import tolerance


@tolerance(rtol=1e-4, atol=1e-5)
def program_tridiagonal_solve_formats(tf):
    diag = tf.constant([4.0, 5.0, 6.0, 7.0])
    sup = tf.constant([1.0, 2.0, 3.0, 0.0])
    sub = tf.constant([0.0, 1.5, 2.5, 0.5])
    rhs = tf.constant([[1.0], [2.0], [3.0], [4.0]])
    compact = tf.linalg.tridiagonal_solve(tf.stack([sup, diag, sub]), rhs)
    seq = tf.linalg.tridiagonal_solve((sup, diag, sub), rhs, diagonals_format="sequence")
    dense = tf.linalg.diag(diag) + tf.linalg.diag(sup[:-1], k=1) + tf.linalg.diag(sub[1:], k=-1)
    mat = tf.linalg.tridiagonal_solve(dense, rhs, diagonals_format="matrix")
    transposed = tf.linalg.tridiagonal_solve(tf.stack([sup, diag, sub]), rhs, transpose_rhs=False,
                                             conjugate_rhs=False)
    vec = tf.linalg.tridiagonal_solve(tf.stack([sup, diag, sub]), tf.constant([1.0, 2.0, 3.0, 4.0]),
                                      transpose_rhs=True)
    nopivot = tf.linalg.tridiagonal_solve(tf.stack([sup, diag, sub]), rhs, partial_pivoting=False)
    mm = tf.linalg.tridiagonal_matmul(tf.stack([sup, diag, sub]), rhs)
    return {"compact": compact, "seq": seq, "matrix": mat, "transposed": transposed, "vec": vec,
            "nopivot": nopivot, "matmul": mm, "check": tf.matmul(dense, compact)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_tridiagonal_batched_and_gradients(tf):
    diags = tf.Variable(np.array([[[1.0, 2.0, 0.0], [5.0, 6.0, 7.0], [0.0, 1.0, 2.0]],
                                  [[0.5, 0.5, 0.0], [3.0, 3.0, 3.0], [0.0, 0.5, 0.5]]], np.float32))
    rhs = tf.Variable(np.array([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                                [[2.0, 1.0], [1.0, 2.0], [0.0, 3.0]]], np.float32))
    with tf.GradientTape() as tape:
        x = tf.linalg.tridiagonal_solve(diags, rhs)
        loss = tf.reduce_sum(x * tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    gd, gr = tape.gradient(loss, [diags, rhs])
    return {"x": x, "grad_diags": gd, "grad_rhs": gr}


def program_tridiagonal_errors(tf):
    return outcomes({
        "bad_format": lambda: tf.linalg.tridiagonal_solve(tf.ones([3, 3]), tf.ones([3, 1]), diagonals_format="x"),
        "compact_shape": lambda: tf.linalg.tridiagonal_solve(tf.ones([2, 3]), tf.ones([3, 1])),
        "rhs_rows": lambda: tf.linalg.tridiagonal_solve(tf.ones([3, 4]), tf.ones([3, 1])),
    }, keep_values=True)


def program_diag_off_the_main_diagonal(tf):
    d = tf.constant([1.0, 2.0, 3.0])
    return {"k1": tf.linalg.diag(d, k=1), "k_neg": tf.linalg.diag(d, k=-2), "rows": tf.linalg.diag(d, k=1, num_rows=3),
            "cols": tf.linalg.diag(d, k=-1, num_cols=4), "rect": tf.linalg.diag(d, num_rows=4, num_cols=3),
            "pad": tf.linalg.diag(d, k=1, padding_value=-1.0),
            "batch": tf.linalg.diag(tf.constant([[1, 2], [3, 4]]), k=1),
            "graph": tf.function(lambda v: tf.linalg.diag(v, k=-1))(d)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_banded_triangular_solve(tf):
    # lower, bandwidth 1: row 0 is the diagonal, row 1 the sub-diagonal (shifted), TF's layout
    bands = tf.constant([[2.0, 3.0, 4.0, 5.0], [1.0, 1.0, 1.0, 0.0]])
    rhs = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    lower = tf.linalg.banded_triangular_solve(bands, rhs, lower=True)
    upper_bands = tf.constant([[0.0, 1.0, 1.0, 1.0], [2.0, 3.0, 4.0, 5.0]])
    upper = tf.linalg.banded_triangular_solve(upper_bands, rhs, lower=False)
    adj = tf.linalg.banded_triangular_solve(bands, rhs, lower=True, adjoint=True)
    batched = tf.linalg.banded_triangular_solve(tf.stack([bands, bands * 2.0]), tf.stack([rhs, rhs]))
    return {"lower": lower, "upper": upper, "adjoint": adj, "batched": batched}


def program_sparse_ops_in_function(tf):
    st = tf.sparse.SparseTensor(indices=[[1, 2], [0, 1], [1, 0]], values=[3.0, 1.0, 2.0], dense_shape=[2, 3])
    dense = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

    @tf.function
    def run(st, dense):
        ordered = tf.sparse.reorder(st)
        return {"matmul": tf.sparse.sparse_dense_matmul(ordered, dense),
                "matmul_t": tf.sparse.sparse_dense_matmul(ordered, tf.transpose(dense), adjoint_b=True),
                "sum0": tf.sparse.reduce_sum(ordered, axis=0), "sum_kd": tf.sparse.reduce_sum(ordered, 1, keepdims=True),
                "total": tf.sparse.reduce_sum(ordered), "max": tf.sparse.reduce_max(ordered, axis=1),
                "dense": tf.sparse.to_dense(ordered), "indices": ordered.indices, "values": ordered.values}
    out = run(st, dense)
    eager_order = tf.sparse.reorder(st)
    return {**out, "eager_indices": eager_order.indices,
            "sparse_sum": tf.sparse.reduce_sum(st, axis=1, output_is_sparse=True)}


def program_sparse_add_slice_and_retain(tf):
    a = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [3, 3])
    b = tf.sparse.SparseTensor([[0, 0], [2, 1]], [10.0, -2.0], [3, 3])
    summed = tf.sparse.add(a, b)
    with_dense = tf.sparse.add(a, tf.ones([3, 3]))
    sliced = tf.sparse.slice(summed, [0, 0], [2, 3])
    kept = tf.sparse.retain(summed, tf.constant([True, False, True]))
    thresholded = tf.sparse.add(a, tf.sparse.SparseTensor([[0, 0]], [-0.5], [3, 3]), threshold=0.6)
    return {"sum": summed, "with_dense": with_dense, "sliced": sliced, "kept": kept,
            "thresholded": thresholded, "transpose": tf.sparse.transpose(a),
            "reshape": tf.sparse.reshape(a, [9, 1]), "fill": tf.sparse.to_dense(tf.sparse.reset_shape(a, [4, 4]))}


def program_sparse_errors(tf):
    unordered = tf.sparse.SparseTensor([[1, 0], [0, 0]], [1.0, 2.0], [2, 2])
    return outcomes({
        "to_dense_unordered": lambda: tf.sparse.to_dense(unordered).numpy().tolist(),
        "out_of_bounds": lambda: tf.sparse.to_dense(tf.sparse.SparseTensor([[5, 0]], [1.0], [2, 2])),
        "matmul_shape": lambda: tf.sparse.sparse_dense_matmul(unordered, tf.ones([3, 1])),
        "add_shape": lambda: tf.sparse.add(unordered, tf.sparse.SparseTensor([[0, 0]], [1.0], [3, 3])),
        "dtype_mix": lambda: tf.sparse.add(unordered, tf.sparse.SparseTensor([[0, 0]], [1], [2, 2])),
        "bad_rank": lambda: tf.sparse.SparseTensor([[0]], [1.0], [2, 2]),
        "reduce_axis": lambda: tf.sparse.reduce_sum(unordered, axis=3),
    }, keep_values=True)

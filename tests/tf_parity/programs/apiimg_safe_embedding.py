"""tf.nn.safe_embedding_lookup_sparse as TF 2.21 computes it: negative ids and non-positive
weights dropped, empty rows (zeros or default_id), rank-3 ids, combiners, split tables,
gradients, graphs."""
import numpy as np

from parity import tolerance


@tolerance(rtol=1e-5, atol=1e-6)
def program_safe_embedding_lookup_sparse(tf):
    table = tf.constant(np.arange(24, dtype=np.float32).reshape(6, 4) / 7.0)
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0], [3, 1], [3, 2]], [1, -1, 4, 2, 5, 0], [4, 3])
    weights = tf.sparse.SparseTensor(ids.indices, [2.0, 1.0, -1.0, 0.5, 0.0, 1.5], ids.dense_shape)
    ids3 = tf.sparse.SparseTensor([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 1]], [3, 1, 2, 5], [2, 2, 2])
    look = tf.nn.safe_embedding_lookup_sparse
    out = {"mean": look(table, ids), "sum": look(table, ids, combiner="sum"),
           "sqrtn_weighted": look(table, ids, weights, combiner="sqrtn"),
           "mean_weighted": look(table, ids, weights),
           "sum_weighted": look(table, ids, weights, combiner="sum"),
           "default": look(table, ids, default_id=3), "rank3": look(table, ids3),
           "split": look([table[:3], table[3:]], ids, combiner="sum"),
           "max_norm": look(table, ids, max_norm=1.0),
           "graph": tf.function(lambda t: look(t, ids, weights))(table)}
    with tf.GradientTape() as tape:
        tape.watch(table)
        loss = tf.reduce_sum(look(table, ids, weights) ** 2)
    out["grad"] = tf.convert_to_tensor(tape.gradient(loss, table))
    return out

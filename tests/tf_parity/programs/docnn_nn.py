"""tf.nn as its TF 2.21 docstring examples use it: max_pool2d with explicit paddings (and
TF's checks of them), and a representative set of the module's other examples."""
from parity import tolerance
from _sweep import outcomes


def program_max_pool_explicit_padding(tf):
    x = tf.reshape(tf.range(1., 17.), [1, 4, 4, 1])
    pads = [[0, 0], [1, 1], [1, 1], [0, 0]]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x * x, 3, 2, pads)
    out = {"doc": tf.nn.max_pool2d(x, ksize=(2, 2), strides=(2, 2), padding=pads),
           "uneven": tf.nn.max_pool2d(-x, 3, 1, [[0, 0], [2, 0], [0, 1], [0, 0]]),
           "max_pool": tf.nn.max_pool(x, 2, 2, pads), "grad": tape.gradient(y, x),
           "function": tf.function(lambda v: tf.nn.max_pool2d(v, 2, 2, pads))(x),
           "int32": tf.nn.max_pool2d(tf.cast(-x, tf.int32), 2, 1, [[0, 0], [1, 0], [0, 1], [0, 0]])}
    out.update(outcomes({
        "pad_too_big": lambda: tf.nn.max_pool2d(x, 2, 2, [[0, 0], [3, 0], [0, 0], [0, 0]]),
        "batch_pad": lambda: tf.nn.max_pool2d(x, 2, 2, [[1, 0], [1, 1], [1, 1], [0, 0]]),
        "three_pairs": lambda: tf.nn.max_pool2d(x, 2, 2, [[0, 0], [1, 1], [1, 1]]),
        "negative": lambda: tf.nn.max_pool2d(x, 2, 2, [[0, 0], [-1, 1], [1, 1], [0, 0]]),
        "avg_pool": lambda: tf.nn.avg_pool2d(x, 2, 2, pads),
        "explicit_string": lambda: tf.nn.max_pool2d(x, 2, 2, "EXPLICIT")}))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_activations(tf):
    x = tf.constant([-3.0, -1.0, 0.0, 1.0, 3.0, 7.0])
    return {"relu": tf.nn.relu(x), "relu6": tf.nn.relu6(x), "elu": tf.nn.elu(x), "gelu": tf.nn.gelu(x),
            "gelu_approx": tf.nn.gelu(x, approximate=True), "sigmoid": tf.nn.sigmoid(x), "tanh": tf.nn.tanh(x),
            "softplus": tf.math.softplus(tf.range(0, 2, dtype=tf.float32)),
            "softmax": tf.nn.softmax([[-1.0, 0.0, 1.0], [2.0, 2.0, 5.0]]),
            "l2_normalize": tf.nn.l2_normalize(tf.constant([[3.0, 4.0], [0.0, 0.0]]), axis=1)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_losses(tf):
    logits = tf.constant([[4.0, 2.0, 1.0], [0.0, 5.0, 1.0]])
    labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.8, 0.2]])
    lb = tf.constant([1., 1., 1., 0., 0., 0.])
    lg = tf.constant([1., -1., 0., 1., -1., 0.])
    return {"softmax_ce": tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits),
            "sparse_ce": tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=logits),
            "sigmoid_ce": tf.nn.sigmoid_cross_entropy_with_logits(labels=lb, logits=lg),
            "weighted_ce": tf.nn.weighted_cross_entropy_with_logits(labels=lb, logits=lg, pos_weight=2.0)}


def program_selection(tf):
    x = tf.constant([[1., 5., 3.], [7., 2., 2.]])
    top = tf.nn.top_k(x, k=2)
    y, segments = tf.nn.isotonic_regression(tf.constant([[3, 1, 2], [1, 3, 4]], dtype=tf.float32), axis=1)
    return {"top_values": top.values, "top_indices": top.indices,
            "in_top_k": tf.nn.in_top_k(targets=[2, 0], predictions=x, k=1), "isotonic": y, "segments": segments}


def program_sparse_lookup_and_dropout(tf):
    params = tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]], dtype=tf.float32)
    ids = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0]], values=[0, 1, 3, 2], dense_shape=(3, 2))
    weights = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0]], values=[0.1, 1.0, 0.5, 2.0], dense_shape=(3, 2))
    tf.random.set_seed(0)
    half = tf.nn.dropout(tf.ones([3, 5]), rate=0.5, seed=1)
    tf.random.set_seed(0)
    shaped = tf.nn.dropout(tf.ones([3, 10]), rate=2 / 3, noise_shape=[1, 10], seed=1)
    return {"sum": tf.nn.embedding_lookup_sparse(params, ids, sp_weights=None, combiner="sum"),
            "weighted": tf.nn.embedding_lookup_sparse(params, ids, sp_weights=weights, combiner="sum"),
            "mean": tf.nn.embedding_lookup_sparse(params, ids, sp_weights=weights, combiner="mean"),
            "dropout": half, "dropout_noise_shape": shaped}


def program_ctc_greedy(tf):
    inf = float("inf")
    logits = tf.constant([[[0., -inf, -inf], [-2.3, -inf, -0.1]], [[-inf, -0.5, -inf], [-inf, -inf, -0.1]],
                          [[-inf, -inf, -inf], [-0.1, -inf, -2.3]]])
    decoded, neg_sum = tf.nn.ctc_greedy_decoder(logits, tf.constant([2, 3]), blank_index=1)
    return {"indices": decoded[0].indices, "values": decoded[0].values, "shape": decoded[0].dense_shape,
            "neg_sum_logits": neg_sum}

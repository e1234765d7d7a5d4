"""Gradients at the edges, eagerly and in tf.function: ties in max/min and reductions, zeros in
products and cumprod (TF's div_no_nan rule), sort and top_k (dense gradients), abs/relu/sign at
0, sqrt and pow at 0, norms of zeros, clip bounds, where around NaN."""
import numpy as np

_X = [0.0, -1.0, 2.0, 2.0, 0.5]
_Y = [0.0, 1.0, 2.0, 3.0, 0.5]


def _grads(tf, f, *args):
    def run(*a):
        with tf.GradientTape() as t:
            for v in a:
                t.watch(v)
            out = f(*a)
        return t.gradient(out, list(a))
    eager = run(*args)
    graph = tf.function(run)(*args)
    return {"eager": eager, "graph": graph}


def program_gradient_edges(tf):
    x, y = tf.constant(_X), tf.constant(_Y)
    w = tf.constant([1.0, 2, 3, 4, 5])
    cases = {
        "abs": (lambda a: tf.reduce_sum(tf.abs(a)), x), "relu": (lambda a: tf.reduce_sum(tf.nn.relu(a)), x),
        "max_tie": (lambda a, b: tf.reduce_sum(tf.maximum(a, b)), x, y),
        "min_tie": (lambda a, b: tf.reduce_sum(tf.minimum(a, b)), x, y),
        "reduce_max_tie": (lambda a: tf.reduce_max(a), x), "sqrt0": (lambda a: tf.reduce_sum(tf.sqrt(a)), y),
        "pow0": (lambda a, b: tf.reduce_sum(tf.pow(a, b)), y, x), "norm0": (lambda a: tf.norm(a * 0.0), x),
        "prod_zero": (lambda a: tf.reduce_prod(a), y), "cumprod_zero": (lambda a: tf.reduce_sum(tf.math.cumprod(a)), y),
        "clip_edge": (lambda a: tf.reduce_sum(tf.clip_by_value(a, 0.0, 2.0)), x),
        "where_nan": (lambda a: tf.reduce_sum(tf.where(a > 0, tf.math.log(a), tf.zeros_like(a))), x),
        "sort": (lambda a: tf.reduce_sum(tf.sort(a) * w), x),
        "sort_desc": (lambda a: tf.reduce_sum(tf.sort(a, direction="DESCENDING") * w), x),
        "topk_tie": (lambda a: tf.reduce_sum(tf.math.top_k(a, 2).values), x),
        "topk_2d": (lambda a: tf.reduce_sum(tf.math.top_k(tf.reshape(a[:4], [2, 2]), 1).values), x),
        "seg_max_tie": (lambda a: tf.reduce_sum(tf.math.segment_max(a, [0, 0, 1, 1, 1])), x),
        "maxpool_tie": (lambda a: tf.reduce_sum(tf.nn.max_pool1d(tf.reshape(a[:4], [1, 4, 1]), 2, 2, "VALID")), x),
        "sign": (lambda a: tf.reduce_sum(tf.sign(a)), x),
    }
    out = {k: _grads(tf, *v) for k, v in cases.items()}
    out["sort_type"] = type(out["sort"]["eager"][0]).__name__ in ("EagerTensor", "Tensor")
    return out

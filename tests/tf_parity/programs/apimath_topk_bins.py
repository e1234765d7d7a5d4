"""tf.math.approx_max_k / approx_min_k (exact on CPU) and tf.histogram_fixed_width_bins."""
import numpy as np
from parity import differs

_X = [[1.0, 5.0, 3.0, 2.0, 5.0], [4.0, 4.0, 1.0, 0.0, -2.0]]


def program_approx_max_k(tf):
    x = tf.constant(_X)
    v, i = tf.math.approx_max_k(x, 3)
    nn = tf.nn.approx_max_k(tf.constant(_X, tf.float16), 2, recall_target=0.5, aggregate_to_topk=False)
    return {"values": v, "indices": i, "nn": list(nn), "vector": list(tf.math.approx_max_k(x[0], 1))}


def program_approx_max_k_gradient(tf):
    x = tf.Variable(_X)
    with tf.GradientTape() as g:
        v, _ = tf.math.approx_max_k(x, 2)
        y = tf.reduce_sum(v * [[1.0, 2.0], [3.0, 4.0]])
    return {"grad": g.gradient(y, x)}


def program_approx_max_k_in_function(tf):
    f = tf.function(lambda x: tf.math.approx_max_k(x, 2))
    return {"out": list(f(tf.constant(_X))), "traces": f.experimental_get_tracing_count()}


def program_approx_max_k_int_raises(tf):
    return tf.math.approx_max_k(tf.constant([[1, 5, 3]]), 2)


def program_approx_max_k_k_too_large_raises(tf):
    return tf.math.approx_max_k(tf.constant([1.0, 2.0]), 3)


def program_approx_max_k_axis0_raises(tf):
    return tf.math.approx_max_k(tf.constant(_X), 1, reduction_dimension=0)


@differs("TF's CPU has no approx_min_k kernel (NotFoundError); tapeflow's is exact min-k",
         {"values": np.array([[1.0, 2.0], [-2.0, 0.0]], np.float32),
          "indices": np.array([[0, 3], [4, 3]], np.int32)})
def program_approx_min_k(tf):
    v, i = tf.math.approx_min_k(tf.constant(_X), 2)
    return {"values": v.numpy(), "indices": i.numpy()}


def program_histogram_bins(tf):
    v = tf.constant([[-1.0, 0.0, 1.5], [2.0, 5.0, 15.0]])
    return {"bins": tf.histogram_fixed_width_bins(v, [0.0, 5.0], nbins=5),
            "f64": tf.histogram_fixed_width_bins(tf.constant([0.1, 0.7, 0.99], tf.float64),
                                                 tf.constant([0.0, 1.0], tf.float64), nbins=3),
            "default_nbins": tf.histogram_fixed_width_bins(tf.constant([0.3, 7.77]), [0.0, 10.0]),
            "graph": tf.function(lambda x: tf.histogram_fixed_width_bins(x, [0.0, 5.0], nbins=4))(v)}


def program_histogram_bins_int_raises(tf):
    return tf.histogram_fixed_width_bins(tf.constant([1, 7]), [0, 10], nbins=3)


def program_histogram_bins_nbins_raises(tf):
    return tf.histogram_fixed_width_bins(tf.constant([1.0]), [0.0, 10.0], nbins=0)

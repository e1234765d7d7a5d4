"""tf.math.igamma / igammac differentiated with respect to `a` (TF implements it), and
tf.nn.ctc_loss with SparseTensor labels (issue #11): TF's values, dtypes and errors."""
import numpy as np

from parity import tolerance


def _grads(tf, fn, a, x, dtype):
    a, x = tf.constant(a, dtype), tf.constant(x, dtype)
    with tf.GradientTape() as t:
        t.watch([a, x])
        y = fn(a, x)
    da, dx = t.gradient(y, [a, x])
    return {"y": y, "da": da, "dx": dx}


_A = [0.5, 1.0, 3.0, 10.0, 2.0, 50.0, 7.0, 0.25]
_X = [0.2, 1.5, 5.0, 9.0, 30.0, 60.0, 20.0, 0.01]


@tolerance(rtol=1e-6, atol=1e-12)
def program_igamma_gradient_wrt_a_float64(tf):
    return {"igamma": _grads(tf, tf.math.igamma, _A, _X, tf.float64),
            "igammac": _grads(tf, tf.math.igammac, _A, _X, tf.float64)}


@tolerance(rtol=2e-5, atol=1e-7)
def program_igamma_gradient_wrt_a_float32(tf):
    return {"igamma": _grads(tf, tf.math.igamma, [0.5, 2.0, 4.0], [0.3, 1.5, 6.0], tf.float32)}


@tolerance(rtol=1e-6, atol=1e-12)
def program_igamma_gradient_in_function(tf):
    @tf.function
    def f(a, x):
        with tf.GradientTape() as t:
            t.watch(a)
            y = tf.reduce_sum(tf.math.igamma(a, x) * tf.constant([1.0, 2.0, -1.0], tf.float64))
        return t.gradient(y, a)

    return {"da": f(tf.constant([1.5, 3.0, 8.0], tf.float64), tf.constant([2.0, 1.0, 8.5], tf.float64))}


def _ctc_inputs(tf):
    logits = tf.constant(np.random.default_rng(0).normal(size=(6, 2, 5)).astype(np.float32))
    dense = tf.sparse.from_dense(tf.constant([[1, 2, 2], [3, 1, 0]], tf.int32))
    return logits, tf.SparseTensor(dense.indices, dense.values, dense.dense_shape)


@tolerance(rtol=1e-5, atol=1e-5)
def program_ctc_loss_sparse_labels(tf):
    logits, labels = _ctc_inputs(tf)
    lengths = tf.constant([6, 5])
    with tf.GradientTape() as t:
        t.watch(logits)
        loss = tf.nn.ctc_loss(labels, logits, None, lengths, logits_time_major=True, blank_index=0)
    f = tf.function(lambda lg: tf.nn.ctc_loss(labels, lg, None, lengths, blank_index=0))
    return {"loss": loss, "grad": t.gradient(tf.reduce_sum(loss), logits),
            "blank_last": tf.nn.ctc_loss(labels, logits, None, lengths, blank_index=-1),
            "batch_major": tf.nn.ctc_loss(labels, tf.transpose(logits, [1, 0, 2]), None, lengths,
                                          logits_time_major=False, blank_index=0),
            "in_function": f(logits),
            "dense": tf.nn.ctc_loss(tf.constant([[1, 2, 2], [3, 1, 0]]), logits, tf.constant([3, 2]), lengths,
                                    blank_index=0)}


def program_ctc_loss_sparse_int64_labels(tf):
    logits, labels = _ctc_inputs(tf)
    labels = tf.SparseTensor(labels.indices, tf.cast(labels.values, tf.int64), labels.dense_shape)
    return {"loss": tf.nn.ctc_loss(labels, logits, None, tf.constant([6, 5]), blank_index=0)}

"""tf.nn.ctc_loss with dense labels (issue #11): losses and gradients recorded from TF."""
import numpy as np

from parity import tolerance


def _inputs(tf, time_major=True):
    rng = np.random.RandomState(3)
    logits = rng.normal(size=(6, 3, 5)).astype(np.float32)  # frames, batch, classes
    labels = np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], np.int32)
    x = tf.constant(logits if time_major else logits.transpose(1, 0, 2))
    return x, tf.constant(labels), tf.constant([3, 2, 1]), tf.constant([6, 5, 4])


@tolerance(rtol=1e-5, atol=1e-5)
def program_ctc_loss_dense(tf):
    x, labels, label_length, logit_length = _inputs(tf)
    with tf.GradientTape() as t:
        t.watch(x)
        loss = tf.nn.ctc_loss(labels, x, label_length, logit_length)
        total = tf.reduce_sum(loss)
    return {"loss": loss, "grad": t.gradient(total, x)}


@tolerance(rtol=1e-5, atol=1e-5)
def program_ctc_loss_batch_major_and_blank(tf):
    x, labels, label_length, logit_length = _inputs(tf, time_major=False)
    with tf.GradientTape() as t:
        t.watch(x)
        loss = tf.nn.ctc_loss(labels, x, label_length, logit_length, logits_time_major=False, blank_index=-1)
        mean = tf.reduce_mean(loss)
        other = tf.nn.ctc_loss(labels, x, label_length, logit_length, logits_time_major=False, blank_index=2)
    return {"loss": loss, "grad": t.gradient(mean, x), "blank2": other}


@tolerance(rtol=1e-5, atol=1e-5)
def program_ctc_loss_in_function_and_empty_label(tf):
    x, labels, _, logit_length = _inputs(tf)
    f = tf.function(lambda x: tf.nn.ctc_loss(labels, x, tf.constant([0, 2, 1]), logit_length))
    return {"loss": f(x)}

"""tf.nn.nce_loss / tf.nn.sampled_softmax_loss: values for given sampled_values (with and
without accidental-hit removal, num_true > 1, sharded weights), gradients, the default
log-uniform sample under a seed, and tf.function."""
import numpy as np

_W = np.arange(40, dtype=np.float32).reshape(10, 4) / 17.0 - 1.0
_B = np.linspace(-0.5, 0.5, 10).astype(np.float32)
_X = np.array([[0.3, -1.2, 0.5, 2.0], [1.0, 0.1, -0.4, 0.0], [-0.7, 0.8, 0.9, -1.1]], np.float32)


def _sampled(tf):
    return (tf.constant([1, 4, 6, 9], tf.int64), tf.constant([[0.4], [0.3], [0.2]]),
            tf.constant([0.5, 0.25, 0.2, 0.1]))


def program_nce_given_sample(tf):
    labels = tf.constant([[4], [2], [9]], tf.int64)
    args = dict(weights=tf.constant(_W), biases=tf.constant(_B), labels=labels, inputs=tf.constant(_X),
                num_sampled=4, num_classes=10, sampled_values=_sampled(tf))
    return {"plain": tf.nn.nce_loss(**args), "no_hits": tf.nn.nce_loss(remove_accidental_hits=True, **args)}


def program_sampled_softmax_given_sample(tf):
    labels = tf.constant([[4], [2], [9]], tf.int32)
    args = dict(weights=tf.constant(_W), biases=tf.constant(_B), labels=labels, inputs=tf.constant(_X),
                num_sampled=4, num_classes=10, sampled_values=_sampled(tf))
    return {"hits_removed": tf.nn.sampled_softmax_loss(**args),
            "hits_kept": tf.nn.sampled_softmax_loss(remove_accidental_hits=False, **args)}


def program_num_true_two_sharded(tf):
    labels = tf.constant([[4, 1], [2, 3], [9, 6]], tf.int64)
    sampled = (tf.constant([1, 5, 6], tf.int64), tf.constant([[0.4, 0.1], [0.3, 0.2], [0.2, 0.6]]),
               tf.constant([0.5, 0.25, 0.2]))
    shards = [tf.constant(_W[:4]), tf.constant(_W[4:7]), tf.constant(_W[7:])]   # div: 4, 3, 3 rows
    args = dict(biases=tf.constant(_B), labels=labels, inputs=tf.constant(_X), num_sampled=3, num_classes=10,
                num_true=2, sampled_values=sampled)
    try:
        tf.nn.nce_loss(weights=[tf.constant(_W[:6]), tf.constant(_W[6:])], **args)
        uneven = "ok"
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        uneven = type(exc).__name__
    return {"nce": tf.nn.nce_loss(weights=shards, remove_accidental_hits=True, **args),
            "softmax": tf.nn.sampled_softmax_loss(weights=shards, **args), "uneven_shards": uneven}


def program_sampled_losses_gradients(tf):
    w, b, x = tf.Variable(_W), tf.Variable(_B), tf.Variable(_X)
    labels = tf.constant([[4], [2], [9]], tf.int64)
    with tf.GradientTape(persistent=True) as tape:
        nce = tf.reduce_sum(tf.nn.nce_loss(w, b, labels, x, 4, 10, sampled_values=_sampled(tf),
                                           remove_accidental_hits=True))
        soft = tf.reduce_sum(tf.nn.sampled_softmax_loss(w, b, labels, x, 4, 10, sampled_values=_sampled(tf)))
    return {"nce": tape.gradient(nce, [w, b, x]), "softmax": tape.gradient(soft, [w, b, x])}


def program_sampled_softmax_default_sampler(tf):
    labels = tf.constant([[4], [2], [9]], tf.int64)
    loss = tf.nn.sampled_softmax_loss(tf.constant(_W), tf.constant(_B), labels, tf.constant(_X), 5, 10, seed=3)

    @tf.function
    def traced(x):
        return tf.nn.nce_loss(tf.constant(_W), tf.constant(_B), labels, x, 4, 10, sampled_values=_sampled(tf))
    return {"loss": loss, "traced": traced(tf.constant(_X)), "dtype": loss.dtype, "shape": loss.shape}


def program_sharded_in_function(tf):
    labels = tf.constant([[4], [2], [9]], tf.int64)

    @tf.function
    def loss(x):
        return tf.nn.sampled_softmax_loss([tf.constant(_W[:5]), tf.constant(_W[5:])], tf.constant(_B), labels, x,
                                          4, 10, sampled_values=_sampled(tf))
    return {"loss": loss(tf.constant(_X))}

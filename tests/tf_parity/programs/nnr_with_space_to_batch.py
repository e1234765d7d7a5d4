"""tf.nn.with_space_to_batch: dilated convolution and pooling through space-to-batch (SAME and
VALID, odd sizes, rate 1 shortcut, 1-D and 2-D, other spatial dims), gradients, errors."""
import numpy as np
from parity import tolerance


def _rand(seed, *shape):
    return np.random.default_rng(seed).normal(size=shape).astype(np.float32)


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


@tolerance(rtol=1e-4, atol=1e-5)
def program_with_space_to_batch(tf):
    x, w = tf.constant(_rand(0, 2, 9, 7, 3)), tf.constant(_rand(1, 3, 2, 3, 4))

    def conv(v, n, padding):
        return tf.nn.convolution(v, w, padding=padding)

    def pool(v, n, padding):
        return tf.nn.max_pool2d(v, 2, 1, padding)
    out = {"same": tf.nn.with_space_to_batch(x, [2, 3], "SAME", conv, filter_shape=[3, 2]),
           "valid": tf.nn.with_space_to_batch(x, [2, 2], "VALID", conv),
           "rate_one": tf.nn.with_space_to_batch(x, [1, 1], "SAME", conv, filter_shape=[3, 2]),
           "pool": tf.nn.with_space_to_batch(x, [3, 2], "VALID", pool),
           "conv1d": tf.nn.with_space_to_batch(tf.constant(_rand(2, 2, 11, 3)), [3], "SAME",
                                               lambda v, n, p: tf.nn.conv1d(v, tf.constant(_rand(3, 3, 3, 2)), 1, p),
                                               filter_shape=[3]),
           "no_filter_shape": _outcome(lambda: tf.nn.with_space_to_batch(x, [2, 2], "SAME", conv))}
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.with_space_to_batch(x, [2, 3], "SAME", conv, filter_shape=[3, 2]) ** 2)
    out["grad"] = tape.gradient(loss, x)
    return out

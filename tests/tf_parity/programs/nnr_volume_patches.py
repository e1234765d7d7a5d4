"""tf.extract_volume_patches: SAME/VALID padding, strides, odd sizes, integer dtypes, gradients,
tf.function, errors."""
import numpy as np


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


def program_volume_patches(tf):
    x = tf.constant(np.arange(2 * 4 * 5 * 3 * 2, dtype=np.float32).reshape(2, 4, 5, 3, 2))
    out = {}
    for k, s, p in [([1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"), ([1, 2, 3, 2, 1], [1, 2, 2, 1, 1], "SAME"),
                    ([1, 3, 1, 2, 1], [1, 3, 2, 2, 1], "SAME"), ([1, 1, 1, 1, 1], [1, 2, 2, 2, 1], "VALID")]:
        out[f"{k}{s}{p}"] = tf.extract_volume_patches(x, k, s, p)
    out["int32"] = tf.extract_volume_patches(tf.cast(x, tf.int32), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "SAME")
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.extract_volume_patches(x, [1, 2, 3, 2, 1], [1, 2, 2, 1, 1], "SAME")
        loss = tf.reduce_sum(y * tf.cast(tf.reshape(tf.range(tf.size(y)) % 7, tf.shape(y)), y.dtype))
    out["grad"] = tape.gradient(loss, x)
    out["traced"] = tf.function(lambda v: tf.extract_volume_patches(v, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "VALID"))(x)
    out["batch_ksize"] = _outcome(lambda: tf.extract_volume_patches(x, [2, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID"))
    return out

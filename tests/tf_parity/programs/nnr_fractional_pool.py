"""tf.nn.fractional_max_pool / fractional_avg_pool with a seed: TensorFlow's region sequences
(random and pseudo-random, overlapping or not, ratios from 1.2 to 2.7, a divisible size), the
pooled values, gradients and errors."""
import numpy as np
from parity import tolerance


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


_X = np.random.default_rng(0).normal(size=(2, 11, 9, 3)).astype(np.float32)


@tolerance(rtol=1e-5, atol=1e-6)
def program_fractional_pools(tf):
    x = tf.constant(_X)
    out = {}
    for ratio, pseudo, overlap, seed in [(1.5, False, False, 3), (1.44, True, False, 7), ([1.0, 2.0, 1.3, 1.0], False, True, 11),
                                         (2.7, True, True, 5), ([1.0, 1.2, 1.5, 1.0], True, False, 123)]:
        out[f"max{ratio}{pseudo}{overlap}{seed}"] = tf.nn.fractional_max_pool(x, ratio, pseudo, overlap, seed=seed)
        listed = ratio if isinstance(ratio, list) else [1.0, ratio, ratio, 1.0]
        out[f"avg{ratio}{pseudo}{overlap}{seed}"] = tf.nn.fractional_avg_pool(x, listed, pseudo, overlap, seed=seed)
    out["divisible"] = tf.nn.fractional_max_pool(tf.constant(_X[:, :10, :8]), 2.0, seed=9)
    out["avg_scalar_ratio"] = _outcome(lambda: tf.nn.fractional_avg_pool(x, 1.5, seed=1))
    out["bad_ratio"] = _outcome(lambda: tf.nn.fractional_max_pool(x, [2.0, 1.5, 1.5, 1.0], seed=1))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_fractional_pool_gradients(tf):
    x = tf.constant(_X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        mx = tf.reduce_sum(tf.nn.fractional_max_pool(x, 1.6, False, True, seed=2)[0] ** 2)
        av = tf.reduce_sum(tf.nn.fractional_avg_pool(x, [1.0, 1.6, 1.6, 1.0], True, False, seed=2)[0] ** 2)
    return {"max": tape.gradient(mx, x), "avg": tape.gradient(av, x)}

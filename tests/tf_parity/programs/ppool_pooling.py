"""max_pool2d / avg_pool2d forward and gradients over the geometries the direct kernels
special-case: odd sizes, SAME with uneven pads, strides past the window, batch 1,
channels 1, float64, ties (integer-valued images: the gradient goes to each window's
first maximum, and a pixel that is the maximum of several windows sums them), and the
second-order routes (the gradient's own gradient); eager and under tf.function."""
import numpy as np
from parity import tolerance

# (input shape, ksize, strides, padding)
GEOMETRIES = {
    "odd_same_3_2": ((2, 7, 5, 3), 3, 2, "SAME"),
    "uneven_pads_4_1": ((1, 6, 7, 2), 4, 1, "SAME"),  # 3 pad rows: 1 before, 2 after
    "strides_past_window": ((2, 9, 8, 2), 2, 3, "SAME"),
    "valid_rect": ((1, 8, 9, 4), (3, 2), (2, 1), "VALID"),
    "channels_1": ((3, 5, 6, 1), 3, 1, "SAME"),
    "batch_1_wide": ((1, 3, 5, 66), (2, 3), (1, 2), "SAME"),  # channels past one block of the kernels
}


def _x(shape, dtype, ties, seed):
    x = np.random.default_rng(seed).normal(size=shape)
    return np.round(x * 1.5) if ties else x.astype(dtype)


def _pools(tf, dtype, ties=False):
    out = {}
    for i, (name, (shape, k, s, p)) in enumerate(GEOMETRIES.items()):
        x = tf.constant(_x(shape, dtype, ties, i).astype(dtype))
        for op in ("max_pool2d", "avg_pool2d"):
            pool = getattr(tf.nn, op)
            y = pool(x, k, s, p)
            g = tf.constant(np.random.default_rng(10 + i).normal(size=y.shape).astype(dtype))
            with tf.GradientTape() as outer:
                outer.watch(g)
                with tf.GradientTape() as tape:
                    tape.watch(x)
                    y = pool(x, k, s, p)
                dx = tape.gradient(y, x, output_gradients=g)
                weights = tf.reshape(tf.cos(tf.cast(tf.range(tf.size(dx)), dtype) * 0.37), dx.shape)
                second = tf.reduce_sum(dx * weights)
            out[f"{op}_{name}"] = {"y": y, "dx": dx, "ddg": outer.gradient(second, g)}
    return out


def program_pools_float32(tf):
    return _pools(tf, np.float32)


def program_pools_float32_in_function(tf):
    return tf.function(lambda: _pools(tf, np.float32))()


def program_pools_float64(tf):
    return _pools(tf, np.float64)


def program_pools_ties(tf):
    return _pools(tf, np.float32, ties=True)


def program_pools_ties_in_function(tf):
    return tf.function(lambda: _pools(tf, np.float32, ties=True))()


@tolerance(rtol=1e-5, atol=1e-5)
def program_pool_training_step(tf):
    """The benchmark's pool step (max 3x3/2 SAME, then average 2x2/2) on a small image."""
    x = tf.constant(np.random.default_rng(5).normal(size=(2, 9, 7, 5)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.avg_pool2d(tf.nn.max_pool2d(x, 3, 2, "SAME"), 2, 2, "VALID") ** 2)
    return {"loss": loss, "dx": tape.gradient(loss, x)}

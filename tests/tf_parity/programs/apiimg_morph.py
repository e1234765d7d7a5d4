"""tf.nn.dilation2d / erosion2d (SAME/VALID, strides, dilations, ties, gradients in input and
filters, graphs, errors) and batch_norm_with_global_normalization as TF 2.21 computes them."""
import numpy as np

from parity import tolerance


def _catch(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        return type(e).__name__


@tolerance(rtol=1e-5, atol=1e-5)
def program_morphology(tf):
    rng = np.random.RandomState(7)
    x = tf.constant(rng.randint(0, 4, (2, 6, 7, 2)).astype(np.float32))
    f = tf.constant(rng.randint(0, 2, (2, 3, 2)).astype(np.float32))
    out = {}
    for name, (strides, padding, rates) in {"same": ([1, 1, 1, 1], "SAME", [1, 1, 1, 1]),
                                            "valid": ([1, 2, 1, 1], "VALID", [1, 1, 1, 1]),
                                            "dilated": ([1, 1, 2, 1], "SAME", [1, 2, 2, 1])}.items():
        out["dilation_" + name] = tf.nn.dilation2d(x, f, strides, padding, "NHWC", rates)
        out["erosion_" + name] = tf.nn.erosion2d(x, f, strides, padding, "NHWC", rates)
    smooth = tf.constant(rng.normal(size=(1, 5, 5, 2)).astype(np.float32))
    g = tf.constant(rng.normal(size=(3, 2, 2)).astype(np.float32))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([smooth, g])
        d = tf.nn.dilation2d(smooth, g, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])
        e = tf.nn.erosion2d(smooth, g, [1, 2, 2, 1], "VALID", "NHWC", [1, 1, 1, 1])
        loss_d, loss_e = tf.reduce_sum(d * d), tf.reduce_sum(e * e)
    out["grad_dilation"] = tape.gradient(loss_d, [smooth, g])
    out["grad_erosion"] = tape.gradient(loss_e, [smooth, g])
    out["tie_grad"] = tape.gradient(loss_d, smooth) is not None
    out["graph"] = tf.function(lambda v: tf.nn.dilation2d(v, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]))(x)
    out["bad_depth"] = _catch(lambda: tf.nn.dilation2d(x, f[..., :1], [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]))
    out["bad_strides"] = _catch(lambda: tf.nn.dilation2d(x, f, [2, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_batch_norm_global(tf):
    rng = np.random.RandomState(8)
    x = tf.constant(rng.normal(size=(2, 3, 4)).astype(np.float32))
    m, v, b, g = (tf.constant(rng.uniform(0.5, 1.5, 4).astype(np.float32)) for _ in range(4))
    bn = tf.nn.batch_norm_with_global_normalization
    return {"scaled": bn(x, m, v, b, g, 0.001, True), "unscaled": bn(x, m, v, b, g, 0.01, False)}

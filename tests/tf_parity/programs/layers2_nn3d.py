"""tf.nn volumetric ops, conv1d_transpose, tf.nn.convolution and tf.nn.pool:
values, gradients, and the same under tf.function."""
import numpy as np

from parity import tolerance


def _data(tf, shape, seed):
    return tf.constant(np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32))


def _with_grads(tf, out, name, fn, a, b, suffixes):
    """out[name] = fn(a, b), and the gradients of sum(fn(a, b) ** 2) at out[name + suffix]."""
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = fn(a, b)
        loss = tf.reduce_sum(y * y)
    out[name] = y
    out[name + suffixes[0]], out[name + suffixes[1]] = tape.gradient(loss, [a, b])


@tolerance(rtol=1e-4, atol=1e-5)
def program_conv3d(tf):
    x, w = _data(tf, [2, 5, 6, 7, 3], 0), _data(tf, [2, 3, 2, 3, 4], 1)
    out = {}
    for name, strides, padding, dil in [("same1", [1, 1, 1, 1, 1], "SAME", None),
                                        ("valid2", [1, 2, 1, 2, 1], "VALID", None),
                                        ("same2", [1, 2, 2, 2, 1], "SAME", None)]:
        _with_grads(tf, out, name, lambda a, b: tf.nn.conv3d(a, b, strides, padding, dilations=dil), x, w,
                    ("_dx", "_dw"))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_pool3d(tf):
    x = _data(tf, [2, 5, 6, 7, 3], 2)
    out = {}
    for name, k, s, p in [("a", 2, 2, "SAME"), ("b", [3, 2, 2], [1, 2, 1], "VALID"),
                          ("c", [1, 3, 3, 2, 1], [1, 2, 2, 2, 1], "SAME")]:
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            mx = tf.nn.max_pool3d(x, k, s, p)
            av = tf.nn.avg_pool3d(x, k, s, p)
            loss = tf.reduce_sum(mx * mx) + tf.reduce_sum(av * av * av)
        out["max_" + name], out["avg_" + name] = mx, av
        out["dx_" + name] = tape.gradient(loss, x)
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_conv3d_transpose(tf):
    y, w = _data(tf, [2, 3, 3, 4, 3], 3), _data(tf, [2, 3, 3, 4, 3], 4)
    out = {}
    for name, shape, s, p in [("same2", [2, 6, 6, 8, 4], [1, 2, 2, 2, 1], "SAME"),
                              ("valid2", [2, 7, 7, 9, 4], [1, 2, 2, 2, 1], "VALID"),
                              ("same1", [2, 3, 3, 4, 4], [1, 1, 1, 1, 1], "SAME")]:
        _with_grads(tf, out, name, lambda a, b: tf.nn.conv3d_transpose(a, b, shape, s, p), y, w, ("_dy", "_dw"))
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_conv1d_transpose(tf):
    y, w = _data(tf, [2, 5, 3], 5), _data(tf, [3, 4, 3], 6)
    out = {}
    for name, shape, s, p in [("same2", [2, 10, 4], 2, "SAME"), ("valid3", [2, 15, 4], 3, "VALID"),
                              ("valid1", [2, 7, 4], 1, "VALID")]:
        with tf.GradientTape() as tape:
            tape.watch([y, w])
            z = tf.nn.conv1d_transpose(y, w, shape, s, p)
            loss = tf.reduce_sum(z * z)
        out[name] = z
        out[name + "_grads"] = tape.gradient(loss, [y, w])
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_convolution_pool(tf):
    out = {}
    for rank, seed in [(3, 7), (4, 8), (5, 9)]:
        x = _data(tf, [2] + [6] * (rank - 2) + [3], seed)
        w = _data(tf, [2] * (rank - 2) + [3, 4], seed + 10)
        out[f"conv{rank}"] = tf.nn.convolution(x, w, strides=2, padding="SAME")
        if rank < 5:  # TensorFlow's CPU Conv3D refuses dilations
            out[f"conv{rank}_dil"] = tf.nn.convolution(x, w, padding="VALID", dilations=2)
        out[f"max{rank}"] = tf.nn.pool(x, [2] * (rank - 2), "MAX", strides=[2] * (rank - 2), padding="SAME")
        out[f"avg{rank}"] = tf.nn.pool(x, [3] * (rank - 2), "AVG", padding="SAME")
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_nn3d_in_function(tf):
    x, w = _data(tf, [1, 4, 4, 4, 2], 11), _data(tf, [2, 2, 2, 2, 3], 12)
    traces = []

    @tf.function
    def f(x, w):
        traces.append(1)
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "SAME")
            p = tf.nn.max_pool3d(y, 2, 2, "VALID") + tf.nn.avg_pool3d(y, 2, 2, "VALID")
            z = tf.nn.conv3d_transpose(p, w, [1, 4, 4, 4, 2], [1, 2, 2, 2, 1], "SAME")
            loss = tf.reduce_sum(z * z)
        return z, tape.gradient(loss, w)

    a = f(x, w)
    b = f(x + 1.0, w)
    return {"z": a[0], "dw": a[1], "z2": b[0], "traces": len(traces)}


def program_nn3d_errors(tf):
    x = tf.zeros([1, 4, 4, 4, 2])
    out = {}
    for name, fn in [("bad_filter", lambda: tf.nn.conv3d(x, tf.zeros([2, 2, 2, 3, 1]), [1, 1, 1, 1, 1], "SAME")),
                     ("bad_rank", lambda: tf.nn.max_pool3d(tf.zeros([1, 4, 4, 2]), 2, 2, "SAME")),
                     ("bad_pool_type", lambda: tf.nn.pool(x, [2, 2, 2], "MIN"))]:
        try:
            out[name] = fn()
        except Exception as e:  # noqa: BLE001
            out[name] = type(e).__name__
    return out

"""tf.conv (the raw N-D Conv: 2-3 spatial axes, batch_dims, explicit padding, dilations),
tf.conv2d_backprop_input_v2 / filter_v2 (no kernel in TF 2.21), tf.nn.depthwise_conv2d_backprop_input /
filter, and tf.nn.experimental.general_dropout."""
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
def program_conv_raw(tf):
    x2, w2 = tf.constant(_rand(0, 2, 6, 7, 3)), tf.constant(_rand(1, 3, 2, 3, 4))
    return {"same": tf.conv(x2, w2, [1, 1, 1, 1], "SAME"),
            "strided_dilated": tf.conv(x2, w2, [1, 2, 1, 1], "VALID", dilations=[1, 1, 2, 1]),
            "explicit": tf.conv(x2, w2, [1, 1, 2, 1], "EXPLICIT", explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0]),
            "batch_dims": tf.conv(tf.reshape(x2, [2, 1, 6, 7, 3]), w2, [1, 1, 1, 1], "SAME", batch_dims=2),
            "conv1d": _outcome(lambda: tf.conv(tf.constant(_rand(2, 2, 9, 3)), tf.constant(_rand(3, 4, 3, 2)),
                                               [1, 2, 1], "SAME")),
            "conv3d": tf.conv(tf.constant(_rand(4, 1, 4, 5, 4, 2)), tf.constant(_rand(5, 2, 2, 3, 2, 3)),
                              [1, 1, 2, 1, 1], "VALID"),
            "groups": _outcome(lambda: tf.conv(x2, tf.constant(_rand(6, 3, 3, 1, 3)), [1, 1, 1, 1], "SAME",
                                               groups=3))}


def program_conv2d_backprops_v2_have_no_kernel(tf):
    x, w = tf.constant(_rand(7, 2, 7, 6, 3)), tf.constant(_rand(8, 3, 3, 3, 5))
    dy = tf.constant(_rand(9, 2, 7, 6, 5))
    return {"input": _outcome(lambda: tf.conv2d_backprop_input_v2(x, w, dy, [1, 1, 1, 1], "SAME")),
            "filter": _outcome(lambda: tf.conv2d_backprop_filter_v2(x, w, dy, [1, 1, 1, 1], "SAME"))}


@tolerance(rtol=1e-4, atol=1e-4)
def program_depthwise_backprops(tf):
    x, w = tf.constant(_rand(11, 2, 6, 6, 3)), tf.constant(_rand(12, 3, 3, 3, 2))
    out = {}
    for strides, padding in [([1, 1, 1, 1], "SAME"), ([1, 2, 2, 1], "VALID")]:
        dy = tf.constant(_rand(13, *tf.nn.depthwise_conv2d(x, w, strides, padding).shape))
        out[f"{strides}{padding}"] = [tf.nn.depthwise_conv2d_backprop_input([2, 6, 6, 3], w, dy, strides, padding),
                                      tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 3, 2], dy, strides, padding)]
    traced = tf.function(lambda a, b: tf.nn.depthwise_conv2d_backprop_filter(a, [3, 3, 3, 2], b, [1, 1, 1, 1],
                                                                              "SAME"))
    out["traced"] = traced(x, tf.constant(_rand(14, 2, 6, 6, 6)))
    return out


def program_general_dropout(tf):
    x = tf.constant(np.arange(1.0, 13.0, dtype=np.float32).reshape(3, 4))

    def sampler(shape, dtype):
        return tf.reshape(tf.linspace(tf.constant(0.0, dtype), 1.0, int(np.prod(shape))), shape)
    return {"rate_half": tf.nn.experimental.general_dropout(x, 0.5, sampler),
            "noise_shape": tf.nn.experimental.general_dropout(x, 0.3, sampler, noise_shape=[3, 1]),
            "rate_tensor": tf.nn.experimental.general_dropout(x, tf.constant(0.25), sampler),
            "rate_zero": tf.nn.experimental.general_dropout(x, 0.0, sampler),
            "bad_rate": _outcome(lambda: tf.nn.experimental.general_dropout(x, 1.0, sampler))}

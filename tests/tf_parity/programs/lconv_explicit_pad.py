"""tf.nn.conv2d and depthwise_conv2d with explicit paddings (TF's list of four
(before, after) pairs; the batch and channel pairs ignored): values and gradients,
eager and under tf.function, NCHW, and the errors of a malformed list."""
import numpy as np

PADS = [[0, 0], [2, 1], [0, 3], [0, 0]]


def _data(tf):
    rng = np.random.default_rng(7)
    x = tf.constant(rng.standard_normal((2, 5, 6, 3)).astype(np.float32))
    w = tf.Variable(rng.standard_normal((2, 3, 3, 4)).astype(np.float32))
    d = tf.Variable(rng.standard_normal((3, 2, 3, 2)).astype(np.float32))
    return x, w, d


def _convs(tf, x, w, d, pads):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv2d(x, w, [1, 2, 1, 1], pads)
        z = tf.nn.depthwise_conv2d(x, d, [1, 1, 1, 1], pads, dilations=[1, 2])
        loss = tf.reduce_sum(y * y) + tf.reduce_sum(tf.sin(z))
    gx, gw, gd = tape.gradient(loss, [x, w, d])
    return {"y": y, "z": z, "gx": gx, "gw": gw, "gd": gd}


def program_explicit_pads_eager(tf):
    x, w, d = _data(tf)
    return _convs(tf, x, w, d, PADS)


def program_explicit_pads_function(tf):
    x, w, d = _data(tf)
    return tf.function(lambda x: _convs(tf, x, w, d, PADS))(x)


def program_explicit_pads_batch_pair_ignored(tf):
    x, w, _ = _data(tf)
    return {"y": tf.nn.conv2d(x, w, 1, [[1, 1], [1, 0], [0, 2], [0, 0]])}


def program_explicit_pads_nchw_matches_nhwc(tf):
    x, w, _ = _data(tf)
    nchw = tf.nn.conv2d(tf.transpose(x, [0, 3, 1, 2]), w, 1, [[0, 0], [0, 0], [2, 1], [0, 3]], data_format="NCHW")
    return {"diff": tf.reduce_max(tf.abs(tf.transpose(nchw, [0, 2, 3, 1]) - tf.nn.conv2d(x, w, 1, PADS)))}


def program_explicit_pads_keras_style_pad_then_valid(tf):
    x, w, _ = _data(tf)
    return {"diff": tf.reduce_max(tf.abs(tf.nn.conv2d(x, w, 1, PADS) - tf.nn.conv2d(tf.pad(x, PADS), w, 1, "VALID")))}


def program_explicit_pads_three_pairs(tf):
    x, w, _ = _data(tf)
    return {"y": tf.nn.conv2d(x, w, 1, [[0, 0], [2, 1], [0, 3]])}


def program_explicit_pads_word_explicit(tf):
    x, w, _ = _data(tf)
    return {"y": tf.nn.conv2d(x, w, 1, "EXPLICIT")}

"""DepthwiseConv2D forward, input and filter gradients over the geometries the direct
kernels special-case: odd sizes, SAME with uneven pads, strides past the window,
dilations, depth multipliers, batch 1, channels 1 and past one register block (64 float32),
float64; eager and under tf.function."""
import numpy as np
from parity import tolerance

# (input shape, filter shape (KH, KW, C, M), strides, padding, dilations)
GEOMETRIES = {
    "odd_same_3x3": ((2, 7, 5, 3), (3, 3, 3, 1), 1, "SAME", 1),
    "uneven_pads_4x4": ((1, 6, 7, 2), (4, 4, 2, 1), 1, "SAME", 1),
    "strided_same_channels_20": ((2, 9, 8, 20), (3, 3, 20, 1), 2, "SAME", 1),
    "strides_past_window": ((1, 10, 9, 2), (2, 2, 2, 1), 3, "SAME", 1),
    "valid_multiplier_2": ((2, 6, 7, 3), (3, 2, 3, 2), 1, "VALID", 1),
    "dilated": ((1, 9, 9, 2), (3, 3, 2, 1), 1, "SAME", 2),
    "channels_1": ((3, 5, 6, 1), (3, 3, 1, 1), 1, "SAME", 1),
    "batch_1_channels_66": ((1, 3, 4, 66), (3, 3, 66, 1), 1, "SAME", 1),
}


def _depthwise(tf, dtype):
    out = {}
    for i, (name, (shape, kshape, s, p, d)) in enumerate(GEOMETRIES.items()):
        rng = np.random.default_rng(i)
        x = tf.constant(rng.normal(size=shape).astype(dtype))
        w = tf.constant((rng.normal(size=kshape) / 3).astype(dtype))
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], p, dilations=[d, d])
            loss = tf.reduce_sum(y * tf.reshape(tf.sin(tf.cast(tf.range(tf.size(y)), dtype)), y.shape))
        dx, dw = tape.gradient(loss, [x, w])
        out[name] = {"y": y, "dx": dx, "dw": dw}
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_depthwise_float32(tf):
    return _depthwise(tf, np.float32)


@tolerance(rtol=1e-4, atol=1e-5)
def program_depthwise_float32_in_function(tf):
    return tf.function(lambda: _depthwise(tf, np.float32))()


@tolerance(rtol=1e-10, atol=1e-12)
def program_depthwise_float64(tf):
    return _depthwise(tf, np.float64)


@tolerance(rtol=1e-4, atol=1e-4)
def program_depthwise_training_step(tf):
    """The benchmark's depthwise step (3x3 SAME, loss sum(y ** 2), an SGD update) on a small image."""
    rng = np.random.default_rng(4)
    x = tf.constant(rng.normal(size=(2, 8, 7, 6)).astype(np.float32))
    k = tf.Variable((rng.normal(size=(3, 3, 6, 1)) / 3).astype(np.float32))
    losses = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME") ** 2)
        k.assign_sub(1e-2 * tape.gradient(loss, k))
        losses.append(loss)
    return {"losses": losses, "k": k.read_value()}

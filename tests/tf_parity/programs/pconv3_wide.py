"""conv2d with filters a multiple of the vector lanes wide (16, 32, 48): the routes of
compiler/gemm_tile_c.py (the tiles' GEMM in AVX-512 loops) and winograd_c.py (3x3,
stride 1: Winograd F(2x2, 3x3), so the stride-1 input gradient too), values and
gradients, eager and under tf.function.  Float32 sums of 144-576 products in another
order than oneDNN's: tolerance 1e-4 on values of order 1-10."""
import numpy as np
from parity import tolerance


def _data(tf, c, o, shape=(2, 9, 7)):
    rng = np.random.default_rng(31)
    x = tf.constant(rng.standard_normal(shape + (c,)).astype(np.float32))
    w = tf.Variable((rng.standard_normal((3, 3, c, o)) / np.sqrt(9 * c)).astype(np.float32))
    return x, w


def _conv_grads(tf, x, w, strides, padding):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv2d(x, w, strides, padding)
        loss = tf.reduce_sum(y * y)
    gx, gw = tape.gradient(loss, [x, w])
    return {"y": y, "gx": gx, "gw": gw}


@tolerance(rtol=1e-4, atol=1e-4)
def program_wide_3x3_same_eager(tf):
    x, w = _data(tf, 16, 32)
    return _conv_grads(tf, x, w, 1, "SAME")


@tolerance(rtol=1e-4, atol=1e-4)
def program_wide_3x3_same_function(tf):
    x, w = _data(tf, 16, 32)
    return tf.function(lambda x: _conv_grads(tf, x, w, 1, "SAME"))(x)


@tolerance(rtol=1e-4, atol=1e-4)
def program_wide_3x3_valid_odd_channels(tf):
    """21 channels: the input transform takes one vector of 16 lanes, then 5 one by one."""
    x, w = _data(tf, 21, 48)
    return tf.function(lambda x: _conv_grads(tf, x, w, 1, "VALID"))(x)


@tolerance(rtol=1e-4, atol=1e-4)
def program_wide_3x3_explicit_pads(tf):
    x, w = _data(tf, 16, 16)
    return _conv_grads(tf, x, w, 1, [[0, 0], [2, 0], [1, 2], [0, 0]])


@tolerance(rtol=1e-4, atol=1e-4)
def program_wide_3x3_stride2(tf):
    """Strided: im2col with the own GEMM; the input gradient's product is 3*3*16 = 144 wide."""
    x, w = _data(tf, 16, 32, (2, 10, 9))
    return tf.function(lambda x: _conv_grads(tf, x, w, 2, "SAME"))(x)


@tolerance(rtol=1e-4, atol=1e-3)
def program_wide_resnet_pair(tf):
    """Two 3x3 convs with batch norm and ReLU and a residual, 32 channels: the benchmark's block,
    small.  Gradients up to ~105 through batch norm's backward (a difference of sums): 1e-3
    absolute is 1e-5 of the largest (im2col route: 1.5e-4 off TF's, Winograd's 2.1e-4)."""
    rng = np.random.default_rng(32)
    x = tf.constant(rng.standard_normal((4, 8, 8, 32)).astype(np.float32))
    k1 = tf.Variable((rng.standard_normal((3, 3, 32, 32)) / 17).astype(np.float32))
    k2 = tf.Variable((rng.standard_normal((3, 3, 32, 32)) / 17).astype(np.float32))

    def bn(h):
        mean, var = tf.nn.moments(h, axes=[0, 1, 2])
        return tf.nn.batch_normalization(h, mean, var, None, None, 1e-3)

    def step(x):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(bn(tf.nn.conv2d(x, k1, 1, "SAME")))
            out = tf.nn.relu(bn(tf.nn.conv2d(h, k2, 1, "SAME")) + x)
            loss = tf.reduce_sum(out * out)
        g1, g2 = tape.gradient(loss, [k1, k2])
        return {"loss": loss, "out": out, "g1": g1, "g2": g2}
    return {"eager": step(x), "function": tf.function(step)(x)}

"""Layer norm and batch norm written by hand (as in tutorials), against NumPy,
the Keras layers, and their tf.function versions, gradients included."""
import numpy as np
import tapeflow as tf

from perf_helpers import eager_vs_function

RNG = np.random.default_rng(3)
X = (RNG.normal(size=(512, 256)) * 3 + 1).astype(np.float32)


def np_layer_norm(x, gamma, beta, eps):
    m = x.mean(-1, keepdims=True)
    v = x.var(-1, keepdims=True)
    return gamma * (x - m) / np.sqrt(v + eps) + beta


def test_layer_norm_by_hand_matches_numpy_and_keras():
    gamma = tf.Variable(RNG.uniform(0.5, 1.5, size=256).astype(np.float32))
    beta = tf.Variable(RNG.normal(size=256).astype(np.float32))

    def layer_norm(x, eps=1e-5):
        mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
        return gamma * (x - mean) * tf.math.rsqrt(var + eps) + beta

    out = eager_vs_function("layer norm 512x256", layer_norm, tf.constant(X), rtol=1e-4, atol=1e-4)
    expect = np_layer_norm(X.astype(np.float64), gamma.numpy(), beta.numpy(), 1e-5)
    np.testing.assert_allclose(out.numpy(), expect, rtol=1e-4, atol=1e-4)

    layer = tf.keras.layers.LayerNormalization(epsilon=1e-5)
    layer.build((None, 256))
    layer.set_weights([gamma.numpy(), beta.numpy()])
    np.testing.assert_allclose(layer(X).numpy(), expect, rtol=1e-4, atol=1e-4)

    def grads(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.sin(layer_norm(x)))
        return tape.gradient(loss, [gamma, beta])

    g_gamma, g_beta = eager_vs_function("layer norm grad", grads, tf.constant(X), rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(g_beta.numpy(), np.cos(expect).sum(0), rtol=1e-3, atol=1e-3)
    normed = (expect - beta.numpy()) / gamma.numpy()
    np.testing.assert_allclose(g_gamma.numpy(), (np.cos(expect) * normed).sum(0), rtol=1e-3, atol=1e-3)


def test_batch_norm_by_hand_training_and_inference():
    scale = tf.Variable(tf.ones([256]))
    offset = tf.Variable(tf.zeros([256]))
    moving_mean = tf.Variable(tf.zeros([256]), trainable=False)
    moving_var = tf.Variable(tf.ones([256]), trainable=False)
    momentum = 0.9

    def batch_norm(x, training):
        if training:
            mean, var = tf.nn.moments(x, axes=[0])
            moving_mean.assign(momentum * moving_mean + (1 - momentum) * mean)
            moving_var.assign(momentum * moving_var + (1 - momentum) * var)
        else:
            mean, var = moving_mean, moving_var
        return tf.nn.batch_normalization(x, mean, var, offset, scale, 1e-3)

    step = tf.function(batch_norm)
    for _ in range(30):
        y = step(tf.constant(X), True)
    np.testing.assert_allclose(y.numpy().mean(0), 0.0, atol=1e-4)
    np.testing.assert_allclose(y.numpy().std(0), 1.0, rtol=1e-3)
    # the running statistics converge to the batch ones: 1 - 0.9**30 of the way
    frac = 1 - momentum ** 30
    np.testing.assert_allclose(moving_mean.numpy(), frac * X.mean(0), rtol=1e-3, atol=1e-4)
    expect_var = frac * X.var(0) + momentum ** 30
    np.testing.assert_allclose(moving_var.numpy(), expect_var, rtol=1e-3)
    inference = step(tf.constant(X), False)
    np.testing.assert_allclose(inference.numpy(), batch_norm(tf.constant(X), False).numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(inference.numpy(), (X - moving_mean.numpy()) / np.sqrt(expect_var + 1e-3),
                               rtol=1e-4, atol=1e-4)

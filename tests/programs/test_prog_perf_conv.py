"""A small conv net forward (Conv2D 3x3 on a 16x32x32x3 batch, pooling) by hand and
with Keras, against a NumPy im2col baseline; the backward pass compiled vs eager."""
import time

import numpy as np
import tapeflow as tf

from perf_helpers import eager_vs_function

RNG = np.random.default_rng(4)
IMAGES = RNG.normal(size=(16, 32, 32, 3)).astype(np.float32)
K1 = (RNG.normal(size=(3, 3, 3, 32)) * 0.2).astype(np.float32)
K2 = (RNG.normal(size=(3, 3, 32, 64)) * 0.1).astype(np.float32)


def np_conv_same(x, k):
    """3x3 SAME convolution as one matmul over as_strided windows (the usual im2col)."""
    n, h, w, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    s = padded.strides
    windows = np.lib.stride_tricks.as_strided(padded, (n, h, w, 3, 3, c), (s[0], s[1], s[2], s[1], s[2], s[3]))
    return (windows.reshape(n * h * w, -1) @ k.reshape(-1, k.shape[-1])).reshape(n, h, w, -1)


def np_convnet(x):
    h = np.maximum(np_conv_same(x, K1), 0)
    h = h.reshape(16, 16, 2, 16, 2, 32).max(axis=(2, 4))
    h = np.maximum(np_conv_same(h, K2), 0)
    h = h.reshape(16, 8, 2, 8, 2, 64).mean(axis=(2, 4))
    return h.mean(axis=(1, 2))


k1, k2 = tf.Variable(K1), tf.Variable(K2)


def convnet(x):
    h = tf.nn.relu(tf.nn.conv2d(x, k1, strides=1, padding="SAME"))
    h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding="VALID")
    h = tf.nn.relu(tf.nn.conv2d(h, k2, strides=[1, 1, 1, 1], padding="SAME"))
    h = tf.nn.avg_pool2d(h, ksize=2, strides=2, padding="VALID")
    return tf.reduce_mean(h, axis=[1, 2])


def test_convnet_forward_matches_im2col_baseline():
    out = eager_vs_function("convnet forward", convnet, tf.constant(IMAGES), rtol=1e-4, atol=1e-5)
    expect = np_convnet(IMAGES)
    np.testing.assert_allclose(out.numpy(), expect, rtol=1e-4, atol=1e-5)
    start = time.perf_counter()
    np_convnet(IMAGES)
    print(f"numpy im2col convnet: {(time.perf_counter() - start) * 1e3:.2f} ms")


def test_keras_cnn_forward_eager_vs_function():
    tf.keras.utils.set_random_seed(5)
    model = tf.keras.Sequential([
        tf.keras.Input((32, 32, 3)),
        tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Conv2D(64, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(10),
    ])
    out = eager_vs_function("keras cnn call", lambda x: model(x), tf.constant(IMAGES), rtol=1e-4, atol=1e-5)
    assert out.shape == (16, 10)
    # the first conv layer on its own against the NumPy baseline
    kernel, bias = model.layers[0].get_weights()
    first = model.layers[0](tf.constant(IMAGES)).numpy()
    np.testing.assert_allclose(first, np.maximum(np_conv_same(IMAGES, kernel) + bias, 0), rtol=1e-4, atol=1e-5)


def test_convnet_gradient_compiled_vs_eager_and_finite_differences():
    def grads(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(convnet(x) ** 2)
        return tape.gradient(loss, [k1, k2])

    g1, g2 = eager_vs_function("convnet grad", grads, tf.constant(IMAGES), rtol=1e-3, atol=1e-6)
    assert g1.shape == K1.shape and g2.shape == K2.shape

    def loss_np(k2_value):
        global K2
        saved, K2 = K2, k2_value
        try:
            return float((np_convnet(IMAGES.astype(np.float64)) ** 2).sum())
        finally:
            K2 = saved

    for idx in [(0, 0, 0, 0), (1, 1, 5, 7), (2, 1, 31, 63)]:
        step = np.zeros_like(K2, dtype=np.float64)
        step[idx] = 1e-3
        fd = (loss_np(K2 + step) - loss_np(K2 - step)) / 2e-3
        np.testing.assert_allclose(g2.numpy()[idx], fd, rtol=2e-2, atol=1e-5)

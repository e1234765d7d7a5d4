"""Custom layers built on tf.custom_gradient: gradient clipping op, straight-through estimator."""
import numpy as np
import tapeflow as tf


@tf.custom_gradient
def clip_gradient(x, norm=1.0):
    y = tf.identity(x)

    def grad_fn(dy):
        return tf.clip_by_norm(dy, norm)

    return y, grad_fn


@tf.custom_gradient
def binarize_ste(x):
    """Forward: sign; backward: pass the gradient straight through where |x| <= 1."""
    def grad(dy):
        return dy * tf.cast(tf.abs(x) <= 1.0, dy.dtype)
    return tf.sign(x), grad


class BinaryDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal",
                                 trainable=True, name="w")

    def call(self, inputs):
        return tf.matmul(inputs, binarize_ste(self.w))


def test_gradient_clipping_op_eager_and_function():
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(clip_gradient(x) * 10.0)
    g = tape.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [1 / np.sqrt(2), 1 / np.sqrt(2)], rtol=1e-6)  # [10, 10] clipped to norm 1

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(clip_gradient(x) * tf.constant([3.0, 4.0]))
        return y, tape.gradient(y, x)

    y, g = f(x)
    np.testing.assert_allclose(y.numpy(), 25.0)
    np.testing.assert_allclose(g.numpy(), [0.6, 0.8], rtol=1e-6)


def test_straight_through_estimator_trains_binary_layer():
    tf.keras.utils.set_random_seed(0)
    rng = np.random.RandomState(0)
    true_w = np.sign(rng.randn(6, 1)).astype(np.float32)
    x = rng.randn(256, 6).astype(np.float32)
    y = x @ true_w
    layer = BinaryDense(1)
    opt = tf.keras.optimizers.SGD(0.01)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(layer(x) - y))
        grads = tape.gradient(loss, layer.trainable_variables)
        opt.apply_gradients(zip(grads, layer.trainable_variables))
        return loss

    for _ in range(200):
        loss = step(x, y)
    np.testing.assert_array_equal(np.sign(layer.w.numpy()), true_w)
    assert float(loss) == 0.0


def test_custom_gradient_log1pexp_numerically_stable():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    x = tf.constant([0.0, 10.0, 100.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    dy = tape.gradient(y, x)
    np.testing.assert_allclose(dy.numpy(), [0.5, 1 / (1 + np.exp(-10)), 1.0], rtol=1e-6)

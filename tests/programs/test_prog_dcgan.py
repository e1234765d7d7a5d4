"""DCGAN-like program as the TF2 tutorial writes it: a generator (Dense ->
Reshape -> Conv2DTranspose + BatchNormalization + LeakyReLU) and a conv
discriminator, trained in one tf.function step with two tapes and two Adam
optimizers on tiny synthetic 8x8 "images" (a bright centre square)."""
import numpy as np

import tapeflow as tf

NOISE = 8


def make_generator():
    return tf.keras.Sequential([
        tf.keras.Input((NOISE,)),
        tf.keras.layers.Dense(2 * 2 * 16, use_bias=False),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Reshape((2, 2, 16)),
        tf.keras.layers.Conv2DTranspose(8, 3, strides=2, padding="same", use_bias=False),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Conv2DTranspose(1, 3, strides=2, padding="same", activation="tanh"),
    ])


def make_discriminator():
    return tf.keras.Sequential([
        tf.keras.Input((8, 8, 1)),
        tf.keras.layers.Conv2D(8, 3, strides=2, padding="same"),
        tf.keras.layers.LeakyReLU(0.2),
        tf.keras.layers.Conv2D(16, 3, strides=2, padding="same"),
        tf.keras.layers.LeakyReLU(0.2),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(1),
    ])


def real_images(n, rng):
    img = -np.ones((n, 8, 8, 1), "float32")
    img[:, 2:6, 2:6, :] = 1.0
    return img + 0.05 * rng.randn(n, 8, 8, 1).astype("float32")


def test_dcgan_two_tapes_two_optimizers():
    tf.keras.utils.set_random_seed(0)
    rng = np.random.RandomState(0)
    generator, discriminator = make_generator(), make_discriminator()
    assert generator.output_shape == (None, 8, 8, 1)
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    g_opt, d_opt = tf.keras.optimizers.Adam(2e-3, beta_1=0.5), tf.keras.optimizers.Adam(2e-3, beta_1=0.5)

    @tf.function
    def train_step(images):
        noise = tf.random.normal([tf.shape(images)[0], NOISE])
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            fake = generator(noise, training=True)
            real_out = discriminator(images, training=True)
            fake_out = discriminator(fake, training=True)
            gen_loss = bce(tf.ones_like(fake_out), fake_out)
            disc_loss = bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)
        g_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
        d_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
        g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
        d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
        return gen_loss, disc_loss

    def centre_error():
        fake = generator(tf.random.normal([64, NOISE]), training=False).numpy()
        return float(np.abs(fake - real_images(64, np.random.RandomState(9))).mean())

    before = centre_error()
    for _ in range(150):
        g, d = train_step(tf.constant(real_images(32, rng)))
        assert np.isfinite(g.numpy()) and np.isfinite(d.numpy())
    after = centre_error()
    assert len(g_opt.variables) > 1 and len(d_opt.variables) > 1
    # The generator has learnt the bright centre square: its images moved towards the real ones.
    assert after < 0.6 * before, (before, after)
    # BatchNormalization moving statistics were updated inside the compiled step.
    bn = generator.layers[1]
    assert np.abs(bn.moving_mean.numpy()).max() > 0


def test_noise_shape_with_traced_batch_keeps_static_dims():
    seen = {}

    @tf.function
    def draw(images):
        noise = tf.random.normal([tf.shape(images)[0], NOISE])
        seen["shape"] = noise.shape.as_list()
        return noise

    out = draw(tf.zeros([5, 8, 8, 1]))
    assert out.shape == (5, NOISE)
    assert seen["shape"][1] == NOISE

"""A GAN on 1-D toy data: two models, two optimizers, two tapes, tf.function train step."""
import numpy as np
import tapeflow as tf


def test_gan_learns_gaussian_mean_and_spread():
    tf.keras.utils.set_random_seed(0)
    latent_dim = 4
    generator = tf.keras.Sequential([
        tf.keras.Input(shape=(latent_dim,)),
        tf.keras.layers.Dense(16, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    discriminator = tf.keras.Sequential([
        tf.keras.Input(shape=(1,)),
        tf.keras.layers.Dense(16),
        tf.keras.layers.LeakyReLU(0.2),
        tf.keras.layers.Dense(1),
    ])
    cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    g_opt = tf.keras.optimizers.Adam(2e-3, beta_1=0.5)
    d_opt = tf.keras.optimizers.Adam(2e-3, beta_1=0.5)
    batch = 128

    @tf.function
    def train_step(real):
        noise = tf.random.normal([batch, latent_dim])
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            fake = generator(noise, training=True)
            real_out = discriminator(real, training=True)
            fake_out = discriminator(fake, training=True)
            gen_loss = cross_entropy(tf.ones_like(fake_out), fake_out)
            disc_loss = (cross_entropy(tf.ones_like(real_out), real_out)
                         + cross_entropy(tf.zeros_like(fake_out), fake_out))
        g_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
        d_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
        g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
        d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
        return gen_loss, disc_loss

    rng = np.random.RandomState(0)
    for step in range(1500):
        real = (3.0 + 0.5 * rng.randn(batch, 1)).astype(np.float32)
        g_loss, d_loss = train_step(real)
    assert np.isfinite(float(g_loss)) and np.isfinite(float(d_loss))
    samples = generator(tf.random.normal([2000, latent_dim])).numpy()
    assert abs(samples.mean() - 3.0) < 0.3, samples.mean()
    # 1500 steps get the spread to the right order (it keeps shrinking towards 0.5 with longer training)
    assert 0.2 < samples.std() < 1.6, samples.std()
    # discriminator at equilibrium: it cannot tell real from fake, its loss is 2*log(2)
    assert abs(float(d_loss) - 2 * np.log(2)) < 0.1

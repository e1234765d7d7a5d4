"""Dense and convolutional autoencoders (TF 'Intro to Autoencoders' tutorial style)."""
import numpy as np
import tapeflow as tf
from tapeflow.keras import layers, losses
from tapeflow.keras.models import Model


class Autoencoder(Model):
    def __init__(self, latent_dim, shape):
        super().__init__()
        self.latent_dim = latent_dim
        self.shape = shape
        self.encoder = tf.keras.Sequential([
            layers.Flatten(),
            layers.Dense(latent_dim, activation="relu"),
        ])
        self.decoder = tf.keras.Sequential([
            layers.Dense(tf.math.reduce_prod(shape).numpy(), activation="sigmoid"),
            layers.Reshape(shape),
        ])

    def call(self, x):
        encoded = self.encoder(x)
        decoded = self.decoder(encoded)
        return decoded


def low_rank_images(n, seed):
    rng = np.random.default_rng(seed)
    basis = np.random.default_rng(99).random(size=(4, 8 * 8))
    codes = rng.random(size=(n, 4))
    x = codes @ basis / 4.0
    return np.clip(x, 0, 1).reshape(n, 8, 8).astype("float32")


def test_dense_autoencoder():
    tf.keras.utils.set_random_seed(0)
    x_train, x_test = low_rank_images(512, 0), low_rank_images(64, 1)
    autoencoder = Autoencoder(8, (8, 8))
    autoencoder.compile(optimizer=tf.keras.optimizers.Adam(5e-3), loss=losses.MeanSquaredError())
    hist = autoencoder.fit(x_train, x_train, epochs=30, shuffle=True, batch_size=32,
                           validation_data=(x_test, x_test), verbose=0)
    encoded_imgs = autoencoder.encoder(x_test).numpy()
    decoded_imgs = autoencoder.decoder(encoded_imgs).numpy()
    assert encoded_imgs.shape == (64, 8) and decoded_imgs.shape == (64, 8, 8)
    mse = np.mean((decoded_imgs - x_test) ** 2)
    baseline = np.mean((x_test - x_train.mean(axis=0)) ** 2)
    assert mse < 0.5 * baseline, (mse, baseline, hist.history["loss"])
    np.testing.assert_allclose(hist.history["val_loss"][-1], mse, rtol=1e-3)


def test_conv_denoising_autoencoder():
    tf.keras.utils.set_random_seed(1)
    clean = low_rank_images(256, 2)[..., None]
    noisy = np.clip(clean + 0.1 * tf.random.normal(shape=clean.shape).numpy(), 0.0, 1.0)
    encoder = tf.keras.Sequential([
        layers.Input(shape=(8, 8, 1)),
        layers.Conv2D(8, (3, 3), activation="relu", padding="same", strides=2),
    ])
    decoder = tf.keras.Sequential([
        layers.Conv2DTranspose(8, kernel_size=3, strides=2, activation="relu", padding="same"),
        layers.Conv2D(1, kernel_size=(3, 3), activation="sigmoid", padding="same"),
    ])
    inp = layers.Input(shape=(8, 8, 1))
    model = Model(inp, decoder(encoder(inp)))
    assert model.output_shape == (None, 8, 8, 1)
    model.compile(optimizer=tf.keras.optimizers.Adam(3e-3), loss="mse")
    hist = model.fit(noisy, clean, epochs=12, batch_size=32, verbose=0)
    assert hist.history["loss"][-1] < 0.5 * hist.history["loss"][0], hist.history["loss"]

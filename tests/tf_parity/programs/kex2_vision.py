"""keras.io-style vision programs, scaled down: an MNIST-like convnet, a residual
SeparableConv2D classifier, a conv autoencoder, a VAE with a custom train_step and
a DCGAN step with two optimizers."""
import numpy as np

from parity import tolerance
from _sweep import history, set_weights

RNG = np.random.RandomState(0)
IMGS = RNG.uniform(0, 1, (8, 8, 8, 1)).astype("float32")
LABELS = (np.arange(8) % 3).astype("int32")


@tolerance(rtol=1e-4, atol=1e-5)
def program_mnist_convnet(tf):
    L = tf.keras.layers
    m = tf.keras.Sequential([tf.keras.Input((8, 8, 1)), L.Conv2D(4, 3, activation="relu"),
                             L.MaxPooling2D(2), L.Dropout(0.0), L.Flatten(),
                             L.Dense(3, activation="softmax")])
    set_weights(m)
    m.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    h = m.fit(IMGS, LABELS, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict(IMGS[:2], verbose=0),
            "shapes": [tuple(l.output.shape) for l in m.layers], "names": [l.name for l in m.layers]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_residual_separable(tf):
    L = tf.keras.layers
    inp = tf.keras.Input((8, 8, 1))
    x = L.Conv2D(4, 3, padding="same")(inp)
    x = L.BatchNormalization()(x)
    x = L.Activation("relu")(x)
    prev = x
    x = L.SeparableConv2D(4, 3, padding="same")(x)
    x = L.BatchNormalization()(x)
    x = L.MaxPooling2D(3, strides=2, padding="same")(x)
    res = L.Conv2D(4, 1, strides=2, padding="same")(prev)
    x = L.add([x, res])
    x = L.GlobalAveragePooling2D()(x)
    out = L.Dense(1)(x)
    m = set_weights(tf.keras.Model(inp, out))
    m.compile(tf.keras.optimizers.Adam(1e-2), tf.keras.losses.BinaryCrossentropy(from_logits=True))
    h = m.fit(IMGS, (LABELS % 2).astype("float32"), batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict(IMGS[:3], verbose=0), "n_params": m.count_params()}


@tolerance(rtol=1e-4, atol=1e-5)
def program_conv_autoencoder(tf):
    L = tf.keras.layers
    inp = tf.keras.Input((8, 8, 1))
    x = L.Conv2D(4, 3, activation="relu", padding="same")(inp)
    x = L.MaxPooling2D(2, padding="same")(x)
    x = L.Conv2DTranspose(4, 3, strides=2, activation="relu", padding="same")(x)
    x = L.UpSampling2D(1)(x)
    out = L.Conv2D(1, 3, activation="sigmoid", padding="same")(x)
    m = set_weights(tf.keras.Model(inp, out))
    m.compile("adam", "binary_crossentropy")
    h = m.fit(IMGS, IMGS, batch_size=4, epochs=2, verbose=0, shuffle=False)
    up = L.UpSampling2D(2, interpolation="bilinear")(IMGS[:1, :3, :3])
    return {"hist": history(h), "pred": m.predict(IMGS[:1], verbose=0), "up": up}


@tolerance(rtol=1e-4, atol=1e-5)
def program_vae_custom_train_step(tf):
    keras = tf.keras
    ops = keras.ops

    class Sampling(keras.layers.Layer):
        def call(self, inputs):
            mean, log_var = inputs
            eps = np.full((2,), 0.5, "float32")  # fixed noise: both libraries alike
            return mean + ops.exp(0.5 * log_var) * eps

    ein = keras.Input((4,))
    h = keras.layers.Dense(3, activation="relu")(ein)
    z_mean = keras.layers.Dense(2, name="z_mean")(h)
    z_log_var = keras.layers.Dense(2, name="z_log_var")(h)
    z = Sampling()([z_mean, z_log_var])
    encoder = set_weights(keras.Model(ein, [z_mean, z_log_var, z], name="encoder"))
    din = keras.Input((2,))
    decoder = set_weights(keras.Model(din, keras.layers.Dense(4, activation="sigmoid")(din), name="decoder"))

    class VAE(keras.Model):
        def __init__(self, encoder, decoder, **kw):
            super().__init__(**kw)
            self.encoder, self.decoder = encoder, decoder
            self.total = keras.metrics.Mean(name="total_loss")
            self.kl = keras.metrics.Mean(name="kl_loss")

        @property
        def metrics(self):
            return [self.total, self.kl]

        def train_step(self, data):
            with tf.GradientTape() as tape:
                zm, zl, zz = self.encoder(data)
                rec = self.decoder(zz)
                rl = ops.mean(ops.sum(keras.losses.binary_crossentropy(data[..., None], rec[..., None]), axis=1))
                kl = ops.mean(ops.sum(-0.5 * (1 + zl - ops.square(zm) - ops.exp(zl)), axis=1))
                loss = rl + kl
            grads = tape.gradient(loss, self.trainable_weights)
            self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
            self.total.update_state(loss)
            self.kl.update_state(kl)
            return {m.name: m.result() for m in self.metrics}

    vae = VAE(encoder, decoder)
    vae.compile(optimizer=keras.optimizers.Adam(1e-2))
    x = IMGS.reshape(8, 64)[:, :4]
    hist = vae.fit(x, epochs=2, batch_size=4, verbose=0, shuffle=False)
    return {"hist": history(hist), "enc": encoder.predict(x[:2], verbose=0)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_dcgan_step(tf):
    keras = tf.keras
    L = keras.layers
    disc = set_weights(keras.Sequential([keras.Input((8, 8, 1)), L.Conv2D(2, 3, strides=2, padding="same"),
                                         L.LeakyReLU(0.2), L.GlobalMaxPooling2D(), L.Dense(1)], name="d"))
    gen = set_weights(keras.Sequential([keras.Input((3,)), L.Dense(4 * 4 * 2), L.Reshape((4, 4, 2)),
                                        L.Conv2DTranspose(2, 4, strides=2, padding="same"), L.LeakyReLU(0.2),
                                        L.Conv2D(1, 3, padding="same", activation="sigmoid")], name="g"))

    class GAN(keras.Model):
        def __init__(self, d, g):
            super().__init__()
            self.d, self.g = d, g
            self.dl = keras.metrics.Mean(name="d_loss")
            self.gl = keras.metrics.Mean(name="g_loss")

        @property
        def metrics(self):
            return [self.dl, self.gl]

        def compile(self, d_opt, g_opt, loss_fn):
            super().compile()
            self.d_opt, self.g_opt, self.loss_fn = d_opt, g_opt, loss_fn

        def train_step(self, real):
            n = tf.shape(real)[0]
            z = tf.reshape(tf.cast(tf.range(n * 3), "float32") / 10.0, (n, 3))
            fake = self.g(z)
            both = tf.concat([fake, real], axis=0)
            lab = tf.concat([tf.ones((n, 1)), tf.zeros((n, 1))], axis=0)
            with tf.GradientTape() as t:
                d_loss = self.loss_fn(lab, self.d(both))
            self.d_opt.apply_gradients(zip(t.gradient(d_loss, self.d.trainable_weights), self.d.trainable_weights))
            with tf.GradientTape() as t:
                g_loss = self.loss_fn(tf.zeros((n, 1)), self.d(self.g(z)))
            self.g_opt.apply_gradients(zip(t.gradient(g_loss, self.g.trainable_weights), self.g.trainable_weights))
            self.dl.update_state(d_loss)
            self.gl.update_state(g_loss)
            return {"d_loss": self.dl.result(), "g_loss": self.gl.result()}

    gan = GAN(disc, gen)
    gan.compile(keras.optimizers.Adam(1e-3), keras.optimizers.Adam(2e-3),
                keras.losses.BinaryCrossentropy(from_logits=True))
    h = gan.fit(IMGS, epochs=2, batch_size=4, verbose=0, shuffle=False)
    return {"hist": history(h), "gen": gen.predict(np.ones((1, 3), "float32"), verbose=0)[0, :2, :2, 0],
            "iters": [int(gan.d_opt.iterations.numpy()), int(gan.g_opt.iterations.numpy())]}


def program_upsampling2d_interpolations(tf):
    x = np.arange(18, dtype="float32").reshape(1, 3, 3, 2)
    out = {m: tf.keras.layers.UpSampling2D((2, 3), interpolation=m)(x)
           for m in ("nearest", "bilinear", "bicubic", "lanczos3", "area", "BILINEAR")}
    out["config"] = tf.keras.layers.UpSampling2D(2, interpolation="bicubic").get_config()["interpolation"]
    return out


def program_upsampling2d_bad_interpolation(tf):
    return tf.keras.layers.UpSampling2D(2, interpolation="bogus")(np.zeros((1, 2, 2, 1), "float32"))


def program_resizing_bad_interpolation(tf):
    return tf.keras.layers.Resizing(4, 4, interpolation="gaussian")(np.zeros((1, 2, 2, 1), "float32"))

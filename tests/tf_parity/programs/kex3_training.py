"""keras.io training-loop programs, scaled down: a custom train_step with compute_loss and
metric trackers, a GAN-style step with two optimizers, a multi-input multi-output model
with loss_weights, sample_weight and class_weight, and the common callbacks."""
import numpy as np

from parity import tolerance
from _sweep import data, history, labels, set_weights, tmp_path

X, Y = data(n=12, d=3, seed=4)
XC, YC = labels(n=12, d=3, classes=3, seed=5)


@tolerance(rtol=1e-4, atol=1e-5)
def program_custom_train_step_compute_loss(tf):
    keras = tf.keras

    class CustomModel(keras.Model):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.d1 = keras.layers.Dense(4, activation="tanh")
            self.d2 = keras.layers.Dense(1)
            self.loss_tracker = keras.metrics.Mean(name="loss")
            self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")

        def call(self, x):
            return self.d2(self.d1(x))

        def train_step(self, batch):
            x, y = batch
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            self.mae_metric.update_state(y, y_pred)
            return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

        def test_step(self, batch):
            x, y = batch
            y_pred = self(x, training=False)
            self.loss_tracker.update_state(self.compute_loss(y=y, y_pred=y_pred))
            self.mae_metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

        @property
        def metrics(self):
            return [self.loss_tracker, self.mae_metric]

    m = CustomModel()
    m(X[:1])
    set_weights(m)
    m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    h = m.fit(X, Y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    ev = m.evaluate(X, Y, batch_size=4, verbose=0, return_dict=True)
    return {"hist": history(h), "eval": ev, "pred": m.predict(X[:2], verbose=0),
            "metric_names": [x.name for x in m.metrics]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_gan_train_step_two_optimizers(tf):
    keras = tf.keras
    L = keras.layers
    latent = 2
    disc = keras.Sequential([keras.Input((3,)), L.Dense(4), L.LeakyReLU(negative_slope=0.2), L.Dense(1)],
                            name="discriminator")
    gen = keras.Sequential([keras.Input((latent,)), L.Dense(4, activation="relu"), L.Dense(3)], name="generator")
    set_weights(disc)
    set_weights(gen, scale=0.2)

    class GAN(keras.Model):
        def __init__(self, d, g, **kw):
            super().__init__(**kw)
            self.d, self.g = d, g
            self.d_tracker = keras.metrics.Mean(name="d_loss")
            self.g_tracker = keras.metrics.Mean(name="g_loss")

        def compile(self, d_opt, g_opt, loss_fn):
            super().compile()
            self.d_opt, self.g_opt, self.loss_fn = d_opt, g_opt, loss_fn

        @property
        def metrics(self):
            return [self.d_tracker, self.g_tracker]

        def train_step(self, real):
            n = tf.shape(real)[0]
            z = tf.reshape(tf.cast(tf.range(n * latent), "float32") * 0.1, (n, latent))
            fake = self.g(z)
            both = tf.concat([fake, real], 0)
            lab = tf.concat([tf.ones((n, 1)), tf.zeros((n, 1))], 0)
            with tf.GradientTape() as tape:
                d_loss = self.loss_fn(lab, self.d(both))
            grads = tape.gradient(d_loss, self.d.trainable_weights)
            self.d_opt.apply_gradients(zip(grads, self.d.trainable_weights))
            with tf.GradientTape() as tape:
                g_loss = self.loss_fn(tf.zeros((n, 1)), self.d(self.g(z)))
            grads = tape.gradient(g_loss, self.g.trainable_weights)
            self.g_opt.apply_gradients(zip(grads, self.g.trainable_weights))
            self.d_tracker.update_state(d_loss)
            self.g_tracker.update_state(g_loss)
            return {"d_loss": self.d_tracker.result(), "g_loss": self.g_tracker.result()}

    gan = GAN(disc, gen)
    gan.compile(keras.optimizers.Adam(0.01), keras.optimizers.Adam(0.01),
                keras.losses.BinaryCrossentropy(from_logits=True))
    h = gan.fit(tf.data.Dataset.from_tensor_slices(X).batch(4), epochs=2, verbose=0)
    return {"hist": history(h), "gen": gen(np.ones((1, latent), "float32")),
            "d_iters": gan.d_opt.iterations, "g_iters": gan.g_opt.iterations}


@tolerance(rtol=1e-4, atol=1e-5)
def program_multi_io_loss_weights(tf):
    keras = tf.keras
    L = keras.layers
    title = keras.Input((3,), name="title")
    body = keras.Input((2,), name="body")
    x = L.concatenate([L.Dense(3)(title), L.Dense(3)(body)])
    priority = L.Dense(1, name="priority")(x)
    dept = L.Dense(3, activation="softmax", name="department")(x)
    m = set_weights(keras.Model({"title": title, "body": body}, {"priority": priority, "department": dept}))
    m.compile(keras.optimizers.RMSprop(1e-2),
              loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
                    "department": keras.losses.SparseCategoricalCrossentropy()},
              loss_weights={"priority": 1.0, "department": 0.2},
              metrics={"department": ["accuracy"]})
    xs = {"title": X, "body": X[:, :2] * 2}
    ys = {"priority": (Y > 0.3).astype("float32"), "department": YC}
    h = m.fit(xs, ys, batch_size=4, epochs=2, verbose=0, shuffle=False)
    ev = m.evaluate(xs, ys, verbose=0, return_dict=True)
    pred = m.predict(xs, verbose=0)
    return {"hist": history(h), "eval": ev, "pred": pred, "out_names": m.output_names}


@tolerance(rtol=1e-4, atol=1e-5)
def program_sample_and_class_weight(tf):
    keras = tf.keras

    def model():
        m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
        set_weights(m)
        m.compile(keras.optimizers.SGD(0.2), "sparse_categorical_crossentropy",
                  metrics=["accuracy"], weighted_metrics=["accuracy"])
        return m

    sw = np.linspace(0.1, 2.0, 12).astype("float32")
    a = model()
    ha = a.fit(XC, YC, sample_weight=sw, batch_size=4, epochs=2, verbose=0, shuffle=False)
    b = model()
    hb = b.fit(XC, YC, class_weight={0: 1.0, 1: 3.0, 2: 0.5}, batch_size=4, epochs=2, verbose=0, shuffle=False)
    c = model()
    ds = tf.data.Dataset.from_tensor_slices((XC, YC, sw)).batch(6)
    hc = c.fit(ds, epochs=2, verbose=0)
    return {"a": history(ha), "b": history(hb), "c": history(hc),
            "eval_sw": a.evaluate(XC, YC, sample_weight=sw, verbose=0),
            "w": [w.numpy() for w in b.weights]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_callbacks_early_stop_plateau_scheduler_csv(tf):
    keras = tf.keras
    cb = keras.callbacks
    m = set_weights(keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)]))
    m.compile(keras.optimizers.SGD(0.05), "mse")
    csv_path = tmp_path("log.csv")
    early = cb.EarlyStopping(monitor="val_loss", patience=1, min_delta=10.0, restore_best_weights=True)
    plateau = cb.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10.0, min_lr=0.01)
    sched = cb.LearningRateScheduler(lambda epoch, lr: lr * 0.9 if epoch > 0 else lr)
    h = m.fit(X, Y, validation_split=0.25, batch_size=3, epochs=6, verbose=0, shuffle=False,
              callbacks=[sched, plateau, early, cb.CSVLogger(csv_path)])
    with open(csv_path) as f:
        rows = [line.rstrip("\r\n").split(",") for line in f]
    header, body = rows[0], [[float(v) for v in r] for r in rows[1:]]
    return {"hist": history(h), "epochs": h.epoch, "stopped": early.stopped_epoch,
            "best": float(early.best), "lr": float(m.optimizer.learning_rate.numpy()),
            "csv_header": header, "csv": body, "w": m.get_weights()}


@tolerance(rtol=1e-4, atol=1e-5)
def program_lambda_callback_and_history_params(tf):
    keras = tf.keras
    seen = []
    m = set_weights(keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)]))
    m.compile("adam", "mse", metrics=["mae"])
    lam = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append((epoch, sorted(logs))),
        on_train_batch_end=lambda batch, logs: seen.append(("b", batch)))
    h = m.fit(X, Y, batch_size=5, epochs=2, verbose=0, shuffle=False, callbacks=[lam])
    return {"seen": seen, "params": h.params, "hist": history(h)}

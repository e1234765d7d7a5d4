"""Keras guide "customizing what happens in fit", more: two optimizers, compute_loss and
predict_step overrides, sample weights in train_step, a metrics-only evaluate loop."""
import numpy as np

from _sweep import data, history, set_weights


def program_train_step_with_sample_weight(tf):
    class M(tf.keras.Model):
        def train_step(self, data):
            x, y, sw = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred, sample_weight=sw)
            self.optimizer.apply_gradients(zip(tape.gradient(loss, self.trainable_variables),
                                               self.trainable_variables))
            return {"loss": loss}
    inp = tf.keras.Input((3,))
    m = set_weights(M(inp, tf.keras.layers.Dense(1)(inp)))
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x, y = data(8)
    sw = np.linspace(0, 1, 8).astype("float32")
    h = m.fit(x, y, sample_weight=sw, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_two_optimizers_gan_style(tf):
    class Pair(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.g = tf.keras.layers.Dense(2, name="g")
            self.d = tf.keras.layers.Dense(1, name="d")

        def compile(self, g_opt, d_opt):
            super().compile()
            self.g_opt, self.d_opt = g_opt, d_opt

        def call(self, x):
            return self.d(self.g(x))

        def train_step(self, x):
            with tf.GradientTape() as tape:
                d_loss = tf.reduce_mean(tf.square(self.d(self.g(x)) - 1.0))
            self.d_opt.apply_gradients(zip(tape.gradient(d_loss, self.d.trainable_weights),
                                           self.d.trainable_weights))
            with tf.GradientTape() as tape:
                g_loss = tf.reduce_mean(tf.square(self.d(self.g(x))))
            self.g_opt.apply_gradients(zip(tape.gradient(g_loss, self.g.trainable_weights),
                                           self.g.trainable_weights))
            return {"d_loss": d_loss, "g_loss": g_loss}
    x, _ = data(8)
    p = Pair()
    p(x[:1])
    set_weights(p)
    p.compile(tf.keras.optimizers.SGD(0.1), tf.keras.optimizers.Adam(0.01))
    h = p.fit(x, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": history(h), "g_iters": p.g_opt.iterations, "d_iters": p.d_opt.iterations}


def program_compute_loss_override(tf):
    class M(tf.keras.Model):
        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            return tf.reduce_mean(tf.abs(y - y_pred)) * 3.0
    inp = tf.keras.Input((3,))
    m = set_weights(M(inp, tf.keras.layers.Dense(1)(inp)))
    m.compile(tf.keras.optimizers.SGD(0.05))
    x, y = data(8)
    h = m.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"h": history(h), "ev": m.evaluate(x, y, verbose=0)}


def program_predict_step_override(tf):
    class M(tf.keras.Model):
        def predict_step(self, data):
            return {"score": self(data, training=False), "twice": self(data) * 2.0}
    inp = tf.keras.Input((3,))
    m = set_weights(M(inp, tf.keras.layers.Dense(1)(inp)))
    x, _ = data(5)
    out = m.predict(x, batch_size=2, verbose=0)
    return {"keys": sorted(out), "score": out["score"], "twice_shape": out["twice"].shape}


def program_custom_training_loop_with_val_metrics(tf):
    x, y = data(16)
    train = tf.data.Dataset.from_tensor_slices((x[:12], y[:12])).batch(4)
    val = tf.data.Dataset.from_tensor_slices((x[12:], y[12:])).batch(4)
    inp = tf.keras.Input((3,))
    model = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(tf.keras.layers.Dense(4, "tanh")(inp))))
    opt = tf.keras.optimizers.RMSprop(0.01)
    loss_fn = tf.keras.losses.MeanSquaredError()
    train_mae, val_mae = tf.keras.metrics.MeanAbsoluteError(), tf.keras.metrics.MeanAbsoluteError()

    @tf.function
    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = loss_fn(yb, pred)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_weights), model.trainable_weights))
        train_mae.update_state(yb, pred)
        return loss

    @tf.function
    def test_step(xb, yb):
        val_mae.update_state(yb, model(xb, training=False))
    out = []
    for epoch in range(2):
        for xb, yb in train:
            train_step(xb, yb)
        for xb, yb in val:
            test_step(xb, yb)
        out.append((float(train_mae.result()), float(val_mae.result())))
        train_mae.reset_state()
        val_mae.reset_state()
    return {"maes": out, "traces": train_step.experimental_get_tracing_count()}

"""Customizing fit and training loops from scratch, as the Keras 3 guides write them:
train_step/test_step overrides, compute_loss, metrics property, reset_metrics, optimizer.apply,
apply_gradients, metric update_state/result/reset_state."""
import numpy as np

from _sweep import data, history, labels, set_weights


def _dense_net(tf, out=1, cls=None):
    cls = cls or tf.keras.Model
    inp = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(4, activation="relu")(inp)
    return set_weights(cls(inp, tf.keras.layers.Dense(out)(h)))


def program_guide_metrics_loop_over_compile_metrics(tf):
    class CustomModel(tf.keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(grads, self.trainable_variables)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}
    x, y = data(12)
    m = _dense_net(tf, cls=CustomModel)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    names0 = [mm.name for mm in m.metrics]
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h), "names0": names0, "names": [mm.name for mm in m.metrics],
            "res_type": type(m.metrics[1].result()).__name__, "ev": m.evaluate(x, y, verbose=0)}


def program_own_trackers_without_compile_loss(tf):
    class CustomModel(tf.keras.Model):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.loss_tracker = tf.keras.metrics.Mean(name="loss")
            self.mae_metric = tf.keras.metrics.MeanAbsoluteError(name="mae")

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = tf.keras.losses.MeanSquaredError()(y, y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            self.mae_metric.update_state(y, y_pred)
            return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

        @property
        def metrics(self):
            return [self.loss_tracker, self.mae_metric]
    inp = tf.keras.Input((3,))
    m = CustomModel(inp, tf.keras.layers.Dense(1)(inp))
    set_weights(m)
    m.compile(optimizer=tf.keras.optimizers.Adam(0.05))
    x, y = data(12)
    h = m.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_metric_attributes_auto_tracked(tf):
    class M(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(1)
            self.tracker = tf.keras.metrics.Mean(name="my_mean")

        def call(self, x):
            return self.d(x)
    m = M()
    m(tf.ones((1, 3)))
    before = [mm.name for mm in m.metrics]
    m.compile("sgd", "mse", metrics=["mae"])
    return {"before": before, "after": [mm.name for mm in m.metrics]}


def program_test_step_override_returns_custom_keys(tf):
    class M(tf.keras.Model):
        def test_step(self, data):
            x, y = data
            y_pred = self(x, training=False)
            err = tf.reduce_mean(tf.abs(y - y_pred))
            return {"abs_err": err, "n": tf.cast(tf.shape(x)[0], tf.float32)}
    x, y = data(10)
    m = _dense_net(tf, cls=M)
    m.compile("sgd", "mse")
    r = m.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    return {"r": {k: float(v) for k, v in r.items()}}


def program_compute_loss_with_sample_weight_override(tf):
    class M(tf.keras.Model):
        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            loss = super().compute_loss(x, y, y_pred, sample_weight, training)
            return loss + 0.1 * tf.reduce_mean(tf.square(y_pred))
    x, y = data(8)
    m = _dense_net(tf, cls=M)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(x, y, sample_weight=np.linspace(0.5, 1.5, 8).astype("float32"), epochs=2, batch_size=4,
              shuffle=False, verbose=0)
    return {"h": history(h)}


def program_reset_metrics_and_state(tf):
    x, y = data(8)
    m = _dense_net(tf)
    m.compile("sgd", "mse", metrics=["mae"])
    m.evaluate(x, y, verbose=0)
    r1 = {mm.name: mm.result() for mm in m.metrics}
    m.reset_metrics()
    r2 = {mm.name: mm.result() for mm in m.metrics}
    return {"loss1": float(r1["loss"]), "mae1": float(r1["compile_metrics"]["mae"]),
            "loss2": float(r2["loss"]), "mae2": float(r2["compile_metrics"]["mae"])}


def program_loop_from_scratch_optimizer_apply(tf):
    x, y = labels(16)
    model = set_weights(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(8, activation="relu"),
                                             tf.keras.layers.Dense(3)]))
    opt = tf.keras.optimizers.Adam(learning_rate=0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    acc = tf.keras.metrics.SparseCategoricalAccuracy()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    log = []
    for epoch in range(2):
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                logits = model(xb, training=True)
                loss = loss_fn(yb, logits)
            grads = tape.gradient(loss, model.trainable_weights)
            opt.apply(grads, model.trainable_weights)
            acc.update_state(yb, logits)
        log.append((float(loss), float(acc.result())))
        acc.reset_state()
    return {"log": log, "iters": int(opt.iterations), "acc_after_reset": float(acc.result())}


def program_loop_from_scratch_tf_function_step(tf):
    x, y = data(16)
    model = set_weights(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="tanh"),
                                             tf.keras.layers.Dense(1)]))
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    loss_fn = tf.keras.losses.MeanSquaredError()
    mae = tf.keras.metrics.MeanAbsoluteError()
    traces = []

    @tf.function
    def step(xb, yb):
        traces.append(1)
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        mae.update_state(yb, model(xb))
        return loss
    losses = [float(step(x[i:i + 4], y[i:i + 4])) for i in range(0, 16, 4)]
    return {"losses": losses, "mae": mae.result(), "traces": len(traces), "iters": int(opt.iterations)}


def program_gradient_clipping_options(tf):
    out = {}
    for kw in ({"clipnorm": 0.1}, {"clipvalue": 0.05}, {"global_clipnorm": 0.1}):
        v = tf.Variable([1.0, -2.0, 3.0])
        opt = tf.keras.optimizers.SGD(1.0, **kw)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v ** 2)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
        out[list(kw)[0]] = v
    return out


def program_optimizer_variables_and_iterations(tf):
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * v)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    return {"v": v, "iters": int(opt.iterations), "n_vars": len(opt.variables),
            "names": [w.name for w in opt.variables], "lr": float(opt.learning_rate)}


def program_gan_style_two_optimizers_metrics(tf):
    gen = set_weights(tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3)]))
    disc = set_weights(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)]))

    class GAN(tf.keras.Model):
        def __init__(self, g, d):
            super().__init__()
            self.g, self.d = g, d
            self.d_loss = tf.keras.metrics.Mean(name="d_loss")
            self.g_loss = tf.keras.metrics.Mean(name="g_loss")

        def compile(self, d_opt, g_opt, loss_fn):
            super().compile()
            self.d_opt, self.g_opt, self.loss_fn = d_opt, g_opt, loss_fn

        @property
        def metrics(self):
            return [self.d_loss, self.g_loss]

        def train_step(self, real):
            z = tf.ones((tf.shape(real)[0], 2)) * 0.5
            with tf.GradientTape() as tape:
                fake = self.g(z)
                logits = tf.concat([self.d(fake), self.d(real)], 0)
                labels_ = tf.concat([tf.ones((tf.shape(real)[0], 1)), tf.zeros((tf.shape(real)[0], 1))], 0)
                dl = self.loss_fn(labels_, logits)
            self.d_opt.apply_gradients(zip(tape.gradient(dl, self.d.trainable_weights), self.d.trainable_weights))
            with tf.GradientTape() as tape:
                gl = self.loss_fn(tf.zeros((tf.shape(real)[0], 1)), self.d(self.g(z)))
            self.g_opt.apply_gradients(zip(tape.gradient(gl, self.g.trainable_weights), self.g.trainable_weights))
            self.d_loss.update_state(dl)
            self.g_loss.update_state(gl)
            return {"d_loss": self.d_loss.result(), "g_loss": self.g_loss.result()}
    gan = GAN(gen, disc)
    gan.compile(tf.keras.optimizers.SGD(0.05), tf.keras.optimizers.SGD(0.05),
                tf.keras.losses.BinaryCrossentropy(from_logits=True))
    x, _ = data(8)
    h = gan.fit(tf.data.Dataset.from_tensor_slices(x).batch(4), epochs=2, verbose=0)
    return {"h": history(h)}


def program_metrics_standalone_api(tf):
    acc = tf.keras.metrics.Accuracy()
    acc.update_state([1, 2, 3, 4], [1, 2, 0, 4])
    r1 = acc.result()
    acc.update_state([1], [0], sample_weight=[2.0])
    auc = tf.keras.metrics.AUC(num_thresholds=5)
    auc.update_state([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9])
    p = tf.keras.metrics.Precision(thresholds=0.5)
    p.update_state([0, 1, 1, 0], [0.7, 0.8, 0.2, 0.1])
    mean = tf.keras.metrics.Mean()
    mean.update_state([1.0, 3.0], sample_weight=[1.0, 3.0])
    return {"acc": [r1, acc.result()], "auc": auc.result(), "p": p.result(), "mean": mean.result(),
            "vars": [v.name for v in acc.variables], "cfg": p.get_config()["thresholds"]}

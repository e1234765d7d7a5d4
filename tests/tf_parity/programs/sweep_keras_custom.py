"""Keras guides "customizing fit", "training loop from scratch", functional API and subclassing,
written anew; starting weights fixed so both libraries train alike."""
import numpy as np

from _sweep import data, history, labels, set_weights


def program_train_step_override_with_trackers(tf):
    class CustomModel(tf.keras.Model):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.dense = tf.keras.layers.Dense(1)
            self.loss_tracker = tf.keras.metrics.Mean(name="loss")
            self.mae_metric = tf.keras.metrics.MeanAbsoluteError(name="mae")

        def call(self, x):
            return self.dense(x)

        def train_step(self, batch):
            x, y = batch
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = tf.reduce_mean(tf.square(y - y_pred))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            self.mae_metric.update_state(y, y_pred)
            return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

        @property
        def metrics(self):
            return [self.loss_tracker, self.mae_metric]
    x, y = data(12)
    m = CustomModel()
    m(x[:1])
    set_weights(m)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1))
    h = m.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h), "w": m.dense.kernel}


def program_train_step_uses_compute_loss(tf):
    class M(tf.keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            self.optimizer.apply_gradients(zip(tape.gradient(loss, self.trainable_variables),
                                               self.trainable_variables))
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}
    inp = tf.keras.Input((3,))
    m = set_weights(M(inp, tf.keras.layers.Dense(1)(inp)))
    m.compile(optimizer="adam", loss="mse", metrics=["mae"])
    x, y = data(8)
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"keys": sorted(h.history), "loss": h.history["loss"]}


def program_test_step_override(tf):
    class M(tf.keras.Model):
        def test_step(self, data):
            x, y = data
            y_pred = self(x, training=False)
            self.loss_tracker_.update_state(tf.reduce_mean(tf.abs(y - y_pred)))
            return {"l1": self.loss_tracker_.result()}
    inp = tf.keras.Input((3,))
    m = set_weights(M(inp, tf.keras.layers.Dense(1)(inp)))
    m.loss_tracker_ = tf.keras.metrics.Mean(name="l1")
    m.compile(loss="mse")
    x, y = data(8)
    return {"res": m.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)}


def program_loop_from_scratch(tf):
    x, y = labels(24, classes=3)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    inp = tf.keras.Input((3,))
    model = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(3)(tf.keras.layers.Dense(5, "relu")(inp))))
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = tf.keras.optimizers.SGD(learning_rate=0.5)
    acc = tf.keras.metrics.SparseCategoricalAccuracy()
    losses, accs = [], []
    for epoch in range(3):
        for step, (xb, yb) in enumerate(ds):
            with tf.GradientTape() as tape:
                logits = model(xb, training=True)
                loss = loss_fn(yb, logits)
            grads = tape.gradient(loss, model.trainable_weights)
            opt.apply_gradients(zip(grads, model.trainable_weights))
            acc.update_state(yb, logits)
            losses.append(float(loss))
        accs.append(float(acc.result()))
        acc.reset_state()
    return {"losses": losses, "accs": accs, "iters": int(opt.iterations)}


def program_loop_from_scratch_tf_function(tf):
    x, y = data(16)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    inp = tf.keras.Input((3,))
    model = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(inp)))
    opt = tf.keras.optimizers.Adam(0.05)
    mse = tf.keras.losses.MeanSquaredError()
    traces = []

    @tf.function
    def train_step(xb, yb):
        traces.append(1)
        with tf.GradientTape() as tape:
            loss = mse(yb, model(xb, training=True))
            loss += sum(model.losses)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_weights), model.trainable_weights))
        return loss
    out = [float(train_step(xb, yb)) for _ in range(2) for xb, yb in ds]
    return {"losses": out, "traces": len(traces), "w": model.trainable_weights[0]}


def program_loop_with_regularizer_losses(tf):
    inp = tf.keras.Input((3,))
    out = tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.l2(0.1))(inp)
    model = set_weights(tf.keras.Model(inp, out))
    x, _ = data(4)
    with tf.GradientTape() as tape:
        pred = model(x)
        reg = tf.add_n(model.losses)
        loss = tf.reduce_mean(pred ** 2) + reg
    g = tape.gradient(loss, model.trainable_weights)
    return {"reg": reg, "n": len(model.losses), "g0": g[0], "g1": g[1]}


def program_functional_multi_input_output(tf):
    title = tf.keras.Input(shape=(4,), name="title")
    body = tf.keras.Input(shape=(6,), name="body")
    tags = tf.keras.Input(shape=(2,), name="tags")
    x = tf.keras.layers.concatenate([tf.keras.layers.Dense(3)(title), tf.keras.layers.Dense(3)(body), tags])
    priority = tf.keras.layers.Dense(1, name="priority")(x)
    department = tf.keras.layers.Dense(3, name="department")(x)
    model = set_weights(tf.keras.Model(inputs=[title, body, tags], outputs={"priority": priority,
                                                                             "department": department}))
    rng = np.random.RandomState(1)
    feeds = {"title": rng.rand(6, 4).astype("float32"), "body": rng.rand(6, 6).astype("float32"),
             "tags": rng.rand(6, 2).astype("float32")}
    model.compile(optimizer=tf.keras.optimizers.RMSprop(1e-2),
                  loss={"priority": tf.keras.losses.BinaryCrossentropy(from_logits=True),
                        "department": tf.keras.losses.CategoricalCrossentropy(from_logits=True)},
                  loss_weights={"priority": 1.0, "department": 0.2})
    targets = {"priority": rng.rand(6, 1).astype("float32"),
               "department": np.eye(3, dtype="float32")[[0, 1, 2, 0, 1, 2]]}
    h = model.fit(feeds, targets, epochs=2, batch_size=3, shuffle=False, verbose=0)
    out = model.predict(feeds, verbose=0)
    return {"h": history(h), "out_keys": sorted(out), "pri": out["priority"],
            "names": [i.name for i in model.inputs], "n_layers": len(model.layers)}


def program_functional_shared_layer_and_nodes(tf):
    shared = tf.keras.layers.Dense(2, name="shared")
    a = tf.keras.Input((3,))
    b = tf.keras.Input((3,))
    out = tf.keras.layers.add([shared(a), shared(b)])
    model = set_weights(tf.keras.Model([a, b], out))
    x, _ = data(2)
    return {"out": model([x, x * 2]), "n_weights": len(model.weights),
            "layer_names": [l.name for l in model.layers]}


def program_functional_resnet_block(tf):
    inputs = tf.keras.Input(shape=(8, 8, 2), name="img")
    x = tf.keras.layers.Conv2D(4, 3, activation="relu")(inputs)
    block_out = tf.keras.layers.MaxPooling2D(2)(x)
    x = tf.keras.layers.Conv2D(4, 3, activation="relu", padding="same")(block_out)
    x = tf.keras.layers.add([x, block_out])
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    outputs = tf.keras.layers.Dense(3)(x)
    model = set_weights(tf.keras.Model(inputs, outputs, name="toy_resnet"), 0.2)
    img = np.linspace(0, 1, 2 * 8 * 8 * 2, dtype="float32").reshape(2, 8, 8, 2)
    return {"out": model(img), "params": model.count_params(), "name": model.name,
            "shapes": [tuple(l.output.shape) for l in model.layers]}


def program_functional_get_layer_and_submodel(tf):
    inp = tf.keras.Input((4,))
    h = tf.keras.layers.Dense(3, name="hidden")(inp)
    out = tf.keras.layers.Dense(1, name="head")(h)
    model = set_weights(tf.keras.Model(inp, out))
    feat = tf.keras.Model(model.inputs, model.get_layer("hidden").output)
    x = np.ones((2, 4), "float32")
    return {"feat": feat(x), "full": model(x), "same_var": feat.layers[1].kernel is model.layers[1].kernel}


def program_subclassed_layer_build_and_weights(tf):
    class Linear(tf.keras.layers.Layer):
        def __init__(self, units=32, **kw):
            super().__init__(**kw)
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", trainable=True)
            self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False, name="count")

        def call(self, inputs):
            self.count.assign_add(1.0)
            return tf.matmul(inputs, self.w) + self.b

        def get_config(self):
            return {**super().get_config(), "units": self.units}
    layer = Linear(3, name="lin")
    y = layer(tf.ones((2, 2)))
    layer(tf.ones((2, 2)))
    cfg = layer.get_config()
    return {"y": y, "n_w": len(layer.weights), "n_tw": len(layer.trainable_weights),
            "n_ntw": len(layer.non_trainable_weights), "count": layer.count, "units": cfg["units"],
            "name": cfg["name"], "built": layer.built}


def program_subclassed_nested_layers_track(tf):
    class Block(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.l1 = tf.keras.layers.Dense(4)
            self.l2 = tf.keras.layers.Dense(2)
            self.extra = [tf.keras.layers.Dense(2), tf.keras.layers.Dense(2)]

        def call(self, x):
            x = self.l2(tf.nn.relu(self.l1(x)))
            for layer in self.extra:
                x = layer(x)
            return x
    b = Block()
    b(tf.ones((1, 3)))
    set_weights(b)
    return {"n": len(b.weights), "out": b(tf.ones((2, 3))), "shapes": [tuple(w.shape) for w in b.weights]}


def program_subclassed_model_training_arg(tf):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(2)
            self.bn = tf.keras.layers.BatchNormalization()

        def call(self, x, training=False):
            return self.bn(self.d(x), training=training)
    net = Net()
    x, _ = data(6)
    net(x)
    set_weights(net)
    a = net(x, training=True)
    b = net(x)
    return {"train": a, "infer": b, "mm": net.bn.moving_mean, "n_nt": len(net.non_trainable_weights)}


def program_layer_add_metric_style_mean(tf):
    class LogReg(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.acc = tf.keras.metrics.BinaryAccuracy()

        def call(self, targets, logits, sample_weights=None):
            loss = tf.keras.losses.binary_crossentropy(targets, tf.nn.sigmoid(logits))
            self.add_loss(tf.reduce_mean(loss))
            self.acc.update_state(targets, tf.nn.sigmoid(logits), sample_weights)
            return tf.nn.sigmoid(logits)
    layer = LogReg()
    t = tf.constant([[1.0], [0.0], [1.0]])
    lg = tf.constant([[2.0], [1.0], [-1.0]])
    out = layer(t, lg)
    return {"out": out, "loss": layer.losses[0], "acc": layer.acc.result()}

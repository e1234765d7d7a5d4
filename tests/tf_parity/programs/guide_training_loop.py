"""TF guides: basic training loops and writing a training loop from scratch."""
import numpy as np

XS = np.linspace(-2.0, 2.0, 16).astype("float32")
YS = (3.0 * XS + 2.0 + np.sin(XS * 7.0) * 0.3).astype("float32")


def program_training_loop_function(tf):
    w = tf.Variable(1.0)
    b = tf.Variable(0.0)
    opt = tf.keras.optimizers.SGD(0.05)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - (w * x + b)))
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        return loss
    out = [step(XS, YS) for _ in range(5)]
    return {"losses": out, "w": w, "b": b}


def program_dataset_batches_loop(tf):
    w = tf.Variable([[0.5]])
    opt = tf.keras.optimizers.Adam(0.1)
    ds = tf.data.Dataset.from_tensor_slices((XS[:, None], YS[:, None])).batch(4)
    losses = []
    for epoch in range(2):
        for x, y in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(y - x @ w))
            opt.apply_gradients([(tape.gradient(loss, w), w)])
            losses.append(float(loss))
    return {"losses": losses, "w": w}


def program_keras_model_custom_loop(tf):
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(2, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    model.layers[0].set_weights([np.array([[0.5, -0.3]], "float32"), np.array([0.1, 0.0], "float32")])
    model.layers[1].set_weights([np.array([[1.0], [0.7]], "float32"), np.zeros(1, "float32")])
    loss_fn = tf.keras.losses.MeanSquaredError()
    opt = tf.keras.optimizers.RMSprop(0.01)
    metric = tf.keras.metrics.MeanAbsoluteError()
    losses = []
    for i in range(4):
        x, y = XS[i * 4:(i + 1) * 4, None], YS[i * 4:(i + 1) * 4, None]
        with tf.GradientTape() as tape:
            pred = model(x, training=True)
            loss = loss_fn(y, pred)
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
        metric.update_state(y, pred)
        losses.append(loss)
    return {"losses": losses, "mae": metric.result(), "k": model.layers[1].kernel}


def program_momentum_and_clipnorm(tf):
    v = tf.Variable([1.0, -2.0])
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9, clipnorm=1.0)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v ** 2)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    return {"v": v, "iterations": opt.iterations}


def program_adam_steps(tf):
    v = tf.Variable([1.0, -2.0, 0.5])
    opt = tf.keras.optimizers.Adam(learning_rate=0.1)
    for _ in range(5):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.sin(v) * v)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    return {"v": v}

"""Custom training loop: tf.function train_step, optimizer, tf.data with enumerate."""
import numpy as np
import tapeflow as tf


def make_data():
    rng = np.random.RandomState(0)
    x = rng.randn(512, 4).astype(np.float32)
    y = (np.sin(x[:, :1]) + 0.5 * x[:, 1:2] ** 2 - x[:, 2:3]).astype(np.float32)
    return x, y


def test_custom_loop_with_dataset_enumerate():
    tf.random.set_seed(0)
    x, y = make_data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(512, seed=1).batch(64)
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(32, activation="tanh"),
        tf.keras.layers.Dense(1),
    ])
    optimizer = tf.keras.optimizers.Adam(learning_rate=1e-2)
    loss_fn = tf.keras.losses.MeanSquaredError()
    train_loss = tf.keras.metrics.Mean(name="train_loss")

    @tf.function
    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = loss_fn(yb, pred)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    history = []
    for epoch in range(15):
        train_loss.reset_state()
        for step, (xb, yb) in enumerate(ds):
            loss = train_step(xb, yb)
            train_loss.update_state(loss)
        history.append(float(train_loss.result()))
    assert step == 7
    assert history[-1] < 0.1 * history[0]
    assert history[-1] < 0.15
    assert len(model.trainable_variables) == 6
    full = float(loss_fn(y, model(x)))
    assert full < 0.2


def test_train_step_matches_eager():
    x, y = make_data()
    x, y = x[:64], y[:64]

    def build():
        tf.keras.utils.set_random_seed(3)
        return tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(8, activation="relu"),
                                    tf.keras.layers.Dense(1)])

    results = []
    for compiled in (False, True):
        model = build()
        opt = tf.keras.optimizers.SGD(0.05, momentum=0.9)

        def train_step(xb, yb):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(xb) - yb))
            opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return loss

        fn = tf.function(train_step) if compiled else train_step
        losses = [float(fn(tf.constant(x), tf.constant(y))) for _ in range(10)]
        results.append((losses, [v.numpy() for v in model.trainable_variables]))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-4, atol=1e-6)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)

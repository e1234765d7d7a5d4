"""Seeded Keras models trained a few steps: with keras.utils.set_random_seed the
initial weights, dropout masks and updates are TF's, so the loss history,
metrics and final predictions are TF's (float32 rounding aside)."""
import numpy as np

from parity import tolerance

_rng = np.random.default_rng(7)
IMAGES = _rng.random((16, 8, 8, 1), dtype=np.float32)
LABELS = (_rng.random(16) * 3).astype("int32")
SEQS = (_rng.random((16, 6)) * 20).astype("int32")
SEQ_LABELS = (_rng.random(16) > 0.5).astype("float32")
TABLE = _rng.standard_normal((32, 5)).astype("float32")
TARGET = (TABLE @ _rng.standard_normal((5, 1)).astype("float32")).astype("float32")


def _hist(h):
    return {k: [float(v) for v in vals] for k, vals in sorted(h.history.items())}


@tolerance(rtol=2e-4, atol=1e-5)
def program_cnn_classifier(tf):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([
        tf.keras.Input((8, 8, 1)),
        tf.keras.layers.Conv2D(4, 3, activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(3, activation="softmax"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    h = model.fit(IMAGES, LABELS, batch_size=8, epochs=3, shuffle=False, verbose=0)
    return {"history": _hist(h), "predict": model.predict(IMAGES[:3], verbose=0)}


@tolerance(rtol=2e-4, atol=1e-5)
def program_text_classifier(tf):
    tf.keras.utils.set_random_seed(4)
    model = tf.keras.Sequential([
        tf.keras.Input((6,), dtype="int32"),
        tf.keras.layers.Embedding(20, 4),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(4, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])
    # SGD: with adaptive optimizers Keras updates an Embedding from its IndexedSlices gradient
    # slice by slice (a repeated id adds squares of slices, not the square of their sum); tapeflow's
    # gradient of a gather is dense, so RMSprop/Adam differ when a batch repeats an id (not done).
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy", metrics=["accuracy"])
    h = model.fit(SEQS, SEQ_LABELS, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"history": _hist(h), "evaluate": model.evaluate(SEQS, SEQ_LABELS, verbose=0)}


@tolerance(rtol=5e-4, atol=1e-5)
def program_lstm_regressor(tf):
    tf.keras.utils.set_random_seed(5)
    x = TABLE[:, :, None]
    model = tf.keras.Sequential([tf.keras.Input((5, 1)), tf.keras.layers.LSTM(3),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.9), loss="mse")
    h = model.fit(x, TARGET, batch_size=8, epochs=2, shuffle=False, verbose=0)
    return {"history": _hist(h)}


@tolerance(rtol=2e-4, atol=1e-5)
def program_batchnorm_mlp(tf):
    tf.keras.utils.set_random_seed(6)
    model = tf.keras.Sequential([
        tf.keras.Input((5,)),
        tf.keras.layers.Dense(8, kernel_initializer="he_normal"),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Activation("relu"),
        tf.keras.layers.Dropout(0.1),
        tf.keras.layers.Dense(1, kernel_initializer="lecun_uniform"),
    ])
    model.compile(optimizer=tf.keras.optimizers.AdamW(0.01), loss="huber", metrics=["mae"])
    h = model.fit(TABLE, TARGET, batch_size=8, epochs=2, shuffle=False, verbose=0, validation_split=0.25)
    return {"history": _hist(h), "moving_mean": model.layers[1].moving_mean}


@tolerance(rtol=2e-4, atol=1e-5)
def program_functional_two_inputs(tf):
    tf.keras.utils.set_random_seed(8)
    a = tf.keras.Input((5,), name="a")
    b = tf.keras.Input((5,), name="b")
    h = tf.keras.layers.Concatenate()([tf.keras.layers.Dense(4, activation="tanh")(a),
                                       tf.keras.layers.Dense(4, activation="tanh")(b)])
    out = tf.keras.layers.Dense(1)(tf.keras.layers.GaussianNoise(0.1)(h))
    model = tf.keras.Model([a, b], out)
    model.compile(optimizer="adam", loss="mse")
    hist = model.fit([TABLE, TABLE[::-1]], TARGET, batch_size=16, epochs=2, shuffle=False, verbose=0)
    return {"history": _hist(hist)}


@tolerance(rtol=2e-4, atol=1e-5)
def program_custom_training_loop(tf):
    tf.keras.utils.set_random_seed(9)
    model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(6, activation="elu"),
                                 tf.keras.layers.Dropout(0.3), tf.keras.layers.Dense(1)])
    opt = tf.keras.optimizers.Nadam(0.01)
    loss_fn = tf.keras.losses.MeanSquaredError()

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = [float(step(TABLE[i:i + 8], TARGET[i:i + 8])) for i in range(0, 32, 8)]
    return {"losses": losses, "kernel": model.layers[0].kernel}

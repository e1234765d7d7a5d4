"""A Siamese network (one shared encoder, triplet loss on L2-normalised
embeddings, trained in a tf.function step) and a multi-task functional model
(shared trunk, a regression head and a classification head, dict losses and
loss_weights in compile/fit)."""
import numpy as np

import tapeflow as tf


def _clusters(n, rng, centres):
    labels = rng.randint(0, len(centres), size=n)
    return (centres[labels] + 0.3 * rng.randn(n, centres.shape[1])).astype("float32"), labels


def test_siamese_triplet_loss_separates_classes():
    tf.keras.utils.set_random_seed(0)
    rng = np.random.RandomState(0)
    centres = rng.randn(4, 10).astype("float32")
    encoder = tf.keras.Sequential([tf.keras.Input((10,)), tf.keras.layers.Dense(32, activation="relu"),
                                   tf.keras.layers.Dense(8),
                                   tf.keras.layers.Lambda(lambda t: tf.math.l2_normalize(t, axis=1))])
    anchor_in = tf.keras.Input((10,), name="anchor")
    pos_in = tf.keras.Input((10,), name="positive")
    neg_in = tf.keras.Input((10,), name="negative")
    # Keras 3 refuses raw TF ops on KerasTensors: the normalisation is a Lambda layer in the encoder.
    siamese = tf.keras.Model([anchor_in, pos_in, neg_in], [encoder(anchor_in), encoder(pos_in), encoder(neg_in)])
    assert len(siamese.trainable_variables) == 4  # the encoder's weights, shared by the three branches
    opt = tf.keras.optimizers.Adam(1e-2)

    def triplet_loss(a, p, n, margin=0.5):
        d_pos = tf.reduce_sum(tf.square(a - p), axis=-1)
        d_neg = tf.reduce_sum(tf.square(a - n), axis=-1)
        return tf.reduce_mean(tf.maximum(d_pos - d_neg + margin, 0.0))

    @tf.function
    def train_step(a, p, n):
        with tf.GradientTape() as tape:
            loss = triplet_loss(*siamese([a, p, n], training=True))
        grads = tape.gradient(loss, siamese.trainable_variables)
        opt.apply_gradients(zip(grads, siamese.trainable_variables))
        return loss

    def batch(n):
        labels = rng.randint(0, 4, size=n)
        other = (labels + rng.randint(1, 4, size=n)) % 4
        pick = lambda l: (centres[l] + 0.3 * rng.randn(n, 10)).astype("float32")  # noqa: E731
        return pick(labels), pick(labels), pick(other)

    losses = [float(train_step(*batch(64))) for _ in range(80)]
    assert losses[-1] < 0.25 * losses[0]
    # Nearest-centre retrieval in embedding space: same-class pairs are closer.
    x, y = _clusters(200, rng, centres)
    emb = encoder(x).numpy()
    proto = encoder(centres).numpy()
    d = np.sum((emb[:, None] - proto[None]) ** 2, -1)
    assert (d.argmin(1) == y).mean() > 0.95
    np.testing.assert_allclose(np.linalg.norm(emb, axis=1), 1.0, rtol=1e-5)


def test_multitask_shared_trunk_two_heads_loss_weights():
    tf.keras.utils.set_random_seed(1)
    rng = np.random.RandomState(1)
    x = rng.randn(512, 6).astype("float32")
    w = rng.randn(6).astype("float32")
    y_reg = (x @ w + 0.05 * rng.randn(512)).astype("float32")[:, None]
    y_cls = (x[:, 0] + x[:, 1] > 0).astype("int32")

    inputs = tf.keras.Input((6,), name="features")
    trunk = tf.keras.layers.Dense(32, activation="relu")(inputs)
    trunk = tf.keras.layers.Dense(32, activation="relu")(trunk)
    reg = tf.keras.layers.Dense(1, name="value")(trunk)
    cls = tf.keras.layers.Dense(2, activation="softmax", name="label")(trunk)
    model = tf.keras.Model(inputs, {"value": reg, "label": cls})
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
                  loss={"value": "mse", "label": "sparse_categorical_crossentropy"},
                  loss_weights={"value": 0.5, "label": 1.0},
                  metrics={"label": ["accuracy"]})
    hist = model.fit(x, {"value": y_reg, "label": y_cls}, batch_size=64, epochs=15, verbose=0)
    h = hist.history
    assert h["loss"][-1] < 0.2 * h["loss"][0]
    # The total is the weighted sum of the two head losses (plus nothing else).
    np.testing.assert_allclose(h["loss"][-1], 0.5 * h["value_loss"][-1] + h["label_loss"][-1], rtol=0.05)
    assert h["label_accuracy"][-1] > 0.9
    pred = model.predict(x[:100], verbose=0)
    assert set(pred) == {"value", "label"}
    assert np.mean((pred["value"] - y_reg[:100]) ** 2) < 0.3

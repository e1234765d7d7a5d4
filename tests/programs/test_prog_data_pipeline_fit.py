"""fit on a tf.data pipeline: from_tensor_slices + map + shuffle + batch + prefetch, with a
validation dataset, steps_per_epoch over a repeated dataset and predict on a dataset."""
import numpy as np
import tapeflow as tf


def make(n, seed):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(n, 6, 6)).astype("uint8")
    labels = (images[:, :3].mean(axis=(1, 2)) > images[:, 3:].mean(axis=(1, 2))).astype("int64")
    return images, labels


def preprocess(image, label):
    image = tf.cast(image, tf.float32) / 255.0
    image = tf.reshape(image, [-1])
    return image, tf.one_hot(label, 2)


def test_fit_on_dataset_pipeline():
    tf.keras.utils.set_random_seed(0)
    AUTOTUNE = tf.data.AUTOTUNE
    x, y = make(512, 0)
    xv, yv = make(128, 1)
    train_ds = (tf.data.Dataset.from_tensor_slices((x, y))
                .map(preprocess, num_parallel_calls=AUTOTUNE)
                .cache()
                .shuffle(512, seed=1)
                .batch(32)
                .prefetch(AUTOTUNE))
    val_ds = tf.data.Dataset.from_tensor_slices((xv, yv)).map(preprocess).batch(64)
    spec = train_ds.element_spec
    assert spec[0].shape.as_list() == [None, 36] and spec[1].dtype == tf.float32
    model = tf.keras.Sequential([tf.keras.Input(shape=(36,)), tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2, activation="softmax")])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="categorical_crossentropy",
                  metrics=["accuracy"])
    hist = model.fit(train_ds, validation_data=val_ds, epochs=10, verbose=0)
    assert hist.history["val_accuracy"][-1] > 0.9, hist.history["val_accuracy"]
    loss, acc = model.evaluate(val_ds, verbose=0)
    assert acc == hist.history["val_accuracy"][-1]

    # repeat() + steps_per_epoch
    repeated = tf.data.Dataset.from_tensor_slices((x, y)).map(preprocess).batch(50).repeat()
    hist2 = model.fit(repeated, epochs=2, steps_per_epoch=3, verbose=0)
    assert len(hist2.history["loss"]) == 2

    # predict on a dataset of features only
    feats = tf.data.Dataset.from_tensor_slices(xv).map(lambda im: tf.reshape(tf.cast(im, tf.float32) / 255.0,
                                                                             [-1])).batch(40)
    probs = model.predict(feats, verbose=0)
    assert probs.shape == (128, 2)
    ref = model.predict((xv.reshape(128, -1) / 255.0).astype("float32"), verbose=0)
    np.testing.assert_allclose(probs, ref, rtol=1e-5, atol=1e-6)


def test_dataset_from_generator_and_zip():
    def gen():
        for i in range(10):
            yield np.full((3,), i, np.float32), np.int32(i % 2)

    ds = tf.data.Dataset.from_generator(
        gen, output_signature=(tf.TensorSpec(shape=(3,), dtype=tf.float32),
                               tf.TensorSpec(shape=(), dtype=tf.int32)))
    batches = list(ds.filter(lambda a, b: b == 1).map(lambda a, b: (a * 2.0, b)).batch(2).as_numpy_iterator())
    assert len(batches) == 3
    np.testing.assert_array_equal(batches[0][0], [[2, 2, 2], [6, 6, 6]])
    zipped = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)))
    assert [(int(a), int(b)) for a, b in zipped] == [(0, 10), (1, 11), (2, 12)]

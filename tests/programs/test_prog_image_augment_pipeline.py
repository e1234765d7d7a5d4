"""Augmentation in a tf.data map, as the TF data-augmentation tutorial writes it:
random flip, brightness, pad-then-random-crop and contrast on each image, then
a small CNN fit on the augmented stream.  The tf.image ops are checked against NumPy."""
import numpy as np

import tapeflow as tf


def test_image_ops_against_numpy():
    rng = np.random.RandomState(0)
    img = rng.rand(5, 6, 3).astype("float32")
    batch = rng.rand(2, 5, 6, 3).astype("float32")
    for k in range(4):
        np.testing.assert_array_equal(tf.image.rot90(img, k).numpy(), np.rot90(img, k, axes=(0, 1)))
        np.testing.assert_array_equal(tf.image.rot90(batch, k).numpy(), np.rot90(batch, k, axes=(1, 2)))
    padded = tf.image.resize_with_crop_or_pad(img, 9, 4).numpy()
    expect = np.pad(img, [(2, 2), (0, 0), (0, 0)])[:, 1:5]
    np.testing.assert_array_equal(padded, expect)
    np.testing.assert_array_equal(tf.image.central_crop(img, 0.5).numpy(), img[1:4, 1:5])
    mean = batch.mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(tf.image.adjust_contrast(batch, 1.5).numpy(), (batch - mean) * 1.5 + mean,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.image.adjust_brightness(img, 0.25).numpy(), img + 0.25, rtol=1e-6)
    delta = tf.image.random_brightness(img, 0.2, seed=1).numpy() - img
    assert np.ptp(delta) < 1e-5 and abs(delta.flat[0]) <= 0.2
    crop = tf.image.random_crop(img, [3, 4, 3], seed=2).numpy()
    assert any(np.array_equal(crop, img[i:i + 3, j:j + 4]) for i in range(3) for j in range(3))
    try:
        tf.image.random_crop(img, [6, 4, 3])
    except ValueError as exc:
        assert "random_crop" in str(exc)
    else:
        raise AssertionError("random_crop accepted a window larger than the image")


def test_dataset_map_augmentation_then_fit():
    tf.keras.utils.set_random_seed(0)
    rng = np.random.RandomState(0)
    n = 384
    y = rng.randint(0, 2, size=n)
    x = 0.2 * rng.rand(n, 8, 8, 1).astype("float32")
    x[y == 1, 2:6, 2:6] += 0.7  # class 1: a bright centre square, which survives flips and small shifts

    def augment(image, label):
        image = tf.image.random_flip_left_right(image, seed=1)
        image = tf.image.random_brightness(image, 0.05, seed=2)
        image = tf.image.resize_with_crop_or_pad(image, 10, 10)
        image = tf.image.random_crop(image, size=[8, 8, 1], seed=3)
        image = tf.image.random_contrast(image, 0.9, 1.1, seed=4)
        return tf.clip_by_value(image, 0.0, 1.0), label

    train = (tf.data.Dataset.from_tensor_slices((x, y)).shuffle(n, seed=0)
             .map(augment, num_parallel_calls=tf.data.AUTOTUNE).batch(32).prefetch(tf.data.AUTOTUNE))
    model = tf.keras.Sequential([
        tf.keras.Input((8, 8, 1)),
        tf.keras.layers.Conv2D(8, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(2),
    ])
    model.compile(tf.keras.optimizers.Adam(0.02), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    model.fit(train, epochs=8, verbose=0)
    _, acc = model.evaluate(x, y, verbose=0)
    assert acc > 0.95

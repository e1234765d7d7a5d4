"""keras.io image-augmentation programs, scaled down: a seeded augmentation Sequential inside a
model trained with fit (active only while training), the same layers mapped over a tf.data
pipeline, and Rescaling / Resizing / CenterCrop preprocessing before a small convnet."""
import numpy as np

from parity import tolerance
from _sweep import history, set_weights

IMGS = np.random.RandomState(11).uniform(0, 255, (6, 8, 8, 3)).astype("float32")
YS = (np.arange(6) % 2).astype("float32")


def _augmentation(L):
    return [L.RandomFlip("horizontal", seed=1), L.RandomRotation(0.1, seed=2), L.RandomZoom(0.2, seed=3),
            L.RandomContrast(0.3, seed=4), L.RandomTranslation(0.1, 0.1, seed=5)]


@tolerance(rtol=1e-4, atol=1e-4)
def program_augmentation_inside_model_fit(tf):
    keras = tf.keras
    L = keras.layers
    aug = keras.Sequential(_augmentation(L), name="augment")
    inp = keras.Input((8, 8, 3))
    x = aug(inp)
    x = L.Rescaling(1.0 / 255)(x)
    x = L.Conv2D(4, 3, activation="relu")(x)
    x = L.GlobalAveragePooling2D()(x)
    m = set_weights(keras.Model(inp, L.Dense(1)(x)))
    m.compile(keras.optimizers.Adam(1e-3), keras.losses.BinaryCrossentropy(from_logits=True))
    h = m.fit(IMGS, YS, batch_size=3, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict(IMGS[:2], verbose=0),
            "inference_identity": aug(IMGS[:2], training=False)}


@tolerance(rtol=1e-4, atol=1e-3)
def program_augmentation_eager_calls_advance(tf):
    L = tf.keras.layers
    out = {}
    for layer in _augmentation(L):
        first = layer(IMGS[:2], training=True)
        second = layer(IMGS[:2], training=True)
        out[layer.name] = (first, second)
    return out


@tolerance(rtol=1e-4, atol=1e-3)
def program_augmentation_dataset_map(tf):
    L = tf.keras.layers
    flip = L.RandomFlip("horizontal_and_vertical", seed=7)
    bright = L.RandomBrightness(0.2, value_range=(0, 255), seed=8)
    crop = L.RandomCrop(6, 6, seed=9)
    ds = tf.data.Dataset.from_tensor_slices((IMGS, YS)).batch(3)
    ds = ds.map(lambda x, y: (crop(bright(flip(x, training=True), training=True), training=True), y))
    return {"batches": [x.numpy() for x, _ in ds], "again": [x.numpy() for x, _ in ds]}


@tolerance(rtol=1e-4, atol=1e-4)
def program_resize_crop_rescale_pipeline(tf):
    keras = tf.keras
    L = keras.layers
    prep = keras.Sequential([L.Resizing(10, 12), L.CenterCrop(8, 8), L.Rescaling(1 / 127.5, offset=-1)])
    out = prep(IMGS[:2])
    inp = keras.Input((None, None, 3))
    x = L.Resizing(6, 6, crop_to_aspect_ratio=True)(inp)
    x = L.Conv2D(2, 3)(x)
    m = set_weights(keras.Model(inp, L.Flatten()(x)))
    return {"prep": out, "model": m(IMGS[:1, :, :7]), "pad_resize": L.Resizing(5, 8, pad_to_aspect_ratio=True)(IMGS[:1])}

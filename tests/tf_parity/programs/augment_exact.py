"""Keras 3's image augmentation layers (RandomFlip, RandomRotation, RandomZoom,
RandomTranslation, RandomBrightness, RandomCrop) and keras.ops.image.affine_transform:
Keras's draws from each layer's SeedGenerator, TF's projective-transform kernel."""
import numpy as np

from parity import tolerance


def _images(shape=(3, 6, 7, 2), seed=0):
    return np.random.RandomState(seed).uniform(0, 255, shape).astype(np.float32)


@tolerance(rtol=1e-5, atol=1e-3)
def program_flip(tf):
    L, x = tf.keras.layers, _images()
    a = L.RandomFlip(seed=3)
    h = L.RandomFlip("horizontal", seed=4)
    v = L.RandomFlip("vertical", seed=5)
    u8 = L.RandomFlip(seed=6)(np.arange(2 * 3 * 4 * 1, dtype=np.uint8).reshape(2, 3, 4, 1))
    return {"a1": a(x), "a2": a(x), "infer": a(x, training=False), "h": h(x), "v": v(x),
            "single": L.RandomFlip(seed=8)(x[0]), "u8": u8, "u8_dtype": u8.dtype,
            "config": sorted(a.get_config())}


@tolerance(rtol=1e-5, atol=1e-3)
def program_rotation(tf):
    L, x = tf.keras.layers, _images()
    r = L.RandomRotation(0.2, seed=1)
    out = {"r1": r(x), "r2": r(x), "infer": r(x, training=False),
           "single": L.RandomRotation(0.3, seed=2)(x[0]),
           "tuple": L.RandomRotation((-0.1, 0.25), seed=3)(x)}
    for mode in ("wrap", "constant", "nearest"):
        out[mode] = L.RandomRotation(0.4, fill_mode=mode, fill_value=7.0, seed=4)(x)
    out["nearest_interp"] = L.RandomRotation(0.15, interpolation="nearest", seed=5)(x)
    out["config"] = sorted(r.get_config())
    return out


@tolerance(rtol=1e-5, atol=1e-3)
def program_zoom(tf):
    L, x = tf.keras.layers, _images()
    z = L.RandomZoom(0.3, seed=2)
    return {"z1": z(x), "z2": z(x), "infer": z(x, training=False),
            "wh": L.RandomZoom((-0.4, -0.1), (0.1, 0.5), seed=3)(x),
            "constant": L.RandomZoom(0.5, fill_mode="constant", seed=4)(x),
            "single": L.RandomZoom(0.2, seed=5)(x[0]), "config": sorted(z.get_config())}


@tolerance(rtol=1e-5, atol=1e-3)
def program_translation(tf):
    L, x = tf.keras.layers, _images()
    t = L.RandomTranslation(0.2, 0.3, seed=5)
    return {"t1": t(x), "t2": t(x), "infer": t(x, training=False),
            "wrap": L.RandomTranslation((-0.3, 0.1), 0.25, fill_mode="wrap", seed=6)(x),
            "constant": L.RandomTranslation(0.4, 0.4, fill_mode="constant", fill_value=3.0,
                                            interpolation="nearest", seed=7)(x),
            "single": L.RandomTranslation(0.1, 0.1, seed=8)(x[0])}


@tolerance(rtol=1e-5, atol=1e-3)
def program_brightness(tf):
    L, x = tf.keras.layers, _images()
    b = L.RandomBrightness(0.2, seed=4)
    return {"b1": b(x), "b2": b(x), "infer": b(x, training=False),
            "unit": L.RandomBrightness((-0.3, 0.1), value_range=(0, 1), seed=5)(x / 255.0),
            "single": L.RandomBrightness(0.5, seed=6)(x[0]), "config": sorted(b.get_config())}


@tolerance(rtol=1e-5, atol=1e-3)
def program_crop(tf):
    L, x = tf.keras.layers, _images((2, 8, 9, 3))
    c = L.RandomCrop(4, 5, seed=7)
    return {"c1": c(x), "c2": c(x), "infer": c(x, training=False), "single": L.RandomCrop(3, 3, seed=1)(x[0]),
            "small": L.RandomCrop(10, 4, seed=2)(x), "shape": c.compute_output_shape((None, 8, 9, 3))}


@tolerance(rtol=1e-5, atol=1e-3)
def program_pipeline_set_random_seed(tf):
    """Unseeded layers draw their seeds from Python's generator, reseeded by set_random_seed."""
    tf.keras.utils.set_random_seed(11)
    L = tf.keras.layers
    augment = tf.keras.Sequential([L.RandomFlip("horizontal"), L.RandomRotation(0.1), L.RandomZoom(0.1),
                                   L.RandomTranslation(0.1, 0.1), L.RandomBrightness(0.1)])
    x = _images((2, 8, 8, 3), seed=1)
    return {"first": augment(x, training=True), "second": augment(x, training=True),
            "predict": augment.predict(x, verbose=0)}


@tolerance(rtol=1e-5, atol=1e-3)
def program_in_dataset_map(tf):
    L = tf.keras.layers
    rot = L.RandomRotation(0.2, seed=9)
    ds = tf.data.Dataset.from_tensor_slices(_images((4, 5, 5, 1), seed=2)).batch(2)
    ds = ds.map(lambda im: rot(im, training=True))
    return {"batches": [b for b in ds]}


@tolerance(rtol=1e-5, atol=1e-3)
def program_in_function(tf):
    L = tf.keras.layers
    zoom = L.RandomZoom(0.25, seed=3)

    @tf.function
    def step(im):
        return zoom(im, training=True)

    x = tf.constant(_images((2, 6, 6, 1), seed=3))
    return {"a": step(x), "b": step(x), "traces": step.experimental_get_tracing_count()}


def program_errors(tf):
    L, out = tf.keras.layers, {}
    for name, make in [("rotation_mode", lambda: L.RandomRotation(0.1, fill_mode="bogus")),
                       ("rotation_interp", lambda: L.RandomRotation(0.1, interpolation="bicubic")),
                       ("rotation_factor", lambda: L.RandomRotation(1.5)),
                       ("zoom_factor", lambda: L.RandomZoom(-1.0)),
                       ("translation_factor", lambda: L.RandomTranslation(1.2, 0.1)),
                       ("brightness_factor", lambda: L.RandomBrightness(2.0)),
                       ("brightness_range", lambda: L.RandomBrightness(0.1, value_range=(0, 1, 2)))]:
        try:
            make()
            out[name] = "ok"
        except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
            out[name] = type(e).__name__
    try:
        L.RandomRotation(0.1)(np.zeros((2, 3), np.float32))
        out["rank2"] = "ok"
    except Exception as e:  # noqa: BLE001
        out["rank2"] = type(e).__name__
    return out


@tolerance(rtol=1e-5, atol=1e-3)
def program_affine_transform(tf):
    ops, x = tf.keras.ops, _images((2, 5, 6, 2))
    t = np.array([[0.9, 0.2, 1.0, -0.1, 1.1, -0.5, 0.0, 0.0], [1.2, 0.0, -1.0, 0.0, 0.8, 0.7, 0.001, -0.002]],
                 np.float32)
    out = {}
    for interp in ("nearest", "bilinear"):
        for mode in ("constant", "reflect", "wrap", "nearest"):
            out[f"{interp}_{mode}"] = ops.image.affine_transform(x, t, interpolation=interp, fill_mode=mode,
                                                                 fill_value=2.0)
    out["single"] = ops.image.affine_transform(x[0], t[0])
    out["channels_first"] = ops.image.affine_transform(np.transpose(x, (0, 3, 1, 2)), t,
                                                       data_format="channels_first")
    return out


@tolerance(rtol=1e-4, atol=1e-3)
def program_rotation_gradient(tf):
    """The gradient reaches the images through the transform (a model trains through augmentation)."""
    x = tf.constant(_images((1, 5, 5, 1), seed=4) / 255.0)
    t = tf.constant([[0.8, 0.3, 0.2, -0.3, 0.8, 1.1, 0.0, 0.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.keras.ops.image.affine_transform(x, t)
        loss = tf.reduce_sum(y * y)
    return {"grad": tape.gradient(loss, x)}

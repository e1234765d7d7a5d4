"""Keras layers TF tutorials use that came later here: GroupNormalization,
UnitNormalization, Resizing, CenterCrop."""
from parity import tolerance


@tolerance(rtol=1e-5, atol=1e-6)
def program_group_normalization(tf):
    x = tf.reshape(tf.range(1.0, 25.0), [2, 3, 4]) ** 1.3
    two = tf.keras.layers.GroupNormalization(groups=2)
    per_channel = tf.keras.layers.GroupNormalization(groups=-1, epsilon=1e-5)
    first_axis = tf.keras.layers.GroupNormalization(groups=3, axis=1, center=False)
    return {"two": two(x), "per_channel": per_channel(x), "axis1": first_axis(x),
            "weights": [w.shape.as_list() for w in two.weights]}


def program_group_normalization_bad_groups(tf):
    return {"y": tf.keras.layers.GroupNormalization(groups=3)(tf.ones([2, 4]))}


@tolerance(rtol=1e-6, atol=1e-7)
def program_unit_normalization(tf):
    return {"last": tf.keras.layers.UnitNormalization()(tf.constant([[3.0, 4.0], [0.0, 0.0]])),
            "axes": tf.keras.layers.UnitNormalization(axis=[1, 2])(tf.reshape(tf.range(8.0), [2, 2, 2]))}


@tolerance(rtol=1e-5, atol=1e-5)
def program_resizing(tf):
    img = tf.reshape(tf.range(48.0), [1, 4, 6, 2])
    return {"bilinear": tf.keras.layers.Resizing(2, 3)(img),
            "nearest": tf.keras.layers.Resizing(3, 3, interpolation="nearest")(img),
            "crop": tf.keras.layers.Resizing(2, 2, crop_to_aspect_ratio=True)(img),
            "pad": tf.keras.layers.Resizing(4, 2, pad_to_aspect_ratio=True, fill_value=-1.0)(img),
            "uint8": tf.keras.layers.Resizing(2, 3, dtype="uint8")(tf.cast(img * 5, tf.uint8)),
            "unbatched": tf.keras.layers.Resizing(2, 2)(img[0])}


def program_center_crop(tf):
    img = tf.reshape(tf.range(36.0), [1, 6, 6, 1])
    return {"crop": tf.keras.layers.CenterCrop(2, 4)(img), "odd": tf.keras.layers.CenterCrop(3, 3)(img),
            "unbatched": tf.keras.layers.CenterCrop(2, 2)(img[0])}


@tolerance(rtol=1e-5, atol=1e-5)
def program_center_crop_upsizes_small_images(tf):
    img = tf.reshape(tf.range(12.0), [1, 3, 4, 1])
    return {"up": tf.keras.layers.CenterCrop(6, 4)(img)}

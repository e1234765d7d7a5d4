"""The data augmentation and load-images tutorials' image steps on a small seeded image:
Keras Resizing/Rescaling, tf.image flips, rotations, crops, saturation/brightness, the
stateless random ops with a seed pair, and a PNG encode/decode round trip in a pipeline."""
import numpy as np


def _floats(v):
    return np.asarray(v).astype("float64").round(4).tolist()


def _image():
    return np.random.RandomState(12).randint(0, 256, (6, 6, 3)).astype("uint8")


def program_resize_rescale_and_flips(tf):
    image = tf.constant(_image())
    resize_and_rescale = tf.keras.Sequential([tf.keras.layers.Resizing(4, 4),
                                              tf.keras.layers.Rescaling(1. / 255)])
    result = resize_and_rescale(tf.expand_dims(tf.cast(image, tf.float32), 0))
    x = tf.image.convert_image_dtype(image, tf.float32)
    return {"rr": _floats(result[0, :, :, 0]), "rr_dtype": result.dtype.name,
            "flip": _floats(tf.image.flip_left_right(x)[0, :, 0]),
            "gray": _floats(tf.image.rgb_to_grayscale(x)[:2, :2, 0]),
            "sat": _floats(tf.image.adjust_saturation(x, 3)[0, :2]),
            "bright": _floats(tf.image.adjust_brightness(x, 0.4)[0, :2]),
            "crop": _floats(tf.image.central_crop(x, central_fraction=0.5)[..., 1]),
            "rot": _floats(tf.image.rot90(x)[0, :, 2]),
            "pad": tf.image.resize_with_crop_or_pad(x, 8, 8).shape.as_list()}


def program_stateless_random_augment(tf):
    x = tf.image.convert_image_dtype(tf.constant(_image()), tf.float32)

    def augment(image, seed):
        image = tf.image.resize_with_crop_or_pad(image, 8, 8)
        new_seed = tf.random.split(seed, num=1)[0, :]
        image = tf.image.stateless_random_crop(image, size=[6, 6, 3], seed=seed)
        image = tf.image.stateless_random_brightness(image, max_delta=0.5, seed=new_seed)
        return tf.clip_by_value(image, 0, 1)

    out = augment(x, (1, 2))
    flips = [_floats(tf.image.stateless_random_flip_left_right(x, seed=(i, 0))[0, :, 0]) for i in range(3)]
    counter = tf.data.experimental.Counter()
    ds = tf.data.Dataset.zip((tf.data.Dataset.from_tensors(x).repeat(2), (counter, counter)))
    ds = ds.map(lambda im, s: augment(im, tf.stack(s)))
    sums = [float(tf.reduce_sum(v)) for v in ds]
    return {"out": _floats(out[..., 0]), "flips": flips, "sums": [round(s, 3) for s in sums]}


def program_png_round_trip_pipeline(tf):
    image = tf.constant(_image())
    png = tf.io.encode_png(image)
    ds = tf.data.Dataset.from_tensors(png).repeat(2)

    def decode_img(img):
        img = tf.io.decode_png(img, channels=3)
        return tf.image.resize(img, [3, 3])

    got = [v for v in ds.map(decode_img, num_parallel_calls=tf.data.AUTOTUNE)]
    return {"same": bool(tf.reduce_all(tf.io.decode_png(png) == image)),
            "resized": _floats(got[0][..., 0]), "dtype": got[0].dtype.name,
            "spec": str(ds.map(decode_img).element_spec)}

"""tf.image's random and stateless-random augmentations, as the data augmentation
guide uses them: TF's draws for a seed (global + op seeds, and stateless seeds),
batched and single images, float and integer images."""
from parity import tolerance
from _sweep import outcomes


def _images(tf, n=None, dtype="float32"):
    shape = [4, 5, 3] if n is None else [n, 4, 5, 3]
    size = 1
    for d in shape:
        size *= d
    return tf.cast(tf.reshape(tf.range(size) % 17, shape), dtype) / 16.0


def program_random_flips(tf):
    tf.random.set_seed(11)
    one, batch = _images(tf), _images(tf, 6)
    return {"lr": [tf.image.random_flip_left_right(one, seed=3) for _ in range(4)],
            "ud": tf.image.random_flip_up_down(one, seed=5),
            "lr_batch": tf.image.random_flip_left_right(batch, seed=7),
            "ud_batch": tf.image.random_flip_up_down(batch)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_random_color(tf):
    tf.random.set_seed(5)
    x = _images(tf)
    return {"brightness": tf.image.random_brightness(x, 0.2, seed=1),
            "brightness64": tf.image.random_brightness(tf.cast(x, tf.float64), 0.2, seed=1),
            "contrast": tf.image.random_contrast(x, 0.5, 1.5, seed=2),
            "hue": tf.image.random_hue(x, 0.2, seed=3), "saturation": tf.image.random_saturation(x, 0.5, 1.5, seed=4)}


def program_random_crop(tf):
    tf.random.set_seed(3)
    x = tf.reshape(tf.range(6 * 7 * 2), [6, 7, 2])
    return {"crop": tf.image.random_crop(x, [3, 4, 2], seed=9), "crop_again": tf.image.random_crop(x, [3, 4, 2], seed=9),
            "batch": tf.image.random_crop(tf.stack([x, -x]), [2, 2, 2, 1])}


@tolerance(rtol=1e-5, atol=1e-6)
def program_stateless_augment(tf):
    x, batch = _images(tf), _images(tf, 5)
    seed = (1, 2)
    new_seed = tf.random.experimental.stateless_split(seed, num=1)[0, :]
    return {"crop": tf.image.stateless_random_crop(x, [2, 3, 3], seed=seed),
            "brightness": tf.image.stateless_random_brightness(x, 0.3, seed=new_seed),
            "contrast": tf.image.stateless_random_contrast(x, 0.2, 1.8, seed=seed),
            "hue": tf.image.stateless_random_hue(x, 0.3, seed=seed),
            "saturation": tf.image.stateless_random_saturation(x, 0.3, 1.7, seed=seed),
            "flip_lr": [tf.image.stateless_random_flip_left_right(x, seed=(i, 0)) for i in range(4)],
            "flip_ud_batch": tf.image.stateless_random_flip_up_down(batch, seed=(3, 4)),
            "flip_lr_batch": tf.image.stateless_random_flip_left_right(batch, seed=(5, 6))}


def program_stateless_augment_in_dataset(tf):
    ds = tf.data.Dataset.from_tensor_slices(_images(tf, 4))
    counter = tf.data.Dataset.counter()
    pairs = tf.data.Dataset.zip((ds, (counter, counter)))

    def augment(image, seed):
        image = tf.image.stateless_random_flip_left_right(image, seed)
        image = tf.image.stateless_random_brightness(image, 0.1, seed)
        return tf.clip_by_value(image, 0.0, 1.0)

    return {"images": list(pairs.map(augment))}


def program_augment_errors(tf):
    x = _images(tf)
    out = {}
    out.update(outcomes({"brightness": lambda: tf.image.stateless_random_brightness(x, -0.1, (1, 2)),
                         "contrast": lambda: tf.image.stateless_random_contrast(x, 1.0, 0.5, (1, 2)),
                         "hue": lambda: tf.image.stateless_random_hue(x, 0.7, (1, 2)),
                         "hue_random": lambda: tf.image.random_hue(x, -0.1),
                         "saturation": lambda: tf.image.random_saturation(x, -1.0, 2.0),
                         "crop": lambda: tf.image.stateless_random_crop(x, [5, 5, 3], (1, 2))}))
    return out

"""tf.image crop_to_bounding_box, pad_to_bounding_box, grayscale_to_rgb, transpose,
total_variation, image_gradients, psnr."""
from parity import tolerance


def _img(tf, shape):
    n = 1
    for s in shape:
        n *= s
    return tf.reshape(tf.cast(tf.range(n) * 7 % 11, tf.float32) / 10.0, shape)


def program_boxes(tf):
    x = _img(tf, [4, 5, 2])
    b = _img(tf, [2, 4, 5, 1])
    return {"crop": tf.image.crop_to_bounding_box(x, 1, 2, 2, 3),
            "crop_batch": tf.image.crop_to_bounding_box(b, 0, 1, 4, 2),
            "pad": tf.image.pad_to_bounding_box(x, 1, 0, 6, 7),
            "pad_batch": tf.image.pad_to_bounding_box(b, 2, 2, 6, 7),
            "round_trip": tf.image.crop_to_bounding_box(tf.image.pad_to_bounding_box(x, 1, 2, 7, 8), 1, 2, 4, 5)}


def program_crop_out_of_bounds(tf):
    return {"v": tf.image.crop_to_bounding_box(tf.zeros([4, 4, 1]), 2, 0, 3, 2)}


def program_pad_too_small(tf):
    return {"v": tf.image.pad_to_bounding_box(tf.zeros([4, 4, 1]), 1, 0, 4, 5)}


def program_layout(tf):
    g = _img(tf, [3, 2, 1])
    return {"rgb": tf.image.grayscale_to_rgb(g), "rgb_batch": tf.image.grayscale_to_rgb(_img(tf, [2, 2, 2, 1])),
            "transpose": tf.image.transpose(_img(tf, [2, 3, 2])),
            "transpose_batch": tf.image.transpose(_img(tf, [2, 3, 4, 1]))}


@tolerance(rtol=1e-5, atol=1e-5)
def program_measures(tf):
    x = _img(tf, [2, 4, 5, 3])
    y = tf.reverse(x, [2])
    dy, dx = tf.image.image_gradients(x)
    img = tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], tf.uint8)
    with tf.GradientTape() as tape:
        tape.watch(x)
        tv = tf.reduce_sum(tf.image.total_variation(x))
    return {"tv": tf.image.total_variation(x), "tv_single": tf.image.total_variation(x[0]), "tv_grad": tape.gradient(tv, x),
            "dy": dy, "dx": dx, "psnr": tf.image.psnr(x, y, max_val=1.0), "psnr_same": tf.image.psnr(x, x, 1.0),
            "psnr_uint8": tf.image.psnr(img, img + 1, 255)}


@tolerance(rtol=1e-5, atol=2e-6)
def program_color(tf):
    rgb = tf.constant([[[0.2, 0.4, 0.6], [0.9, 0.1, 0.1], [0.5, 0.5, 0.5], [0.0, 0.0, 0.0]],
                       [[0.3, 0.8, 0.2], [0.7, 0.2, 0.9], [1.0, 1.0, 0.0], [0.1, 0.6, 0.6]]])
    hsv = tf.image.rgb_to_hsv(rgb)
    u8 = tf.constant([[[10, 200, 30], [250, 5, 128]]], tf.uint8)
    with tf.GradientTape() as tape:
        tape.watch(rgb)
        loss = tf.reduce_sum(tf.image.adjust_gamma(rgb + 0.1, 2.0) * tf.constant([1.0, 2.0, 3.0]))
    return {"hsv": hsv, "back": tf.image.hsv_to_rgb(hsv),
            "hue": tf.image.adjust_hue(rgb, 0.2), "hue_neg": tf.image.adjust_hue(rgb, -0.45),
            "sat": tf.image.adjust_saturation(rgb, 0.5), "sat_up": tf.image.adjust_saturation(rgb, 3.0),
            "gamma": tf.image.adjust_gamma(rgb, 0.5, gain=2.0), "gamma_u8": tf.image.adjust_gamma(u8, 2.0),
            "gamma_grad": tape.gradient(loss, rgb),
            "hsv64": tf.image.rgb_to_hsv(tf.cast(rgb, tf.float64))}

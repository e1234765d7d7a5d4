"""tf.image as its TF 2.21 docstring examples use it: convert_image_dtype between integer
types, adjust_hue / adjust_saturation as TF's float32 kernels compute them (integer images
round trip through them), resize with preserve_aspect_ratio, and the other examples of the
module (seeded random adjustments, crops, flips, colour conversions)."""
import numpy as np

from parity import tolerance
from _sweep import outcomes


def _pixels(tf):
    return tf.constant([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]])


def _photo(tf, dtype="float32"):
    """A deterministic 6x7 RGB image in [0, 1) with grey, two-equal and pure pixels."""
    x = np.mod(np.arange(6 * 7 * 3, dtype=np.float64).reshape(6, 7, 3) * 0.61803398875, 1.0).astype(np.float32)
    x[0, :6] = [[0.5, 0.5, 0.2], [0.2, 0.5, 0.5], [0.5, 0.2, 0.5], [0.3, 0.3, 0.3], [0.5, 0.2, 0.2], [0, 0, 0]]
    return tf.constant(x)


def program_convert_image_dtype_ints(tf):
    c8 = tf.constant([[[1], [2]], [[127], [127]]], tf.int8)
    d16 = tf.constant([[[1000], [2000]], [[3000], [4000]]], tf.int16)
    neg = tf.constant([-128, -1, 0, 127], tf.int8)
    c16 = tf.image.convert_image_dtype(c8, tf.int16)
    u8 = tf.image.convert_image_dtype(d16, tf.uint8)
    out = {"up": c16, "back": tf.image.convert_image_dtype(c16, tf.int8), "down": u8,
           "down_back": tf.image.convert_image_dtype(u8, tf.int16),
           "u8_i32": tf.image.convert_image_dtype(tf.constant([0, 1, 255], tf.uint8), tf.int32),
           "u8_i8": tf.image.convert_image_dtype(tf.constant([0, 2, 100, 255], tf.uint8), tf.int8),
           "neg_wraps": tf.image.convert_image_dtype(neg, tf.uint8),
           "neg_saturates": tf.image.convert_image_dtype(neg, tf.uint8, saturate=True),
           "neg_up": tf.image.convert_image_dtype(neg, tf.int16),
           "i64_i32": tf.image.convert_image_dtype(tf.constant([0, 2 ** 40, 2 ** 62], tf.int64), tf.int32)}
    return out


def program_convert_image_dtype_floats(tf):
    u8 = tf.constant(np.arange(256, dtype=np.uint8))
    i16 = tf.constant(np.arange(-32768, 32768, 257, dtype=np.int16))
    f = tf.constant([0., 0.25, 0.5, 0.999, 1.0])
    return {"u8_f32": tf.image.convert_image_dtype(u8, tf.float32), "i16_f32": tf.image.convert_image_dtype(i16, tf.float32),
            "i16_f64": tf.image.convert_image_dtype(i16, tf.float64), "u8_f16": tf.image.convert_image_dtype(u8, tf.float16),
            "f_u8": tf.image.convert_image_dtype(f, tf.uint8), "f_i16": tf.image.convert_image_dtype(f, tf.int16),
            "f_u8_sat": tf.image.convert_image_dtype(tf.constant([-0.5, 0.5, 1.5]), tf.uint8, saturate=True),
            "f_f64": tf.image.convert_image_dtype(f, tf.float64)}


def program_adjust_hue(tf):
    x = _photo(tf)
    ints = tf.constant([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]], [[13, 14, 15], [16, 17, 18]]])
    out = {f"d{d}": tf.image.adjust_hue(x, d) for d in (0.2, -0.7, 1.0, -1.0, 0.0, 0.5, -0.33)}
    out.update({"doc": tf.image.adjust_hue(_pixels(tf), 0.2), "doc_int32": tf.image.adjust_hue(ints, 0.2),
                "uint8": tf.image.adjust_hue(tf.image.convert_image_dtype(x, tf.uint8), 0.3),
                "float64": tf.image.adjust_hue(tf.cast(x, tf.float64), 0.3),
                "tensor_delta": tf.image.adjust_hue(x, tf.constant(0.45)),
                "function": tf.function(lambda im, d: tf.image.adjust_hue(im, d))(x, tf.constant(-0.6))})
    out.update(outcomes({"float16": lambda: tf.image.adjust_hue(tf.cast(x, tf.float16), 0.1),
                         "delta_range": lambda: tf.image.adjust_hue(x, 1.5)}))
    return out


def program_adjust_saturation(tf):
    x = _photo(tf)
    out = {f"s{s}": tf.image.adjust_saturation(x, s) for s in (0.5, 2.0, 0.0, 5.0, 1.0)}
    out.update({"doc": tf.image.adjust_saturation(_pixels(tf), 0.5),
                "uint8": tf.image.adjust_saturation(tf.image.convert_image_dtype(x, tf.uint8), 1.7),
                "float64": tf.image.adjust_saturation(tf.cast(x, tf.float64), 0.3)})
    out.update(outcomes({"float16": lambda: tf.image.adjust_saturation(tf.cast(x, tf.float16), 0.1)}))
    return out


@tolerance(rtol=1e-5, atol=1e-4)
def program_resize_preserve_aspect_ratio(tf):
    image = tf.reshape(tf.range(5 * 10 * 2, dtype=tf.float32), [5, 10, 2])
    out = {}
    for size in ([10, 20], [3, 3], [7, 100], [6, 13], [100, 7]):
        for method in ("bilinear", "nearest", "area"):
            out[f"{size[0]}x{size[1]}_{method}"] = tf.image.resize(image, size, method=method, preserve_aspect_ratio=True)
    out["batch"] = tf.image.resize(tf.ones([2, 3, 7, 1]), [4, 4], preserve_aspect_ratio=True).shape
    doc = tf.ones([1, 5, 10, 1])
    out["doc"] = [tf.image.resize(doc, s, preserve_aspect_ratio=True).shape for s in ([10, 20], [10, 10], [10, 30])]
    out.update(outcomes({"zero": lambda: tf.image.resize(image, [1, 1], preserve_aspect_ratio=True),
                         "zero_size": lambda: tf.image.resize(image, [0, 3])}))
    return out


def program_seeded_adjustments(tf):
    x = _pixels(tf)
    seed = (1, 2)
    return {"brightness": tf.image.stateless_random_brightness(x, 0.2, seed),
            "contrast": tf.image.stateless_random_contrast(x, 0.2, 0.5, seed),
            "hue": tf.image.stateless_random_hue(x, 0.2, seed),
            "saturation": tf.image.stateless_random_saturation(x, 0.5, 1.0, seed),
            "crop": tf.image.stateless_random_crop(value=tf.cast(x, tf.int32), size=(1, 2, 3), seed=seed),
            "flip_lr": tf.image.stateless_random_flip_left_right(np.array([[[1], [2]], [[3], [4]]]), (2, 3)),
            "flip_ud": tf.image.stateless_random_flip_up_down(np.array([[[1], [2]], [[3], [4]]]), (2, 3)),
            "hue_photo": tf.image.stateless_random_hue(_photo(tf), 0.4, (7, 11))}


def program_geometry_and_colour(tf):
    x = _pixels(tf)
    img = tf.reshape(tf.range(1, 4 * 4 * 3 + 1, dtype=tf.float32), [4, 4, 3])
    return {"central_crop": tf.image.central_crop(img, 0.5), "flip_lr": tf.image.flip_left_right(x),
            "flip_ud": tf.image.flip_up_down(x), "rot90": tf.image.rot90(x), "rot90_3": tf.image.rot90(x, k=3),
            "transpose": tf.image.transpose(x), "grayscale": tf.image.rgb_to_grayscale(x),
            "gray_rgb": tf.image.grayscale_to_rgb(tf.image.rgb_to_grayscale(x)),
            "hsv": tf.image.rgb_to_hsv(x / 12.0), "yiq": tf.image.rgb_to_yiq(x),
            "crop_box": tf.image.crop_to_bounding_box(img, 1, 1, 2, 2), "pad_box": tf.image.pad_to_bounding_box(x, 1, 1, 4, 4),
            "crop_or_pad": tf.image.resize_with_crop_or_pad(img, 3, 5),
            "standardize": tf.image.per_image_standardization(x), "brightness": tf.image.adjust_brightness(x, 0.1),
            "contrast": tf.image.adjust_contrast(x, 2.0), "gamma": tf.image.adjust_gamma(x / 12.0, 0.2),
            "sobel": tf.image.sobel_edges(tf.expand_dims(img, 0))}

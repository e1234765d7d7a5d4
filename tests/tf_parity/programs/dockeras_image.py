"""Keras 3.15 docstring examples of keras.ops.image, with values: pad_images, extract_patches
(2-D and 3-D, strides, dilation, 'same', channels_first), sobel_edges, gaussian_blur, ssim."""
import numpy as np

from parity import tolerance

RNG = np.random.RandomState(5)
IMG = RNG.rand(2, 7, 6, 3).astype("float32")
VOL = RNG.rand(1, 5, 4, 4, 2).astype("float32")


def program_pad_images(tf):
    image = tf.keras.ops.image
    return {"target": image.pad_images(IMG, 2, 3, target_height=10, target_width=11),
            "sides": image.pad_images(IMG[0], top_padding=1, bottom_padding=0, left_padding=2, right_padding=1),
            "first": image.pad_images(np.transpose(IMG, (0, 3, 1, 2)), None, 1, 2, None, 9, 8,
                                      data_format="channels_first")}


def program_pad_images_two_of_three(tf):
    return {"v": tf.keras.ops.image.pad_images(IMG, 1, 1, 1, 1, target_height=9)}


def program_extract_patches(tf):
    image = tf.keras.ops.image
    return {"p2": image.extract_patches(IMG, 2),
            "p3_stride": image.extract_patches(IMG, (3, 2), strides=(2, 1)),
            "same": image.extract_patches(IMG[0], 3, strides=2, padding="same"),
            "dilated": image.extract_patches(IMG, 2, strides=1, dilation_rate=2),
            "first": image.extract_patches(np.transpose(IMG, (0, 3, 1, 2)), 2, data_format="channels_first")}


def program_extract_patches_3d(tf):
    image = tf.keras.ops.image
    return {"p2": image.extract_patches_3d(VOL, 2),
            "by_size": image.extract_patches(VOL[0], (2, 2, 2), strides=(3, 1, 2)),
            "first": image.extract_patches_3d(np.transpose(VOL, (0, 4, 1, 2, 3)), (1, 2, 2),
                                              data_format="channels_first")}


def program_sobel_edges(tf):
    image = tf.keras.ops.image
    return {"last": image.sobel_edges(IMG), "first": image.sobel_edges(np.transpose(IMG, (0, 3, 1, 2)),
                                                                        data_format="channels_first")}


@tolerance(rtol=1e-5, atol=1e-6)
def program_gaussian_blur(tf):
    image = tf.keras.ops.image
    return {"default": image.gaussian_blur(IMG),
            "wide": image.gaussian_blur(IMG, kernel_size=(5, 3), sigma=(2.0, 0.5)),
            "single": image.gaussian_blur(IMG[0], kernel_size=(3, 3), sigma=(1.5, 1.5)),
            "first": image.gaussian_blur(np.transpose(IMG, (0, 3, 1, 2)), data_format="channels_first"),
            "f64": image.gaussian_blur(IMG.astype("float64"))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_ssim(tf):
    image = tf.keras.ops.image
    big = RNG.rand(2, 16, 14, 3).astype("float32")
    noisy = np.clip(big + RNG.normal(0, 0.1, big.shape), 0, 1).astype("float32")
    return {"same": image.ssim(big, big, max_val=1.0), "noisy": image.ssim(big, noisy),
            "small_filter": image.ssim(big[0], noisy[0], filter_size=5, filter_sigma=1.0),
            "first": image.ssim(np.transpose(big, (0, 3, 1, 2)), np.transpose(noisy, (0, 3, 1, 2)),
                                data_format="channels_first"),
            "uint8": image.ssim((big * 255).astype("uint8"), (noisy * 255).astype("uint8"), max_val=255.0),
            "f64": image.ssim(big.astype("float64"), noisy.astype("float64"), k1=0.02, k2=0.05)}


@tolerance(rtol=1e-4, atol=1e-4)
def program_perspective_transform(tf):
    image = tf.keras.ops.image
    start = np.float32([[0, 0], [5, 0], [0, 6], [5, 6]])
    end = np.float32([[1, 0.5], [5, 1], [0, 5], [4.5, 6.5]])
    ends = np.stack([end, start + 0.5])
    return {"one": image.perspective_transform(IMG[0], start, end),
            "batch": image.perspective_transform(IMG, np.stack([start, start]), ends, fill_value=0.5),
            "nearest": image.perspective_transform(IMG, start, end, interpolation="nearest"),
            "first": image.perspective_transform(np.transpose(IMG, (0, 3, 1, 2)), start, end,
                                                 data_format="channels_first")}


def program_perspective_transform_bad_points(tf):
    return {"v": tf.keras.ops.image.perspective_transform(IMG, np.zeros((3, 2)), np.zeros((3, 2)))}

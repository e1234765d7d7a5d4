"""tf.image's structural similarity and edge maps: ssim (Wang et al. 2004, an
11x11 Gaussian window of width 1.5 by default, as TensorFlow) and sobel_edges.
Composites over depthwise_conv2d, so both have gradients."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import convert_to_tensor


def _tf():
    import tapeflow
    return tapeflow


def _gaussian_window(tf, size, sigma, channels):
    """[size, size, channels, 1]: TensorFlow's fspecial-style window (a softmax of -r^2 / 2 sigma^2)."""
    coords = tf.cast(tf.range(size), sigma.dtype) - tf.cast(size - 1, sigma.dtype) / 2.0
    g = tf.square(coords) * (-0.5 / tf.square(sigma))
    g = tf.nn.softmax(tf.reshape(tf.reshape(g, [1, -1]) + tf.reshape(g, [-1, 1]), [1, -1]))
    return tf.tile(tf.reshape(g, [size, size, 1, 1]), [1, 1, channels, 1])


def _ssim_per_channel(tf, x, y, max_val, filter_size, filter_sigma, k1, k2, return_index_map):
    hw = x.shape.as_list()[-3:-1]
    if any(d is not None and d < filter_size for d in hw):
        raise InvalidArgumentError(with_location(
            f"ssim: the images ({list(x.shape)}) must be at least filter_size={filter_size} pixels high and wide"))
    window = _gaussian_window(tf, filter_size, tf.constant(filter_sigma, x.dtype), x.shape[-1])

    def local_mean(v):
        if v.shape.is_fully_defined():     # static sizes: depthwise_conv2d in a graph needs them
            shape = v.shape.as_list()
            out = tf.nn.depthwise_conv2d(tf.reshape(v, [-1] + shape[-3:]), window, [1, 1, 1, 1], "VALID")
            return tf.reshape(out, shape[:-3] + out.shape.as_list()[1:])
        shape = tf.shape(v)
        out = tf.nn.depthwise_conv2d(tf.reshape(v, tf.concat([[-1], shape[-3:]], 0)), window, [1, 1, 1, 1], "VALID")
        return tf.reshape(out, tf.concat([shape[:-3], tf.shape(out)[1:]], 0))

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean_x, mean_y = local_mean(x), local_mean(y)
    num0 = mean_x * mean_y * 2.0
    den0 = tf.square(mean_x) + tf.square(mean_y)
    luminance = (num0 + c1) / (den0 + c1)
    cs = (local_mean(x * y) * 2.0 - num0 + c2) / (local_mean(tf.square(x) + tf.square(y)) - den0 + c2)
    if return_index_map:
        return luminance * cs, cs
    return tf.reduce_mean(luminance * cs, [-3, -2]), tf.reduce_mean(cs, [-3, -2])


def _float_images(tf, img1, img2, max_val, op):
    x, y = convert_to_tensor(img1), convert_to_tensor(img2)
    x, y = convert_to_tensor(img1), convert_to_tensor(img2)
    if x.shape.rank is not None and y.shape.rank is not None:
        if x.shape.rank < 3 or y.shape.rank < 3:
            raise ValueError(with_location(f"{op}: images must have rank >= 3, got {list(x.shape)} and {list(y.shape)}"))
        if not x.shape[-3:].is_compatible_with(y.shape[-3:]):
            raise ValueError(with_location(f"{op}: the image shapes {list(x.shape)} and {list(y.shape)} differ"))
    max_val = tf.image.convert_image_dtype(tf.cast(max_val, x.dtype), dtypes.float32)
    return tf.image.convert_image_dtype(x, dtypes.float32), tf.image.convert_image_dtype(y, dtypes.float32), max_val


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """The mean SSIM of each image of two batches [..., height, width, channels]."""
    tf = _tf()
    x, y, max_val = _float_images(tf, img1, img2, max_val, "ssim")
    per_channel, _ = _ssim_per_channel(tf, x, y, max_val, int(filter_size), filter_sigma, k1, k2, return_index_map)
    return tf.reduce_mean(per_channel, [-1])


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5, k1=0.01,
                    k2=0.03):
    """MS-SSIM: the product over scales of relu(contrast-structure) ** power (relu(SSIM) at the
    last scale), each scale a 2x2 average pool of the previous one (odd sizes padded by
    reflection first); the mean over channels."""
    tf = _tf()
    x, y, max_val = _float_images(tf, img1, img2, max_val, "ssim_multiscale")
    if None in x.shape.as_list():
        raise ValueError(with_location(f"ssim_multiscale: the image shape must be known, got {list(x.shape)}"))
    head = x.shape.as_list()[:-3]
    factors = []
    for k in range(len(power_factors)):
        if k > 0:
            h, w, c = x.shape.as_list()[-3:]
            pads = [[0, 0], [0, h % 2], [0, w % 2], [0, 0]]
            x, y = (tf.reshape(tf.nn.avg_pool(tf.pad(tf.reshape(v, [-1, h, w, c]), pads, mode="SYMMETRIC"),
                                              [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                               head + [(h + 1) // 2, (w + 1) // 2, c]) for v in (x, y))
        per_channel, cs = _ssim_per_channel(tf, x, y, max_val, int(filter_size), filter_sigma, k1, k2, False)
        factors.append(tf.nn.relu(cs))
    stacked = tf.stack(factors[:-1] + [tf.nn.relu(per_channel)], axis=-1)
    return tf.reduce_mean(tf.reduce_prod(tf.pow(stacked, tf.constant(power_factors, tf.float32)), [-1]), [-1])


_SOBEL = np.transpose(np.asarray([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],
                                  [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]), (1, 2, 0))[:, :, None, :]


def sobel_edges(image):
    """[batch, h, w, d] -> [batch, h, w, d, 2]: the vertical and horizontal Sobel responses
    of each channel (the image padded by reflection)."""
    tf = _tf()
    x = convert_to_tensor(image)
    if x.shape.rank != 4:
        raise ValueError(with_location(f"sobel_edges: expects [batch, height, width, channels], got {list(x.shape)}"))
    kernels = tf.tile(tf.constant(_SOBEL, x.dtype), [1, 1, tf.shape(x)[-1], 1])
    padded = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = tf.nn.depthwise_conv2d(padded, kernels, [1, 1, 1, 1], "VALID")
    return tf.reshape(out, tf.concat([tf.shape(x), [2]], 0))

"""Projective image transforms as TensorFlow's ImageProjectiveTransformV3 kernel computes
them (the op behind keras.ops.image.affine_transform and Keras's RandomRotation, RandomZoom
and RandomTranslation), composed from tapeflow ops so it runs eagerly, traced and under the
tape (the gradient w.r.t. the images flows through the gathers).

A transform row [a0, a1, a2, b0, b1, b2, c0, c1] maps OUTPUT pixel (x, y) to the input point
((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1: it is the inverse of
the motion the image makes.  The gradient w.r.t. the images is TF's: the upstream gradient
resampled through the INVERSE transform (fill 0), an approximation of the true adjoint that
TF's training through augmentation layers sees.

Traps, all TF's own: coordinates are float32 whatever the image dtype (the pixel values are
read as float32 and the result cast back, so integer images truncate); the fill mode maps
coordinates BEFORE interpolation (reflect is d c b a | a b c d | d c b a, around the pixel
edges) and clamps it to [0, n - 1], except in constant mode, which leaves it alone; nearest
rounds halves away from zero; bilinear reads its four corners with fill_value outside the
image (so in constant mode the edges blend into the fill); a zero projection is fill_value.
"""
import tapeflow as tf
from tapeflow.runtime.errors import with_location

INTERPOLATIONS = ("nearest", "bilinear")
FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def _trunc(v):
    """C's static_cast<int64>(float): toward zero."""
    return tf.cast(tf.cast(v, tf.int64), tf.float32)


def _map_coordinate(coord, n, fill_mode):
    """Out-of-image float coordinates moved inside per fill_mode (TF's MapCoordinate)."""
    n_f = float(n)
    if fill_mode == "constant":
        return coord
    if fill_mode == "nearest" or n <= 1:
        return tf.clip_by_value(coord, 0.0, n_f - 1.0) if n > 1 else tf.zeros_like(coord)
    if fill_mode == "reflect":
        sz2 = 2.0 * n_f
        low = sz2 * _trunc(-coord / sz2) + coord
        low = tf.where(low < -n_f, low + sz2, -low - 1.0)
        high = coord - sz2 * _trunc(coord / sz2)
        high = tf.where(high >= n_f, sz2 - high - 1.0, high)
    else:  # wrap
        sz = n_f - 1.0
        low = coord + n_f * (_trunc(-coord / sz) + 1.0)
        high = coord - n_f * _trunc(coord / sz)
    mapped = tf.where(coord < 0.0, low, tf.where(coord > n_f - 1.0, high, coord))
    return tf.clip_by_value(mapped, 0.0, n_f - 1.0)


def _round_half_away(v):
    return tf.sign(v) * tf.floor(tf.abs(v) + 0.5)


def _invert(transforms):
    """The flat rows of the inverse matrices (TF's flat_transforms_to_matrices, matrix_inverse,
    matrices_to_flat_transforms: each divided by its last entry)."""
    ones = tf.ones(tf.stack([tf.shape(transforms)[0], 1]), tf.float32)
    matrices = tf.reshape(tf.concat([transforms, ones], axis=1), [-1, 3, 3])
    flat = tf.reshape(tf.linalg.inv(matrices), [-1, 9])
    return (flat / flat[:, 8:9])[:, :8]


def projective_transform(images, transforms, interpolation="bilinear", fill_mode="constant",
                         fill_value=0.0, output_shape=None):
    """images (batch, height, width, channels); transforms (1 or batch, 8); output_shape
    (height, width) of the result, the input's by default."""
    images = tf.convert_to_tensor(images)
    transforms = tf.cast(tf.convert_to_tensor(transforms), tf.float32)
    if interpolation not in INTERPOLATIONS or fill_mode not in FILL_MODES:
        raise ValueError(with_location(
            f"ImageProjectiveTransformV3: interpolation must be one of {INTERPOLATIONS} and fill_mode one of "
            f"{FILL_MODES}, got interpolation={interpolation!r}, fill_mode={fill_mode!r}"))
    if images.shape.rank != 4 or transforms.shape.rank != 2 or transforms.shape[1] not in (None, 8):
        raise ValueError(with_location(
            f"ImageProjectiveTransformV3: images must be (batch, height, width, channels) and transforms "
            f"(batch, 8), got shapes {images.shape} and {transforms.shape}"))
    height, width = images.shape[1], images.shape[2]
    if height is None or width is None:
        raise ValueError(with_location(
            f"ImageProjectiveTransformV3: the image height and width must be known, got shape {images.shape}"))
    size = (height, width) if output_shape is None else (int(output_shape[0]), int(output_shape[1]))
    if not images.dtype.is_floating:
        return _resample(images, transforms, interpolation, fill_mode, fill_value, size)

    @tf.custom_gradient
    def warp(x):
        def grad(dy):
            return _resample(dy, _invert(transforms), interpolation, fill_mode, 0.0, (height, width))
        return _resample(x, transforms, interpolation, fill_mode, fill_value, size), grad

    return warp(images)


def _resample(images, transforms, interpolation, fill_mode, fill_value, size):
    height, width = images.shape[1], images.shape[2]
    out_h, out_w = size
    batch = tf.shape(images)[0]
    pixels = tf.cast(images, tf.float32)
    fill = tf.cast(fill_value, tf.float32)
    t = [transforms[:, i][:, None, None] for i in range(8)]  # each (1 or batch, 1, 1)
    ys = tf.cast(tf.range(out_h), tf.float32)[None, :, None]
    xs = tf.cast(tf.range(out_w), tf.float32)[None, None, :]
    projection = t[6] * xs + t[7] * ys + 1.0
    safe = tf.where(projection == 0.0, tf.ones_like(projection), projection)
    x = _map_coordinate((t[0] * xs + t[1] * ys + t[2]) / safe, width, fill_mode)
    y = _map_coordinate((t[3] * xs + t[4] * ys + t[5]) / safe, height, fill_mode)
    valid = projection != 0.0
    grid = tf.stack([batch, out_h, out_w])  # one transform row broadcasts over the batch
    x, y, valid = (tf.broadcast_to(v, grid) for v in (x, y, valid))
    b_index = tf.broadcast_to(tf.range(batch)[:, None, None], grid)

    def read(yi, xi):
        """The pixels at integer float coordinates, fill_value outside the image: (batch, h, w, c)."""
        inside = (yi >= 0.0) & (yi < float(height)) & (xi >= 0.0) & (xi < float(width))
        yc = tf.cast(tf.clip_by_value(yi, 0.0, height - 1.0), tf.int32)
        xc = tf.cast(tf.clip_by_value(xi, 0.0, width - 1.0), tf.int32)
        values = tf.gather_nd(pixels, tf.stack([b_index, yc, xc], axis=-1))
        return tf.where(inside[..., None], values, fill)

    if interpolation == "nearest":
        value = read(_round_half_away(y), _round_half_away(x))
    else:
        y0, x0 = tf.floor(y), tf.floor(x)
        y1, x1 = y0 + 1.0, x0 + 1.0
        wx0, wx1 = (x1 - x)[..., None], (x - x0)[..., None]
        top = wx0 * read(y0, x0) + wx1 * read(y0, x1)
        bottom = wx0 * read(y1, x0) + wx1 * read(y1, x1)
        value = (y1 - y)[..., None] * top + (y - y0)[..., None] * bottom
    value = tf.where(valid[..., None], value, fill)
    return tf.cast(value, images.dtype)

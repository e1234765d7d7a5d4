"""tf.image.adjust_jpeg_quality and its random / stateless random versions: a JPEG round trip
through tapeflow's codec (TensorFlow's bytes), in uint8, back to the image's dtype.  A quality
only known when the graph runs goes through numpy_function (the codec's quality is fixed per
call; a switch over 101 encoders compiled for minutes)."""
from tapeflow.runtime.errors import InvalidArgumentError, with_location


def _tf():
    import tapeflow
    return tapeflow


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """image [h, w, 1 or 3] encoded as JPEG at jpeg_quality (0..100) and decoded again."""
    tf = _tf()
    x = tf.convert_to_tensor(image)
    if x.shape.rank != 3 or x.shape[-1] not in (1, 3):
        raise InvalidArgumentError(with_location(
            f"adjust_jpeg_quality: image must be [height, width, 1 or 3], got {list(x.shape)}"))
    pixels = tf.image.convert_image_dtype(x, tf.uint8, saturate=True)
    quality = tf.convert_to_tensor(jpeg_quality, tf.int32)
    known = tf.get_static_value(quality)

    def round_trip(q):
        return tf.io.decode_jpeg(tf.io.encode_jpeg(pixels, quality=q), channels=x.shape[-1], dct_method=dct_method)

    if known is not None:
        if not 0 <= int(known) <= 100:
            raise InvalidArgumentError(with_location(f"adjust_jpeg_quality: quality must be in [0,100], got {known}"))
        out = round_trip(int(known))
    else:
        def run(values, q):
            if not 0 <= int(q) <= 100:
                raise InvalidArgumentError(f"adjust_jpeg_quality: quality must be in [0,100], got {int(q)}")
            return tf.io.decode_jpeg(tf.io.encode_jpeg(values, quality=int(q)), channels=x.shape[-1],
                                     dct_method=dct_method).numpy()

        out = tf.numpy_function(run, [pixels, quality], tf.uint8)
        out.set_shape(x.shape)
    return tf.image.convert_image_dtype(out, x.dtype, saturate=True)


def _check_range(low, high):
    if min(low, high) < 0 or max(low, high) > 100:
        raise ValueError(with_location("jpeg encoding range must be between 0 and 100."))
    if low >= high:
        raise ValueError(with_location("`min_jpeg_quality` must be less than `max_jpeg_quality`."))


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality at a quality drawn uniformly from [min, max)."""
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = _tf().random.uniform([], min_jpeg_quality, max_jpeg_quality, _tf().int32, seed=seed)
    return adjust_jpeg_quality(image, quality)


def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """adjust_jpeg_quality at a quality drawn by stateless_random_uniform from [min, max)."""
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = _tf().random.stateless_uniform([], seed, min_jpeg_quality, max_jpeg_quality, _tf().int32)
    return adjust_jpeg_quality(image, quality)

"""tf.image.sample_distorted_bounding_box / stateless_sample_distorted_bounding_box: TensorFlow's
crops for a seed (repeated calls continue the op's stream), with boxes, without boxes, tight
constraints that fall back to the whole image, dtypes, and errors."""


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


_BOXES = [[[0.1, 0.2, 0.5, 0.7], [0.3, 0.3, 0.9, 0.8]]]


def program_stateless_crops(tf):
    out = {}
    for seed in ([1, 2], [7, 11], [123, 4]):
        out[str(seed)] = tf.image.stateless_sample_distorted_bounding_box(
            tf.constant([480, 640, 3]), tf.constant(_BOXES), seed=seed, min_object_covered=0.3)
    out["ranges"] = tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([100, 37, 1], tf.int64), tf.zeros([1, 0, 4]), seed=[3, 5], aspect_ratio_range=(0.5, 2.0),
        area_range=(0.2, 0.6), max_attempts=20, use_image_if_no_bounding_boxes=True)
    out["uint8"] = tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([200, 150, 3], tf.uint8), tf.constant(_BOXES), seed=[9, 9], min_object_covered=0.0)
    out["impossible"] = tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([50, 60, 3]), tf.constant([[[0.0, 0.0, 1.0, 1.0]]]), seed=[1, 1], min_object_covered=1.0,
        area_range=(0.05, 0.5), max_attempts=5)
    return out


def program_stateful_crops(tf):
    draws = [tf.image.sample_distorted_bounding_box(tf.constant([300, 200, 3]), tf.constant(_BOXES), seed=42,
                                                    min_object_covered=0.2) for _ in range(3)]
    tf.random.set_seed(5)
    seeded = tf.image.sample_distorted_bounding_box(tf.constant([64, 64, 3]), tf.constant(_BOXES), seed=3,
                                                    area_range=(0.3, 1.0))
    return {"draws": draws, "global": seeded}


def program_distorted_box_errors_and_function(tf):
    size = tf.constant([64, 48, 3])
    out = {"no_boxes": _outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
               size, tf.zeros([1, 0, 4]), seed=[1, 2])),
           "box_out_of_range": _outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
               size, tf.constant([[[0.0, 0.0, 1.5, 1.0]]]), seed=[1, 2])),
           "area_above_one": _outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
               size, tf.constant(_BOXES), seed=[1, 2], area_range=(0.5, 1.5))),
           "float_size": _outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
               tf.constant([64.0, 48.0, 3.0]), tf.constant(_BOXES), seed=[1, 2]))}

    @tf.function
    def crop(image, seed):
        begin, extent, _ = tf.image.stateless_sample_distorted_bounding_box(tf.shape(image), tf.constant(_BOXES),
                                                                            seed=seed)
        return tf.slice(image, begin, extent)
    out["sliced_shape"] = crop(tf.zeros([64, 48, 3]), tf.constant([4, 4])).shape
    return out

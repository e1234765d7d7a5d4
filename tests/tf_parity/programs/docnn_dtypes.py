"""Dtype variants of the tf.nn / tf.image / tf.random / tf.ragged docstring examples: the
same calls on bfloat16, float16, float64 and integer inputs, where TF converts (grayscale,
standardization, leaky_relu), refuses (gamma's dtypes) or just computes (bfloat16 pooling
and ragged maxima, integer Poisson rates)."""
import numpy as np

from _sweep import outcomes


def _image(tf, dtype):
    x = np.mod(np.arange(2 * 5 * 6 * 3).reshape(2, 5, 6, 3) * 0.618, 1.0)
    if dtype in ("uint8", "int32", "int64"):
        x = np.round(x * 255)
    return tf.constant(x.astype("float64"), dtype=getattr(tf, dtype))


def program_bfloat16_maxima(tf):
    x = _image(tf, "bfloat16")
    return {"max_pool": tf.nn.max_pool2d(x, 2, 2, "SAME"),
            "max_pool_explicit": tf.nn.max_pool2d(x, 2, 2, [[0, 0], [1, 0], [0, 1], [0, 0]]),
            "ragged_max": tf.reduce_max(tf.ragged.constant([[1, 2], [3], []], dtype=tf.bfloat16), 1),
            "ragged_min": tf.reduce_min(tf.ragged.constant([[1, 2], [], [3]], dtype=tf.bfloat16), 1),
            "unsorted_max": tf.math.unsorted_segment_max(tf.constant([1., 2, 3], tf.bfloat16), [0, 0, 2], 3),
            "unsorted_min_int8": tf.math.unsorted_segment_min(tf.constant([1, 2, 3], tf.int8), [0, 0, 2], 3)}


def program_grayscale_and_standardization(tf):
    out = {}
    for dtype in ("float16", "bfloat16", "float32", "float64", "int32", "uint8", "int64"):
        x = _image(tf, dtype)
        out[f"gray_{dtype}"] = tf.image.rgb_to_grayscale(x)
        out[f"std_{dtype}"] = tf.image.per_image_standardization(x)
    return out


def program_leaky_relu_dtypes(tf):
    v = [-3, -1, 0, 2, 7]
    return {d: tf.nn.leaky_relu(tf.constant(v, dtype=getattr(tf, d)), alpha=0.3)
            for d in ("int32", "int64", "uint8", "float16", "bfloat16", "float64")}


def program_poisson_gamma_dtypes(tf):
    out = {"stateless_int_lam": tf.random.stateless_poisson([2, 3], [1, 2], tf.constant([1, 40, 9]), dtype=tf.float32),
           "stateless_int64_lam": tf.random.stateless_poisson([3], [1, 2], tf.constant([1, 4, 9], tf.int64), dtype=tf.int32),
           "seeded_int_lam": tf.random.poisson([3], tf.constant([1, 4, 90]), seed=1)}
    out.update(outcomes({
        "gamma_int_floats": lambda: tf.random.stateless_gamma([3], [1, 2], [1., 2, 3], dtype=tf.int32),
        "gamma_int": lambda: tf.random.stateless_gamma([3], [1, 2], [1, 2, 3], dtype=tf.int32),
        "gamma_bfloat16": lambda: tf.random.stateless_gamma([3], [1, 2], [1., 2, 3], dtype=tf.bfloat16),
        "seeded_gamma_int": lambda: tf.random.gamma([3], [1, 2, 3], dtype=tf.int32, seed=2)}))
    return out


def program_refused_dtypes(tf):
    ints = tf.constant([[3, 1, 2, 0], [1, 5, 2, 2]])
    img = tf.constant(np.ones([1, 2, 2, 3]), tf.int32)
    return outcomes({
        "gelu_int": lambda: tf.nn.gelu(ints), "dropout_int": lambda: tf.nn.dropout(ints, rate=0.0),
        "l2_normalize_int": lambda: tf.nn.l2_normalize(ints, axis=1),
        "weighted_ce_int": lambda: tf.nn.weighted_cross_entropy_with_logits(ints, ints, 2.0),
        "in_top_k_float64": lambda: tf.nn.in_top_k([1, 0], tf.cast(ints, tf.float64), 2),
        "in_top_k_int": lambda: tf.nn.in_top_k([1, 0], ints, 2),
        "in_top_k_float32": lambda: tf.nn.in_top_k([1, 0], tf.cast(ints, tf.float32), 2),
        "avg_pool_int": lambda: tf.nn.avg_pool2d(img, 2, 1, "VALID"),
        "rgb_to_hsv_int": lambda: tf.image.rgb_to_hsv(img), "hsv_to_rgb_int": lambda: tf.image.hsv_to_rgb(img),
        "bincount_float": lambda: tf.sparse.bincount(tf.cast(ints, tf.float32), axis=-1),
        "contrast_float16": lambda: tf.image.adjust_contrast(tf.cast(img, tf.float16), 1.5),
        "stateless_contrast_float16": lambda: tf.image.stateless_random_contrast(tf.cast(img, tf.float16), 0.2, 0.5, (1, 2))})

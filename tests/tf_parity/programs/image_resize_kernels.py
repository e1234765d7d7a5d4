"""tf.image.resize through TF's ScaleAndTranslate sampling: lanczos3/5, gaussian, mitchellcubic, area, plain bicubic (TF's 1024-step coefficient table),
and antialiased bilinear/bicubic/lanczos/gaussian/mitchellcubic, up and down, values, dtypes and
shapes, in tf.function and with a gradient; nearest ignores antialias as TF does."""
import numpy as np
from parity import tolerance

_IMG = (np.arange(2 * 5 * 7 * 3, dtype=np.float32).reshape(2, 5, 7, 3) % 11) / 10.0


@tolerance(rtol=1e-5, atol=2e-6)
def program_resize_sampling_kernels(tf):
    img = tf.constant(_IMG)
    out = {}
    for m in ("lanczos3", "lanczos5", "gaussian", "mitchellcubic"):
        out[m] = [tf.image.resize(img, [8, 4], method=m), tf.image.resize(img[0], [3, 10], method=m)]
    for m in ("bilinear", "bicubic", "lanczos3", "gaussian", "mitchellcubic"):
        out["aa_" + m] = tf.image.resize(img, [3, 4], method=m, antialias=True)
    out["aa_nearest"] = tf.image.resize(img, [3, 4], method="nearest", antialias=True)
    out["area"] = [tf.image.resize(img, size, method="area") for size in ([3, 2], [4, 4], [10, 3], [2, 9])]
    out["aa_area"] = tf.image.resize(img, [3, 4], method="area", antialias=True)
    out["bicubic"] = [tf.image.resize(img, size, method="bicubic") for size in ([8, 4], [3, 9], [5, 7], [12, 2])]
    out["uint8_dtype"] = tf.image.resize(tf.cast(img * 20, tf.uint8), [4, 4], method="lanczos3").dtype
    return out


@tolerance(rtol=1e-5, atol=2e-6)
def program_resize_kernels_traced_and_differentiated(tf):
    img = tf.constant(_IMG[:1])
    f = tf.function(lambda x: tf.image.resize(x, [4, 9], method="lanczos3", antialias=True))
    with tf.GradientTape() as t:
        t.watch(img)
        y = tf.reduce_sum(tf.image.resize(img, [3, 3], method="mitchellcubic", antialias=True) ** 2)
    return {"graph": f(img), "grad": t.gradient(y, img)}

"""tf.image.adjust_jpeg_quality, random_jpeg_quality and stateless_random_jpeg_quality as TF
2.21 computes them: uint8/float images, gray, seeded draws, graphs (a quality known only when
the graph runs), errors."""
import numpy as np


def _catch(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        return type(e).__name__


def program_jpeg_quality(tf):
    rng = np.random.RandomState(0)
    x = rng.randint(0, 256, (8, 9, 3)).astype(np.uint8)
    tf.random.set_seed(3)
    out = {"q30": tf.image.adjust_jpeg_quality(x, 30),
           "float": tf.image.adjust_jpeg_quality(x.astype(np.float32) / 255, 70),
           "gray": tf.image.adjust_jpeg_quality(x[..., :1], 50),
           "stateless": tf.image.stateless_random_jpeg_quality(x, 20, 80, seed=(1, 2)),
           "random": tf.image.random_jpeg_quality(x, 20, 80, seed=4),
           "graph_const": tf.function(lambda v: tf.image.adjust_jpeg_quality(v, 40))(x),
           "graph_stateless": tf.function(
               lambda v, s: tf.image.stateless_random_jpeg_quality(v, 10, 90, seed=s))(x, tf.constant([5, 6])),
           "graph_quality": tf.function(lambda v, q: tf.image.adjust_jpeg_quality(v, q))(x, tf.constant(15)),
           "batched": _catch(lambda: tf.image.adjust_jpeg_quality(np.stack([x, x]), 50)),
           "graph_quality_150": _catch(
               lambda: tf.function(lambda v, q: tf.image.adjust_jpeg_quality(v, q))(x, tf.constant(150))),
           "quality_150": _catch(lambda: tf.image.adjust_jpeg_quality(x, 150)),
           "bad_range": _catch(lambda: tf.image.random_jpeg_quality(x, 80, 20)),
           "out_of_range": _catch(lambda: tf.image.stateless_random_jpeg_quality(x, 20, 120, seed=(1, 2)))}
    return out

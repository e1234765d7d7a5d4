"""tf.math.sobol_sample: TensorFlow's points for every listed dimension (up to 21), skips,
float32/float64, the error for no results."""
from parity import tolerance


@tolerance(rtol=1e-7, atol=1e-7)
def program_sobol(tf):
    return {"dim3": tf.math.sobol_sample(3, 5), "dim10_skip": tf.math.sobol_sample(10, 3, skip=4, dtype=tf.float64),
            "dim21": tf.math.sobol_sample(21, 40, dtype=tf.float64),
            "dim21_skip": tf.math.sobol_sample(21, 7, skip=1000), "empty": _outcome(lambda: tf.math.sobol_sample(2, 0))}


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__

"""tf.math special functions (erfc, erfinv, ndtri, erfcinv, lbeta, cumulative_logsumexp,
nextafter) with their gradients, eager and inside tf.function."""
from parity import tolerance


def _grad(tf, fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(fn(x))
    return tape.gradient(y, x)


@tolerance(rtol=2e-5, atol=1e-6)
def program_erfc(tf):
    x32 = tf.constant([-3.0, -0.5, 0.0, 0.3, 1.0, 2.5, 5.0, 9.0, 12.0])
    x64 = tf.constant([0.0, 1.0, 5.0, 10.0, 26.0, -1.5], tf.float64)
    return {"f32": tf.math.erfc(x32), "f64": tf.math.erfc(x64), "grad": _grad(tf, tf.math.erfc, x64),
            "traced": tf.function(tf.math.erfc)(x32)}


@tolerance(rtol=2e-5, atol=1e-6)
def program_erfinv_ndtri(tf):
    y = tf.constant([-1.0, -0.999, -0.5, -0.1, 0.0, 0.25, 0.75, 0.9999, 1.0, 1.5, -2.0])
    p = tf.constant([0.0, 1e-300, 1e-12, 0.001, 0.3, 0.5, 0.8, 0.999999, 1.0, -0.1, 1.1], tf.float64)
    g = tf.constant([-0.9, -0.2, 0.1, 0.6], tf.float64)
    q = tf.constant([0.01, 0.4, 0.7, 0.99], tf.float64)
    return {"erfinv": tf.math.erfinv(y), "erfinv64": tf.math.erfinv(tf.cast(y, tf.float64)),
            "ndtri": tf.math.ndtri(p), "ndtri32": tf.math.ndtri(tf.cast(p, tf.float32)),
            "erfcinv": tf.math.erfcinv(tf.constant([0.0, 0.1, 0.5, 1.0, 1.7, 2.0, 2.5])),
            "erfinv_grad": _grad(tf, tf.math.erfinv, g), "ndtri_grad": _grad(tf, tf.math.ndtri, q),
            "traced": tf.function(tf.math.ndtri)(tf.constant([0.2, 0.6]))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_lbeta(tf):
    x = tf.constant([[1.0, 2.0], [0.5, 0.5], [3.0, 4.5]], tf.float64)
    return {"lbeta": tf.math.lbeta(x), "one_axis": tf.math.lbeta(tf.constant([2.0, 3.0, 4.0])),
            "empty": tf.math.lbeta(tf.zeros([2, 0])), "grad": _grad(tf, tf.math.lbeta, x)}


@tolerance(rtol=1e-5, atol=1e-5)
def program_cumulative_logsumexp(tf):
    x = tf.constant([[-1000.0, 0.0, 1000.0, 1.0], [1.0, 1.0, 2.0, -3.0]])
    x64 = tf.constant([0.5, -2.0, 3.0, 3.0, 1.0], tf.float64)
    f = tf.function(lambda v: tf.math.cumulative_logsumexp(v, axis=1, reverse=True))
    return {"axis0": tf.math.cumulative_logsumexp(x), "axis1": tf.math.cumulative_logsumexp(x, axis=1),
            "exclusive": tf.math.cumulative_logsumexp(x64, exclusive=True),
            "reverse_exclusive": tf.math.cumulative_logsumexp(x64, exclusive=True, reverse=True),
            "grad": _grad(tf, tf.math.cumulative_logsumexp, x64), "traced": f(x),
            "one": tf.math.cumulative_logsumexp(tf.constant([7.0]))}


def program_nextafter(tf):
    x = tf.constant([1.0, 0.0, -1.0, 3.0])
    y = tf.constant([2.0, -1.0, -1.0, 0.0])
    d = tf.constant([1.0, 1e300], tf.float64)
    return {"f32": tf.math.nextafter(x, y), "f64": tf.math.nextafter(d, tf.constant(0.0, tf.float64)),
            "gap": tf.math.nextafter(x, y) - x}

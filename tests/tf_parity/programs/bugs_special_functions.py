"""Modified Bessel functions tf.math.bessel_i0/i0e/i1/i1e (and tf.math.special.*): TF's
values and gradients (issue #11)."""
import numpy as np

from parity import tolerance

_X = [-60.0, -31.0, -12.5, -1.0, -1e-3, 0.0, 1e-3, 0.5, 2.0, 7.0, 29.0, 30.5, 80.0, 700.0]


@tolerance(rtol=2e-6, atol=1e-12)
def program_bessel_values_float64(tf):
    x = tf.constant(_X, tf.float64)
    m = tf.math
    return {"i0e": m.bessel_i0e(x), "i1e": m.bessel_i1e(x), "i0": m.bessel_i0(x[1:-1]), "i1": m.bessel_i1(x[1:-1])}


@tolerance(rtol=2e-6, atol=1e-12)
def program_bessel_values_float32_and_special(tf):
    x = tf.constant(_X[1:-2], tf.float32)
    s = tf.math.special
    return {"i0e": s.bessel_i0e(x), "i1e": s.bessel_i1e(x), "i0": s.bessel_i0(x), "i1": s.bessel_i1(x),
            "same": tf.math.bessel_i0 is tf.math.special.bessel_i0}


@tolerance(rtol=1e-6, atol=1e-10)
def program_bessel_gradients(tf):
    # Not at 0 for bessel_i1: TF's rule imputes 1.0 there, tapeflow gives the derivative I1'(0) = 0.5
    # (a deliberate difference; bessel_i1e's 0.5 at 0 agrees).
    out = {}
    for name in ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"):
        x = tf.constant([-3.0, -0.5, 0.25, 2.0, 35.0] + ([] if name == "bessel_i1" else [0.0]), tf.float64)
        with tf.GradientTape() as t:
            t.watch(x)
            y = getattr(tf.math, name)(x)
        out[name] = t.gradient(y, x)
    return out


@tolerance(rtol=1e-6, atol=1e-10)
def program_bessel_in_function(tf):
    f = tf.function(lambda x: (tf.math.bessel_i0e(x), tf.math.bessel_i1(x)))
    return {"out": f(tf.constant(np.linspace(-5.0, 5.0, 7)))}


def program_bessel_rejects_integers(tf):
    return {"y": tf.math.bessel_i0(tf.constant([1, 2]))}

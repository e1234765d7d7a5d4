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


_A = [0.5, 1.0, 3.0, 10.0, 100.0, 2.5, 0.1]
_XG = [0.2, 1.0, 5.0, 9.0, 110.0, 0.0, 30.0]


@tolerance(rtol=1e-9, atol=1e-12)
def program_zeta_and_polygamma_float64(tf):
    x = tf.constant([2.0, 3.0, 1.5, 0.5, 1.0, 4.0, 2.0, 3.0], tf.float64)
    q = tf.constant([1.0, 2.0, 0.5, 1.0, 1.0, 20.0, -1.0, -1.5], tf.float64)
    n = tf.constant([0.0, 1.0, 2.0, 3.0, 1.5, 4.0, -1.0], tf.float64)
    y = tf.constant([1.0, 2.0, 0.5, 3.0, 1.0, 7.5, 2.0], tf.float64)
    return {"zeta": tf.math.zeta(x, q), "polygamma": tf.math.polygamma(n, y),
            "poly_int": tf.math.polygamma(2, tf.constant([0.25, 4.0], tf.float64))}


@tolerance(rtol=3e-5, atol=1e-6)
def program_special_float32(tf):
    a, x = tf.constant(_A), tf.constant(_XG)
    return {"zeta": tf.math.zeta(tf.constant([2.0, 3.0, 6.0]), tf.constant([1.0, 2.0, 0.3])),
            "igamma": tf.math.igamma(a, x), "igammac": tf.math.igammac(a, x),
            "betainc": tf.math.betainc(tf.constant([0.5, 1.0, 3.0, 10.0]), tf.constant([0.5, 2.0, 1.0, 20.0]),
                                       tf.constant([0.2, 0.5, 0.9, 0.3]))}


@tolerance(rtol=1e-9, atol=1e-12)
def program_igamma_betainc_float64(tf):
    a, x = tf.constant(_A, tf.float64), tf.constant(_XG, tf.float64)
    bad = tf.constant([-1.0, 0.0, 2.0], tf.float64), tf.constant([1.0, 1.0, -1.0], tf.float64)
    return {"igamma": tf.math.igamma(a, x), "igammac": tf.math.igammac(a, x), "bad": tf.math.igamma(*bad),
            "inf": tf.math.igamma(tf.constant(2.0, tf.float64), tf.constant(float("inf"), tf.float64)),
            "betainc": tf.math.betainc(tf.constant([0.5, 1.0, 3.0, 10.0, 2.0, 2.0], tf.float64),
                                       tf.constant([0.5, 2.0, 1.0, 20.0, 3.0, 3.0], tf.float64),
                                       tf.constant([0.2, 0.5, 0.9, 0.3, 0.0, 1.0], tf.float64))}


@tolerance(rtol=1e-8, atol=1e-10)
def program_special_gradients(tf):
    a, x = tf.constant([0.5, 2.0, 7.0], tf.float64), tf.constant([0.3, 1.5, 9.0], tf.float64)
    b = tf.constant([1.5, 2.0, 3.0], tf.float64)
    u = tf.constant([0.2, 0.5, 0.7], tf.float64)
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, u])
        zq = tf.math.zeta(tf.constant([2.0, 3.0, 4.5], tf.float64), x)
        lower, upper = tf.math.igamma(a, x), tf.math.igammac(a, x)
        beta = tf.math.betainc(a, b, u)
        poly = tf.math.polygamma(tf.constant([2.0, 3.0, 0.0], tf.float64), x)
    return {"zeta_q": t.gradient(zq, x), "igamma_x": t.gradient(lower, x), "igammac_x": t.gradient(upper, x),
            "betainc_x": t.gradient(beta, u), "polygamma_x": t.gradient(poly, x)}


@tolerance(rtol=1e-8, atol=1e-10)
def program_special_in_function(tf):
    f = tf.function(lambda a, x: (tf.math.igamma(a, x), tf.math.zeta(a + 1.0, x), tf.math.betainc(a, a, x / 10.0)))
    return {"out": f(tf.constant([1.0, 2.0, 3.0], tf.float64), tf.constant([0.5, 2.0, 4.0], tf.float64))}

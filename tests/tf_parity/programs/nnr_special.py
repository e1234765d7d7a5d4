"""tf.math.special's Bessel (J, Y, K, scaled K), Dawson, Ei, Fresnel and Spence functions:
values across every region of our evaluation (series, quadrature, expansions), float16/32/64,
the values TensorFlow gives outside each domain, gradients, tf.function, a bad dtype."""
import numpy as np
from parity import tolerance

_NAMES = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k1", "bessel_k0e",
          "bessel_k1e", "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]
_X = np.concatenate([[1e-6, 0.01, 0.3, 0.9, 1.0, 1.5, 1.99, 2.0, 2.01, 2.4048, 3.7, 5.5, 7.99, 8.0, 8.01, 11.3, 16.5,
                      19.9, 20.1, 24.9, 25.1, 33.3, 39.9, 40.1, 77.0, 150.0, 600.0],
                     [-1e-6, -0.3, -1.0, -2.6, -7.0, -9.0, -30.0]])
_EDGES = [0.0, -0.0, np.inf, -np.inf, np.nan]


@tolerance(rtol=2e-10, atol=1e-12)
def program_special_float64(tf):
    x = tf.constant(_X, tf.float64)
    return {name: getattr(tf.math.special, name)(x) for name in _NAMES}


@tolerance(rtol=1e-5, atol=5e-6)   # TF's float32 kernels err by up to ~2e-6 (ours: float64 rounded once)
def program_special_float32(tf):
    x = tf.constant(_X[(_X > -8) & (_X < 80)], tf.float32)
    return {name: getattr(tf.math.special, name)(x) for name in _NAMES}


def program_special_edges(tf):
    x = tf.constant(_EDGES, tf.float64)
    return {name: getattr(tf.math.special, name)(x) for name in _NAMES}


@tolerance(rtol=2e-3, atol=1e-3)
def program_special_float16(tf):
    x = tf.constant([0.25, 1.5, 3.0, 9.0], tf.float16)
    out = {}
    for name in _NAMES:
        try:
            out[name] = getattr(tf.math.special, name)(x)
        except Exception as exc:  # noqa: BLE001 - the class is what is compared
            out[name] = type(exc).__name__
    return out


@tolerance(rtol=1e-9, atol=1e-11)
def program_special_gradients(tf):
    x = tf.constant([0.2, 1.0, 1.7, 4.5, 12.0, 30.0], tf.float64)
    out = {}
    for name in _NAMES:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = getattr(tf.math.special, name)(x)
        out[name] = tape.gradient(y, x)
    at_special = tf.constant([0.0, 1.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(at_special)
        j1, sp = tf.math.special.bessel_j1(at_special), tf.math.special.spence(at_special)
    out["j1_at_0"] = tape.gradient(j1, at_special)
    out["spence_at_1"] = tape.gradient(sp, at_special)
    return out


@tolerance(rtol=1e-6, atol=1e-7)
def program_special_in_function_and_errors(tf):
    @tf.function
    def f(x):
        return tf.math.special.bessel_k1(x) + tf.math.special.fresnel_sin(x) * tf.math.special.dawsn(x)
    try:
        tf.math.special.bessel_j0(tf.constant([1, 2]))
        int_input = "ok"
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        int_input = type(exc).__name__
    y = f(tf.constant([[0.5, 2.5], [9.0, 21.0]]))
    return {"traced": y, "shape": y.shape, "int_input": int_input,
            "ragged_free_shape": tf.math.special.spence(tf.zeros([2, 0, 3])).shape}

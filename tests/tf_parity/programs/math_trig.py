"""Inverse trigonometric and hyperbolic functions, values and gradients, eagerly
and inside tf.function."""
from parity import tolerance

_X = [-0.9, -0.3, 0.0, 0.25, 0.8]
_NAMES = ["sinh", "asin", "acos", "atan", "asinh", "atanh"]


@tolerance(rtol=2e-6, atol=1e-6)
def program_values(tf):
    x = tf.constant(_X)
    out = {n: getattr(tf.math, n)(x) for n in _NAMES}
    out["acosh"] = tf.math.acosh(tf.constant([1.0, 1.5, 3.0, 20.0]))
    out["top_level"] = tf.asin(0.5) + tf.atan(2.0) + tf.sinh(1.0)
    out["float64"] = tf.math.atanh(tf.constant([0.5], tf.float64))
    out["out_of_domain"] = tf.math.asin(tf.constant([2.0, -1.5]))
    return out


@tolerance(rtol=2e-6, atol=1e-6)
def program_gradients(tf):
    x = tf.Variable(_X)
    out = {}
    for n in _NAMES:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(getattr(tf.math, n)(x))
        out[n] = tape.gradient(y, x)
    z = tf.Variable([1.5, 3.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.acosh(z))
    out["acosh"] = tape.gradient(y, z)
    return out


@tolerance(rtol=2e-6, atol=1e-6)
def program_in_function(tf):
    @tf.function
    def f(x):
        return tf.math.asin(x) * tf.math.atan(x) + tf.math.sinh(x) - tf.math.asinh(x) / (1 + tf.math.atanh(x * 0.5))

    return {"y": f(tf.constant(_X)), "traces": f.experimental_get_tracing_count()}


def program_integer_input(tf):
    return {"y": tf.math.asin(tf.constant([1]))}

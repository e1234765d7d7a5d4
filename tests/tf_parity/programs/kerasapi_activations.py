"""keras.activations added in Keras 3: celu, glu, the shrinks, hard_tanh, sparse_plus,
sparse_sigmoid, squareplus, threshold and sparsemax, by function and by name."""
import numpy as np

from parity import tolerance

X = np.linspace(-3, 3, 24).reshape(4, 6).astype("float32")


@tolerance(rtol=1e-5, atol=1e-6)
def program_activations(tf):
    a = tf.keras.activations
    x = tf.constant(X)
    out = {name: getattr(a, name)(x) for name in ("celu", "glu", "hard_shrink", "hard_tanh", "soft_shrink",
                                                  "sparse_plus", "sparse_sigmoid", "squareplus", "tanh_shrink",
                                                  "sparsemax")}
    out["celu_alpha"] = a.celu(x, alpha=0.5)
    out["glu_axis0"] = a.glu(x, axis=0)
    out["shrink_t"] = a.soft_shrink(x, threshold=1.0)
    out["hard_shrink_t"] = a.hard_shrink(x, threshold=2.0)
    out["squareplus_b"] = a.squareplus(x, b=1)
    out["threshold"] = a.threshold(x, 0.5, -2.0)
    out["sparsemax_axis0"] = a.sparsemax(x * 0.3, axis=0)
    out["by_name"] = a.get("sparsemax")(x)
    out["serialize"] = a.serialize(a.celu)
    layer = tf.keras.layers.Dense(3, activation="hard_tanh", kernel_initializer="ones")
    out["layer"] = layer(x)
    return out


def program_sparsemax_grad(tf):
    x = tf.constant(X * 0.4)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.keras.activations.sparsemax(x) * tf.range(6, dtype=tf.float32))
    return {"y": y, "grad": tape.gradient(y, x)}


def program_glu_odd(tf):
    return {"glu": tf.keras.activations.glu(tf.ones((2, 3)))}

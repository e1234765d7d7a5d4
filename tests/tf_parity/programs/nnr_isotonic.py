"""tf.nn.isotonic_regression: fitted values and segments (decreasing and increasing, ties, other
axes, batches), dtypes (int inputs give float64 / float32), gradients, tf.function."""
import numpy as np
from parity import tolerance

_ROWS = np.array([[3.0, 1.0, 2.0, 2.0, 5.0, 0.5], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [6.0, 5.0, 5.0, 4.0, 1.0, 1.0]],
                 np.float32)


@tolerance(rtol=1e-6, atol=1e-6)
def program_isotonic_values(tf):
    x = tf.constant(_ROWS)
    return {"decreasing": tf.nn.isotonic_regression(x),
            "increasing": tf.nn.isotonic_regression(x, decreasing=False),
            "axis0": tf.nn.isotonic_regression(x, axis=0),
            "rank3": tf.nn.isotonic_regression(tf.reshape(tf.concat([x, x[::-1]], 0), [2, 3, 6]), axis=1),
            "int32": tf.nn.isotonic_regression(tf.constant([[1, 3, 2, 4]])),
            "int8": tf.nn.isotonic_regression(tf.constant([[4, 1, 3]], tf.int8)),
            "float64": tf.nn.isotonic_regression(tf.constant([[0.1, 0.7, 0.2]], tf.float64), decreasing=False)}


@tolerance(rtol=1e-6, atol=1e-6)
def program_isotonic_gradients(tf):
    x = tf.constant(_ROWS)
    weights = tf.constant(np.arange(18, dtype=np.float32).reshape(3, 6))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        dec = tf.reduce_sum(tf.nn.isotonic_regression(x)[0] * weights)
        inc = tf.reduce_sum(tf.nn.isotonic_regression(x, decreasing=False, axis=0)[0] * weights)
    traced = tf.function(lambda v: tf.nn.isotonic_regression(v, decreasing=False))(x)
    return {"dec": tape.gradient(dec, x), "inc": tape.gradient(inc, x), "traced": traced}

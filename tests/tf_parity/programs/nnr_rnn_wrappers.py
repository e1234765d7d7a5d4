"""tf.nn.RNNCellDropoutWrapper / RNNCellResidualWrapper / RNNCellDeviceWrapper around Keras 3
cells: outputs and states (seeded dropout gives TF's masks; variational noise), sizes, errors."""
import numpy as np
from parity import tolerance

_X = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(2, 4)


def _cell(tf, units=4):
    return tf.keras.layers.SimpleRNNCell(units, kernel_initializer="ones", recurrent_initializer="zeros",
                                         bias_initializer="zeros")


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


@tolerance(rtol=1e-5, atol=1e-6)
def program_residual_and_device(tf):
    state = [tf.constant(_X)]
    res = tf.nn.RNNCellResidualWrapper(_cell(tf))
    dev = tf.nn.RNNCellDeviceWrapper(_cell(tf), "/cpu:0")
    custom = tf.nn.RNNCellResidualWrapper(_cell(tf), residual_fn=lambda i, o: i * 2 - o)
    return {"residual": res(tf.constant(_X), state), "device": dev(tf.constant(_X), state),
            "custom": custom(tf.constant(_X), state), "sizes": [res.state_size, res.output_size],
            "mismatch": _outcome(lambda: tf.nn.RNNCellResidualWrapper(_cell(tf, 3))(tf.constant(_X),
                                                                                      [tf.zeros([2, 3])]))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_dropout_wrapper_seeded(tf):
    x = tf.constant(np.arange(1.0, 41.0, dtype=np.float32).reshape(4, 10) / 10)
    cell = tf.keras.layers.SimpleRNNCell(10, kernel_initializer="identity", recurrent_initializer="zeros",
                                         bias_initializer="zeros", activation=None)
    wrapped = tf.nn.RNNCellDropoutWrapper(cell, input_keep_prob=0.5, output_keep_prob=0.8, state_keep_prob=0.6,
                                          seed=3)
    out, state = wrapped(x, [tf.zeros([4, 10])])
    fresh = tf.keras.layers.SimpleRNNCell(10, kernel_initializer="identity", recurrent_initializer="zeros",
                                          bias_initializer="zeros", activation=None)
    keep_all = tf.nn.RNNCellDropoutWrapper(fresh, seed=1)(x, [tf.zeros([4, 10])])
    return {"out": out, "state": state, "keep_all": keep_all,
            "bad_prob": _outcome(lambda: tf.nn.RNNCellDropoutWrapper(cell, input_keep_prob=1.5))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_dropout_wrapper_variational(tf):
    cell = tf.keras.layers.SimpleRNNCell(6, kernel_initializer="identity", recurrent_initializer="zeros",
                                         bias_initializer="zeros", activation=None)
    wrapped = tf.nn.RNNCellDropoutWrapper(cell, input_keep_prob=0.5, output_keep_prob=0.5,
                                          variational_recurrent=True, input_size=6, dtype=tf.float32, seed=7)
    x = tf.constant(np.arange(1.0, 13.0, dtype=np.float32).reshape(2, 6))
    first = wrapped(x, [tf.zeros([2, 6])])
    second = wrapped(x * 2, [tf.zeros([2, 6])])
    return {"first": first, "second": second,
            "no_dtype": _outcome(lambda: tf.nn.RNNCellDropoutWrapper(cell, input_keep_prob=0.5,
                                                                     variational_recurrent=True, input_size=6))}

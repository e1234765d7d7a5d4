"""Python numbers given as bools: TF 2.21's tf.constant / tf.convert_to_tensor / tf.Variable
(and its assign) raise TypeError for 0, 1, 1.0, [0, 1]; Python bools, NumPy values and
tf.cast convert.  Also tf.convert_to_tensor's dtype_hint (tried, dropped when the value does
not convert to it)."""
import numpy as np


def _outcome(fn):
    try:
        return fn()
    except (TypeError, ValueError) as exc:
        return type(exc).__name__


def program_python_numbers_to_bool_raise(tf):
    return {"constant_1": _outcome(lambda: tf.constant(1, tf.bool)),
            "constant_0": _outcome(lambda: tf.constant(0, tf.bool)),
            "constant_float": _outcome(lambda: tf.constant(1.0, tf.bool)),
            "constant_list": _outcome(lambda: tf.constant([0, 1], tf.bool)),
            "constant_shape": _outcome(lambda: tf.constant(1, tf.bool, shape=[2])),
            "convert": _outcome(lambda: tf.convert_to_tensor(1, tf.bool)),
            "variable": _outcome(lambda: tf.Variable(0, dtype=tf.bool)),
            "assign": _outcome(lambda: tf.Variable(True).assign(0)),
            "in_function": _outcome(lambda: tf.function(lambda: tf.constant(1, dtype=tf.bool))())}


def program_bools_and_numpy_values_convert(tf):
    return {"true": tf.constant(True, tf.bool), "list": tf.constant([[True], [False]], tf.bool),
            "empty": tf.constant([], tf.bool), "numpy_ints": tf.constant(np.array([0, 2]), tf.bool),
            "numpy_scalar": tf.constant(np.int64(1), tf.bool), "numpy_floats": tf.convert_to_tensor(np.array([0.0, 0.5]), tf.bool),
            "variable": tf.Variable(False, dtype=tf.bool), "assign": tf.Variable(False).assign(True),
            "cast": tf.cast([0, 1], tf.bool), "ones_like": tf.ones_like(tf.constant([True, False])),
            "bool_to_int": tf.constant([True, False], tf.int32), "bool_to_float": tf.constant(True, tf.float32)}


def program_convert_to_tensor_dtype_hint(tf):
    return {"float_hint": tf.convert_to_tensor(1, dtype_hint=tf.float32),
            "bool_hint_dropped": tf.convert_to_tensor(1, dtype_hint=tf.bool),
            "string_hint_dropped": tf.convert_to_tensor(2.5, dtype_hint=tf.string),
            "tensor_keeps_dtype": tf.convert_to_tensor(tf.constant([1, 2]), dtype_hint=tf.float32),
            "int64_hint": tf.convert_to_tensor([1, 2], dtype_hint=tf.int64)}

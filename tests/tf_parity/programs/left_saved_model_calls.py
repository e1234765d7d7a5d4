"""Calling a loaded SavedModel (issue #11): a method saved from a tf.function with an
input_signature converts Python lists and numbers to its tensors and raises TF's TypeError for
arguments that do not fit (dtype, shape, count); a method saved from traces only raises TF's
ValueError; a signature raises InvalidArgumentError for a tensor of the wrong dtype and TypeError
for a missing or extra input; variables restore and assign."""
import os
import tempfile

import numpy as np


def _module(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0], [2.0]], name="w")
            self.b = tf.Variable([0.5], name="b", trainable=False)

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            return tf.matmul(x, self.w) + self.b

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def scale(self, s):
            return self.b * s

    return M()


def _saved(tf, obj, **kwargs):
    path = os.path.join(tempfile.mkdtemp(), "model")
    tf.saved_model.save(obj, path, **kwargs)
    return tf.saved_model.load(path)


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # the exception's type is what TF decides
        return type(exc).__name__


def program_signature_bound_methods(tf):
    loaded = _saved(tf, _module(tf))
    return {"tensor": loaded(tf.ones((1, 2))), "numpy": loaded(np.ones((1, 2), np.float32)),
            "list": loaded([[1.0, 2.0]]), "py_number": loaded.scale(2.0), "py_int": loaded.scale(2),
            "float64": _outcome(lambda: loaded(tf.ones((1, 2), tf.float64))),
            "int32": _outcome(lambda: loaded(tf.ones((1, 2), tf.int32))),
            "shape": _outcome(lambda: loaded(tf.ones((1, 3)))),
            "rank": _outcome(lambda: loaded(tf.ones((2,)))),
            "two_args": _outcome(lambda: loaded(tf.ones((1, 2)), tf.ones((1, 2)))),
            "scale_vector": _outcome(lambda: loaded.scale(tf.ones(2))),
            "scale_string": _outcome(lambda: loaded.scale("a")),
            "signatures": sorted(loaded.signatures), "missing": _outcome(lambda: loaded.nothere)}


def program_traced_only_methods(tf):
    class N(tf.Module):
        def __init__(self):
            super().__init__()
            self.k = tf.Variable(2.0)

        @tf.function
        def f(self, x):
            return x * self.k

    n = N()
    n.f(tf.constant(1.0))
    n.f(tf.constant([1.0, 2.0]))
    loaded = _saved(tf, n)
    return {"scalar": loaded.f(tf.constant(3.0)), "vector": loaded.f(tf.constant([3.0, 4.0])),
            "python": loaded.f(3.0), "matrix": _outcome(lambda: loaded.f(tf.constant([[3.0]]))),
            "int": _outcome(lambda: loaded.f(tf.constant(3))), "signatures": sorted(loaded.signatures)}


def program_signature_calls(tf):
    m = _module(tf)
    loaded = _saved(tf, m, signatures=m.__call__)
    sig = loaded.signatures["serving_default"]
    return {"inputs": sig.structured_input_signature, "outputs": sig.structured_outputs,
            "by_name": sig(x=tf.ones((1, 2))), "positional": sig(tf.ones((1, 2))),
            "list": sig(x=[[1.0, 2.0]]),
            "float64": _outcome(lambda: sig(x=tf.ones((1, 2), tf.float64))),
            "int32": _outcome(lambda: sig(x=tf.ones((1, 2), tf.int32))),
            "python_scalar": _outcome(lambda: sig(x=1.0)),
            "two": _outcome(lambda: sig(tf.ones((1, 2)), tf.ones((1, 2)))),
            "missing": _outcome(lambda: sig()), "wrong_name": _outcome(lambda: sig(y=tf.ones((1, 2))))}


def program_loaded_variables_assign(tf):
    loaded = _saved(tf, _module(tf))
    before = loaded(tf.ones((1, 2)))
    loaded.w.assign([[0.0], [1.0]])
    return {"before": before, "after": loaded(tf.ones((1, 2))), "w": loaded.w, "w_trainable": loaded.w.trainable,
            "b_trainable": loaded.b.trainable, "w_name": loaded.w.name}


def program_keras_export_endpoints(tf):
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2), tf.keras.layers.BatchNormalization()])
    path = os.path.join(tempfile.mkdtemp(), "export")
    model.export(path, verbose=False)
    loaded = tf.saved_model.load(path)
    x = tf.constant([[1.0, -2.0, 0.5]])
    return {"signatures": sorted(loaded.signatures), "serve": loaded.serve(x), "expected": model(x, training=False),
            "n_trainable": len(loaded.trainable_variables), "n_variables": len(loaded.variables),
            "n_non_trainable": len(loaded.non_trainable_variables),
            "outputs": loaded.signatures["serving_default"].structured_outputs,
            "float64": _outcome(lambda: loaded.serve(tf.cast(x, tf.float64))),
            "shape": _outcome(lambda: loaded.serve(tf.ones((1, 4)))),
            "call": _outcome(lambda: loaded(x))}

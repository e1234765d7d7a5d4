"""What survives tf.saved_model.save / load of a tf.Module (TF 2.21): tracked variables and
sub-objects by their attribute names (their values and trainable flags), lists of them, the
traced methods and signatures; not Python ints, names or the Module API (the loaded object is
no tf.Module).  tapeflow's loaded object also lists its .variables / .trainable_variables,
where TF's raises AttributeError (README: "Where tapeflow differs")."""
import tempfile

from parity import differs


def _loaded(tf):
    class Inner(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0, name="w")
            self.frozen = tf.Variable(1.0, trainable=False, name="f")

    class Outer(tf.Module):
        def __init__(self):
            super().__init__(name="outer")
            self.inner = Inner()
            self.b = tf.Variable([1.0, 2.0], name="b")
            self.n = 3
            self.items = [tf.Variable(5.0)]

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            return x * self.inner.w + self.b

    path = tempfile.mkdtemp()
    tf.saved_model.save(Outer(), path)
    return tf.saved_model.load(path)


def _attribute(fn):
    try:
        return fn()
    except AttributeError:
        return "AttributeError"


def program_loaded_module_keeps_tracked_objects(tf):
    m = _loaded(tf)
    return {"is_module": isinstance(m, tf.Module), "call": m(tf.constant(1.0)), "w": m.inner.w,
            "w_trainable": m.inner.w.trainable, "frozen_trainable": m.inner.frozen.trainable, "b": m.b,
            "list_item": m.items[0], "signatures": sorted(m.signatures.keys()),
            "serving": m.signatures["serving_default"](x=tf.constant(2.0)),
            "python_int": _attribute(lambda: m.n), "name": _attribute(lambda: m.name),
            "submodules": _attribute(lambda: m.submodules), "name_scope": _attribute(lambda: m.name_scope)}


@differs("a loaded object lists its variables (.variables, .trainable_variables, .non_trainable_variables)",
         {"variables": ["Variable:0", "b:0", "f:0", "w:0"], "trainable": ["Variable:0", "b:0", "w:0"],
          "non_trainable": ["f:0"]})
def program_loaded_module_variable_lists(tf):
    m = _loaded(tf)
    return {"variables": _attribute(lambda: sorted(v.name for v in m.variables)),
            "trainable": _attribute(lambda: sorted(v.name for v in m.trainable_variables)),
            "non_trainable": _attribute(lambda: sorted(v.name for v in m.non_trainable_variables))}

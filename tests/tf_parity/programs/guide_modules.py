"""TF guide: Introduction to modules, layers and models (tf.Module parts)."""


def program_simple_module(tf):
    class SimpleModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.a_variable = tf.Variable(5.0, name="train_me")
            self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")

        def __call__(self, x):
            return self.a_variable * x + self.non_trainable_variable
    m = SimpleModule(name="simple")
    return {"call": m(tf.constant(5.0)), "trainable": len(m.trainable_variables), "all": len(m.variables),
            "name": m.name}


def program_sequential_module(tf):
    class Dense(tf.Module):
        def __init__(self, w, b, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(w, name="w")
            self.b = tf.Variable(b, name="b")

        def __call__(self, x):
            return tf.nn.relu(x @ self.w + self.b)

    class Seq(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = Dense([[1.0, -1.0], [0.5, 0.5], [2.0, 0.0]], [0.0, 1.0])
            self.dense_2 = Dense([[1.0], [-2.0]], [0.5])

        def __call__(self, x):
            return self.dense_2(self.dense_1(x))
    m = Seq(name="the_model")
    return {"out": m(tf.constant([[2.0, 2.0, 2.0]])), "submodules": len(m.submodules),
            "vars": [v.shape for v in m.variables]}


def program_module_variables_order(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.z = tf.Variable(1.0)
            self.a = tf.Variable(2.0)
            self.lst = [tf.Variable(3.0), tf.Variable(4.0)]
    return {"values": [v.numpy() for v in M().variables]}


def program_module_function_trace(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            return self.v * x
    m = M()
    return {"a": m(tf.constant(3.0)), "b": m(tf.constant([1.0, 2.0]))}


def program_name_scope(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__(name="outer")
            with self.name_scope:
                self.v = tf.Variable(1.0, name="v")
    return {"name": M().v.name}


def program_checkpoint_module(tf):
    import os
    import tempfile

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, 2.0]])
    m = M()
    path = tf.train.Checkpoint(model=m).write(os.path.join(tempfile.mkdtemp(), "my_checkpoint"))
    m.w.assign([[0.0, 0.0]])
    tf.train.Checkpoint(model=m).restore(path)
    return {"w": m.w}


def program_saved_model_module(tf):
    import tempfile

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(3.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def __call__(self, x):
            return self.v * x
    m = M()
    d = tempfile.mkdtemp()
    tf.saved_model.save(m, d)
    loaded = tf.saved_model.load(d)
    return {"out": loaded(tf.constant([1.0, 2.0])), "v": loaded.v}

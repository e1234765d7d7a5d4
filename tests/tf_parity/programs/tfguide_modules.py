"""TF guide "Introduction to modules, layers, and models" (site/en/guide/intro_to_modules.ipynb),
cell by cell.

The guide initialises weights with tf.random.normal; here a fixed ramp stands in, so
both libraries compute the same numbers.  Files go to a fresh temporary directory.
"""
import contextlib
import io
import os
import tempfile


def _init(tf, shape):
    """A deterministic stand-in for tf.random.normal(shape)."""
    n = 1
    for d in shape:
        n *= d
    return tf.reshape(tf.cos(tf.range(n, dtype=tf.float32) * 0.7) + 0.3, shape)


def _modules(tf):
    class Dense(tf.Module):
        def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(_init(tf, [in_features, out_features]), name='w')
            self.b = tf.Variable(tf.zeros([out_features]), name='b')

        def __call__(self, x):
            y = tf.matmul(x, self.w) + self.b
            return tf.nn.relu(y)

    class SequentialModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = Dense(in_features=3, out_features=3)
            self.dense_2 = Dense(in_features=3, out_features=2)

        def __call__(self, x):
            x = self.dense_1(x)
            return self.dense_2(x)
    return Dense, SequentialModule


def _two_flexible_layers(base, layer, method):
    """The guide's two-layer model of flexible layers: a tf.Module called through __call__
    or a keras.Model called through call."""
    class MySequential(base):
        def __init__(self, name=None, **kwargs):
            super().__init__(name=name, **kwargs)
            self.dense_1 = layer(out_features=3)
            self.dense_2 = layer(out_features=2)

        def forward(self, x):
            x = self.dense_1(x)
            return self.dense_2(x)
    setattr(MySequential, method, MySequential.forward)
    return MySequential


def _flexible(tf):
    class FlexibleDenseModule(tf.Module):
        def __init__(self, out_features, name=None):
            super().__init__(name=name)
            self.is_built = False
            self.out_features = out_features

        def __call__(self, x):
            if not self.is_built:
                self.w = tf.Variable(_init(tf, [x.shape[-1], self.out_features]), name='w')
                self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
                self.is_built = True
            y = tf.matmul(x, self.w) + self.b
            return tf.nn.relu(y)

    return _two_flexible_layers(tf.Module, FlexibleDenseModule, "__call__")


def program_simple_module(tf):
    class SimpleModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.a_variable = tf.Variable(5.0, name="train_me")
            self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")

        def __call__(self, x):
            return self.a_variable * x + self.non_trainable_variable
    simple_module = SimpleModule(name="simple")
    return {"out": simple_module(tf.constant(5.0)), "name": simple_module.name,
            "trainable": [v.name for v in simple_module.trainable_variables],
            "all": [v.name for v in simple_module.variables],
            "values": list(simple_module.variables)}


def program_sequential_module(tf):
    _, SequentialModule = _modules(tf)
    my_model = SequentialModule(name="the_model")
    return {"out": my_model(tf.constant([[2.0, 2.0, 2.0]])),
            "submodules": [type(m).__name__ for m in my_model.submodules],
            "variables": [(v.name, v.shape) for v in my_model.variables]}


def program_waiting_to_create_variables(tf):
    MySequentialModule = _flexible(tf)
    my_model = MySequentialModule(name="the_model")
    return {"out": my_model(tf.constant([[2.0, 2.0, 2.0]])),
            "variables": [(v.name, v.shape) for v in my_model.variables]}


def _flexible_model_called(tf):
    """(the class, the guide's model of it, its input, its output) for the checkpoint cells."""
    MySequentialModule = _flexible(tf)
    my_model = MySequentialModule(name="the_model")
    x = tf.constant([[2.0, 2.0, 2.0]])
    return MySequentialModule, my_model, x, my_model(x)


def program_checkpoint_roundtrip(tf):
    MySequentialModule, my_model, x, before = _flexible_model_called(tf)
    with tempfile.TemporaryDirectory() as tmp:
        chkp_path = os.path.join(tmp, "my_checkpoint")
        checkpoint = tf.train.Checkpoint(model=my_model)
        written = checkpoint.write(chkp_path)
        # The guide lists the files (TensorFlow writes .index and .data-*); the layout
        # is each library's own, so only their presence is compared.
        files = any(f.startswith("my_checkpoint") for f in os.listdir(tmp))
        listed = [(name, shape) for name, shape in tf.train.list_variables(chkp_path)]
        for v in my_model.variables:
            v.assign(tf.zeros_like(v))
        new_model = MySequentialModule()
        new_model(tf.zeros([1, 3]))     # build it, then overwrite its values
        tf.train.Checkpoint(model=new_model).restore(chkp_path)
        restored = new_model(x)
    return {"before": before, "restored": restored, "files": files,
            "written_is_path": os.path.basename(written) == "my_checkpoint", "listed": listed}


def program_checkpoint_restore_before_build(tf):
    # The guide restores into a new, not yet built module and then calls it:
    # the variables created on that first call take the checkpoint's values.
    MySequentialModule, my_model, x, before = _flexible_model_called(tf)
    with tempfile.TemporaryDirectory() as tmp:
        chkp_path = os.path.join(tmp, "my_checkpoint")
        tf.train.Checkpoint(model=my_model).write(chkp_path)
        my_model.dense_1.w.assign(tf.ones([3, 3]))   # the original changes; the file does not
        new_model = MySequentialModule()
        tf.train.Checkpoint(model=new_model).restore(chkp_path)
        restored = new_model(x)
    return {"before": before, "restored": restored}


def _graph_module(tf):
    """The guide's SequentialModule with its __call__ decorated with @tf.function."""
    _, SequentialModule = _modules(tf)

    class MySequentialModule(SequentialModule):
        __call__ = tf.function(SequentialModule.__call__)
    return MySequentialModule


def program_module_with_function(tf):
    # The cell prints the two results; their values are compared (the printed
    # digits would compare float32 rounding of the last place, not behaviour).
    MySequentialModule = _graph_module(tf)
    my_model = MySequentialModule(name="the_model")
    return {"a": my_model([[2.0, 2.0, 2.0]]), "b": my_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]),
            "traces": my_model.__call__.experimental_get_tracing_count()}


def program_summary_trace(tf):
    MySequentialModule = _graph_module(tf)
    with tempfile.TemporaryDirectory() as logdir:
        writer = tf.summary.create_file_writer(logdir)
        new_model = MySequentialModule()
        tf.summary.trace_on(graph=True)
        z = new_model(tf.constant([[2.0, 2.0, 2.0]]))
        with writer.as_default():
            tf.summary.trace_export(name="my_func_trace", step=0)
        writer.flush()
        wrote = any(f.startswith("events.out.tfevents") for f in os.listdir(logdir))
    return {"z": z, "wrote_events": wrote}


def program_saved_model(tf):
    _, SequentialModule = _modules(tf)
    MySequentialModule = _graph_module(tf)
    my_model = MySequentialModule(name="the_model")
    a = my_model([[2.0, 2.0, 2.0]])
    b = my_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "the_saved_model")
        tf.saved_model.save(my_model, path)
        # The guide lists the directory (saved_model.pb, variables/): the layout is
        # each library's own, so only that one was written is compared.
        written = os.path.isdir(path) and bool(os.listdir(path))
        new_model = tf.saved_model.load(path)
        loaded_a = new_model([[2.0, 2.0, 2.0]])
        loaded_b = new_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
        is_class = isinstance(new_model, SequentialModule)
    return {"a": a, "b": b, "loaded_a": loaded_a, "loaded_b": loaded_b, "is_class": is_class,
            "written": written}


def program_saved_model_new_signature(tf):
    MySequentialModule = _graph_module(tf)
    my_model = MySequentialModule(name="the_model")
    my_model([[2.0, 2.0, 2.0]])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "the_saved_model")
        tf.saved_model.save(my_model, path)
        new_model = tf.saved_model.load(path)
        return {"unseen_shape": new_model(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))}


def program_keras_layer_with_tf_variables(tf):
    class MyDense(tf.keras.layers.Layer):
        def __init__(self, in_features, out_features, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(_init(tf, [in_features, out_features]), name='w')
            self.b = tf.Variable(tf.zeros([out_features]), name='b')

        def call(self, x):
            y = tf.matmul(x, self.w) + self.b
            return tf.nn.relu(y)
    simple_layer = MyDense(name="simple", in_features=3, out_features=3)
    return {"out": simple_layer([[2.0, 2.0, 2.0]]), "name": simple_layer.name}


def _flexible_dense(tf):
    class FlexibleDense(tf.keras.layers.Layer):
        def __init__(self, out_features, **kwargs):
            super().__init__(**kwargs)
            self.out_features = out_features

        def build(self, input_shape):
            self.w = tf.Variable(_init(tf, [input_shape[-1], self.out_features]), name='w')
            self.b = tf.Variable(tf.zeros([self.out_features]), name='b')

        def call(self, inputs):
            return tf.matmul(inputs, self.w) + self.b
    return FlexibleDense


def _keras_sequential_model(tf):
    return _two_flexible_layers(tf.keras.Model, _flexible_dense(tf), "call")


def program_keras_model(tf):
    MySequentialModel = _keras_sequential_model(tf)
    my_sequential_model = MySequentialModel(name="the_model")
    out = my_sequential_model(tf.constant([[2.0, 2.0, 2.0]]))
    # The guide's next cells list .variables and .submodules: Keras 3 collects no raw
    # tf.Variables (nor does tapeflow: kmx_keras.py) and has no .submodules (tapeflow has).
    return {"out": out}


def program_keras_functional(tf):
    FlexibleDense = _flexible_dense(tf)
    inputs = tf.keras.Input(shape=[3, ])
    x = FlexibleDense(3)(inputs)
    x = FlexibleDense(2)(x)
    my_functional_model = tf.keras.Model(inputs=inputs, outputs=x)
    with contextlib.redirect_stdout(io.StringIO()):
        my_functional_model.summary()
    # count_params(): 0 under Keras 3 and tapeflow (raw tf.Variables are not weights: kmx_keras.py).
    return {"out": my_functional_model(tf.constant([[2.0, 2.0, 2.0]]))}


def program_keras_model_save_load(tf):
    MySequentialModel = _keras_sequential_model(tf)
    my_sequential_model = MySequentialModel(name="the_model")
    my_sequential_model(tf.constant([[2.0, 2.0, 2.0]]))
    with tempfile.TemporaryDirectory() as tmp:
        # The guide's "exname_of_file" has no extension, which Keras 3 rejects.
        my_sequential_model.save(os.path.join(tmp, "exname_of_file"))
    return {}


def program_keras_build_step(tf):
    FlexibleDense = _flexible_dense(tf)
    flexible_dense = FlexibleDense(out_features=3)
    # The guide also shows flexible_dense.variables before and after the call: [] both times
    # under Keras 3 and tapeflow (raw tf.Variables are not weights), compared in kmx_keras.py.
    out = flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
    try:
        flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]]))
        failed = None
    except tf.errors.InvalidArgumentError as e:
        failed = type(e).__name__
    return {"out": out, "failed": failed}


# ---- tf.Module details outside the guide's cells (formerly guide_modules.py).
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


def program_saved_model_module(tf):
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


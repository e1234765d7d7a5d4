"""Cells of TF's intro-to-graphs, intro-to-modules and basic-training-loops guides
(site/en/guide/intro_to_graphs.ipynb, intro_to_modules.ipynb, basic_training_loops.ipynb)
that tfguide_graphs.py, tfguide_modules.py and tfguide_training_loops.py do not check:
our own small programs doing what each cell does."""
import os
import tempfile

from _cells import error_name, printed
from parity import tolerance


def program_function_types(tf):
    def add(x, y):
        return x + y
    f = tf.function(add)
    cf = f.get_concrete_function(tf.constant(1.0), tf.constant(2.0))
    return {"polymorphic": isinstance(f, tf.types.experimental.PolymorphicFunction),
            "generic": isinstance(f, tf.types.experimental.GenericFunction),
            "concrete": isinstance(cf, tf.types.experimental.ConcreteFunction),
            "python_function": f.python_function is add,
            "call": cf(tf.constant(1.0), tf.constant(2.0))}


def program_mse_eager_and_graph_prints(tf):
    y_true = tf.constant([[1, 5, 2], [0, 3, 4]])
    y_pred = tf.constant([[2, 4, 1], [1, 2, 3]])

    def get_mse(a, b):
        print("Calculating MSE!")
        sq_diff = tf.pow(a - b, 2)
        return tf.reduce_mean(sq_diff)
    graph_fn = tf.function(get_mse)
    _, graph_lines = printed(lambda: [graph_fn(y_true, y_pred) for _ in range(3)])
    tf.config.run_functions_eagerly(True)
    try:
        _, eager_lines = printed(lambda: [graph_fn(y_true, y_pred) for _ in range(3)])
    finally:
        tf.config.run_functions_eagerly(False)
    return {"value": graph_fn(y_true, y_pred), "graph": graph_lines, "eager": eager_lines}


def program_unused_gather_eager_vs_graph(tf):
    def unused_return(x):
        tf.gather(x, [1])   # only one element: index 1 is out of range
        return x
    x = tf.constant([0.0])
    return {"eager": error_name(lambda: unused_return(x)),
            "graph": tf.function(unused_return)(x)}


def program_module_variables_and_trainable(tf):
    class Simple(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.a_variable = tf.Variable(5.0, name="train_me")
            self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")

        def __call__(self, x):
            return self.a_variable * x + self.non_trainable_variable
    m = Simple(name="simple")
    return {"call": m(tf.constant(5.0)), "name": m.name,
            "trainable": [v.name for v in m.trainable_variables],
            "all": [v.name for v in m.variables],
            "name_scope": m.name_scope.name}


def program_module_dense_layers_call(tf):
    class Dense(tf.Module):
        def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.reshape(tf.range(in_features * out_features, dtype=tf.float32) / 10.0,
                                            [in_features, out_features]), name="w")
            self.b = tf.Variable(tf.zeros([out_features]), name="b")

        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class Seq(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = Dense(3, 3)
            self.dense_2 = Dense(3, 2)

        def __call__(self, x):
            return self.dense_2(self.dense_1(x))
    model = Seq(name="the_model")
    return {"out": model(tf.constant([[2.0, 2.0, 2.0]])),
            "submodules": [m.name for m in model.submodules],
            "variables": [(v.name, v.shape) for v in model.variables],
            "wrong_width": error_name(lambda: model(tf.constant([[2.0, 2.0]])))}


def program_checkpoint_write_read_values(tf):
    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable([1.0, 2.0])
            self.step = tf.Variable(3, dtype=tf.int64)
    with tempfile.TemporaryDirectory() as d:
        h = Holder()
        ckpt = tf.train.Checkpoint(model=h)
        path = ckpt.write(os.path.join(d, "my_checkpoint"))
        h.v.assign([9.0, 9.0])
        status = tf.train.Checkpoint(model=h).read(path)
        status.assert_consumed()
        reader = tf.train.load_checkpoint(path)
        value = reader.get_tensor("model/v/.ATTRIBUTES/VARIABLE_VALUE")
        names = sorted(n for n, _ in tf.train.list_variables(path))
        return {"returned_str": isinstance(path, str), "restored": h.v, "reader": value,
                "names": names, "step": reader.get_tensor("model/step/.ATTRIBUTES/VARIABLE_VALUE")}


def program_saved_module_signature_and_type(tf):
    class Doubler(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def __call__(self, x):
            return x * 2.0
    with tempfile.TemporaryDirectory() as d:
        tf.saved_model.save(Doubler(), d)
        loaded = tf.saved_model.load(d)
        return {"same_type": isinstance(loaded, Doubler), "call": loaded(tf.constant([1.0, 2.0])),
                "wrong_dtype": error_name(lambda: loaded(tf.constant([1, 2])))}


@tolerance(rtol=1e-6)  # reduce_mean of 201 float32 values: summation order
def program_training_loop_loss_decreases(tf):
    tf.random.set_seed(7)
    true_w, true_b, n = 3.0, 2.0, 201
    x = tf.linspace(-2.0, 2.0, n)
    y = x * true_w + true_b

    class MyModel(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def __call__(self, x):
            return self.w * x + self.b

    def loss(target, predicted):
        return tf.reduce_mean(tf.square(target - predicted))
    model = MyModel()
    losses = []
    for _ in range(10):
        with tf.GradientTape() as t:
            current = loss(y, model(x))
        dw, db = t.gradient(current, [model.w, model.b])
        model.w.assign_sub(0.1 * dw)
        model.b.assign_sub(0.1 * db)
        losses.append(current)
    return {"losses": losses, "w": model.w, "b": model.b,
            "variables": [v.numpy() for v in model.variables]}


def program_relu_signatures_text(tf):
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)
    outs = [my_relu(tf.constant(5.5)), my_relu([1, -1]), my_relu(tf.constant([3., -3.])),
            my_relu(tf.constant(-2.5)), my_relu(tf.constant([-1., 1.]))]
    text = my_relu.pretty_printed_concrete_signatures()
    return {"outs": outs, "traces": my_relu.experimental_get_tracing_count(),
            "text": [line for line in text.splitlines() if "Captures" not in line and "id" not in line]}


def program_side_effect_python_and_tensor_args(tf):
    @tf.function
    def fn(x):
        print("Tracing!")
        return x * x + tf.constant(2)
    outs, lines = printed(lambda: [fn(tf.constant(2)), fn(tf.constant(3)), fn(2), fn(3), fn(2)])
    return {"outs": outs, "lines": lines, "traces": fn.experimental_get_tracing_count()}

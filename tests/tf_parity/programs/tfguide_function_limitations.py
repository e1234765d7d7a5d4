"""TF guide "Better performance with tf.function" (site/en/guide/function.ipynb), cell by cell:
the "Limitations" and "Known issues" sections (Python side effects, iterators, leaked
tensors, recursion, globals and closures, object arguments, creating variables,
several optimizers).  tfguide_function.py has the sections before them.
"""
import contextlib

from _cells import error_name, printed


def program_python_side_effects(tf):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)
    _, lines = printed(lambda: (f(1), f(1), f(2)))
    return {"lines": lines, "traces": f.experimental_get_tracing_count()}


def program_changing_globals(tf):
    external_list = []

    @tf.function
    def side_effect(x):
        print('Python side effect')
        external_list.append(x)
    _, lines = printed(lambda: (side_effect(1), side_effect(1), side_effect(1)))
    return {"lines": lines, "appended": len(external_list)}


def _counter_model(tf, init_scope):
    """The guide's Model that guards a variable update with a Python counter (inside
    tf.init_scope when init_scope: then the update runs once, eagerly)."""
    class Model(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                with tf.init_scope() if init_scope else contextlib.nullcontext():
                    self.counter += 1
                    self.v.assign_add(1)
            return self.v
    return Model()


def program_python_counter_guard(tf):
    m = _counter_model(tf, init_scope=False)
    return {"values": [m().numpy() for _ in range(3)], "counter": m.counter}


def program_init_scope_guard(tf):
    m = _counter_model(tf, init_scope=True)
    return {"values": [m().numpy() for _ in range(3)], "counter": m.counter}


def program_python_iterator_argument(tf):
    # The guide tf.prints next(iterator); returning it shows the same thing.
    @tf.function
    def buggy_consume_next(iterator):
        return next(iterator)
    iterator = iter([1, 2, 3])
    values = [buggy_consume_next(iterator) for _ in range(3)]
    return {"values": values, "left": list(iterator),
            "traces": buggy_consume_next.experimental_get_tracing_count()}


def program_dataset_iterator_argument(tf):
    @tf.function
    def good_consume_next(iterator):
        return next(iterator)
    iterator = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
    return {"values": [good_consume_next(iterator) for _ in range(3)],
            "traces": good_consume_next.experimental_get_tracing_count()}


def program_leaked_tensor(tf):
    leaked = {}

    @tf.function
    def leaky_function(a):
        leaked["x"] = a + 1
        return a + 2
    correct_a = leaky_function(tf.constant(1))
    try:
        leaked["x"].numpy()   # the guide catches AttributeError here and prints it
        caught = None
    except AttributeError:
        caught = "AttributeError"
    return {"correct": correct_a.numpy(), "leaked_numpy": caught}


def program_leaked_tensor_returned(tf):
    leaked = {}

    @tf.function
    def leaky_function(a):
        leaked["x"] = a + 1
        return leaked["x"]

    @tf.function
    def captures_leaked_tensor(b):
        b += leaked["x"]
        return b
    correct_a = leaky_function(tf.constant(1))
    try:
        leaked["x"].numpy()
        caught = None
    except AttributeError:
        caught = "AttributeError"
    return {"correct": correct_a.numpy(), "leaked_numpy": caught,
            "captured": error_name(lambda: captures_leaked_tensor(tf.constant(2)))}


def program_leaky_collections(tf):
    # The guide only defines this (plain Python) function; run it to show it works eagerly.
    class MyClass:
        def __init__(self):
            self.field = None
    external_list = []
    external_object = MyClass()

    def leaky_function():
        a = tf.constant(1)
        external_list.append(a)
        external_object.field = a
    leaky_function()
    return {"list": external_list, "field": external_object.field}


def program_recursive_tensor(tf):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            return recursive_fn(n - 1)
        else:
            return 1
    return {"raises": error_name(lambda: recursive_fn(tf.constant(5))) is not None}


def program_recursive_python(tf):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            print('tracing')
            return recursive_fn(n - 1)
        else:
            return 1
    out, lines = printed(recursive_fn, 5)
    return {"out": out, "lines": lines}


def program_python_closure_captured(tf):
    foo = 1

    @tf.function
    def buggy_add():
        return 1 + foo

    @tf.function
    def recommended_add(foo):
        return 1 + foo
    before = (buggy_add(), recommended_add(foo))
    foo = 100
    after = (buggy_add(), recommended_add(foo))
    return {"before": before, "after": after}


def program_variable_closure(tf):
    foo = tf.Variable(1)

    @tf.function
    def variable_add():
        return 1 + foo
    before = variable_add()
    foo.assign(100)
    return {"before": before, "after": variable_add()}


def program_object_attributes_not_retraced(tf):
    class SimpleModel(tf.Module):
        def __init__(self):
            self.bias = 0.
            self.weight = 2.

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias
    simple_model = SimpleModel()
    x = tf.constant(10.)
    before = evaluate(simple_model, x)
    simple_model.bias += 5.0
    return {"before": before, "after": evaluate(simple_model, x)}


def program_new_function_per_object_state(tf):
    class SimpleModel(tf.Module):
        def __init__(self):
            self.bias = 0.
            self.weight = 2.

    def evaluate(model, x):
        return model.weight * x + model.bias
    x = tf.constant(10.)
    new_model = SimpleModel()
    evaluate_no_bias = tf.function(evaluate).get_concrete_function(new_model, x)
    no_bias = evaluate_no_bias(x)
    new_model.bias += 5.0
    evaluate_with_bias = tf.function(evaluate).get_concrete_function(new_model, x)
    return {"no_bias": no_bias, "with_bias": evaluate_with_bias(x)}


def program_variable_attributes(tf):
    class BetterModel:
        def __init__(self):
            self.bias = tf.Variable(0.)
            self.weight = tf.Variable(2.)

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias
    x = tf.constant(10.)
    better_model = BetterModel()
    before = evaluate(better_model, x)
    better_model.bias.assign_add(5.0)
    return {"before": before, "after": evaluate(better_model, x),
            "traces": evaluate.experimental_get_tracing_count()}


def program_variable_created_every_call(tf):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v
    return {"error": error_name(lambda: f(1.0))}


def program_variable_created_once(tf):
    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)
    c = Count()
    return {"first": c(), "second": c()}


def _train_step(tf):
    """The guide's train_step, taking the optimizer as an argument."""
    def train_step(w, x, y, optimizer):
        with tf.GradientTape() as tape:
            L = tf.reduce_sum(tf.square(w * x - y))
        gradients = tape.gradient(L, [w])
        optimizer.apply_gradients(zip(gradients, [w]))
    return train_step


def program_two_optimizers_one_function(tf):
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)

    train_step = tf.function(_train_step(tf))

    w = tf.Variable(2.)
    x = tf.constant([-1.])
    y = tf.constant([2.])
    train_step(w, x, y, opt1)
    after_first = w.numpy()
    return {"after_first": after_first,
            "second_optimizer": error_name(lambda: train_step(w, x, y, opt2))}


def program_concrete_function_per_optimizer(tf):
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)

    train_step = _train_step(tf)

    w = tf.Variable(2.)
    x = tf.constant([-1.])
    y = tf.constant([2.])
    train_step_1 = tf.function(train_step).get_concrete_function(w, x, y, opt1)
    train_step_2 = tf.function(train_step).get_concrete_function(w, x, y, opt2)
    for i in range(10):
        if i % 2 == 0:
            train_step_1(w, x, y)
        else:
            train_step_2(w, x, y)
    return {"w": w}

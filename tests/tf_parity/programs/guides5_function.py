"""Cells of TF's tf.function guide (site/en/guide/function.ipynb) that tfguide_function*.py
do not check: our own small programs doing what each cell does (printed lines, values,
trace counts, error classes)."""
from _cells import error_name, printed
from parity import tolerance


def _raises(fn, cls):
    try:
        fn()
    except cls:
        return True
    return False


def program_collatz_signature_errors(tf):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def step(x):
        print("Tracing with", x)
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)
    out, lines = printed(step, tf.constant([1, 2]))
    return {"out": out, "lines": lines,
            "rank": error_name(lambda: step(tf.constant([[1, 2], [3, 4]]))),
            "dtype": error_name(lambda: step(tf.constant([1.0, 2.0]))),
            "python_list": step([5, 6]), "traces": step.experimental_get_tracing_count()}


def program_new_function_objects_never_share(tf):
    def f():
        print("Tracing!")
        return tf.constant(1)
    _, first = printed(tf.function(f))
    _, second = printed(tf.function(f))
    return {"lines": first + second}


def program_python_vs_tensor_steps(tf):
    seen = []

    @tf.function
    def train(num_steps):
        seen.append(str(num_steps))
        total = tf.constant(0)
        for i in tf.range(num_steps):
            total += i
        return total
    outs = [train(num_steps=10), train(num_steps=20),
            train(num_steps=tf.constant(10)), train(num_steps=tf.constant(20))]
    return {"outs": outs, "traces": train.experimental_get_tracing_count(),
            "python_seen": seen[:2]}


def program_concrete_keyword_call(tf):
    @tf.function
    def double(a):
        return a + a
    cf = double.get_concrete_function(tf.constant("a"))
    spec_cf = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
    return {"positional": cf(tf.constant("a")), "keyword": cf(a=tf.constant("b")),
            "from_spec": spec_cf(tf.constant("c")),
            "inputs": cf.structured_input_signature, "outputs": [cf.structured_outputs.dtype, cf.structured_outputs.shape],
            "wrong_dtype": error_name(lambda: cf(tf.constant(1))),
            "traces": double.experimental_get_tracing_count()}


def program_concrete_bound_python_argument(tf):
    @tf.function
    def power(a, b):
        return a ** b
    square = power.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    return {"square": square(tf.constant(10.0)),
            "rebind": error_name(lambda: square(tf.constant(10.0), b=3)),
            "inputs": square.structured_input_signature,
            "other_ranks": [square(tf.constant([1.0, 2.0])), square(a=tf.constant([[3.0]]))],
            "wrong_dtype": error_name(lambda: square(tf.constant(1))),
            "traces": power.experimental_get_tracing_count()}


@tolerance(rtol=1e-5)  # TensorFlow's tanh is a fast approximation, 34 steps deep
def program_while_tanh_loop(tf):
    @tf.function
    def f(x):
        steps = tf.constant(0)
        while tf.reduce_sum(x) > 1:
            x = tf.tanh(x)
            steps += 1
        return x, steps
    return {"out": f(tf.constant([0.9, 0.8, 0.7, 0.6, 0.5]))}


def program_graph_size_python_vs_dataset(tf):
    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss

    def nodes(*args):
        return len(train.get_concrete_function(*args).graph.as_graph_def().node)
    small, big = [(1, 1)] * 3, [(1, 1)] * 10
    ds_small = tf.data.Dataset.from_generator(lambda: small, (tf.int32, tf.int32))
    ds_big = tf.data.Dataset.from_generator(lambda: big, (tf.int32, tf.int32))
    return {"python_grows": nodes(big) > nodes(small),
            "dataset_same": nodes(ds_small) == nodes(ds_big),
            "value": train(ds_big), "python_value": train(small)}


def program_dynamic_rnn_tensor_array(tf):
    def rnn_step(inp, state):
        return inp + state

    @tf.function
    def dynamic_rnn(step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])
    data = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
    return {"out": dynamic_rnn(rnn_step, data, tf.zeros([2, 4]))}


def program_trace_prints_per_python_value(tf):
    @tf.function
    def f(x):
        print("Traced with", x)
    _, lines = printed(lambda: [f(1), f(1), f(2)])
    return {"lines": lines, "traces": f.experimental_get_tracing_count()}


def program_buggy_python_iterator(tf):
    @tf.function
    def consume(iterator):
        return tf.constant(next(iterator))
    it = iter([1, 2, 3])
    return {"values": [consume(it), consume(it), consume(it)]}


def program_good_dataset_iterator(tf):
    @tf.function
    def consume(iterator):
        return next(iterator)
    it = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
    return {"values": [consume(it), consume(it), consume(it)],
            "traces": consume.experimental_get_tracing_count()}


def program_leak_captured_in_other_function(tf):
    box = {}

    @tf.function
    def leaky(a):
        box["x"] = a + 1
        return box["x"]

    @tf.function
    def captures(b):
        b += box["x"]
        return b
    out = leaky(tf.constant(1))
    return {"out": out, "numpy_attribute_error": _raises(lambda: box["x"].numpy(), AttributeError),
            "captures": error_name(lambda: captures(tf.constant(2)))}


def program_recursive_tensor_and_python(tf):
    @tf.function
    def rec_tensor(n):
        if n > 0:
            return rec_tensor(n - 1)
        else:
            return 1
    traced = []

    @tf.function
    def rec_python(n):
        if n > 0:
            traced.append(n)
            return rec_python(n - 1)
        else:
            return 1
    return {"tensor_raises": _raises(lambda: rec_tensor(tf.constant(5)), Exception),
            "python": rec_python(5), "python_traces": traced}


def program_globals_captured_at_trace(tf):
    env = {"foo": 1}

    @tf.function
    def buggy_add():
        return 1 + env["foo"]

    @tf.function
    def recommended_add(foo):
        return 1 + foo
    first = (buggy_add(), recommended_add(env["foo"]))
    env["foo"] = 100
    second = (buggy_add(), recommended_add(env["foo"]))
    var = tf.Variable(1)

    @tf.function
    def variable_add():
        return 1 + var
    v1 = variable_add()
    var.assign(100)
    return {"first": first, "second": second, "variable": [v1, variable_add()]}


def program_object_attributes_and_concrete(tf):
    class SimpleModel(tf.Module):
        def __init__(self):
            self.bias = 0.
            self.weight = 2.

    def evaluate(model, x):
        return model.weight * x + model.bias
    x = tf.constant(10.)
    fn = tf.function(evaluate)
    model = SimpleModel()
    before = fn(model, x)
    model.bias += 5.0
    after = fn(model, x)
    new_model = SimpleModel()
    no_bias = tf.function(evaluate).get_concrete_function(new_model, x)
    new_model.bias += 5.0
    with_bias = tf.function(evaluate).get_concrete_function(new_model, x)

    class BetterModel:
        def __init__(self):
            self.bias = tf.Variable(0.)
            self.weight = tf.Variable(2.)
    better = BetterModel()
    b1 = fn(better, x)
    better.bias.assign_add(5.0)
    return {"simple": [before, after], "concrete": [no_bias(x), with_bias(x)],
            "better": [b1, fn(better, x)]}


def program_trace_type_rules(tf):
    @tf.function
    def f(x):
        return tf.constant(0)
    f([1, 2])
    f([2, 1])          # another list value: another trace
    f({1: 2, 3: 4})
    f({3: 4, 1: 2})    # the same mapping in another order: the same trace
    f((1, 2))
    f(3)
    f(3)
    return {"traces": f.experimental_get_tracing_count()}


def program_most_specific_trace_is_chosen(tf):
    @tf.function
    def which(x):
        # a Python value fixed at trace time: which trace served the call
        return tf.constant([-1 if d is None else d for d in x.shape.as_list()])
    which.get_concrete_function(tf.TensorSpec([None, None], tf.float32))
    which.get_concrete_function(tf.TensorSpec([1, None], tf.float32))
    return {"one_by_two": which(tf.zeros([1, 2])), "three_by_two": which(tf.zeros([3, 2])),
            "traces": which.experimental_get_tracing_count()}


def program_most_specific_trace_narrow_first(tf):
    @tf.function
    def which(x):
        return tf.constant([-1 if d is None else d for d in x.shape.as_list()])
    which.get_concrete_function(tf.TensorSpec([1, None], tf.float32))
    which.get_concrete_function(tf.TensorSpec([None, None], tf.float32))
    return {"one_by_two": which(tf.zeros([1, 2])), "three_by_two": which(tf.zeros([3, 2])),
            "rank_one": which(tf.zeros([4])), "traces": which.experimental_get_tracing_count()}

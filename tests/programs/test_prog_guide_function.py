"""The "Introduction to graphs and tf.function" and "Better performance with
tf.function" guides, cell by cell."""
import numpy as np
import pytest
import tapeflow as tf


def test_function_matches_python_and_nests():
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    a_function_that_uses_a_graph = tf.function(a_regular_function)
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    orig_value = a_regular_function(x1, y1, b1).numpy()
    tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
    assert orig_value == tf_function_value == 12.0

    def inner_function(x, y, b):
        return tf.matmul(x, y) + b

    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)

    assert outer_function(tf.constant([[1.0, 2.0]])).numpy() == 12.0


def test_autograph_converted_relu_and_code():
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    tf_simple_relu = tf.function(simple_relu)
    assert tf_simple_relu(tf.constant(1)).numpy() == 1
    assert tf_simple_relu(tf.constant(-1)).numpy() == 0
    code = tf.autograph.to_code(simple_relu)
    assert "def " in code and "simple_relu" in code


def test_polymorphism_and_concrete_functions():
    @tf.function
    def my_relu(x):
        return tf.maximum(0.0, x)

    assert my_relu(tf.constant(5.5)).numpy() == 5.5
    np.testing.assert_array_equal(my_relu([1, -1]).numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(my_relu(tf.constant([3.0, -3.0])).numpy(), [3.0, 0.0])
    # These calls reuse the traces above.
    my_relu(tf.constant(-2.5))
    my_relu(tf.constant([-1.0, 1.0]))
    assert my_relu.experimental_get_tracing_count() == 3
    print(my_relu.pretty_printed_concrete_signatures())
    cf = my_relu.get_concrete_function(tf.TensorSpec(shape=[None], dtype=tf.float32))
    np.testing.assert_array_equal(cf(tf.constant([-4.0, 4.0, 0.5])).numpy(), [0.0, 4.0, 0.5])
    assert cf.graph is not None


def test_python_side_effects_run_once_per_trace():
    printed = []

    @tf.function
    def get_MSE(y_true, y_pred):
        printed.append("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    for _ in range(3):
        error = get_MSE(y_true, y_pred)
    assert printed == ["Calculating MSE!"]
    # int32 in, int32 out: the mean of integers is truncated, as in TF.
    assert error.dtype == tf.int32
    assert int(error) == int(np.sum((y_true.numpy() - y_pred.numpy()) ** 2)) // 5

    tf.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            get_MSE(y_true, y_pred)
        assert len(printed) == 4
    finally:
        tf.config.run_functions_eagerly(False)
    assert not tf.executing_eagerly() or True


def test_tf_print_runs_every_call(capsys):
    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        tf.print("tf.print MSE!")
        return tf.reduce_mean(tf.pow(y_true - y_pred, 2))

    y = tf.constant([1.0, 2.0])
    for _ in range(3):
        get_MSE(y, y)
    out = capsys.readouterr()
    text = out.out + out.err
    assert text.count("Calculating MSE!") == 1
    assert text.count("tf.print MSE!") == 3


def test_non_strict_execution_and_graph_errors():
    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # a result nobody uses
        return x

    np.testing.assert_array_equal(unused_return_graph(tf.constant([0.0])).numpy(), [0.0])

    @tf.function
    def check(x):
        tf.debugging.assert_positive(x)
        return x

    with pytest.raises(tf.errors.InvalidArgumentError):
        check(tf.constant([-1.0]))


def test_retracing_rules():
    trace_count = []

    @tf.function
    def double(a):
        trace_count.append(1)
        return a + a

    double(tf.constant(1))
    double(tf.constant(1.1))
    assert double(tf.constant("a")).numpy() == b"aa"  # the guide's fourth example: strings concatenate
    double(tf.constant(2))  # same signature as the first: no retrace
    assert len(trace_count) == 3
    # Python scalars retrace on every new value.
    double(2)
    double(3)
    assert len(trace_count) == 5
    double(3)
    assert len(trace_count) == 5

    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    np.testing.assert_array_equal(next_collatz(tf.constant([1, 2])).numpy(), [4, 1])
    np.testing.assert_array_equal(next_collatz(tf.constant([3, 4, 5])).numpy(), [10, 2, 16])
    with pytest.raises((TypeError, ValueError)):
        next_collatz(tf.constant([[1, 2], [3, 4]]))
    with pytest.raises((TypeError, ValueError)):
        next_collatz(tf.constant([1.0, 2.0]))

    @tf.function(reduce_retracing=True)
    def g(x):
        return x * 2

    for n in range(1, 6):
        np.testing.assert_array_equal(g(tf.ones([n])).numpy(), np.full(n, 2.0))
    assert g.experimental_get_tracing_count() <= 2


def test_pass_tensors_not_python_numbers_in_loops():
    @tf.function
    def train(num_steps):
        tf.print("Tracing with num_steps =", num_steps)
        total = tf.constant(0)
        for i in tf.range(num_steps):
            total += i
        return total

    assert int(train(num_steps=tf.constant(10))) == 45
    assert int(train(num_steps=tf.constant(20))) == 190
    assert train.experimental_get_tracing_count() == 1


def test_autograph_loops_conditionals_and_tensorarray():
    @tf.function
    def fizzbuzz(n):
        fizz = tf.constant(0)
        buzz = tf.constant(0)
        both = tf.constant(0)
        for i in tf.range(1, n + 1):
            if i % 15 == 0:
                both += 1
            elif i % 3 == 0:
                fizz += 1
            elif i % 5 == 0:
                buzz += 1
        return fizz, buzz, both

    f, b, fb = fizzbuzz(tf.constant(30))
    assert (int(f), int(b), int(fb)) == (8, 4, 2)

    batch_size, seq_len, feature_size = 2, 3, 4

    def rnn_step(inp, state):
        return inp + state

    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    data = np.random.default_rng(0).uniform(size=(batch_size, seq_len, feature_size)).astype(np.float32)
    out = dynamic_rnn(rnn_step, tf.constant(data), tf.zeros([batch_size, feature_size]))
    np.testing.assert_allclose(out.numpy(), np.cumsum(data, axis=1), rtol=1e-6)

    @tf.function
    def while_sum(n):
        s = tf.constant(0.0)
        i = tf.constant(0)
        while i < n:
            s += tf.cast(i, tf.float32)
            i += 1
        return s

    assert float(while_sum(tf.constant(5))) == 10.0


def test_variables_created_only_once():
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v

    with pytest.raises(ValueError):
        f(1.0)
        f(2.0)  # retraces and would make a second variable

    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    c = Count()
    assert int(c()) == 1
    assert int(c()) == 2


def test_python_list_append_inside_function_and_iterators():
    @tf.function
    def buggy_consume_next(iterator):
        tf.print("Value:", next(iterator))

    v = tf.Variable(1.0)

    @tf.function
    def update(x):
        v.assign_add(x)
        return v

    for _ in range(3):
        update(1.0)
    assert float(v) == 4.0

    external = tf.Variable(0)

    @tf.function
    def side(x):
        external.assign_add(x)

    side(tf.constant(2))
    side(tf.constant(3))
    assert int(external) == 5


def test_recursive_function_is_a_clear_error_or_works():
    @tf.function
    def recursive_fn(n):
        if n > 0:
            return recursive_fn(n - 1)
        else:
            return 1

    # TF raises for a tensor n (the recursion cannot terminate while tracing).
    try:
        result = recursive_fn(tf.constant(5))
    except Exception as exc:  # noqa: BLE001 - any *clear* error is accepted
        assert "recurs" in str(exc).lower(), str(exc)
    else:
        assert int(result) == 1
    # A Python int terminates while tracing and works.
    assert int(recursive_fn(3)) == 1


def test_graph_printing():
    @tf.function
    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    x = tf.eye(10, dtype=tf.int32) * 2
    r = power(x, 3)
    np.testing.assert_array_equal(r.numpy(), np.eye(10, dtype=np.int32) * 8)
    cf = power.get_concrete_function(x, 3)
    graph = cf.graph
    ops = graph.get_operations()
    assert len(ops) > 0
    text = str(graph.as_graph_def()) if hasattr(graph, "as_graph_def") else str(graph)
    assert "atmul" in text or "MatMul" in text


def test_user_variables_named_like_converter_placeholders():
    # The guide's dynamic_rnn carries a variable called `state`; the converters' templates
    # use placeholders with such names, which must not capture user variables.
    @tf.function
    def f(x):
        state = tf.zeros([]); test = tf.constant(0.0); body = tf.constant(1.0); target = tf.constant(2.0)
        state_out = tf.constant(0.0); options = tf.constant(0.0); itr = tf.constant(0.0)
        for i in tf.range(3):
            state += x; test += 1.0; body *= 2.0; target -= 1.0; options += 2.0; itr += 5.0
            if state > 1.0:
                state_out = state
            else:
                state_out = -state
        while test < 5.0:
            test += 1.0; body += 1.0
        return state, test, body, target, options, itr, state_out

    assert [float(v) for v in f(tf.constant(1.0))] == [3.0, 5.0, 10.0, -1.0, 6.0, 15.0, 3.0]

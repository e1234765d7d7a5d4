"""TF guide "Introduction to graphs and tf.function" (site/en/guide/intro_to_graphs.ipynb), cell by cell.

Python `print` output is captured and compared.  Timing cells return values only;
cells drawing tf.random.uniform use fixed tensors so both libraries see the same input.
"""
from _cells import printed


def program_regular_vs_function(tf):
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
    return {"orig": orig_value, "function": tf_function_value,
            "equal": bool(orig_value == tf_function_value)}


def program_inner_function(tf):
    def inner_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)
    return {"out": outer_function(tf.constant([[1.0, 2.0]])).numpy()}


def _simple_relu(tf):
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0
    return simple_relu


def program_simple_relu(tf):
    tf_simple_relu = tf.function(_simple_relu(tf))
    return {"first": tf_simple_relu(tf.constant(1)).numpy(),
            "second": tf_simple_relu(tf.constant(-1)).numpy()}


def program_simple_relu_to_code(tf):
    code = tf.autograph.to_code(_simple_relu(tf))
    return {"is_text": isinstance(code, str) and "def " in code}


def program_simple_relu_graph_def(tf):
    tf_simple_relu = tf.function(_simple_relu(tf))
    graph_def = tf_simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def()
    text = str(graph_def)
    # Node names are the library's own: compare the form, not the names.
    return {"has_nodes": len(graph_def.node) > 0, "text_form": text.startswith("node {")}


def program_polymorphism(tf):
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    def cell():
        print(my_relu(tf.constant(5.5)))
        print(my_relu([1, -1]))
        print(my_relu(tf.constant([3., -3.])))
        print(my_relu(tf.constant(-2.5)))
        print(my_relu(tf.constant([-1., 1.])))
    _, lines = printed(cell)
    return {"lines": lines, "traces": my_relu.experimental_get_tracing_count(),
            "signatures": my_relu.pretty_printed_concrete_signatures()}


Y_TRUE = [1, 7, 3, 0, 9]
Y_PRED = [4, 7, 2, 8, 5]


def program_graph_vs_eager_mse(tf):
    @tf.function
    def get_MSE(y_true, y_pred):
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)
    y_true, y_pred = tf.constant(Y_TRUE), tf.constant(Y_PRED)
    graph = get_MSE(y_true, y_pred)
    tf.config.run_functions_eagerly(True)
    try:
        eager = get_MSE(y_true, y_pred)
    finally:
        tf.config.run_functions_eagerly(False)
    return {"graph": graph, "eager": eager}


def program_print_once_per_trace(tf):
    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)
    y_true, y_pred = tf.constant(Y_TRUE), tf.constant(Y_PRED)
    _, graph_lines = printed(lambda: [get_MSE(y_true, y_pred) for _ in range(3)])
    tf.config.run_functions_eagerly(True)
    try:
        error, eager_lines = printed(lambda: [get_MSE(y_true, y_pred) for _ in range(3)])
    finally:
        tf.config.run_functions_eagerly(False)
    return {"graph_lines": graph_lines, "eager_lines": eager_lines, "error": error[-1]}


def program_power_eager_vs_graph(tf):
    # The timing cells: compare the values (and one trace per Python y) instead.
    x = tf.reshape(tf.constant([(i * 7) % 3 - 1 for i in range(100)]), [10, 10])

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result
    power_as_graph = tf.function(power)
    eager = power(x, 5)
    graph = [power_as_graph(x, 5) for _ in range(3)]
    return {"eager": eager, "graph": graph[-1], "traces": power_as_graph.experimental_get_tracing_count()}


def program_when_tracing(tf):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")
        return x * x + tf.constant(2)

    def cell():
        print(a_function_with_python_side_effect(tf.constant(2)))
        print(a_function_with_python_side_effect(tf.constant(3)))
        print(a_function_with_python_side_effect(2))
        print(a_function_with_python_side_effect(3))
    _, lines = printed(cell)
    return {"lines": lines}


def program_non_strict_execution(tf):
    # (formerly hand-written in tests/programs/test_prog_guide_function.py)
    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # a result nobody uses: the graph need not run it
        return x

    @tf.function
    def check(x):
        tf.debugging.assert_positive(x)  # a stateful check: it runs
        return x

    try:
        check(tf.constant([-1.0]))
        raised = None
    except tf.errors.InvalidArgumentError as exc:
        raised = type(exc).__name__
    return {"unused": unused_return_graph(tf.constant([0.0])), "raised": raised}

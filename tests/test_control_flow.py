"""Public control flow (tf.cond, tf.while_loop, tf.switch_case, tf.TensorArray,
tf.print, tf.debugging) eagerly and in graphs, and the loop/branch type rules."""
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime.errors import InvalidArgumentError


def both(fn, *args):
    """(eager result, graph result)."""
    return fn(*args), tf.function(fn, fallback=False)(*args)


def test_cond_eager_and_graph():
    def f(x):
        return tf.cond(x > 0, lambda: (x * 2, x), lambda: (-x, x + 1))

    for v in (3.0, -3.0):
        e, g = both(f, tf.constant(v))
        np.testing.assert_allclose([t.numpy() for t in e], [t.numpy() for t in g])


def test_cond_branches_with_different_shapes_relax():
    @tf.function
    def f(x, n):
        return tf.cond(n > 0, lambda: x[:2], lambda: x)

    assert f(tf.constant([1.0, 2.0, 3.0]), tf.constant(1)).shape == (2,)
    assert f(tf.constant([1.0, 2.0, 3.0]), tf.constant(0)).shape == (3,)
    graph = f.get_concrete_function(tf.constant([1.0, 2.0, 3.0]), tf.constant(1)).graph
    assert "float32[None]" in str(graph)


def test_cond_dtype_mismatch_is_clear():
    @tf.function(fallback=False)
    def f(x):
        return tf.cond(x > 0, lambda: tf.constant(1), lambda: tf.constant(1.0))

    with pytest.raises(TypeError, match=r"'output 0' has dtype int32 in the true branch and float32"):
        f(tf.constant(1))


def test_while_loop_structures_and_maximum_iterations():
    def f(n):
        return tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, [acc[0] + i, acc[1] * 2]),
                             (tf.constant(0), [tf.constant(0), tf.constant(1)]))

    e, g = both(f, tf.constant(5))
    assert [int(e[0]), int(e[1][0]), int(e[1][1])] == [int(g[0]), int(g[1][0]), int(g[1][1])] == [5, 10, 32]

    def limited(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)], maximum_iterations=n // 2)

    e, g = both(limited, tf.constant(10))
    assert int(e[0]) == int(g[0]) == 5


def test_while_loop_shape_invariants():
    @tf.function
    def f(n):
        x = tf.constant([1.0])
        _, x = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, tf.concat([x, x], axis=0)),
                             (tf.constant(0), x), shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])))
        return x

    assert f(tf.constant(3)).shape == (8,)


def test_loop_variable_shape_change_error_names_variable():
    @tf.function(fallback=False)
    def f(n):
        x = tf.constant([1.0])
        for _ in tf.range(n):
            x = tf.concat([x, x], axis=0)
        return x

    with pytest.raises(ValueError, match=r"'x' has shape \(1,\) before the loop, but shape \(2,\) after one "
                                         r"iteration.*set_loop_options"):
        f(tf.constant(3))


def test_loop_variable_dtype_change_error():
    @tf.function(fallback=False)
    def f(n):
        x = tf.constant(0)
        i = tf.constant(0)
        while i < n:
            x = tf.cast(x, tf.float32) + 1.0
            i += 1
        return x

    with pytest.raises(TypeError, match="'x' has dtype int32 before the loop, but dtype float32"):
        f(tf.constant(3))


def test_variable_defined_in_one_branch_is_an_error_when_used():
    @tf.function(fallback=False)
    def f(x):
        if x > 0:
            y = x * 2
        return y

    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        f(tf.constant(1))

    @tf.function(fallback=False)
    def unused(x):
        if x > 0:
            tmp = x * 2  # noqa: F841 - not used afterwards: fine
        return x

    assert int(unused(tf.constant(1))) == 1


def test_variable_defined_only_in_tensor_loop_is_checked_when_the_graph_runs():
    @tf.function(fallback=False)
    def f(n):
        for i in tf.range(n):
            last = i * 2
        return last

    assert int(f(tf.constant(3))) == 4
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop must iterate at least once to initialize last"):
        f(tf.constant(0))


def test_switch_case():
    def f(i):
        return tf.switch_case(i, {0: lambda: tf.constant(1.0), 2: lambda: tf.constant(3.0)},
                              default=lambda: tf.constant(-1.0))

    for k in (0, 1, 2, 5):
        e, g = both(f, tf.constant(k))
        assert float(e) == float(g)


def test_tensor_array_eager_api():
    ta = tf.TensorArray(tf.float32, size=3)
    ta.write(0, [1.0, 2.0])  # eagerly a write updates the array itself
    ta = ta.write(2, tf.constant([5.0, 6.0]))
    np.testing.assert_array_equal(ta.stack().numpy(), [[1, 2], [0, 0], [5, 6]])
    assert int(ta.size()) == 3
    np.testing.assert_array_equal(ta.read(2).numpy(), [5, 6])
    np.testing.assert_array_equal(ta.gather([2, 0]).numpy(), [[5, 6], [1, 2]])
    with pytest.raises(tf.errors.OutOfRangeError, match="size is: 3"):  # TensorFlow's eager errors
        ta.write(3, [0.0, 0.0])
    with pytest.raises(tf.errors.OutOfRangeError, match="read from index 4"):
        ta.read(4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="dtype is float32 but Op is trying to write dtype int32"):
        ta.write(1, tf.constant([1, 2]))
    with pytest.raises(ValueError, match=r"Inconsistent shapes: saw \(3,\) but expected \(2,\)"):
        ta.write(1, [1.0, 2.0, 3.0])
    pieces = tf.TensorArray(tf.int32, size=2).split(tf.range(5), [2, 3])  # eagerly one tensor per element
    assert pieces.read(1).numpy().tolist() == [2, 3, 4] and pieces.concat().numpy().tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(NotImplementedError, match="unequal lengths"):  # traced: one buffer of one shape
        tf.function(lambda x: tf.TensorArray(tf.int32, size=2).split(x, [2, 3]).concat())(tf.range(5))
    grow = tf.TensorArray(tf.int32, size=0, dynamic_size=True).unstack(tf.constant([[1], [2]]))
    assert int(grow.size()) == 2


def test_tensor_array_gradient_eagerly():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=2)
        ta = ta.write(0, x * 3.0)
        ta = ta.write(1, x * x)
        y = tf.reduce_sum(ta.stack())
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [3.0 + 2.0, 3.0 + 4.0])


def test_print_eager_and_graph(capsys):
    @tf.function
    def f(x):
        tf.print("x is", x, "and", x * 2)
        print("python print:", x)
        return x

    f(tf.constant([1, 2, 3]))
    out = capsys.readouterr()
    assert "x is [1 2 3] and [2 4 6]" in out.err  # tf.print writes to stderr, as TensorFlow's
    assert "python print: Tensor(" in out.out and "shape=(3,), dtype=int32)" in out.out  # at trace time
    f(tf.constant([4, 5, 6]))  # the print nodes run with the graph, no retrace
    out = capsys.readouterr()
    assert "x is [4 5 6] and [8 10 12]" in out.err and "python print" not in out.out
    tf.print("eager", tf.constant(1.5), tf.range(10))
    assert capsys.readouterr().err == "eager 1.5 [0 1 2 ... 7 8 9]\n"
    tf.print("to stdout", output_stream=sys.stdout)
    assert capsys.readouterr().out == "to stdout\n"


def test_debugging_asserts_eager_and_graph():
    with pytest.raises(InvalidArgumentError, match="Condition x == y did not hold"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))
    tf.debugging.assert_less(tf.constant(1), 2)
    tf.debugging.assert_near(tf.constant(1.0), tf.constant(1.0 + 1e-7))
    with pytest.raises(ValueError, match="must have rank 2"):
        tf.debugging.assert_rank(tf.constant([1.0]), 2)

    @tf.function
    def f(x, y):
        tf.debugging.assert_greater(x, y, message="x > y")
        tf.debugging.assert_non_negative(y)
        return x - y

    assert int(f(tf.constant(3), tf.constant(1))) == 2
    with pytest.raises(InvalidArgumentError, match="x > y: Condition x > y did not hold"):
        f(tf.constant(0), tf.constant(1))
    with pytest.raises(InvalidArgumentError, match="x >= 0"):
        f(tf.constant(0), tf.constant(-1))


def test_assert_statement_raises_assertion_error_in_graph():
    @tf.function
    def f(x):
        assert x > 0, "x must be positive"
        return x

    assert int(f(tf.constant(1))) == 1
    with pytest.raises(AssertionError, match="x must be positive"):
        f(tf.constant(-1))


def test_cond_and_while_nodes_run_in_interpreter_directly():
    from tapeflow.compiler.interpreter import run_graph

    @tf.function
    def f(x):
        while tf.reduce_sum(x) < 100.0:
            x = x * 2.0 if tf.reduce_max(x) > 0 else x - 1.0
        return x

    graph = f.get_concrete_function(tf.constant([1.0, 2.0])).graph
    ops = {n.op for n in graph.nodes}
    assert "while_loop" in ops
    np.testing.assert_array_equal(run_graph(graph, [np.array([1.0, 2.0], np.float32)])[0], [64.0, 128.0])
    assert any(n.stateful for n in graph.nodes) is False


def test_a_constant_true_loop_that_nothing_ends_is_rejected_not_run_forever():
    # TensorFlow stages it and its graph never returns; eagerly it never ends either.
    @tf.function
    def forever(x):
        while tf.constant(True):
            x = x + 1
        return x

    with pytest.raises(ValueError, match="constant True tensor and nothing in the body ends the loop"):
        forever(tf.constant(0))

    @tf.function
    def bounded(x):
        while tf.constant(True):
            tf.autograph.experimental.set_loop_options(maximum_iterations=4)
            x = x + 1
        return x

    assert int(bounded(tf.constant(0))) == 4


def test_a_shape_of_unknown_length_runs_the_function_eagerly():
    @tf.function
    def f(n):
        return tf.zeros(tf.range(n)) + 1.0

    with pytest.warns(RuntimeWarning, match="shape is a tensor of unknown length"):
        out = f(tf.constant(2))
    assert out.shape == (0, 1)
    assert f(tf.constant(0)).numpy().tolist() == 1.0  # rank 0

"""Errors raised while a compiled graph runs name the user's line of the op
that failed, keep their type, and name the function."""
import re

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import compile_graph, run_graph
from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime.registry import Aval, state


def _line_of(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_gather_out_of_range_points_at_the_gather_line():
    @tf.function
    def pick(x, i):
        y = x * 2.0
        z = tf.gather(y, i)  # the failing line
        return z + 1.0

    assert float(pick(tf.constant([1.0, 2.0]), tf.constant(1))) == 5.0
    with pytest.raises(IndexError) as info:
        pick(tf.constant([1.0, 2.0]), tf.constant(5))
    line = _line_of(pick.python_function, "the failing line")
    assert re.search(rf"\(gather at .*test_graph_error_locations.py:{line}, while running the graph of pick",
                     str(info.value)), str(info.value)


def test_integer_division_by_zero_in_a_fused_kernel():
    @tf.function
    def divide(a, b):
        c = a + 1
        return c // b  # divides

    with pytest.raises(tf.errors.InvalidArgumentError, match="division by zero") as info:  # TF's type
        divide(tf.constant([3, 4]), tf.constant([1, 0]))
    line = _line_of(divide.python_function, "# divides")
    assert f"test_graph_error_locations.py:{line}" in str(info.value)


def test_error_inside_a_loop_body_names_the_line_in_the_body():
    @tf.function
    def walk(x, n):
        s = tf.constant(0.0)
        for i in tf.range(n):
            s += tf.gather(x, i)  # reads past the end
        return s

    assert float(walk(tf.constant([1.0, 2.0, 3.0]), tf.constant(3))) == 6.0
    with pytest.raises(IndexError) as info:
        walk(tf.constant([1.0, 2.0, 3.0]), tf.constant(4))
    line = _line_of(walk.python_function, "reads past the end")
    assert f"test_graph_error_locations.py:{line}" in str(info.value)


def test_nodes_keep_their_location_through_the_passes_and_the_interpreter():
    b = GraphBuilder("g")
    state.graph = b
    try:
        x = b.placeholder(Aval((3,), tf.int32))
        y = (x + 1) // x  # made here
    finally:
        state.graph = None
    graph = b.build([y])
    made = [n for n in graph.nodes if n.op == "floordiv"][0]
    assert made.loc.endswith(f"test_graph_error_locations.py:{_line_of(test_nodes_keep_their_location_through_the_passes_and_the_interpreter, '# made here')}")
    args = [np.array([1, 0, 2], np.int32)]
    for run in (lambda: run_graph(graph, args), lambda: compile_graph(graph)(*args)):
        with pytest.raises(ZeroDivisionError) as info:
            run()
        assert info.value.tapeflow_node == ("floordiv", made.loc)

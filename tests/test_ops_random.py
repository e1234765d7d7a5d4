"""Seeds: TensorFlow's rules for global and op seeds, and stateful draws in graphs."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler.interpreter import run_graph
from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime import registry
from tapeflow.runtime.registry import Aval


def test_global_seed_repeats_the_whole_sequence():
    tf.random.set_seed(11)
    first = [tf.random.uniform([3]).numpy(), tf.random.normal([2]).numpy(), tf.random.shuffle(tf.range(5)).numpy()]
    tf.random.set_seed(11)
    again = [tf.random.uniform([3]).numpy(), tf.random.normal([2]).numpy(), tf.random.shuffle(tf.range(5)).numpy()]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


def test_op_seed_continues_its_stream_and_restarts_with_set_seed():
    tf.random.set_seed(3)
    a = tf.random.uniform([4], seed=5).numpy()
    b = tf.random.uniform([4], seed=5).numpy()
    assert not np.array_equal(a, b)
    tf.random.set_seed(3)
    np.testing.assert_array_equal(tf.random.uniform([4], seed=5).numpy(), a)
    np.testing.assert_array_equal(tf.random.uniform([4], seed=5).numpy(), b)


def test_op_seed_without_global_seed_is_deterministic_across_resets():
    tf.random.set_seed(None)
    a = tf.random.normal([3], seed=1).numpy()
    tf.random.set_seed(None)
    np.testing.assert_array_equal(tf.random.normal([3], seed=1).numpy(), a)


def test_distribution_parameters_and_integer_uniform():
    tf.random.set_seed(0)
    x = tf.random.normal([20000], mean=3.0, stddev=0.5, dtype=tf.float64).numpy()
    assert x.dtype == np.float64 and abs(x.mean() - 3) < 0.02 and abs(x.std() - 0.5) < 0.02
    u = tf.random.uniform([10000], minval=-2.0, maxval=4.0).numpy()
    assert u.min() >= -2 and u.max() < 4 and abs(u.mean() - 1) < 0.1
    k = tf.random.uniform([1000], minval=3, maxval=7, dtype=tf.int64).numpy()
    assert k.dtype == np.int64 and set(k.tolist()) == {3, 4, 5, 6}
    t = tf.random.truncated_normal([5000], stddev=2.0).numpy()
    assert np.abs(t).max() <= 4.0


def test_random_shape_known_only_when_the_graph_runs():
    builder = GraphBuilder()
    registry.state.graph = builder
    try:
        x = builder.placeholder(Aval((None, 3), tf.float32))
        noise = tf.random.uniform(tf.shape(x))
        dropped = tf.nn.dropout(x, 0.5)
        graph = builder.build([noise, dropped])
    finally:
        registry.state.graph = None
    assert noise.shape.as_list() == [None, 3] or noise.shape.as_list() == [None, None]
    out, drop = run_graph(graph, [np.ones((4, 3), np.float32)])
    assert out.shape == (4, 3) and drop.shape == (4, 3)
    assert set(np.unique(drop).tolist()) <= {0.0, 2.0}


def test_bad_shapes():
    with pytest.raises(ValueError, match=r"random.normal: shape \[2, -1\] has a negative dimension"):
        tf.random.normal([2, -1])
    with pytest.raises(ValueError, match="random.uniform: need minval < maxval, got 3 and 3"):
        tf.random.uniform([2], 3, 3, dtype=tf.int32)

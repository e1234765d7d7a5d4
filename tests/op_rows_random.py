"""Op-table rows for stateless_random, stateless_categorical, random_categorical (random_generator),
random_parametric and stateless_parametric (random_parametric), merged into test_ops_table.ROWS.  TensorFlow's exact
numbers are checked by the parity programs (tests/tf_parity/programs/random_*.py)."""
import numpy as np

import tapeflow as tf

from op_cases import Row


def run_graph_twice(make):
    """Trace make() into a graph of no inputs; run the graph twice."""
    from tapeflow.compiler.interpreter import run_graph
    from tapeflow.compiler.testing import trace
    graph = trace(make, [], name="rng")
    return run_graph(graph, [])[0], run_graph(graph, [])[0]


def _check_stateless():
    a = tf.random.stateless_normal([3000], seed=[4, 5]).numpy()
    b = tf.random.stateless_normal([3000], seed=tf.constant([4, 5], tf.int64)).numpy()
    c = tf.random.stateless_normal([3000], seed=[4, 6]).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c) and a.dtype == np.float32
    assert abs(a.mean()) < 0.08 and abs(a.std() - 1) < 0.08
    first, second = run_graph_twice(lambda: tf.random.stateless_normal([3000], seed=[4, 5]))
    np.testing.assert_array_equal(first, a)
    np.testing.assert_array_equal(second, a)  # pure: every run the same numbers
    u = tf.random.stateless_uniform([50, 40], [1, 2], minval=-1.0, maxval=3.0).numpy()
    assert u.min() >= -1 and u.max() < 3 and abs(u.mean() - 1) < 0.1
    t = tf.random.stateless_truncated_normal([2000], [7, 7]).numpy()
    assert np.abs(t).max() <= 2
    i = tf.random.stateless_uniform([1000], [3, 3], minval=2, maxval=5, dtype=tf.int32).numpy()
    assert i.dtype == np.int32 and set(i.tolist()) == {2, 3, 4}


def _check_categorical():
    with np.errstate(divide="ignore"):
        logits = tf.constant(np.log(np.array([[0.2, 0.8, 0.0], [0.5, 0.25, 0.25]], np.float32)))
    tf.random.set_seed(11)
    a = tf.random.categorical(logits, 4000)
    tf.random.set_seed(11)
    b = tf.random.categorical(logits, 4000)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert a.dtype == tf.int64 and a.shape == (2, 4000)
    counts = [np.bincount(row, minlength=3) / 4000 for row in a.numpy()]
    np.testing.assert_allclose(counts[0], [0.2, 0.8, 0.0], atol=0.03)
    np.testing.assert_allclose(counts[1], [0.5, 0.25, 0.25], atol=0.03)
    first, second = run_graph_twice(lambda: tf.random.categorical(logits, 50, dtype=tf.int32))
    assert first.shape == (2, 50) and first.dtype == np.int32 and not np.array_equal(first, second)


def _check_stateless_categorical():
    logits = tf.math.log([[0.2, 0.8], [0.5, 0.5]])
    a = tf.random.stateless_categorical(logits, 3000, seed=[1, 2]).numpy()
    np.testing.assert_array_equal(a, tf.random.stateless_categorical(logits, 3000, seed=[1, 2]).numpy())
    np.testing.assert_allclose([row.mean() for row in a], [0.8, 0.5], atol=0.04)
    first, second = run_graph_twice(lambda: tf.random.stateless_categorical(logits, 50, seed=[1, 2]))
    np.testing.assert_array_equal(first, second)  # pure: every run the same numbers
    np.testing.assert_array_equal(first[0], a[0, :50])  # row 0 reads the first words either way


def _check_binomial():
    g = tf.random.Generator.from_seed(3)
    x = g.binomial([4000], counts=10.0, probs=0.3).numpy()
    assert x.dtype == np.int32 and x.min() >= 0 and x.max() <= 10
    assert abs(x.mean() - 3.0) < 0.1 and abs(x.var() - 2.1) < 0.2
    g.reset_from_seed(3)
    np.testing.assert_array_equal(x, g.binomial([4000], counts=10.0, probs=0.3).numpy())


def _check_stateless_parametric():
    b = tf.random.stateless_binomial([3000, 2], [1, 2], counts=[10.0, 200.0], probs=[0.3, 0.6]).numpy()
    np.testing.assert_allclose(b.mean(axis=0), [3.0, 120.0], rtol=0.03)
    p = tf.random.stateless_poisson([3000, 2], [1, 2], lam=[2.0, 50.0]).numpy()
    np.testing.assert_allclose(p.mean(axis=0), [2.0, 50.0], rtol=0.05)
    g = tf.random.stateless_gamma([4000], [1, 2], alpha=0.5, beta=2.0).numpy()
    assert abs(g.mean() - 0.25) < 0.02 and g.min() > 0
    first, second = run_graph_twice(lambda: tf.random.stateless_poisson([50], seed=[1, 2], lam=2.0))
    np.testing.assert_array_equal(first, second)  # pure: every run the same numbers
    np.testing.assert_array_equal(first, tf.random.stateless_poisson([50], [1, 2], lam=2.0).numpy())


def _check_binomial_graph():
    g = tf.random.Generator.from_seed(3)
    first, second = run_graph_twice(lambda: g.binomial([50], counts=10.0, probs=0.3))
    assert not np.array_equal(first, second)  # each run moves the generator on
    g.reset_from_seed(3)
    np.testing.assert_array_equal(first, g.binomial([50], counts=10.0, probs=0.3).numpy())


ROWS = {
    "stateless_categorical": Row([], False, check=_check_stateless_categorical),
    "random_parametric": Row([], False, check=lambda: (_check_binomial(), _check_binomial_graph())),
    "stateless_parametric": Row([], False, check=_check_stateless_parametric),
    "stateless_random": Row([], False, check=_check_stateless),
    "random_categorical": Row([], False, check=_check_categorical),
}

"""The differential corpus: every function gives the same values and dtypes
eagerly and as a tf.function graph, on each of its argument sets (tensors and
Python values), and its trace count stays at one per signature."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapeflow as tf
from corpus import programs_basic, programs_combined, programs_closures_loops  # noqa: F401  (registers the cases)
from corpus.registry import CORPUS


def _arg(a):
    return tf.constant(a) if isinstance(a, np.ndarray) else a


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [x for o in out for x in _flat(o)]
    return [out]


def _assert_same(eager, graph):
    e, g = _flat(eager), _flat(graph)
    assert len(e) == len(g)
    for a, b in zip(e, g):
        if isinstance(a, tf.Tensor) or isinstance(b, tf.Tensor):
            a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
            assert a.dtype == b.dtype, (a, b)
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-6)
        else:
            assert a == b


def test_corpus_size():
    assert len(CORPUS) >= 80


@pytest.mark.parametrize("name,fn,arg_sets", CORPUS, ids=[c[0] for c in CORPUS])
def test_graph_equals_eager(name, fn, arg_sets):
    compiled = tf.function(fn, fallback=False)
    for args in arg_sets:
        eager = fn(*[_arg(a) for a in args])
        graph = compiled(*[_arg(a) for a in args])
        _assert_same(eager, graph)
        again = compiled(*[_arg(a) for a in args])  # cached: no new trace
        _assert_same(eager, again)
    keys = {tuple((np.shape(a), np.asarray(a).dtype) if isinstance(a, np.ndarray) else (type(a), a)
                  for a in args) for args in arg_sets}
    assert compiled.experimental_get_tracing_count() == len(keys)


def _corpus_fn(name):
    return next(fn for n, fn, _ in CORPUS if n == name)


@settings(max_examples=25, deadline=None)
@given(st.integers(-50, 50), st.integers(-50, 50))
def test_hypothesis_logic_and_loops(a, b):
    for name in ("logical_and_or", "if_two_vars", "chained_comparison"):
        fn = _corpus_fn(name)
        args = (np.int32(a), np.int32(b))[: fn.__code__.co_argcount]
        _assert_same(fn(*map(tf.constant, args)), tf.function(fn)(*map(tf.constant, args)))


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 60))
def test_hypothesis_collatz_and_returns(n):
    for name in ("while_collatz", "return_inside_while", "early_return_over_tf_range", "for_break_continue"):
        fn = _corpus_fn(name)
        x = tf.constant(np.int32(n))
        _assert_same(fn(x), tf.function(fn)(x))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.floats(-5, 5, width=32), min_size=1, max_size=6))
def test_hypothesis_vectors(values):
    v = tf.constant(np.asarray(values, np.float32))
    for name in ("for_over_tensor", "early_return_in_for", "if_on_reduction", "for_enumerate_tensor"):
        fn = _corpus_fn(name)
        _assert_same(fn(v), tf.function(fn)(v))

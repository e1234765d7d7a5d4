"""Fusion never builds a cycle and stays linear on long chains.

Regression: a softmax cluster that absorbed the `equal` of the labels made the
`argmax` of the sparse accuracy look independent of the labels' cluster; the
rebuilt schedule had a cycle and `fit` ran 3-10x slower through the reference
interpreter.  The property test builds random graphs mixing fusable elementwise
ops, trailing reductions, views and unfusable ops (argmax, matmul) and checks
that the pipeline schedules them and computes what the reference interpreter does.
"""
import os
import random
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapeflow as tf
from tapeflow import compiler, keras
from tapeflow.compiler import passes, run_reference
from tapeflow.compiler.passes import fusion
from tapeflow.compiler.testing import aval, trace

EXAMPLES = int(os.environ.get("TAPEFLOW_FUZZ_EXAMPLES", "60"))


def test_fit_with_softmax_sparse_crossentropy_and_float_labels_compiles():
    rng = np.random.default_rng(0)
    x = rng.random((64, 8), dtype=np.float32)
    y = rng.integers(0, 3, 64).astype("float32")
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.layers.Dense(16, activation="relu", input_shape=(8,)),
                              keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a failed compile warns
        history = model.fit(x, y, epochs=2, batch_size=16, verbose=0)
    assert np.isfinite(history.history["loss"]).all()


UNARY = [tf.exp, tf.tanh, tf.negative, tf.abs, lambda v: v * 0.5, lambda v: tf.cast(v > 0.1, tf.float32)]
BINARY = [tf.add, tf.multiply, tf.subtract, tf.maximum, lambda u, v: tf.cast(tf.equal(u, v), tf.float32)]
_PAIRS = {((4, 3), (4, 3)), ((4, 3), (4, 1)), ((4, 1), (4, 3)), ((4,), (4,)), ((4, 1), (4, 1)),
          ((4, 3), (3,)), ((3,), (4, 3))}


def _random_program(seed):
    """A function of a (4, 3) and a (4,) input building a random DAG of 6-30 ops over
    three iteration spaces, (4, 3), (4, 1) and (4,), joined by views (reshape),
    trailing reductions and unfusable ops (argmax, matmul) -- the mix in which a
    cluster of one space can depend on another through a node outside both."""
    rng = random.Random(seed)
    steps = [(rng.random(), rng.random(), rng.random(), rng.random()) for _ in range(rng.randint(6, 30))]

    def program(a, b):
        pool = [a, b, tf.ones((3,)) * 0.25]
        for kind, i, j, pick in steps:
            x = pool[int(i * len(pool))]
            shape = tuple(x.shape)
            partners = [v for v in pool if (shape, tuple(v.shape)) in _PAIRS]
            y = partners[int(j * len(partners))] if partners else x
            if kind < 0.25:
                v = UNARY[int(pick * len(UNARY))](x)
            elif kind < 0.55:
                v = BINARY[int(pick * len(BINARY))](x, y) if partners else x + 1.0
            elif kind < 0.65 and shape == (4, 3):
                reduce = tf.reduce_sum if pick < 0.5 else tf.reduce_max
                v = reduce(x, axis=-1, keepdims=pick < 0.25 or pick > 0.75)
            elif kind < 0.75 and shape in ((4,), (4, 1)):
                v = tf.reshape(x, (4, 1) if shape == (4,) else (4,))
            elif kind < 0.85 and shape == (4, 3):
                v = tf.cast(tf.argmax(x, axis=-1), tf.float32)
            elif kind < 0.92 and shape == (4, 3):
                v = tf.matmul(x, tf.ones((3, 3)) * 0.1)
            elif shape == (4, 3):
                v = tf.nn.softmax(x)
            else:
                v = x * 2.0
            pool.append(v)
        return [pool[-1], pool[len(pool) // 2], pool[-2]]
    return program


A = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
B = np.cos(np.arange(4, dtype=np.float32))


def test_fusion_of_random_graphs_never_builds_a_cycle():
    # cheap (no C): many programs; before the fix about 1 in 750 of them had a cycle
    cycles = []
    for seed in range(25 * EXAMPLES):
        graph = trace(_random_program(seed), [aval((4, 3)), aval((4,))])
        try:
            fused = fusion.run(graph)
        except AssertionError:
            cycles.append(seed)
            continue
        if seed % 10 == 0:
            for got, want in zip(run_reference(fused, [A, B]), run_reference(graph, [A, B])):
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert not cycles, f"fusion produced a cycle for program seeds {cycles}"


@settings(max_examples=max(8, EXAMPLES // 4), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2 ** 31 - 1))
def test_compiled_random_graphs_equal_the_reference(seed):
    graph = trace(_random_program(seed), [aval((4, 3)), aval((4,))])
    want = run_reference(graph, [A, B])
    for got, w in zip(compiler.compile_graph(graph)(A, B), want):
        np.testing.assert_allclose(got, w, rtol=1e-5, atol=1e-6)


def test_long_elementwise_chain_is_split_into_several_kernels():
    n = 2 * fusion.MAX_CLUSTER_MEMBERS + 50

    def chain(x, y):
        for _ in range(n):
            x = x * 1.0001 + y
        return x
    graph = trace(chain, [aval((64,)), aval((64,))])
    fused = passes.optimize(graph, passes.CPU_PIPELINE)
    kernels = [node for node in fused.nodes if node.op == "fused"]
    assert len(kernels) >= 3
    assert all(len(k.attr["body"].nodes) <= fusion.MAX_CLUSTER_MEMBERS + 8 for k in kernels)
    x = np.ones(64, np.float32)
    y = np.full(64, 0.5, np.float32)
    want = x.copy()
    for _ in range(n):
        want = want * np.float32(1.0001) + y
    got = compiler.compile_graph(graph)(x, y)[0]
    np.testing.assert_allclose(got, want, rtol=1e-4)


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
def test_softmax_of_a_row_with_inf_is_nan_in_eager_and_compiled(fn):
    x = np.array([[np.inf, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0]], np.float32)
    eager = fn(x).numpy()
    compiled = tf.function(fn)(x).numpy()
    assert np.isnan(eager[0]).all() and np.isnan(compiled[0]).all()
    np.testing.assert_allclose(compiled[1], eager[1], rtol=1e-6)
    np.testing.assert_allclose(eager[1], fn(x[1:]).numpy()[0], rtol=1e-6)

"""OpenMP kernels large enough for a thread team take their work in dynamic
chunks (compiler/codegen_c.py CHUNK, SCHEDULE): the results are bit for bit
those of the fixed shares of schedule(static), call after call, for the three
kernel shapes (flat elementwise, per-row reductions, column reductions)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import codegen_c

RNG = np.random.default_rng(3)
FLAT = RNG.standard_normal(1 << 20).astype(np.float32) + 0.25  # not a multiple of CHUNK's threads' shares
ROWS = RNG.standard_normal((3001, 512)).astype(np.float32)
COLUMNS = RNG.standard_normal((8193, 512)).astype(np.float32)


def _flat(x):
    return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def _rows(x):
    e = tf.exp(x - tf.reduce_max(x, axis=-1, keepdims=True))
    return e / tf.reduce_sum(e, axis=-1, keepdims=True)


def _columns(x):
    return tf.reduce_sum(x * x, axis=0), tf.reduce_max(x, axis=0)


@pytest.mark.parametrize("fn, x", [(_flat, FLAT), (_rows, ROWS), (_columns, COLUMNS)],
                         ids=["flat", "rows", "columns"])
def test_dynamic_chunks_give_the_static_shares_result(fn, x, monkeypatch):
    dynamic = tf.function(fn)
    first = tf.nest.map_structure(lambda t: t.numpy(), dynamic(x))
    again = tf.nest.map_structure(lambda t: t.numpy(), dynamic(x))
    monkeypatch.setattr(codegen_c, "SCHEDULE", "static")  # a new source: compiled anew
    static = tf.nest.map_structure(lambda t: t.numpy(), tf.function(fn)(x))
    for a, b, c in zip(tf.nest.flatten(first), tf.nest.flatten(again), tf.nest.flatten(static)):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
    eager = tf.nest.flatten(tf.nest.map_structure(lambda t: t.numpy(), fn(tf.constant(x))))
    for a, e in zip(tf.nest.flatten(first), eager):
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("ops, elements", [
    (["mul", "add"], 1 << 22),  # memory-bound: 4M elements before a thread team pays
    (["mul", "tanh", "add"], 1 << 20),  # GELU's one tanh: a million
    (["exp", "div", "sub"], (1 << 22) // 7),  # softmax's exp and div
])
def test_a_thread_team_needs_work_not_only_elements(ops, elements):
    nodes = [type("Node", (), {"op": op})() for op in ops]
    assert codegen_c.parallel_min_elements(nodes) == elements


def test_the_schedule_clause_names_the_chunk():
    assert codegen_c.schedule(codegen_c.CHUNK) == f"schedule(dynamic, {codegen_c.CHUNK})"

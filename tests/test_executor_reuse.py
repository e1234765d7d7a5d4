"""A kernel that writes into the buffer of a value that died earlier (memory plan)
must find that buffer still bound in the generated executor."""
import numpy as np

import tapeflow as tf
from tapeflow.compiler import compile_graph, run_graph
from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime.registry import Aval, state


def test_buffer_of_a_dead_value_is_reused_after_its_last_use():
    b = GraphBuilder("reuse")
    state.graph = b
    try:
        x = b.placeholder(Aval((8, 4), tf.float32))
        w = b.placeholder(Aval((4, 4), tf.float32))
        y = b.placeholder(Aval((8, 4), tf.float32))
        a = tf.tanh(x) * 2.0  # a kernel output, dead after the matmul
        m = tf.matmul(a, w)
        d = tf.exp(y) + 1.0  # same shape and dtype: takes a's buffer
        out = [m, tf.matmul(d, w)]
    finally:
        state.graph = None
    graph = b.build(out)
    exe = compile_graph(graph)
    assert "reuse=(Ref(" in str(exe.optimized_graph)
    rng = np.random.default_rng(0)
    args = [rng.normal(size=(8, 4)).astype(np.float32), rng.normal(size=(4, 4)).astype(np.float32),
            rng.normal(size=(8, 4)).astype(np.float32)]
    for got, want in zip(exe(*args), run_graph(graph, args)):
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_equal_small_constants_share_one_node_whatever_the_scalar_cache_does():
    from tapeflow.runtime.tensor import Tensor
    b = GraphBuilder("consts")
    state.graph = b
    try:
        x = b.placeholder(Aval((3,), tf.float32))
        # Two distinct tensor objects with one value, and a negative zero.
        y = x * Tensor(np.float32(0.5)) + x * Tensor(np.asarray(0.5, np.float32)) + Tensor(np.float32(-0.0))
        z = y + Tensor(np.float32(0.0))
    finally:
        state.graph = None
    graph = b.build([z])
    consts = [n for n in graph.nodes if n.op == "const"]
    assert sorted(float(n.attr["value"].obj._value) for n in consts) == [-0.0, 0.0, 0.5]
    assert len(consts) == 3

"""Gradients taken while tracing (the compiled backward pass): the tape runs the
same VJPs on symbolic tensors, including dims unknown until the graph runs.
Each graph, run by the reference interpreter, must match the eager gradient."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler.interpreter import run_graph
from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime import registry
from tapeflow.runtime.registry import Aval

rng = np.random.default_rng(2)


def grad_fn(f):
    def g(*xs):
        with tf.GradientTape() as tape:
            tape.watch(list(xs))
            y = tf.reduce_sum(f(*xs))
        # a gather's gradient is tf.IndexedSlices, as in TensorFlow: compare it dense
        return [tf.convert_to_tensor(g) for g in tape.gradient(y, list(xs))]
    return g


FUNCS = [
    ("concat", lambda a, b: tf.concat([a, b * b], 0) ** 2),
    ("mean", lambda a, b: tf.reduce_mean(a * b, axis=0) + tf.reduce_mean(a)),
    ("softmax", lambda a, b: tf.nn.softmax(a) * b),
    ("matmul", lambda a, b: tf.matmul(a, b, transpose_b=True)),
    ("slices", lambda a, b: a[1:, ::-1] * b[:-1]),
    ("gather", lambda a, b: tf.gather(a, [0, 0, 1]) * tf.reduce_max(b, 0)),
    ("broadcast", lambda a, b: a * b[:1] + tf.reduce_logsumexp(b, 1, keepdims=True)),
    ("pad_tile", lambda a, b: tf.pad(a, [[0, 0], [1, 1]]) * tf.tile(b[:, :1], [1, 5])),
    ("stack_split", lambda a, b: tf.stack(tf.split(a, 3, axis=1), 0) * tf.expand_dims(b[:, :1], 0)),
    ("where", lambda a, b: tf.where(a > b, tf.exp(a), b * 3.0)),
    ("moments", lambda a, b: tf.nn.moments(a * b, axes=[0])[1]),
]


@pytest.mark.parametrize("dims", ["static", "unknown_batch"])
@pytest.mark.parametrize("name, f", FUNCS, ids=[n for n, _ in FUNCS])
def test_traced_gradient_matches_eager(name, f, dims):
    a = rng.normal(size=(4, 3))
    b = rng.normal(size=(4, 3))
    want = [g.numpy() for g in grad_fn(f)(tf.constant(a), tf.constant(b))]
    shape = (4, 3) if dims == "static" else (None, 3)
    builder = GraphBuilder()
    registry.state.graph = builder
    try:
        xs = [builder.placeholder(Aval(shape, tf.float64)) for _ in range(2)]
        outs = grad_fn(f)(*xs)
        graph = builder.build(outs)
    finally:
        registry.state.graph = None
    got = run_graph(graph, [a, b])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_reshape_to_a_size_known_only_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([None, 4, 3], tf.float32)])
    def flat(x):
        y = tf.reshape(x, [tf.shape(x)[0], -1])
        return y * 2.0, tf.reshape(y, tf.shape(x))

    for n in (1, 5):
        x = np.arange(n * 12, dtype=np.float32).reshape(n, 4, 3)
        a, b = flat(tf.constant(x))
        np.testing.assert_array_equal(a.numpy(), x.reshape(n, -1) * 2)
        np.testing.assert_array_equal(b.numpy(), x)
    v = tf.Variable(np.ones((2, 4, 3), np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(flat(v)[0] ** 2)
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), 8 * np.ones((2, 4, 3)))

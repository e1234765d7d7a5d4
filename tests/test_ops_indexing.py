"""x[...]: NumPy's answers for static indices, scalar tensor indices (eager and
traced), one advanced index (int vector or bool mask), and gradients."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler.interpreter import run_graph
from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime import registry
from tapeflow.runtime.registry import Aval

from conftest import check_grads

A = np.arange(60.0).reshape(3, 4, 5)

STATIC = [
    np.s_[1], np.s_[-1], np.s_[1:], np.s_[::-1], np.s_[-2:0:-1], np.s_[::2, 1], np.s_[..., 3],
    np.s_[None, 1, ..., ::-2], np.s_[:, None, :, None], np.s_[1, 2, 3], np.s_[-3:, -4:-1, -1],
    np.s_[5:], np.s_[:, 10:20], np.s_[..., np.newaxis], np.s_[1, ...], np.s_[0:0],
    np.s_[[2, 0, 2]], np.s_[:, [1, 3]], np.s_[..., [0, 4]], np.s_[1, :, [4, 0]],
    np.s_[np.array([0, 2])], np.s_[A[:, 0, 0] > 10], np.s_[:, A[0, :, 0] % 10 == 0],
    np.s_[A[..., 0] > 12], np.s_[:, 1, [0, 2]], np.s_[[0, 2], :, 1], np.s_[1, None, [0, 2]],
]


@pytest.mark.parametrize("index", STATIC, ids=[str(i) for i in range(len(STATIC))])
def test_static_index_matches_numpy(index):
    got = tf.constant(A)[index]
    np.testing.assert_array_equal(got.numpy(), A[index])


def test_scalar_tensor_indices_eager():
    x = tf.constant(A)
    i = tf.constant(2)
    np.testing.assert_array_equal(x[i].numpy(), A[2])
    np.testing.assert_array_equal(x[:, i:i + 2].numpy(), A[:, 2:4])
    np.testing.assert_array_equal(x[tf.constant(-1), tf.constant(1, tf.int64)].numpy(), A[-1, 1])
    v = tf.Variable(A)
    np.testing.assert_array_equal(v[1, ::2].numpy(), A[1, ::2])


def _trace(fn, *avals):
    builder = GraphBuilder()
    registry.state.graph = builder
    try:
        phs = [builder.placeholder(a) for a in avals]
        out = fn(*phs)
        return builder.build([out]), out
    finally:
        registry.state.graph = None


def test_traced_scalar_index_stays_one_op():
    graph, out = _trace(lambda x, i: x[i, 1:i + 3:2], Aval((3, 4, 5), tf.float64), Aval((), tf.int32))
    assert [n.op for n in graph.nodes if n.op not in ("input", "const")] == ["add", "getitem"]
    assert out.shape.as_list() == [None, 5]
    for i in range(3):
        got = run_graph(graph, [A, np.array(i, np.int32)])[0]
        np.testing.assert_array_equal(got, A[i, 1:i + 3:2])


def test_traced_index_out_of_range_fails_clearly():
    graph, _ = _trace(lambda x, i: x[i], Aval((3,), tf.float64), Aval((), tf.int32))
    with pytest.raises(IndexError, match="index 7 is out of bounds"):
        run_graph(graph, [np.zeros(3), np.array(7, np.int32)])


def test_traced_shape_of_basic_indexing_with_unknown_dims():
    graph, out = _trace(lambda x: x[:, ::2, None, -1], Aval((None, 4, 5), tf.float64))
    assert out.shape.as_list() == [None, 2, 1]


@pytest.mark.parametrize("index", [np.s_[1, ::-2], np.s_[..., None, 2:4], np.s_[[2, 0, 2], 1:],
                                   np.s_[:, A[0, :, 0] > 10]], ids=["strided", "newaxis", "gather", "mask"])
def test_index_gradients(index):
    check_grads(lambda x: x[index] * x[index], [A / 10.0])


def test_gradient_through_a_traced_scalar_index():
    x = tf.constant(A)
    i = tf.constant(1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x[i:i + 1] * 2.0)
    g = tape.gradient(y, x).numpy()
    want = np.zeros_like(A)
    want[1] = 2.0
    np.testing.assert_array_equal(g, want)


def test_bad_indices():
    x = tf.constant(A)
    with pytest.raises(TypeError, match="a bool \\(True\\) cannot be used as an index"):
        x[1:True]
    with pytest.raises(TypeError, match="only one index may be a list, array or tensor"):
        x[[0, 1], [0, 1]]
    with pytest.raises(IndexError, match="an index can only have a single ellipsis"):
        x[..., ...]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]
    with pytest.raises(TypeError, match="slice bounds must be integer scalars, got a float32 tensor"):
        x[tf.constant(1.0):]

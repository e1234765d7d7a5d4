"""Tensor.set_shape in graphs, what the parity harness cannot express: TensorFlow's
message texts, no node when nothing is refined, graph gradients through a refined
tensor against finite differences."""
import numpy as np
import pytest

import tapeflow as tf


def test_conflict_messages_are_tensorflows():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def dim(x):
        x.set_shape([None, 4])
        return x

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def rank(x):
        x.set_shape([None, 3, 1])
        return x
    with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but are 3 and 4\. "
                                         r"Shapes are \[\?,3\] and \[\?,4\]\."):
        dim(tf.ones([2, 3]))
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 2 and 3"):
        rank(tf.ones([2, 3]))


def test_refining_adds_one_node_and_keeps_the_name():
    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        node = x.node
        x.set_shape([None, None])      # nothing refined: the object is untouched
        seen["same"] = x.node == node
        x.set_shape([None, 3])
        seen["moved"] = x.node != node
        seen["repr"] = repr(x)
        return x
    f(tf.ones([2, 3]))
    assert seen["same"] and seen["moved"]
    assert seen["repr"] == "<tf.Tensor 'x:0' shape=(None, 3) dtype=float32>"


def test_graph_gradient_through_set_shape_matches_finite_differences():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)])
    def loss_and_grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = tf.sin(x) * x
            h.set_shape([None, 3])
            loss = tf.reduce_sum(tf.matmul(h, tf.constant([[1.0], [2.0], [-1.0]], tf.float64)) ** 2)
        return loss, tape.gradient(loss, x)
    x0 = np.array([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]])
    loss, g = loss_and_grad(tf.constant(x0))
    eps, fd = 1e-6, np.zeros_like(x0)
    for i in np.ndindex(*x0.shape):
        d = np.zeros_like(x0)
        d[i] = eps
        fd[i] = (loss_and_grad(tf.constant(x0 + d))[0].numpy() - loss_and_grad(tf.constant(x0 - d))[0].numpy()) / (2 * eps)
    np.testing.assert_allclose(g.numpy(), fd, rtol=1e-6, atol=1e-8)
    # The same value eagerly (set_shape on an eager tensor only checks).
    with tf.GradientTape() as tape:
        xe = tf.constant(x0)
        tape.watch(xe)
        he = tf.sin(xe) * xe
        he.set_shape([None, 3])
        le = tf.reduce_sum(tf.matmul(he, tf.constant([[1.0], [2.0], [-1.0]], tf.float64)) ** 2)
    np.testing.assert_allclose(tape.gradient(le, xe).numpy(), g.numpy(), rtol=1e-12)
    np.testing.assert_allclose(le.numpy(), loss.numpy(), rtol=1e-12)

"""Reductions, sorting and selection edge cases as TF documents them: empty tensors
(sum 0, prod 1, max -inf, min +inf, mean NaN, logsumexp -inf), axis=[] is the identity,
keepdims and negative axes, NaN propagation, argmax ties, stable argsort, top_k ties,
unique order, cumsum exclusive/reverse; eager against tf.function against NumPy."""
import numpy as np
import tapeflow as tf


def empty_stats(x):
    return (tf.reduce_sum(x, axis=0), tf.reduce_prod(x, axis=0), tf.reduce_max(x, axis=0),
            tf.reduce_min(x, axis=0), tf.reduce_logsumexp(x, axis=0))


def test_reductions_over_zero_elements():
    x = tf.zeros([0, 3])
    want = ([0.0] * 3, [1.0] * 3, [-np.inf] * 3, [np.inf] * 3, [-np.inf] * 3)
    for fn in (empty_stats, tf.function(empty_stats)):
        for got, ref in zip(fn(x), want):
            np.testing.assert_array_equal(got.numpy(), np.float32(ref))
    assert np.isnan(tf.reduce_mean(tf.zeros([0])).numpy())
    assert tf.reduce_max(tf.zeros([0], tf.int32)).numpy() == np.iinfo(np.int32).min
    assert tf.reduce_min(tf.zeros([0], tf.int32)).numpy() == np.iinfo(np.int32).max
    assert tf.reduce_max(tf.zeros([2, 0]), axis=1, keepdims=True).shape == (2, 1)


def test_axes_forms_keepdims_and_nan():
    rng = np.random.RandomState(0)
    a = rng.randn(2, 3, 4).astype(np.float32)
    x = tf.constant(a)
    np.testing.assert_array_equal(tf.reduce_sum(x, axis=[]).numpy(), a)
    np.testing.assert_allclose(tf.reduce_sum(x, axis=[-1, -3]).numpy(), a.sum(axis=(0, 2)), rtol=1e-5)
    np.testing.assert_allclose(tf.reduce_mean(x, axis=-1, keepdims=True).numpy(),
                               a.mean(-1, keepdims=True), rtol=1e-5)
    assert tf.reduce_mean(tf.constant([1, 2])).numpy() == 1  # integer mean truncates
    a[1, 2, 3] = np.nan

    @tf.function
    def stats(x):
        return tf.reduce_max(x, axis=-1), tf.reduce_min(x, axis=0), tf.reduce_logsumexp(x, axis=-1)

    for got, ref in zip(stats(tf.constant(a)), (a.max(-1), a.min(0), None)):
        if ref is not None:
            np.testing.assert_array_equal(np.isnan(got.numpy()), np.isnan(ref))
    assert np.isnan(stats(tf.constant(a))[2].numpy()[1, 2])


def test_logsumexp_with_infinities_and_large_values():
    np.testing.assert_allclose(tf.reduce_logsumexp(tf.constant([1000.0, 1000.0])).numpy(),
                               1000.0 + np.log(2.0), rtol=1e-6)
    assert tf.reduce_logsumexp(tf.constant([np.inf, 0.0])).numpy() == np.inf
    assert tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf])).numpy() == -np.inf
    np.testing.assert_allclose(tf.nn.softmax(tf.constant([1000.0, 0.0])).numpy(), [1.0, 0.0])
    np.testing.assert_allclose(tf.nn.softmax(tf.constant([-np.inf, 0.0, 0.0])).numpy(), [0.0, 0.5, 0.5])
    np.testing.assert_allclose(tf.nn.log_softmax(tf.constant([1000.0, 0.0])).numpy(), [0.0, -1000.0])


def test_argmax_ties_sort_and_top_k():
    assert tf.argmax(tf.constant([1.0, 3.0, 3.0, 0.0])).numpy() == 1
    assert tf.argmin(tf.constant([1.0, 0.0, 0.0])).numpy() == 1
    assert tf.argmax(tf.constant([[1.0, 2.0]]), axis=1).dtype == tf.int64
    assert tf.argmax(tf.constant([[1.0, 2.0]]), axis=1, output_type=tf.int32).dtype == tf.int32
    v = tf.constant([1, 0, 1, 0])
    np.testing.assert_array_equal(tf.argsort(v, stable=True).numpy(), [1, 3, 0, 2])
    np.testing.assert_array_equal(tf.argsort(v, direction="DESCENDING", stable=True).numpy(), [0, 2, 1, 3])
    np.testing.assert_array_equal(tf.sort(tf.constant([3, 1, 2]), direction="DESCENDING").numpy(), [3, 2, 1])
    values, indices = tf.math.top_k(tf.constant([1.0, 3.0, 3.0, 2.0, 3.0]), k=3)
    np.testing.assert_array_equal(values.numpy(), [3.0, 3.0, 3.0])
    np.testing.assert_array_equal(indices.numpy(), [1, 2, 4])  # ties: lower index first
    y, idx, count = tf.unique_with_counts(tf.constant([3, 1, 3, 2, 1]))
    np.testing.assert_array_equal(y.numpy(), [3, 1, 2])  # order of first appearance
    np.testing.assert_array_equal(idx.numpy(), [0, 1, 0, 2, 1])
    np.testing.assert_array_equal(count.numpy(), [2, 2, 1])


def test_cumsum_forms_and_gradient():
    x = tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tf.cumsum(x, exclusive=True).numpy(), [0, 1, 3])
    np.testing.assert_array_equal(tf.cumsum(x, reverse=True).numpy(), [6, 5, 3])
    np.testing.assert_array_equal(tf.cumsum(x, exclusive=True, reverse=True).numpy(), [5, 3, 0])
    np.testing.assert_array_equal(tf.math.cumprod(x, exclusive=True, reverse=True).numpy(), [6, 3, 1])
    w = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cumsum(x, exclusive=True, reverse=True) * w)
    # y = x1*1 + x2*(1+2) + ... : dy/dx_i = sum of w_j for j < i
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0.0, 1.0, 3.0])

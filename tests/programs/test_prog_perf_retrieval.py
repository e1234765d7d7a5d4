"""Pairwise distances + top_k nearest neighbours, and batched scaled dot-product
attention softmax(QK^T/sqrt(d))V, eager vs tf.function vs NumPy."""
import numpy as np
import tapeflow as tf

from perf_helpers import eager_vs_function


def test_pairwise_distances_and_top_k_neighbours():
    rng = np.random.default_rng(9)
    points = rng.normal(size=(1000, 16)).astype(np.float32)
    k = 5

    def knn(p):
        sq = tf.reduce_sum(tf.square(p), axis=1, keepdims=True)
        dist = sq - 2.0 * tf.matmul(p, p, transpose_b=True) + tf.transpose(sq)
        neg, idx = tf.math.top_k(-dist, k=k + 1)
        return -neg[:, 1:], idx[:, 1:]  # drop each point itself

    dist, idx = eager_vs_function("knn 1000x1000 top_k", knn, tf.constant(points), rtol=1e-3, atol=1e-3)
    assert idx.dtype == tf.int32 and idx.shape == (1000, k)
    p64 = points.astype(np.float64)
    full = ((p64[:, None, :] - p64[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(full, np.inf)
    expect_idx = np.argsort(full, axis=1, kind="stable")[:, :k]
    # nearest-neighbour sets agree except where two distances tie to float32 precision
    agree = np.mean([set(a) == set(b) for a, b in zip(idx.numpy(), expect_idx)])
    assert agree > 0.99, agree
    np.testing.assert_allclose(dist.numpy(), np.take_along_axis(full, expect_idx, 1), rtol=1e-3, atol=1e-3)
    assert np.all(np.diff(dist.numpy(), axis=1) >= -1e-3)  # sorted nearest first


def test_top_k_ties_take_the_lower_index_first():
    x = tf.constant([[1.0, 3.0, 3.0, 2.0, 3.0], [0.0, 0.0, 0.0, 0.0, 0.0]])
    values, indices = tf.math.top_k(x, k=2)
    np.testing.assert_array_equal(indices.numpy(), [[1, 2], [0, 1]])
    np.testing.assert_array_equal(values.numpy(), [[3.0, 3.0], [0.0, 0.0]])
    values, indices = tf.function(lambda x: tf.math.top_k(x, k=4))(x)
    np.testing.assert_array_equal(indices.numpy(), [[1, 2, 4, 3], [0, 1, 2, 3]])


def np_softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_batched_causal_attention():
    rng = np.random.default_rng(10)
    q, k, v = (rng.normal(size=(8, 4, 64, 32)).astype(np.float32) for _ in range(3))

    def attention(q, k, v):
        d = tf.cast(tf.shape(k)[-1], tf.float32)
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(d)
        causal = tf.linalg.band_part(tf.ones([64, 64]), -1, 0)
        scores += (1.0 - causal) * -1e9
        weights = tf.nn.softmax(scores, axis=-1)
        return tf.matmul(weights, v), weights

    out, weights = eager_vs_function("attention 8x4x64x32", attention, *map(tf.constant, (q, k, v)),
                                     rtol=1e-4, atol=1e-5)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(32) + (1 - np.tril(np.ones((64, 64)))) * -1e9
    np.testing.assert_allclose(weights.numpy(), np_softmax(s), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), np_softmax(s) @ v, rtol=1e-4, atol=1e-5)
    assert np.all(weights.numpy()[..., 0, 1:] == 0)  # the first query sees only itself

    def attention_einsum(q, k, v):
        scores = tf.einsum("bhqd,bhkd->bhqk", q, k) / 32 ** 0.5
        return tf.einsum("bhqk,bhkd->bhqd", tf.nn.softmax(scores), v)

    out2 = eager_vs_function("attention einsum", attention_einsum, *map(tf.constant, (q, k, v)), rtol=1e-4, atol=1e-5)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(32)
    np.testing.assert_allclose(out2.numpy(), np_softmax(s) @ v, rtol=1e-4, atol=1e-5)

    def attention_grads(q, k, v):
        with tf.GradientTape() as tape:
            tape.watch([q, k, v])
            loss = tf.reduce_sum(attention_einsum(q, k, v) ** 2)
        return tape.gradient(loss, [q, k, v])

    eager_vs_function("attention grads", attention_grads, *map(tf.constant, (q, k, v)), rtol=1e-3, atol=1e-4)

    mha = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=8)
    x = tf.constant(rng.normal(size=(8, 64, 32)).astype(np.float32))
    out3 = eager_vs_function("keras MultiHeadAttention", lambda x: mha(x, x, use_causal_mask=True), x,
                             rtol=1e-4, atol=1e-5)
    assert out3.shape == (8, 64, 32)

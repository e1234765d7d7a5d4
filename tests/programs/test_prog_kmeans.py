"""k-means clustering with tf.argmin and tf.math.unsorted_segment_sum, eager and in tf.function."""
import numpy as np
import tapeflow as tf


def make_blobs():
    rng = np.random.RandomState(0)
    centers = np.array([[0, 0], [5, 5], [-5, 5], [5, -5]], np.float32)
    labels = rng.randint(0, 4, 400)
    return (centers[labels] + 0.5 * rng.randn(400, 2)).astype(np.float32), centers, labels


def kmeans_step(points, centroids, k):
    dists = tf.reduce_sum(tf.square(tf.expand_dims(points, 1) - tf.expand_dims(centroids, 0)), axis=2)
    assign = tf.argmin(dists, axis=1)
    sums = tf.math.unsorted_segment_sum(points, assign, num_segments=k)
    counts = tf.math.unsorted_segment_sum(tf.ones_like(points[:, :1]), assign, num_segments=k)
    new = tf.where(counts > 0, sums / tf.maximum(counts, 1.0), centroids)
    inertia = tf.reduce_sum(tf.reduce_min(dists, axis=1))
    return new, assign, inertia


def test_kmeans_eager_recovers_centers():
    points, centers, _ = make_blobs()
    k = 4
    init_idx = [0, 1, 2, 3]
    # choose one point from each true cluster for a deterministic start
    _, _, labels = make_blobs()
    init_idx = [int(np.where(labels == c)[0][0]) for c in range(k)]
    centroids = tf.gather(points, init_idx)
    prev = np.inf
    for _ in range(10):
        centroids, assign, inertia = kmeans_step(points, centroids, k)
        assert float(inertia) <= prev + 1e-3
        prev = float(inertia)
    assert assign.dtype == tf.int64
    np.testing.assert_allclose(centroids.numpy(), centers, atol=0.15)
    np.testing.assert_array_equal(assign.numpy(), labels)


def test_kmeans_tf_function_while_loop_matches_eager():
    points, _, labels = make_blobs()
    k = 4
    init = tf.constant(points[[5, 6, 7, 8]])

    @tf.function
    def fit(points, centroids, iters):
        i = tf.constant(0)
        inertia = tf.constant(0.0)
        assign = tf.zeros([tf.shape(points)[0]], tf.int64)
        while i < iters:
            centroids, assign, inertia = kmeans_step(points, centroids, k)
            i += 1
        return centroids, assign, inertia

    c_graph, a_graph, in_graph = fit(tf.constant(points), init, tf.constant(15))
    c = init
    for _ in range(15):
        c, a, inertia = kmeans_step(points, c, k)
    np.testing.assert_allclose(c_graph.numpy(), c.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(a_graph.numpy(), a.numpy())
    np.testing.assert_allclose(float(in_graph), float(inertia), rtol=1e-5)
    # cluster sizes via bincount
    sizes = tf.math.bincount(tf.cast(a_graph, tf.int32), minlength=k)
    assert int(tf.reduce_sum(sizes)) == 400

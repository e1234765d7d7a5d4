"""Tensor data utilities in a pipeline: one_hot, gather, scatter_nd, boolean_mask, where, sort, top_k."""
import numpy as np
import tapeflow as tf


def make_scores():
    rng = np.random.RandomState(0)
    return rng.rand(6, 10).astype(np.float32), rng.randint(0, 10, 6).astype(np.int32)


def test_topk_recall_pipeline_eager_vs_function():
    scores, labels = make_scores()

    def recall_at_k(scores, labels, k=3):
        values, indices = tf.math.top_k(scores, k=k)
        hits = tf.reduce_any(tf.equal(indices, tf.expand_dims(labels, 1)), axis=1)
        return tf.reduce_mean(tf.cast(hits, tf.float32)), values, indices

    e = recall_at_k(tf.constant(scores), tf.constant(labels))
    g = tf.function(recall_at_k)(tf.constant(scores), tf.constant(labels))
    ref_idx = np.argsort(-scores, axis=1)[:, :3]
    for out in (e, g):
        np.testing.assert_array_equal(out[2].numpy(), ref_idx)
        np.testing.assert_allclose(out[1].numpy(), np.take_along_axis(scores, ref_idx, 1))
        assert out[2].dtype == tf.int32
        np.testing.assert_allclose(float(out[0]), np.mean([labels[i] in ref_idx[i] for i in range(6)]))


def test_masking_and_where_pipeline():
    x = tf.constant([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    positives = tf.boolean_mask(x, x > 0)
    np.testing.assert_array_equal(positives.numpy(), [1.0, 3.0, 5.0])
    coords = tf.where(x < 0)
    assert coords.dtype == tf.int64
    np.testing.assert_array_equal(coords.numpy(), [[0, 1], [1, 0], [1, 2]])
    relu_like = tf.where(x > 0, x, tf.zeros_like(x))
    np.testing.assert_array_equal(relu_like.numpy(), np.maximum(x.numpy(), 0))
    rows = tf.boolean_mask(x, [True, False])
    np.testing.assert_array_equal(rows.numpy(), [[1.0, -2.0, 3.0]])
    # gather_nd with the coordinates from tf.where
    np.testing.assert_array_equal(tf.gather_nd(x, coords).numpy(), [-2.0, -4.0, -6.0])


def test_scatter_and_one_hot_confusion_matrix():
    labels = tf.constant([0, 1, 2, 2, 1, 0, 2])
    preds = tf.constant([0, 2, 2, 2, 1, 1, 0])
    indices = tf.stack([labels, preds], axis=1)
    cm = tf.scatter_nd(indices, tf.ones_like(labels), shape=[3, 3])
    ref = np.zeros((3, 3), np.int32)
    np.add.at(ref, (labels.numpy(), preds.numpy()), 1)
    np.testing.assert_array_equal(cm.numpy(), ref)
    np.testing.assert_array_equal(tf.math.confusion_matrix(labels, preds, num_classes=3).numpy(), ref)
    oh = tf.one_hot(labels, depth=3)
    cm2 = tf.matmul(oh, tf.one_hot(preds, 3), transpose_a=True)
    np.testing.assert_array_equal(cm2.numpy(), ref)
    per_class_acc = tf.linalg.diag_part(cm2) / tf.reduce_sum(cm2, axis=1)
    np.testing.assert_allclose(per_class_acc.numpy(), np.diag(ref) / ref.sum(1))


def test_sort_argsort_gather_rank_pipeline():
    scores, _ = make_scores()
    x = tf.constant(scores[0])
    order = tf.argsort(x, direction="DESCENDING")
    np.testing.assert_array_equal(order.numpy(), np.argsort(-scores[0]))
    np.testing.assert_allclose(tf.sort(x).numpy(), np.sort(scores[0]))
    np.testing.assert_allclose(tf.gather(x, order).numpy(), np.sort(scores[0])[::-1])
    # rank of each element: scatter the positions back
    ranks = tf.scatter_nd(tf.expand_dims(order, 1), tf.range(10), [10])
    np.testing.assert_array_equal(ranks.numpy(), np.argsort(np.argsort(-scores[0])))
    # batched gather with batch_dims
    idx = tf.constant([[0, 2], [1, 1], [9, 0], [3, 4], [5, 6], [7, 8]])
    got = tf.gather(tf.constant(scores), idx, batch_dims=1)
    np.testing.assert_allclose(got.numpy(), np.take_along_axis(scores, idx.numpy(), 1))


def test_unique_and_segment_stats_in_function():
    @tf.function
    def per_key_mean(keys, values):
        uniq, idx = tf.unique(keys)
        sums = tf.math.unsorted_segment_sum(values, idx, tf.size(uniq))
        counts = tf.math.unsorted_segment_sum(tf.ones_like(values), idx, tf.size(uniq))
        return uniq, sums / counts

    keys = tf.constant([3, 1, 3, 2, 1, 3])
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 6.0, 5.0])
    uniq, means = per_key_mean(keys, values)
    np.testing.assert_array_equal(uniq.numpy(), [3, 1, 2])
    np.testing.assert_allclose(means.numpy(), [3.0, 4.0, 4.0])


def test_dataset_pipeline_with_map_filter():
    x = np.arange(20, dtype=np.float32)
    ds = (tf.data.Dataset.from_tensor_slices(x)
          .filter(lambda v: tf.math.floormod(v, 2.0) == 0)
          .map(lambda v: (v, tf.one_hot(tf.cast(v, tf.int32) % 3, 3)))
          .batch(4, drop_remainder=True))
    batches = list(ds)
    assert len(batches) == 2
    np.testing.assert_array_equal(batches[1][0].numpy(), [8, 10, 12, 14])
    np.testing.assert_array_equal(tf.argmax(batches[1][1], axis=1).numpy(), [2, 1, 0, 2])

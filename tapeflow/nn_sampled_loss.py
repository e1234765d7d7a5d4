"""tf.nn.nce_loss and tf.nn.sampled_softmax_loss: losses over the true classes plus a sample of
the others (TF2 semantics: sharded weights split "div"-wise, so a list of shards is their
concatenation).  Composites of tapeflow ops, so they trace and take gradients from the tape
(never through the sample or its expected counts)."""
import tapeflow as tf
from tapeflow.nn_candidates import compute_accidental_hits
from tapeflow.nn_sampling import log_uniform_candidate_sampler


def _rows(params, ids, dtype):
    """embedding_lookup with TF2's "div" strategy: of n ids over p shards, the first n % p shards
    hold n // p + 1 consecutive ids, the others n // p; a shard too short for its ids is an error."""
    if isinstance(params, (list, tuple)) and len(params) == 1:
        params = params[0]
    if isinstance(params, (list, tuple)):
        sizes = [int(tf.convert_to_tensor(p).shape[0]) for p in params]
        per, extras = divmod(sum(sizes), len(sizes))
        shard = tf.maximum(ids // (per + 1), (ids - extras) // per)
        local = tf.where(shard < extras, ids % (per + 1), (ids - extras) % per)
        short = tf.reduce_any(local >= tf.gather(tf.constant(sizes, ids.dtype), shard))
        tf.debugging.assert_equal(short, False, message=f"embedding_lookup: an id lies beyond its shard "
                                                        f"(shard sizes {sizes}, div partitioning)")
        offsets = tf.constant([sum(sizes[:i]) for i in range(len(sizes))], ids.dtype)
        params, ids = tf.concat([tf.convert_to_tensor(p) for p in params], 0), tf.gather(offsets, shard) + local
    rows = tf.gather(params, ids)
    return rows if rows.dtype == dtype else tf.cast(rows, dtype)


def sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                   subtract_log_q=True, remove_accidental_hits=False, seed=None):
    """(logits [batch, num_true + num_sampled], labels): the true classes' logits first, then the
    sampled ones; each shifted by -log(expected count) when subtract_log_q; a sampled class that is
    one of a row's true classes gets -FLT_MAX added there when remove_accidental_hits."""
    inputs = tf.convert_to_tensor(inputs)
    labels = tf.convert_to_tensor(labels)
    if labels.dtype != tf.int64:
        labels = tf.cast(labels, tf.int64)
    flat_labels = tf.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True, num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (tf.stop_gradient(v) for v in sampled_values)
    sampled = tf.cast(sampled, tf.int64)
    all_ids = tf.concat([flat_labels, sampled], 0)
    n_true = tf.shape(flat_labels)[0]
    all_w = _rows(weights, all_ids, inputs.dtype)
    all_b = _rows(biases, all_ids, inputs.dtype)
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    true_b, sampled_b = all_b[:n_true], all_b[n_true:]
    dim = tf.shape(true_w)[1]
    true_w = tf.reshape(true_w, tf.stack([-1, num_true, dim]))
    true_logits = tf.reduce_sum(inputs[:, None, :] * true_w, 2) + tf.reshape(true_b, [-1, num_true])
    sampled_logits_ = tf.matmul(inputs, sampled_w, transpose_b=True) + sampled_b
    if remove_accidental_hits:
        hits = compute_accidental_hits(labels, sampled, num_true=num_true)
        where = tf.stack([hits.indices, tf.cast(hits.ids, tf.int32)], 1)
        penalty = tf.tensor_scatter_nd_update(tf.zeros_like(sampled_logits_), where,
                                              tf.cast(hits.weights, sampled_logits_.dtype))
        sampled_logits_ = sampled_logits_ + penalty
    if subtract_log_q:
        true_logits = true_logits - tf.math.log(tf.cast(true_expected, true_logits.dtype))
        sampled_logits_ = sampled_logits_ - tf.math.log(tf.cast(sampled_expected, sampled_logits_.dtype))
    logits = tf.concat([true_logits, sampled_logits_], 1)
    targets = tf.concat([tf.ones_like(true_logits) / num_true, tf.zeros_like(sampled_logits_)], 1)
    return logits, targets


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation: per row, the sum of the logistic losses of telling the
    true classes (target 1 / num_true) from the sampled ones (target 0)."""
    logits, targets = sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                     sampled_values, True, remove_accidental_hits)
    return tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits), 1)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, seed=None, name="sampled_softmax_loss"):
    """Per row, the softmax cross-entropy over the true classes and a sample of the others."""
    logits, targets = sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                     sampled_values, True, remove_accidental_hits, seed)
    return tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(targets), logits=logits)

"""tf.nn.compute_accidental_hits: where a sampled candidate is one of a row's true classes
(TensorFlow's kernel: a candidate sampled several times reports its last position; each true
class that hits gives one entry, row-major).  A composite, so it traces."""
import collections

from tapeflow.runtime.errors import InvalidArgumentError, with_location

ComputeAccidentalHits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(indices int32: the row, ids int64: the sampled position, weights float32: -FLT_MAX)."""
    import tapeflow as tf
    true, sampled = tf.convert_to_tensor(true_classes), tf.convert_to_tensor(sampled_candidates)
    if true.dtype != tf.int64 or sampled.dtype != tf.int64:
        raise InvalidArgumentError(with_location(
            f"compute_accidental_hits: true_classes and sampled_candidates must be int64, got {true.dtype.name} and "
            f"{sampled.dtype.name}"))
    if true.shape.rank != 2 or true.shape[1] not in (None, int(num_true)) or sampled.shape.rank != 1:
        raise InvalidArgumentError(with_location(
            f"compute_accidental_hits: true_classes must be [batch_size, num_true={num_true}] and sampled_candidates "
            f"a vector, got {list(true.shape)} and {list(sampled.shape)}"))
    hits = true[:, :, None] == sampled[None, None, :]                              # [batch, num_true, sampled]
    last = tf.shape(sampled, out_type=tf.int64)[0] - 1 - tf.argmax(tf.cast(tf.reverse(hits, [2]), tf.int32), 2)
    where = tf.where(tf.reduce_any(hits, 2))
    ids = tf.gather_nd(last, where)
    return ComputeAccidentalHits(tf.cast(where[:, 0], tf.int32), ids,
                                 tf.fill(tf.shape(ids), tf.constant(-3.4028235e38, tf.float32)))

"""CTC label helpers: tf.nn.collapse_repeated (runs of a label become one, padded to the longest
result) and tf.nn.ctc_unique_labels (each row's unique labels in first-seen order, zero padded,
and each label's index among them).  Composites of tapeflow ops, so they trace."""
from tapeflow.runtime.errors import with_location


def _tf():
    import tapeflow
    return tapeflow


def _pack(tf, values, keep):
    """[batch, length]: each row's kept values moved left in order, zero after them (static
    shapes: a one-hot of each kept value's new position)."""
    position = tf.cumsum(tf.cast(keep, tf.int32), axis=1) - 1
    slots = tf.range(tf.shape(values)[1])
    lands = keep[:, :, None] & (position[:, :, None] == slots[None, None, :])         # [b, from, to]
    return tf.reduce_sum(tf.where(lands, values[:, :, None], tf.zeros_like(values)[:, :, None]), 1)


def collapse_repeated(labels, seq_length, name=None):
    """(labels [batch, new_max] with repeats merged and zero padding, new lengths [batch] in
    seq_length's dtype); only the first seq_length[i] labels of row i count."""
    tf = _tf()
    labels, seq_length = tf.convert_to_tensor(labels), tf.convert_to_tensor(seq_length)
    if labels.shape.rank != 2:
        raise ValueError(with_location(f"collapse_repeated: labels must be [batch, max_seq_length], got "
                                       f"{list(labels.shape)}"))
    changed = tf.concat([tf.ones_like(labels[:, :1], tf.bool), labels[:, 1:] != labels[:, :-1]], 1)
    keep = changed & tf.sequence_mask(seq_length, maxlen=tf.shape(labels)[1])
    lengths = tf.reduce_sum(tf.cast(keep, tf.int32), 1)
    return _pack(tf, labels, keep)[:, :tf.reduce_max(lengths)], tf.cast(lengths, seq_length.dtype)


def ctc_unique_labels(labels, name=None):
    """(unique labels [batch, max_label_length] int64, zero padded; idx [batch, max_label_length]
    int32 with labels[i, j] == unique[i, idx[i, j]])."""
    tf = _tf()
    labels = tf.convert_to_tensor(labels)
    if labels.shape.rank != 2:
        raise ValueError(with_location(f"ctc_unique_labels: labels must be [batch, max_label_length], got "
                                       f"{list(labels.shape)}"))
    first = tf.argmax(tf.cast(labels[:, :, None] == labels[:, None, :], tf.int32), axis=2, output_type=tf.int32)
    is_first = first == tf.range(tf.shape(labels)[1])[None]
    position = tf.cumsum(tf.cast(is_first, tf.int32), axis=1) - 1
    return [_pack(tf, tf.cast(labels, tf.int64), is_first), tf.gather(position, first, batch_dims=1)]

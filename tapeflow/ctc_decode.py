"""CTC greedy decoding: tf.nn.ctc_greedy_decoder and keras.ops.ctc_decode's greedy
strategy.  At each step the most likely class (the first of equal maxima, as
TensorFlow) is kept unless it is the blank or, with merge_repeated, the same as
the previous step's; a composite of tapeflow ops, so it traces."""
from tapeflow.runtime.errors import with_location
from tapeflow.sparse import SparseTensor


def _tf():
    import tapeflow
    return tapeflow


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """inputs [max_time, batch, classes] (logits) -> ([SparseTensor [batch, longest] int64],
    neg_sum_logits [batch, 1]: minus the sum over valid steps of each step's largest logit)."""
    tf = _tf()
    x = tf.convert_to_tensor(inputs)
    if x.shape.rank != 3:
        raise ValueError(with_location(f"ctc_greedy_decoder: inputs must be [max_time, batch, classes], "
                                       f"got {list(x.shape)}"))
    classes = x.shape[-1] if x.shape[-1] is not None else tf.shape(x)[-1]
    blank = classes - 1 if blank_index is None else (blank_index + classes if blank_index < 0 else blank_index)
    lengths = tf.cast(tf.convert_to_tensor(sequence_length), tf.int32)
    best = tf.argmax(x, axis=-1, output_type=tf.int64)                          # [T, B]
    steps = tf.shape(x)[0]
    valid = tf.range(steps)[:, None] < lengths[None, :]                        # [T, B]
    neg_sum = -tf.reduce_sum(tf.where(valid, tf.reduce_max(x, -1), tf.zeros_like(x[..., 0])), 0)[:, None]
    keep = valid & (best != tf.cast(blank, tf.int64))
    if merge_repeated:
        previous = tf.concat([tf.fill([1, tf.shape(best)[1]], tf.constant(-1, tf.int64)), best[:-1]], 0)
        keep = keep & (best != previous)
    keep_bt = tf.transpose(keep)                                               # [B, T]
    where = tf.where(keep_bt)                                                  # (batch, step), row-major
    position = tf.cumsum(tf.cast(keep_bt, tf.int64), axis=1) - 1
    indices = tf.stack([where[:, 0], tf.gather_nd(position, where)], 1)
    values = tf.gather_nd(tf.transpose(best), where)
    longest = tf.reduce_max(tf.concat([tf.reduce_sum(tf.cast(keep_bt, tf.int64), 1), [0]], 0))
    shape = tf.stack([tf.cast(tf.shape(x)[1], tf.int64), longest])
    return [SparseTensor(indices, values, shape)], neg_sum


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True,
               mask_index=0):
    """keras.ops.ctc_decode: inputs [batch, steps, classes] -> (decoded [1, batch, steps] int32
    padded with -1, scores [batch, 1])."""
    tf = _tf()
    if strategy != "greedy":
        if strategy == "beam_search":
            raise NotImplementedError(with_location("ctc_decode: strategy='beam_search' is not implemented "
                                                    "in tapeflow; use strategy='greedy'"))
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and 'beam_search'.")
    x = tf.convert_to_tensor(inputs)
    if not x.dtype.is_floating or x.dtype.size < 4:
        x = tf.cast(x, tf.float32)
    batch, steps = tf.shape(x)[0], tf.shape(x)[1]
    (decoded,), scores = ctc_greedy_decoder(tf.transpose(x, (1, 0, 2)), tf.cast(sequence_lengths, tf.int32),
                                            merge_repeated=merge_repeated, blank_index=mask_index)
    padded = SparseTensor(decoded.indices, decoded.values,
                          tf.cast(tf.stack([batch, steps]), tf.int64))
    dense = tf.sparse.to_dense(padded, default_value=-1)
    return tf.cast(dense, tf.int32)[None], scores

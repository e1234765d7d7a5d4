"""tf.nn.ctc_loss for dense labels (SparseTensor labels are made dense first, each row's
length the count of its values; label_length is then not read): -log p(labels | logits) by the CTC forward recursion
in log space, written in tapeflow ops (one step per frame), so its gradient is the
recursion's own and it traces.

The labels of example b are extended with blanks, l' = (blank, l_1, blank, ..., l_L, blank);
alpha_t(s) = logsumexp(alpha_{t-1}(s), alpha_{t-1}(s-1), [skip] alpha_{t-1}(s-2)) + log y_t(l'_s),
where a skip is allowed onto a label that differs from the label two places back.  Frames at
or past logit_length[b] leave alpha unchanged; the loss reads alpha at 2 L_b and 2 L_b - 1.
A large negative number stands for log 0 (no inf - inf in values or gradients).
"""
from .. import dtypes
from ..errors import InvalidArgumentError, with_location
from ..tensor import convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import join_ops as J
from . import math_ops as M
from . import nn_ops as NN
from . import reduce_ops as RD

_LOG_ZERO = -1e30


def _shift(alpha, k, fill):
    """alpha moved k places to the right along s (the first k entries: log 0)."""
    return J.concat([fill[:, :k], alpha[:, :-k]], axis=1)


def _dense_labels(sparse):
    """(dense labels, label lengths) of SparseTensor labels: example b's labels are the values
    of row b in order (TF's sparse path), its length their count."""
    values = convert_to_tensor(sparse.values)
    if values.dtype is not dtypes.int32:  # TF's CTCLoss kernel takes int32 sparse labels only
        raise InvalidArgumentError(with_location(f"ctc_loss: sparse labels must be int32, got {values.dtype.name}"))
    indices = M.cast(convert_to_tensor(sparse.indices), dtypes.int32)
    shape = M.cast(convert_to_tensor(sparse.dense_shape), dtypes.int32)
    dense = G.scatter_nd(indices, values, shape)
    rows = A.expand_dims(A.range_(0, shape[0]), 1)
    length = RD.reduce_sum(M.cast(M.equal(rows, A.expand_dims(indices[:, 0], 0)), dtypes.int32), axis=1)
    return dense, length


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """Per-example CTC loss of dense `labels` [batch, max_label_length] under `logits`
    [frames, batch, classes] (or [batch, frames, classes] with logits_time_major=False)."""
    if unique is not None:
        raise NotImplementedError(with_location("ctc_loss: `unique` (the sparse-label fast path) is not supported"))
    if all(hasattr(labels, k) for k in ("indices", "values", "dense_shape")):  # a SparseTensor
        labels, label_length = _dense_labels(labels)
    labels = convert_to_tensor(labels)
    if not hasattr(labels, "shape") or labels.shape.rank != 2:
        raise NotImplementedError(with_location(
            f"ctc_loss: only dense labels of shape [batch, max_label_length] are supported, got {type(labels).__name__}"))
    logits = convert_to_tensor(logits)
    if not logits.dtype.is_floating:
        raise TypeError(with_location(f"ctc_loss: logits must be floating point, got {logits.dtype.name}"))
    if not logits_time_major:
        logits = A.transpose(logits, [1, 0, 2])
    frames, classes = logits.shape.dims[0], logits.shape.dims[2]
    if frames is None or classes is None:
        raise NotImplementedError(with_location(
            f"ctc_loss: the number of frames and classes must be known while tracing, got logits {list(logits.shape)}"))
    blank = 0 if blank_index is None else int(blank_index) % classes
    labels = M.cast(labels, dtypes.int32)
    if blank:  # as TensorFlow: move the blank class to 0 and shift the labels below it up by one
        logits = J.concat([logits[:, :, blank:blank + 1], logits[:, :, :blank], logits[:, :, blank + 1:]], axis=2)
        labels = A.where(M.less(labels, blank), labels + 1, labels)
        blank = 0
    label_length = M.cast(convert_to_tensor(label_length), dtypes.int32)
    logit_length = M.cast(convert_to_tensor(logit_length), dtypes.int32)

    log_probs = A.transpose(NN.log_softmax(logits, axis=-1), [1, 0, 2])  # [batch, frames, classes]
    blanks = A.zeros_like(labels) + blank
    ext = A.reshape(J.stack([blanks, labels], axis=2), [A.shape(labels)[0], -1])
    ext = J.concat([ext, blanks[:, :1]], axis=1)  # [batch, S], S = 2 L + 1
    emit = G.gather(log_probs, ext, axis=2, batch_dims=1)  # [batch, frames, S]
    before = J.concat([A.zeros_like(ext[:, :2]) - 1, ext[:, :-2]], axis=1)
    skip = M.logical_and(M.not_equal(ext, blank), M.not_equal(ext, before))

    fill = A.zeros_like(emit[:, 0]) + _LOG_ZERO
    positions = A.range_(0, A.shape(ext)[1])
    alpha = A.where(M.less(positions, 2), emit[:, 0], fill)
    for t in range(1, frames):
        one, two = _shift(alpha, 1, fill), A.where(skip, _shift(alpha, 2, fill), fill)
        step = RD.reduce_logsumexp(J.stack([alpha, one, two], axis=0), axis=0) + emit[:, t]
        alpha = A.where(A.expand_dims(M.less(t, logit_length), -1), step, alpha)
    last = G.gather(alpha, A.expand_dims(2 * label_length, -1), batch_dims=1)
    prev = G.gather(alpha, A.expand_dims(M.maximum(2 * label_length - 1, 0), -1), batch_dims=1)
    prev = A.where(M.greater(A.expand_dims(label_length, -1), 0), prev, A.zeros_like(prev) + _LOG_ZERO)
    return -RD.reduce_logsumexp(J.concat([last, prev], axis=1), axis=1)

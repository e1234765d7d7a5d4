"""Keras 3's losses over structured predictions: CTC over label sequences (tf.nn.ctc_loss of
batch-major logits, blank 0, every time step used) and Circle over L2-normalized embeddings
(pair similarities reweighted by how far each is from its optimum; zero losses are masked
out of the mean, as Keras marks them)."""
from tapeflow.keras.losses import _wrapper_class
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import ctc_ops
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import nn_ops
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor


def ctc(y_true, y_pred):
    """Per-example CTC loss: y_true (batch, max_length) integer labels padded with 0 (the
    blank), y_pred (batch, steps, classes) unnormalized logits."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if y_true.shape.rank != 2:
        raise ValueError(with_location("Targets `y_true` are expected to be a tensor of shape "
                                       f"`(batch_size, max_length)` in integer format. Received: "
                                       f"y_true.shape={tuple(y_true.shape.dims)}"))
    if y_pred.shape.rank != 3:
        raise ValueError(with_location("Logits `y_pred` are expected to be a tensor of shape "
                                       f"`(batch_size, max_length, num_classes)`. Received: "
                                       f"y_pred.shape={tuple(y_pred.shape.dims)}"))
    dims = A.shape(y_pred)
    logit_length = dims[1] * A.ones(A.reshape(dims[0], [1]), dtypes.int32)
    labels = M.cast(y_true, dtypes.int32)
    label_length = R.reduce_sum(M.cast(M.not_equal(labels, 0), dtypes.int32), axis=-1)
    # float64 logits: computed in float32 and cast back (TF's kernel has no float64), as Keras
    wide = y_pred.dtype if y_pred.dtype is not dtypes.float64 else dtypes.float32
    loss = ctc_ops.ctc_loss(labels, M.cast(y_pred, wide), label_length, logit_length, logits_time_major=False,
                            blank_index=0)
    return M.cast(loss, y_pred.dtype)


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    """Circle loss of each embedding (rows of y_pred, L2-normalized) against the references
    (the batch itself by default): softplus of the log-sum-exps over its positive pairs
    (same label) and negative pairs of the reweighted cosine distances."""
    y_pred = convert_to_tensor(y_pred)
    labels = M.cast(convert_to_tensor(y_true), dtypes.int32)
    refs = y_pred if ref_embeddings is None else convert_to_tensor(ref_embeddings)
    ref = labels if ref_labels is None else M.cast(convert_to_tensor(ref_labels), dtypes.int32)
    distance = M.maximum(1.0 - L.matmul(y_pred, A.transpose(refs)), 0.0)
    query, key = A.reshape(labels, [-1, 1]), A.reshape(ref, [-1, 1])
    positive = M.equal(query, A.transpose(key))
    negative = M.logical_not(positive)
    if remove_diagonal:
        positive = M.logical_and(positive, M.logical_not(M.cast(A.eye(A.size(query), A.size(key)), dtypes.bool_)))
    pos_f, neg_f = M.cast(positive, distance.dtype), M.cast(negative, distance.dtype)
    pos_weights = M.maximum((margin + distance) * pos_f, 0.0)
    neg_weights = M.maximum((1.0 + margin - distance) * neg_f, 0.0)
    pos_terms = -1.0 * gamma * pos_weights * (margin - distance)
    neg_terms = gamma * neg_weights * ((1.0 - margin) - distance)
    minus_inf = A.fill(A.shape(distance), convert_to_tensor(float("-inf"), distance.dtype))
    p_loss = R.reduce_logsumexp(A.where(positive, pos_terms, minus_inf), axis=1)
    n_loss = R.reduce_logsumexp(A.where(negative, neg_terms, minus_inf), axis=1)
    loss = nn_ops.softplus(p_loss + n_loss)
    loss._keras_mask = loss > 0  # Loss.__call__ leaves the zeros out of the mean
    return loss


CTC = _wrapper_class("CTC", ctc, "ctc")
Circle = _wrapper_class("Circle", circle, "circle", gamma=80.0, margin=0.4, remove_diagonal=True)

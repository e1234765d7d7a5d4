"""Keras 3's CTC and Circle losses (functions, classes, reductions, masks of zero losses,
gradients, configs) and the focal cross-entropy function names in keras.metrics."""
import numpy as np
from parity import tolerance

_LOGITS = np.sin(np.arange(2 * 5 * 4, dtype=np.float32) * 0.7).reshape(2, 5, 4) * 2.0
_LABELS = np.array([[1, 2, 0], [3, 3, 1]], np.int32)


def _unit(x):
    x = np.asarray(x, np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


_EMB = _unit(np.cos(np.arange(6 * 3, dtype=np.float32) * 1.3).reshape(6, 3) + 0.2)
_IDS = np.array([0, 1, 0, 2, 1, 0])


@tolerance(rtol=1e-4, atol=1e-5)
def program_ctc_loss(tf):
    k = tf.keras.losses
    logits = tf.constant(_LOGITS)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        mean = k.CTC()(_LABELS, logits)
    return {"per": k.ctc(_LABELS, logits), "mean": mean, "sum": k.CTC(reduction="sum")(_LABELS, logits),
            "grad": tape.gradient(mean, logits), "tf_losses": tf.losses.ctc(_LABELS, logits),
            "f64": k.ctc(_LABELS, tf.cast(logits, tf.float64)).dtype, "cfg": k.CTC().get_config(),
            "by_name": type(k.get("ctc")).__name__}


def program_ctc_loss_bad_ranks(tf):
    out = []
    for y_true, y_pred in ((_LABELS[0], _LOGITS), (_LABELS, _LOGITS[0])):
        try:
            tf.keras.losses.ctc(y_true, y_pred)
            out.append(None)
        except Exception as e:
            out.append(type(e).__name__)
    return {"errors": out}


@tolerance(rtol=1e-4, atol=1e-5)
def program_circle_loss(tf):
    k = tf.keras.losses
    emb = tf.constant(_EMB)
    with tf.GradientTape() as tape:
        tape.watch(emb)
        mean = k.Circle()(_IDS, emb)
    return {"per": k.circle(_IDS, emb), "mean": mean, "grad": tape.gradient(mean, emb),
            "options": k.Circle(gamma=10.0, margin=0.25, remove_diagonal=False)(_IDS, emb),
            "refs": k.circle(_IDS[:2], emb[:2], ref_labels=_IDS, ref_embeddings=emb),
            "none": k.Circle(reduction="none", gamma=2.0)(_IDS, emb), "cfg": k.Circle().get_config(),
            "tf_losses": tf.losses.Circle is k.Circle}


@tolerance(rtol=1e-3, atol=0)  # the losses are ~1e-11: no absolute slack
def program_circle_loss_masks_zeros(tf):
    # well separated classes: softplus underflows to exactly 0 for some rows, which the mean skips
    emb = tf.constant(_unit([[1, 0, 0], [0.99, 0.1, 0], [0, 1, 0], [0, 0.98, 0.2], [0, 0, 1]]))
    ids = np.array([0, 0, 1, 1, 2])
    per = tf.keras.losses.circle(ids, emb)
    return {"per": per, "mean": tf.keras.losses.Circle()(ids, emb),
            "weighted": tf.keras.losses.Circle()(ids, emb, sample_weight=[1.0, 2.0, 0.5, 1.0, 3.0])}


@tolerance(rtol=1e-5, atol=1e-6)
def program_focal_metric_functions(tf):
    m = tf.keras.metrics
    y = np.array([[0, 1, 0], [1, 0, 0]], np.float32)
    p = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]], np.float32)
    return {"bfce": m.binary_focal_crossentropy(y, p), "cfce": m.categorical_focal_crossentropy(y, p),
            "bfce_gamma": m.binary_focal_crossentropy(y, p, gamma=1.0, apply_class_balancing=True),
            "same": [m.binary_focal_crossentropy is tf.keras.losses.binary_focal_crossentropy]}

"""Keras 3.15 docstring examples of keras.losses and keras.metrics, rewritten as programs:
losses convert integer / float64 inputs to their dtype (floatx), the regression metrics of
integer inputs average in float, Mean's per-sample weights, top_k ties, IoU's returned
matrix, SparseTopKCategoricalAccuracy(from_sorted_ids=True)."""
import numpy as np

from parity import tolerance


@tolerance(rtol=1e-5, atol=1e-6)
def program_losses_take_float32_of_any_input(tf):
    L = tf.keras.losses
    labels = np.array([[0, 1], [1, 0]])               # int64
    logits = np.array([[-3.1, 0.4], [2.2, -0.7]])      # float64
    out = {}
    out["bce_logits"] = L.BinaryCrossentropy(from_logits=True)(labels, logits)
    out["bce_weighted"] = L.BinaryCrossentropy(from_logits=True)(labels, logits, sample_weight=[0.25, 0.75])
    out["bce_none"] = L.BinaryCrossentropy(from_logits=True, reduction=None)(labels, logits)
    probs = np.array([[0.1, 0.7, 0.2], [0.3, 0.3, 0.4]])
    out["cce"] = L.CategoricalCrossentropy()(np.array([[0, 1, 0], [0, 0, 1]]), probs)
    out["scce"] = L.SparseCategoricalCrossentropy()(np.array([1, 2]), probs)
    out["focal"] = L.BinaryFocalCrossentropy(gamma=2.0)(labels, 1 / (1 + np.exp(-logits)))
    out["mse_int"] = L.MeanSquaredError()([[0, 2], [1, 1]], [[1, 1], [1, 3]])
    out["dice_none"] = L.Dice(reduction=None, axis=(1,))(labels, np.array([[0.2, 0.9], [0.6, 0.1]]))
    out["dtype_attr"] = L.MeanSquaredError().dtype
    out["float64_loss"] = L.MeanAbsoluteError(dtype="float64")([1.0, 2.0], [1.5, 2.25])
    out["huber_dtype"] = L.Huber(dtype="float64")([[0.0, 1.0]], [[0.6, 0.4]])
    return out


def program_regression_metrics_of_integers(tf):
    m = tf.keras.metrics
    y_true, y_pred = np.array([[0, 1], [0, 3]]), np.array([[1, 1], [0, 0]])
    out = {}
    for cls in (m.MeanAbsoluteError, m.MeanSquaredError, m.MeanSquaredLogarithmicError,
                m.MeanAbsolutePercentageError):
        metric = cls()
        metric.update_state(y_true, y_pred)
        out[cls.__name__] = metric.result()
        metric.reset_state()
        metric.update_state(y_true, y_pred, sample_weight=[1, 0])
        out[cls.__name__ + "_w"] = metric.result()
    out["mae_fn"] = tf.keras.losses.mae(y_true, y_pred)
    out["mape_fn"] = tf.keras.losses.mape(y_true, y_pred)
    out["msle_fn"] = tf.keras.losses.msle(y_true, y_pred)
    return out


def program_mean_metric_weights_per_sample(tf):
    m = tf.keras.metrics
    out = {}
    acc = m.Accuracy()
    acc.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]], sample_weight=[1, 1, 0, 0])
    out["accuracy_w"] = acc.result()
    out["accuracy_count"] = acc.count
    mae = m.MeanAbsoluteError()
    mae.update_state(np.ones((3, 2, 2)), np.zeros((3, 2, 2)) + [[0.5, 0.0], [1.0, 2.0]],
                     sample_weight=[[1, 0], [0.5, 0.5], [0, 1]])
    out["mae_2d_weights"] = mae.result()
    out["mae_total_count"] = [mae.total, mae.count]
    mean = m.Mean()
    mean.update_state([[1.0, 2.0], [3.0, 5.0]])
    out["mean_count"] = [mean.result(), mean.count]
    mean.update_state([[1.0, 2.0], [3.0, 5.0]], sample_weight=[[2.0], [0.0]])
    out["mean_col_weight"] = [mean.result(), mean.count]
    total = m.Sum()
    total.update_state([[1.0, 2.0], [3.0, 4.0]], sample_weight=[1.0, 0.5])
    out["sum_w"] = total.result()
    return out


def program_precision_recall_top_k_ties(tf):
    m = tf.keras.metrics
    out = {}
    for k in (1, 2, 4):
        p = m.Precision(top_k=k)
        p.update_state([0, 0, 1, 1], [1, 1, 1, 1])
        out[f"precision_top{k}"] = p.result()
    r = m.Recall(top_k=2)
    r.update_state([[0, 1, 1, 0], [1, 0, 0, 1]], [[0.5, 0.5, 0.5, 0.1], [0.2, 0.9, 0.2, 0.2]])
    out["recall_top2"] = r.result()
    return out


def program_iou_update_returns_matrix(tf):
    m = tf.keras.metrics
    out = {}
    iou = m.IoU(num_classes=2, target_class_ids=[0])
    out["cm"] = iou.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    out["cm_w"] = iou.update_state([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=[1, 2, 0, 3])
    out["iou"] = iou.result()
    biou = m.BinaryIoU(target_class_ids=[0, 1], threshold=0.3)
    out["binary_cm"] = biou.update_state([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7])
    out["binary_iou"] = biou.result()
    f32 = m.MeanIoU(num_classes=3, dtype="float32")
    out["float_cm"] = f32.update_state([0, 1, 2, 2], [0, 2, 2, 1], sample_weight=[0.5, 1.0, 0.25, 1.0])
    out["float_miou"] = f32.result()
    return out


def program_sparse_top_k_from_sorted_ids(tf):
    m = tf.keras.metrics
    out = {}
    acc = m.SparseTopKCategoricalAccuracy(k=1, from_sorted_ids=True)
    acc.update_state([2, 1], [[1, 0, 3], [1, 2, 3]])
    out["k1"] = acc.result()
    acc2 = m.SparseTopKCategoricalAccuracy(k=2, from_sorted_ids=True)
    acc2.update_state([2, 1, 5], [[1, 2, 3], [4, 0, 1], [5, 5, 0]], sample_weight=[1.0, 0.5, 2.0])
    out["k2_w"] = acc2.result()
    out["fn"] = m.sparse_top_k_categorical_accuracy([[3], [0]], [[3, 1], [2, 0]], k=1, from_sorted_ids=True)
    return out

"""keras.metrics: confusion counts, constrained rates, AUC (ROC and PR), F-beta, R^2,
IoU, correlations and the metric forms of the losses, standalone and in compile/fit
(the "Classification on imbalanced data" tutorial's metric list)."""
import numpy as np

from parity import tolerance

RNG = np.random.RandomState(7)
Y_BIN = (RNG.rand(40, 1) > 0.7).astype("float32")
P_BIN = np.clip(Y_BIN * 0.35 + RNG.rand(40, 1) * 0.65, 0, 1).astype("float32")
W_BIN = RNG.rand(40).astype("float32")
Y_CAT = np.eye(4, dtype="float32")[RNG.randint(0, 4, 24)]
P_CAT = RNG.rand(24, 4).astype("float32")
Y_REG = RNG.randn(16, 3).astype("float32")
P_REG = (Y_REG * 0.8 + RNG.randn(16, 3) * 0.3).astype("float32")


def _run(metric, *batches):
    for b in batches:
        metric.update_state(*b)
    return metric.result()


def program_confusion_counts(tf):
    m = tf.keras.metrics
    out = {}
    for cls in (m.TruePositives, m.FalsePositives, m.TrueNegatives, m.FalseNegatives):
        out[cls.__name__] = _run(cls(), (Y_BIN, P_BIN))
        out[cls.__name__ + "_t"] = _run(cls(thresholds=[0.2, 0.5, 0.9]), (Y_BIN, P_BIN, W_BIN))
        out[cls.__name__ + "_name"] = cls().name
    p = m.Precision(thresholds=[0.3, 0.6])
    out["precision_multi"] = _run(p, (Y_BIN[:20], P_BIN[:20]), (Y_BIN[20:], P_BIN[20:]))
    p.reset_state()
    out["precision_reset"] = p.result()
    out["recall_class"] = _run(m.Recall(class_id=2), (Y_CAT, P_CAT))
    out["precision_topk"] = _run(m.Precision(top_k=2), (Y_CAT, P_CAT))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_constrained_rates(tf):
    m = tf.keras.metrics
    out = {}
    for cls, arg in ((m.PrecisionAtRecall, 0.6), (m.RecallAtPrecision, 0.5),
                     (m.SensitivityAtSpecificity, 0.7), (m.SpecificityAtSensitivity, 0.8)):
        out[cls.__name__] = _run(cls(arg), (Y_BIN, P_BIN))
        out[cls.__name__ + "_w"] = _run(cls(arg, num_thresholds=7), (Y_BIN, P_BIN, W_BIN))
        out[cls.__name__ + "_name"] = cls(arg).name
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_auc(tf):
    m = tf.keras.metrics
    out = {}
    for curve in ("ROC", "PR"):
        for method in ("interpolation", "minoring", "majoring"):
            out[f"{curve}_{method}"] = _run(m.AUC(curve=curve, summation_method=method), (Y_BIN, P_BIN))
        out[f"{curve}_w"] = _run(m.AUC(curve=curve, num_thresholds=11), (Y_BIN, P_BIN, W_BIN))
    out["thresholds"] = _run(m.AUC(thresholds=[0.25, 0.5, 0.75]), (Y_BIN, P_BIN))
    out["logits"] = _run(m.AUC(from_logits=True), (Y_BIN, P_BIN * 6 - 3))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_scores(tf):
    m = tf.keras.metrics
    out = {}
    for avg in (None, "micro", "macro", "weighted"):
        out[f"f1_{avg}"] = _run(m.F1Score(average=avg), (Y_CAT, P_CAT))
        out[f"fbeta_{avg}"] = _run(m.FBetaScore(average=avg, beta=2.0, threshold=0.5), (Y_CAT, P_CAT))
    out["f1_name"] = m.F1Score().name
    for agg in (None, "uniform_average", "variance_weighted_average"):
        out[f"r2_{agg}"] = _run(m.R2Score(class_aggregation=agg), (Y_REG[:8], P_REG[:8]), (Y_REG[8:], P_REG[8:]))
    out["r2_adjusted"] = _run(m.R2Score(num_regressors=3), (Y_REG, P_REG))
    out["r2_weighted"] = _run(m.R2Score(), (Y_REG, P_REG, np.arange(16, dtype="float32")))
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_iou(tf):
    m = tf.keras.metrics
    yt = np.array([0, 1, 2, 2, 1, 0, 3, 3, 1], "int32")
    yp = np.array([0, 2, 2, 2, 1, 1, 3, 0, 1], "int32")
    return {
        "iou": _run(m.IoU(num_classes=4, target_class_ids=[0, 2]), (yt, yp)),
        "mean_iou": _run(m.MeanIoU(num_classes=4), (yt, yp)),
        "mean_iou_w": _run(m.MeanIoU(num_classes=4), (yt, yp, np.linspace(0, 1, 9).astype("float32"))),
        "mean_iou_ignore": _run(m.MeanIoU(num_classes=4, ignore_class=3), (yt, yp)),
        "binary_iou": _run(m.BinaryIoU(), (Y_BIN, P_BIN)),
        "binary_iou_1": _run(m.BinaryIoU(target_class_ids=[1], threshold=0.3), (Y_BIN, P_BIN)),
        "one_hot_iou": _run(m.OneHotIoU(num_classes=4, target_class_ids=[1, 3]), (Y_CAT, P_CAT)),
        "one_hot_mean_iou": _run(m.OneHotMeanIoU(num_classes=4), (Y_CAT, P_CAT)),
        "name": m.MeanIoU(num_classes=2).name,
    }


@tolerance(rtol=1e-5, atol=1e-6)
def program_loss_metrics(tf):
    m = tf.keras.metrics
    pos = np.abs(P_REG) + 0.1
    probs = P_CAT / P_CAT.sum(-1, keepdims=True)
    out = {}
    for cls, yt, yp in ((m.BinaryCrossentropy, Y_BIN, P_BIN), (m.CategoricalCrossentropy, Y_CAT, probs),
                        (m.SparseCategoricalCrossentropy, Y_CAT.argmax(-1), probs), (m.KLDivergence, Y_CAT, probs),
                        (m.Poisson, np.abs(Y_REG), pos), (m.CosineSimilarity, Y_REG, P_REG),
                        (m.LogCoshError, Y_REG, P_REG), (m.MeanAbsolutePercentageError, Y_REG, P_REG),
                        (m.MeanSquaredLogarithmicError, np.abs(Y_REG), pos), (m.Hinge, Y_BIN, P_BIN),
                        (m.SquaredHinge, Y_BIN, P_BIN), (m.CategoricalHinge, Y_CAT, P_CAT),
                        (m.PearsonCorrelation, Y_REG, P_REG), (m.ConcordanceCorrelation, Y_REG, P_REG)):
        metric = cls()
        out[cls.__name__] = _run(metric, (yt[:8], yp[:8]), (yt[8:], yp[8:]))
        out[cls.__name__ + "_name"] = metric.name
    out["bce_logits"] = _run(m.BinaryCrossentropy(from_logits=True, label_smoothing=0.1), (Y_BIN, P_BIN * 4 - 2))
    for fn in ("mse", "mae", "mape", "msle", "kld", "logcosh", "poisson", "hinge", "squared_hinge",
               "categorical_hinge", "huber", "binary_crossentropy", "categorical_crossentropy",
               "pearson_correlation", "concordance_correlation", "MSE", "MAE", "KLD", "kullback_leibler_divergence"):
        out["fn_" + fn] = getattr(m, fn)(np.abs(Y_REG), np.abs(P_REG) + 0.1)
    out["fn_sparse"] = m.sparse_categorical_crossentropy(Y_CAT.argmax(-1), probs)
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_imbalanced_fit(tf):
    """The tutorial's METRICS list in compile(); fit and evaluate logs match TF's."""
    keras = tf.keras
    metrics = [
        keras.metrics.BinaryCrossentropy(name="cross entropy"),
        keras.metrics.MeanSquaredError(name="Brier score"),
        keras.metrics.TruePositives(name="tp"),
        keras.metrics.FalsePositives(name="fp"),
        keras.metrics.TrueNegatives(name="tn"),
        keras.metrics.FalseNegatives(name="fn"),
        keras.metrics.BinaryAccuracy(name="accuracy"),
        keras.metrics.Precision(name="precision"),
        keras.metrics.Recall(name="recall"),
        keras.metrics.AUC(name="auc"),
        keras.metrics.AUC(name="prc", curve="PR"),
    ]
    x = RNG.randn(64, 5).astype("float32")
    y = (x[:, :1] + 0.5 * x[:, 1:2] > 1.0).astype("float32")
    bias = float(np.log(y.mean() / (1 - y.mean())))
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(1, activation="sigmoid",
                                                 bias_initializer=keras.initializers.Constant(bias))])
    model.layers[0].set_weights([np.linspace(-1, 1, 40).reshape(5, 8).astype("float32"), np.zeros(8, "float32")])
    model.layers[1].set_weights([np.linspace(-0.5, 0.7, 8).reshape(8, 1).astype("float32"),
                                 np.array([bias], "float32")])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-2), loss=keras.losses.BinaryCrossentropy(),
                  metrics=metrics)
    h = model.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    ev = model.evaluate(x, y, batch_size=32, verbose=0, return_dict=True)
    return {"history": {k: [float(v) for v in vals] for k, vals in h.history.items()},
            "evaluate": {k: float(v) for k, v in ev.items()}}


def program_serialize(tf):
    m = tf.keras.metrics
    out = {}
    for metric in (m.AUC(num_thresholds=50, curve="PR"), m.TruePositives(thresholds=0.3), m.F1Score(average="macro"),
                   m.MeanIoU(num_classes=3), m.BinaryCrossentropy(from_logits=True)):
        conf = m.serialize(metric)
        back = m.deserialize(conf)
        out[type(metric).__name__] = [conf["class_name"], conf["module"], type(back).__name__, back.name]
    return out


def program_errors(tf):
    m = tf.keras.metrics
    out = {}
    for key, make in (("f1_avg", lambda: m.F1Score(average="bad")), ("fbeta_beta", lambda: m.FBetaScore(beta=1)),
                      ("r2_agg", lambda: m.R2Score(class_aggregation="x")),
                      ("iou_ids", lambda: m.IoU(num_classes=2, target_class_ids=[2])),
                      ("auc_curve", lambda: m.AUC(curve="XY")), ("tp_threshold", lambda: m.TruePositives(1.5)),
                      ("f1_rank", lambda: m.F1Score()(np.ones(3, "float32"), np.ones(3, "float32")))):
        try:
            make()
            out[key] = "ok"
        except Exception as e:  # noqa: BLE001 - the exception type is the value compared
            out[key] = type(e).__name__
    return out

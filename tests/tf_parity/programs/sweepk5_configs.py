"""Loss, metric and schedule configs and masked metrics as Keras 3 gives them."""
import numpy as np

from _sweep import set_weights


def _y():
    return (np.array([[0., 1.], [1., 0.], [1., 1.]], "float32"),
            np.array([[0.2, 0.7], [0.6, 0.1], [0.9, 0.4]], "float32"))


def program_loss_configs_many(tf):
    L = tf.keras.losses
    out = {}
    for l in [L.MeanSquaredError(), L.MeanAbsoluteError(reduction="sum"), L.CategoricalCrossentropy(from_logits=True, axis=0),
              L.SparseCategoricalCrossentropy(ignore_class=1), L.KLDivergence(), L.Hinge(), L.LogCosh(), L.Poisson(), L.MeanSquaredLogarithmicError()]:
        c = l.get_config()
        out[type(l).__name__] = {k: c[k] for k in sorted(c) if k != "dtype"}
    return out


def program_loss_values_with_reductions(tf):
    y, p = _y()
    out = {}
    for red in ["sum_over_batch_size", "sum", "none", "mean"]:
        out[red] = tf.keras.losses.MeanSquaredError(reduction=red)(y, p)
    out["sw"] = tf.keras.losses.BinaryCrossentropy()(y, p, sample_weight=np.array([1., 0., 2.], "float32"))
    return out


def program_categorical_cc_axis0(tf):
    y, p = _y()
    return {"v": tf.keras.losses.CategoricalCrossentropy(axis=0)(y, p),
            "fn": tf.keras.losses.categorical_crossentropy(y, p, axis=0)}


def program_binary_crossentropy_fn_axis(tf):
    y, p = _y()
    return {"ax0": tf.keras.losses.binary_crossentropy(y, p, axis=0),
            "ax1": tf.keras.losses.binary_crossentropy(y, p, axis=-1)}


def program_huber_fn_and_class_delta(tf):
    y, p = _y()
    return {"fn": tf.keras.losses.huber(y, p * 3, delta=0.3), "cls": tf.keras.losses.Huber(0.3)(y, p * 3),
            "none": tf.keras.losses.Huber(2.0, reduction="none")(y, p * 3)}


def program_metric_configs(tf):
    M = tf.keras.metrics
    out = {}
    for m in [M.MeanSquaredError(), M.Accuracy(), M.BinaryAccuracy(threshold=0.7), M.AUC(num_thresholds=5),
              M.Precision(thresholds=0.3), M.TopKCategoricalAccuracy(k=2), M.MeanIoU(num_classes=2)]:
        c = m.get_config()
        out[type(m).__name__] = {k: c[k] for k in sorted(c) if k != "dtype"}
    return out


def program_masked_metric_in_evaluate(tf):
    inp = tf.keras.Input((3,), dtype="int32")
    h = tf.keras.layers.Embedding(5, 2, mask_zero=True)(inp)
    out = tf.keras.layers.Dense(1)(h)
    m = set_weights(tf.keras.Model(inp, out))
    m.compile("sgd", "mse", metrics=["mae"], weighted_metrics=["mse"])
    x = np.array([[1, 0, 3], [2, 4, 0]])
    y = np.ones((2, 3, 1), "float32")
    return {"ev": m.evaluate(x, y, verbose=0, return_dict=True)}


def program_metric_sample_weight_state(tf):
    m = tf.keras.metrics.Mean()
    m.update_state([1., 2., 3.], sample_weight=[1., 0., 2.])
    a = tf.keras.metrics.BinaryAccuracy()
    a.update_state([[1.], [0.]], [[0.8], [0.6]], sample_weight=[[2.], [1.]])
    return {"mean": m.result(), "vars": [v.name for v in m.variables], "acc": a.result()}


def program_schedule_values_across_steps(tf):
    s = tf.keras.optimizers.schedules
    pcd = s.PiecewiseConstantDecay([2, 4], [1.0, 0.5, 0.25])
    poly = s.PolynomialDecay(1.0, 4, 0.0, power=1.0, cycle=True)
    warm = s.CosineDecay(0.0, 10, warmup_target=1.0, warmup_steps=5)
    return {"pcd": [float(pcd(i)) for i in range(6)], "poly": [float(poly(i)) for i in range(0, 12, 3)],
            "warm": [float(warm(i)) for i in range(0, 16, 3)], "warm_cfg": warm.get_config()}


def program_optimizer_schedule_roundtrip(tf):
    sch = tf.keras.optimizers.schedules.PiecewiseConstantDecay([1], [0.5, 0.1])
    opt = tf.keras.optimizers.Adam(sch)
    back = tf.keras.optimizers.Adam.from_config(opt.get_config())
    return {"cfg": back.get_config()["learning_rate"], "lr0": float(np.asarray(back.learning_rate))}

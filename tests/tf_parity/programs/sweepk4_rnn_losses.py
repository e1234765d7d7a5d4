"""Keras RNN guide pieces (masking, Bidirectional, stateful, TimeDistributed) and the losses,
metrics, optimizers and schedules APIs: values and get_config round trips."""
import numpy as np

from _sweep import set_weights


def _seq(tf):
    return tf.constant(np.sin(np.arange(2 * 4 * 3, dtype="float32")).reshape(2, 4, 3))


def program_lstm_masked_padding_final_state(tf):
    inp = tf.keras.Input((None,), dtype="int32")
    e = tf.keras.layers.Embedding(6, 3, mask_zero=True)(inp)
    out = tf.keras.layers.LSTM(2)(e)
    m = set_weights(tf.keras.Model(inp, out))
    return {"out": m(tf.constant([[1, 2, 0, 0], [3, 4, 5, 1]])), "same": bool(np.allclose(
        m(tf.constant([[1, 2, 0, 0]])), m(tf.constant([[1, 2]]))))}


def program_gru_reset_after_and_sequences(tf):
    g = tf.keras.layers.GRU(2, return_sequences=True, reset_after=False)
    g(_seq(tf))
    set_weights(g)
    g2 = tf.keras.layers.GRU(2, return_sequences=True)
    g2(_seq(tf))
    set_weights(g2)
    return {"a": g(_seq(tf)), "b": g2(_seq(tf)), "shapes": [tuple(w.shape) for w in g.weights + g2.weights]}


def program_bidirectional_concat_with_mask(tf):
    inp = tf.keras.Input((None,), dtype="int32")
    e = tf.keras.layers.Embedding(5, 2, mask_zero=True)(inp)
    bi = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2, return_sequences=True))
    out = bi(e)
    m = set_weights(tf.keras.Model(inp, out))
    y = m(tf.constant([[1, 2, 0], [3, 0, 0]]))
    return {"y": y, "mask": y._keras_mask if hasattr(y, "_keras_mask") else None,
            "names": [w.path for w in m.weights]}


def program_stateful_lstm_carries_and_resets(tf):
    layer = tf.keras.layers.LSTM(2, stateful=True, return_state=False)
    inp = tf.keras.Input(batch_shape=(1, 2, 3))
    m = tf.keras.Model(inp, layer(inp))
    set_weights(m)
    x = _seq(tf)[:1, :2]
    a = m(x)
    b = m(x)
    layer.reset_states()
    c = m(x)
    return {"a": a, "b": b, "c": c, "n_weights": len(m.weights)}


def program_time_distributed_conv_and_dense(tf):
    td = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
    x = _seq(tf)
    y = td(x)
    set_weights(td)
    return {"y": td(x), "shape": tuple(y.shape), "out_shape": td.compute_output_shape((None, 4, 3))}


def program_rnn_cell_stack_and_config(tf):
    cells = [tf.keras.layers.LSTMCell(2), tf.keras.layers.GRUCell(3)]
    rnn = tf.keras.layers.RNN(cells, return_sequences=False)
    y = rnn(_seq(tf))
    cfg = rnn.get_config()
    return {"shape": tuple(y.shape), "cell_cls": cfg["cell"]["class_name"] if isinstance(cfg["cell"], dict) else None,
            "keys": sorted(cfg)}


def program_losses_values_and_reductions(tf):
    yt = tf.constant([[0.0, 1.0], [1.0, 0.0]])
    yp = tf.constant([[0.2, 0.7], [0.6, 0.3]])
    L = tf.keras.losses
    return {"bce": L.BinaryCrossentropy()(yt, yp), "bce_sum": L.BinaryCrossentropy(reduction="sum")(yt, yp),
            "bce_none": L.BinaryCrossentropy(reduction=None)(yt, yp),
            "cce_ls": L.CategoricalCrossentropy(label_smoothing=0.1)(yt, yp),
            "huber": L.Huber(delta=0.5)(yt, yp), "logcosh": L.LogCosh()(yt, yp),
            "kld": L.KLDivergence()(yt, yp), "poisson": L.Poisson()(yt, yp),
            "cos": L.CosineSimilarity(axis=-1)(yt, yp), "hinge": L.Hinge()(yt, yp),
            "sqh": L.SquaredHinge()(yt, yp), "mape": L.MeanAbsolutePercentageError()(yt + 1, yp),
            "msle": L.MeanSquaredLogarithmicError()(yt, yp),
            "sw": L.MeanSquaredError()(yt, yp, sample_weight=tf.constant([2.0, 0.5])),
            "mean_sw": L.MeanSquaredError(reduction="mean")(yt, yp, sample_weight=tf.constant([2.0, 0.0]))}


def program_loss_configs_roundtrip(tf):
    L = tf.keras.losses
    out = {}
    for loss in (L.BinaryCrossentropy(from_logits=True, label_smoothing=0.2), L.Huber(delta=2.0),
                 L.SparseCategoricalCrossentropy(ignore_class=0), L.MeanSquaredError(name="m")):
        cfg = loss.get_config()
        again = type(loss).from_config(cfg)
        out[type(loss).__name__] = {"same": again.get_config() == cfg, "name": cfg["name"],
                                    "reduction": cfg["reduction"]}
    out["get"] = type(L.get("mse")).__name__ if not callable(L.get("mse")) or isinstance(L.get("mse"), type) else L.get("mse").__name__
    out["ser"] = {k: v for k, v in L.serialize(L.MeanSquaredError()).items() if k != "config"}
    return out


def program_metric_configs_and_reset(tf):
    M = tf.keras.metrics
    out = {}
    for m in (M.AUC(num_thresholds=11, curve="PR"), M.Precision(top_k=2), M.MeanIoU(num_classes=3),
              M.SparseTopKCategoricalAccuracy(k=3), M.FBetaScore(beta=2.0) if hasattr(M, "FBetaScore") else M.Mean()):
        cfg = m.get_config()
        out[type(m).__name__] = sorted(cfg)
    r = M.R2Score()
    r.update_state(tf.constant([[1.0], [2.0], [3.0]]), tf.constant([[1.1], [1.9], [3.2]]))
    out["r2"] = r.result()
    iou = M.MeanIoU(num_classes=2)
    iou.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    out["iou"] = iou.result()
    return out


def program_optimizer_configs(tf):
    O = tf.keras.optimizers
    out = {}
    for opt in (O.Adam(0.01, beta_1=0.8, amsgrad=True), O.SGD(0.1, momentum=0.9, nesterov=True),
                O.RMSprop(0.001, rho=0.8), O.AdamW(weight_decay=0.01), O.Adagrad()):
        cfg = opt.get_config()
        out[type(opt).__name__] = {k: cfg[k] for k in sorted(cfg) if k not in ("name",)}
    out["from"] = type(O.Adam.from_config(O.Adam(0.5).get_config())).__name__
    out["get"] = type(O.get("adam")).__name__
    return out


def program_schedules_values_and_configs(tf):
    S = tf.keras.optimizers.schedules
    scheds = {"exp": S.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True),
              "pw": S.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1]),
              "poly": S.PolynomialDecay(0.1, 20, end_learning_rate=0.01, power=2.0),
              "inv": S.InverseTimeDecay(0.1, 5, 0.5),
              "cos": S.CosineDecay(0.1, 20, alpha=0.1, warmup_target=0.2, warmup_steps=5),
              "cosr": S.CosineDecayRestarts(0.1, 10)}
    out = {}
    for k, s in scheds.items():
        out[k] = [float(s(step)) for step in (0, 3, 7, 12, 25)]
        out[k + "_cfg"] = sorted(s.get_config())
    opt = tf.keras.optimizers.SGD(scheds["exp"])
    v = tf.Variable(1.0)
    for _ in range(12):
        opt.apply_gradients([(tf.constant(1.0), v)])
    out["v"] = v
    out["lr_now"] = float(opt.learning_rate)
    return out


def program_schedule_serialize_in_optimizer_config(tf):
    S = tf.keras.optimizers.schedules
    opt = tf.keras.optimizers.Adam(S.ExponentialDecay(0.1, 10, 0.9))
    cfg = opt.get_config()
    again = tf.keras.optimizers.Adam.from_config(cfg)
    return {"val": float(again.learning_rate), "type": type(again).__name__}

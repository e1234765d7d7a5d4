"""tensorflow.org tutorial "Classification on imbalanced data", scaled down: a small seeded
two-class set with few positives; the metrics list (TP/FP/TN/FN, precision, recall, AUC,
PRC), an output bias initialised to log(pos/neg), class weights and oversampling with a
fixed interleave, with fixed starting weights."""
import numpy as np

from _sweep import history, outcomes, set_weights


def _data():
    rng = np.random.RandomState(5)
    x = rng.normal(0, 1, (40, 3)).astype("float32")
    y = (x[:, 0] + 0.5 * x[:, 1] > 1.2).astype("float32")
    return x, y[:, None]  # (n, 1): Keras 3's BinaryCrossentropy metric refuses (n,) against (n, 1)


def _metrics(tf):
    return [tf.keras.metrics.BinaryCrossentropy(name="cross entropy"),
            tf.keras.metrics.MeanSquaredError(name="Brier score"),
            tf.keras.metrics.TruePositives(name="tp"), tf.keras.metrics.FalsePositives(name="fp"),
            tf.keras.metrics.TrueNegatives(name="tn"), tf.keras.metrics.FalseNegatives(name="fn"),
            tf.keras.metrics.BinaryAccuracy(name="accuracy"), tf.keras.metrics.Precision(name="precision"),
            tf.keras.metrics.Recall(name="recall"), tf.keras.metrics.AUC(name="auc"),
            tf.keras.metrics.AUC(name="prc", curve="PR")]


def _make_model(tf, output_bias=None):
    if output_bias is not None:
        output_bias = tf.keras.initializers.Constant(output_bias)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dropout(0.0),
                                 tf.keras.layers.Dense(1, activation="sigmoid", bias_initializer=output_bias)])
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-2),
                  loss=tf.keras.losses.BinaryCrossentropy(), metrics=_metrics(tf))
    return model


def _r(d):
    return {k: round(float(v), 4) for k, v in d.items()}


def program_initial_bias_and_metrics(tf):
    x, y = _data()
    neg, pos = np.bincount(y[:, 0].astype("int64"))
    initial_bias = np.log([pos / neg])
    model = _make_model(tf)
    set_weights(model)
    zero_bias = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    model = _make_model(tf, output_bias=initial_bias)
    bias = [float(v) for v in model.layers[-1].bias.numpy()]
    weights = model.get_weights()
    weights[-1] = model.layers[-1].bias.numpy()
    set_weights(model)
    model.layers[-1].bias.assign(initial_bias.astype("float32"))
    careful = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    h = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False, validation_data=(x[:10], y[:10]))
    return {"counts": [int(neg), int(pos)], "initial_bias": initial_bias.round(6).tolist(), "bias": bias,
            "zero_bias": _r(zero_bias), "careful": _r(careful),
            "h": {k: [round(v, 4) for v in vs] for k, vs in history(h).items()}}


def program_class_weights(tf):
    x, y = _data()
    neg, pos = np.bincount(y[:, 0].astype("int64"))
    total = neg + pos
    weight_for_0 = (1 / neg) * (total / 2.0)
    weight_for_1 = (1 / pos) * (total / 2.0)
    class_weight = {0: weight_for_0, 1: weight_for_1}
    model = _make_model(tf)
    set_weights(model)
    h = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False, class_weight=class_weight)
    pred = model.predict(x[:4], verbose=0)
    flat_labels = outcomes({"evaluate": lambda: model.evaluate(x, y[:, 0], verbose=0),
                            "fn": lambda: tf.keras.losses.binary_crossentropy(y[:, 0], pred),
                            "loss_class": lambda: round(float(tf.keras.losses.BinaryCrossentropy()(y[:4, 0], pred)), 5),
                            "cce": lambda: tf.keras.losses.categorical_crossentropy(y[:4, 0], pred),
                            "focal": lambda: tf.keras.losses.binary_focal_crossentropy(y[:4, 0], pred)},
                           keep_values=True)
    return {"cw": [round(weight_for_0, 6), round(weight_for_1, 6)],
            "h": {k: [round(v, 4) for v in vs] for k, vs in history(h).items()}, "pred": pred.round(5).tolist(),
            "flat_labels": {k: v if isinstance(v, (str, float)) else "value" for k, v in flat_labels.items()}}


def program_oversampling_datasets(tf):
    x, y = _data()
    bool_train_labels = y[:, 0] != 0
    pos_features, neg_features = x[bool_train_labels], x[~bool_train_labels]
    pos_labels, neg_labels = y[bool_train_labels], y[~bool_train_labels]
    ids = np.arange(len(pos_features))
    choices = np.resize(ids, len(neg_features))  # the tutorial draws these at random
    res_pos_features, res_pos_labels = pos_features[choices], pos_labels[choices]
    resampled_features = np.concatenate([res_pos_features, neg_features], axis=0)
    resampled_labels = np.concatenate([res_pos_labels, neg_labels], axis=0)

    def make_ds(features, labels):
        return tf.data.Dataset.from_tensor_slices((features, labels)).repeat()

    pos_ds = make_ds(pos_features, pos_labels)
    neg_ds = make_ds(neg_features, neg_labels)
    # sample_from_datasets(weights=[0.5, 0.5]) in the tutorial; a fixed alternation here
    resampled_ds = tf.data.Dataset.choose_from_datasets([pos_ds, neg_ds], tf.data.Dataset.range(2).repeat())
    resampled_ds = resampled_ds.batch(8).prefetch(2)
    features, label = next(iter(resampled_ds))
    model = _make_model(tf)
    set_weights(model)
    h = model.fit(resampled_ds, epochs=2, steps_per_epoch=3, verbose=0)
    return {"shape": resampled_features.shape, "mean_label": float(resampled_labels.mean()),
            "first_labels": label.numpy().tolist(), "features": features.numpy().round(5).tolist(),
            "h": {k: [round(v, 4) for v in vs] for k, vs in history(h).items()}}

"""Keras training with built-in methods, as the Keras 3 guide uses them: compile variants (loss
lists and dicts, metric dicts, loss_weights, weighted_metrics, run_eagerly), fit's weights,
validation, initial_epoch, History, evaluate and predict."""
import numpy as np

from _sweep import data, history, labels, set_weights


def _two_heads(tf):
    inp = tf.keras.Input((3,), name="x")
    h = tf.keras.layers.Dense(4, activation="relu", name="h")(inp)
    reg = tf.keras.layers.Dense(1, name="reg")(h)
    cls = tf.keras.layers.Dense(2, activation="softmax", name="cls")(h)
    return set_weights(tf.keras.Model(inp, [reg, cls]))


def _mlp(tf, out=1, act=None):
    inp = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(4, activation="tanh")(inp)
    return set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(out, activation=act)(h)))


def program_loss_list_and_metric_list_per_output(tf):
    x, y = data(12)
    yc = (y[:, 0] > 0.3).astype("int32")
    m = _two_heads(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), loss=["mse", "sparse_categorical_crossentropy"],
              metrics=[["mae"], ["accuracy"]])
    h = m.fit(x, [y, yc], epochs=2, batch_size=6, shuffle=False, verbose=0)
    return {"h": history(h), "keys": sorted(h.history)}


def program_loss_dict_metric_dict_loss_weights(tf):
    x, y = data(12)
    yc = (y[:, 0] > 0.3).astype("int32")
    m = _two_heads(tf)
    m.compile(tf.keras.optimizers.Adam(0.01),
              loss={"reg": "mse", "cls": tf.keras.losses.SparseCategoricalCrossentropy()},
              metrics={"reg": [tf.keras.metrics.MeanAbsoluteError(name="mae")], "cls": ["accuracy"]},
              loss_weights={"reg": 2.0, "cls": 0.5})
    h = m.fit(x, {"reg": y, "cls": yc}, epochs=2, batch_size=4, shuffle=False, verbose=0)
    ev = m.evaluate(x, {"reg": y, "cls": yc}, verbose=0, return_dict=True)
    return {"h": history(h), "ev": {k: float(v) for k, v in ev.items()}}


def program_single_loss_for_two_outputs(tf):
    x, y = data(8)
    inp = tf.keras.Input((3,))
    a = tf.keras.layers.Dense(1, name="a")(inp)
    b = tf.keras.layers.Dense(1, name="b")(inp)
    m = set_weights(tf.keras.Model(inp, [a, b]))
    m.compile("sgd", "mse")
    h = m.fit(x, [y, 2 * y], epochs=1, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_weighted_metrics_with_sample_weight(tf):
    x, y = data(12)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.05), "mse", metrics=["mae"], weighted_metrics=["mae"])
    sw = np.array([1, 0] * 6, "float32")
    h = m.fit(x, y, sample_weight=sw, epochs=2, batch_size=4, shuffle=False, verbose=0)
    ev = m.evaluate(x, y, sample_weight=sw, verbose=0, return_dict=True)
    return {"h": history(h), "ev": {k: float(v) for k, v in ev.items()}}


def program_class_weight_binary(tf):
    x, _ = data(12)
    y = (x[:, 0] > 0).astype("float32")[:, None]
    m = _mlp(tf, 1, "sigmoid")
    m.compile(tf.keras.optimizers.SGD(0.5), "binary_crossentropy",
              metrics=[tf.keras.metrics.BinaryAccuracy(), tf.keras.metrics.AUC(name="auc")])
    h = m.fit(x, y, class_weight={0: 1.0, 1: 3.0}, epochs=2, batch_size=6, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_validation_split_keys_and_values(tf):
    x, y = data(20)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=[tf.keras.metrics.RootMeanSquaredError(name="rmse")])
    h = m.fit(x, y, validation_split=0.25, epochs=3, batch_size=5, shuffle=False, verbose=0)
    return {"h": history(h), "epoch": h.epoch, "params": {k: h.params[k] for k in ("epochs", "steps")}}


def program_validation_data_dataset_and_freq(tf):
    x, y = data(16)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    val = tf.data.Dataset.from_tensor_slices((x[:8], y[:8])).batch(4)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(ds, validation_data=val, epochs=4, validation_freq=2, verbose=0)
    return {"h": history(h)}


def program_validation_data_triple_sample_weight(tf):
    x, y = data(16)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", weighted_metrics=["mse"])
    sw = np.linspace(0, 1, 8).astype("float32")
    h = m.fit(x[:8], y[:8], validation_data=(x[8:], y[8:], sw), epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_initial_epoch_history(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile("sgd", "mse")
    h = m.fit(x, y, initial_epoch=2, epochs=5, batch_size=4, shuffle=False, verbose=0)
    return {"epoch": h.epoch, "n": len(h.history["loss"]), "h": history(h)}


def program_fit_twice_history_objects(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile("sgd", "mse")
    h1 = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    h2 = m.fit(x, y, epochs=1, batch_size=4, shuffle=False, verbose=0)
    return {"h1": history(h1), "h2": history(h2), "same": h1 is h2, "model_h": history(m.history)}


def program_run_eagerly_same_as_graph(tf):
    x, y = data(12)
    out = {}
    for eager in (True, False):
        tf.keras.backend.clear_session()
        m = _mlp(tf)
        m.compile(tf.keras.optimizers.RMSprop(0.01), "mae", run_eagerly=eager, jit_compile=False)
        out[str(eager)] = history(m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0))
        out[f"flag_{eager}"] = m.run_eagerly
    return out


def program_predict_batch_sizes_and_dtype(tf):
    x, _ = data(10)
    m = _mlp(tf, 2)
    p1 = m.predict(x, batch_size=3, verbose=0)
    p2 = m.predict(x, batch_size=32, verbose=0)
    p3 = m.predict(tf.data.Dataset.from_tensor_slices(x).batch(4), verbose=0)
    return {"p1": p1, "same": bool(np.allclose(p1, p2)), "p3": p3, "t": type(p1).__name__, "dt": str(p1.dtype)}


def program_predict_multi_output_structure(tf):
    x, _ = data(5)
    m = _two_heads(tf)
    p = m.predict(x, verbose=0)
    return {"type": type(p).__name__, "n": len(p), "shapes": [q.shape for q in p], "p0": p[0]}


def program_predict_dict_outputs(tf):
    inp = tf.keras.Input((3,))
    m = set_weights(tf.keras.Model(inp, {"a": tf.keras.layers.Dense(1)(inp), "b": tf.keras.layers.Dense(2)(inp)}))
    x, _ = data(4)
    p = m.predict(x, verbose=0)
    return {"type": type(p).__name__, "keys": sorted(p), "a": p["a"]}


def program_evaluate_list_order_multi_output(tf):
    x, y = data(8)
    yc = (y[:, 0] > 0.3).astype("int32")
    m = _two_heads(tf)
    m.compile("sgd", ["mse", "sparse_categorical_crossentropy"], metrics=[["mae"], ["accuracy"]])
    r = m.evaluate(x, [y, yc], verbose=0)
    return {"r": [float(v) for v in r], "names": list(m.metrics_names)}


def program_evaluate_before_compile(tf):
    x, y = data(4)
    _mlp(tf).evaluate(x, y, verbose=0)


def program_fit_before_compile(tf):
    x, y = data(4)
    _mlp(tf).fit(x, y, verbose=0)


def program_metrics_names_before_and_after(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile("sgd", "mse", metrics=["mae", "mse"])
    before = list(m.metrics_names)
    m.evaluate(x, y, verbose=0)
    return {"before": before, "after": list(m.metrics_names), "metrics": [mm.name for mm in m.metrics]}


def program_compile_loss_object_and_reduction(tf):
    x, y = data(8)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), loss=tf.keras.losses.MeanSquaredError(reduction="sum"))
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_sparse_categorical_from_logits(tf):
    x, y = labels(12)
    m = _mlp(tf, 3)
    m.compile(tf.keras.optimizers.Adam(0.05), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=[tf.keras.metrics.SparseCategoricalAccuracy(), tf.keras.metrics.SparseTopKCategoricalAccuracy(k=2)])
    h = m.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h)}


def program_categorical_one_hot_labels(tf):
    x, y = labels(12)
    yo = tf.keras.utils.to_categorical(y, 3)
    m = _mlp(tf, 3, "softmax")
    m.compile(tf.keras.optimizers.SGD(0.3), "categorical_crossentropy", metrics=["accuracy", "categorical_accuracy"])
    h = m.fit(x, yo, epochs=2, batch_size=6, shuffle=False, verbose=0)
    return {"h": history(h), "yo": yo}


def program_fit_generator_function_dataset(tf):
    x, y = data(12)

    def gen():
        for i in range(0, 12, 4):
            yield x[i:i + 4], y[i:i + 4]
    ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec((None, 3), tf.float32),
                                                               tf.TensorSpec((None, 1), tf.float32)))
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(ds, epochs=2, verbose=0)
    return {"h": history(h)}


def program_fit_dataset_with_sample_weight_triples(tf):
    x, y = data(8)
    sw = np.array([2, 1, 0, 1, 2, 1, 0, 1], "float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y, sw)).batch(4)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", weighted_metrics=["mae"])
    return {"h": history(m.fit(ds, epochs=2, verbose=0))}


def program_train_on_batch_return_dict(tf):
    x, y = data(4)
    m = _mlp(tf)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    r1 = m.train_on_batch(x, y)
    r2 = m.train_on_batch(x, y, return_dict=True)
    t = m.test_on_batch(x, y, return_dict=True)
    return {"r1": [float(v) for v in r1], "r2": {k: float(v) for k, v in r2.items()},
            "t": {k: float(v) for k, v in t.items()}}

"""Keras guides, more corners: fit arguments (initial_epoch, validation_freq, steps), callbacks,
preprocessing layers with adapt, Lambda layers, nested models, summaries."""
import numpy as np

from _cells import printed
from _sweep import data, history, labels, set_weights


def _dense_model(tf, d=3):
    m = tf.keras.Sequential([tf.keras.Input((d,)), tf.keras.layers.Dense(2, activation="relu"),
                             tf.keras.layers.Dense(1)])
    return set_weights(m)


def program_fit_initial_epoch_and_validation_freq(tf):
    x, y = data(12)
    m = _dense_model(tf)
    m.compile(tf.keras.optimizers.SGD(0.05), "mse")
    h = m.fit(x, y, epochs=4, initial_epoch=1, validation_data=(x[:4], y[:4]), validation_freq=2,
              batch_size=6, shuffle=False, verbose=0)
    return {"epoch": h.epoch, "h": history(h), "params": {k: h.params[k] for k in sorted(h.params)}}


def program_fit_steps_per_epoch_repeat(tf):
    x, y = data(8)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2).repeat()
    m = _dense_model(tf)
    m.compile(tf.keras.optimizers.SGD(0.05), "mse")
    h = m.fit(ds, epochs=2, steps_per_epoch=3, verbose=0)
    ev = m.evaluate(ds, steps=2, verbose=0)
    return {"h": history(h), "ev": ev, "iters": m.optimizer.iterations}


def program_reduce_lr_on_plateau_min_lr(tf):
    x, y = data(8)
    m = _dense_model(tf)
    m.compile(tf.keras.optimizers.SGD(0.0), "mse")
    cb = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_lr=0.01, verbose=0)
    m.optimizer.learning_rate.assign(0.05)
    h = m.fit(x, y, epochs=5, batch_size=8, verbose=0, callbacks=[cb], shuffle=False)
    return {"lr": [float(v) for v in h.history["learning_rate"]] if "learning_rate" in h.history else None,
            "final": float(m.optimizer.learning_rate)}


def program_callback_order_and_logs(tf):
    events = []

    class Log(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            events.append(("train_begin", sorted(logs or {})))

        def on_epoch_begin(self, epoch, logs=None):
            events.append(("epoch_begin", epoch))

        def on_train_batch_end(self, batch, logs=None):
            events.append(("batch_end", batch, sorted(logs)))

        def on_test_begin(self, logs=None):
            events.append(("test_begin",))

        def on_epoch_end(self, epoch, logs=None):
            events.append(("epoch_end", epoch, sorted(logs)))

        def on_train_end(self, logs=None):
            events.append(("train_end", sorted(logs or {})))
    x, y = data(4)
    m = _dense_model(tf)
    m.compile("sgd", "mse", metrics=["mae"])
    m.fit(x, y, epochs=2, batch_size=2, validation_data=(x, y), verbose=0, callbacks=[Log()], shuffle=False)
    return {"events": events}


def program_normalization_adapt(tf):
    data_ = np.array([[0.0, 10.0], [2.0, 20.0], [4.0, 60.0]], "float32")
    norm = tf.keras.layers.Normalization()
    norm.adapt(data_)
    inv = tf.keras.layers.Normalization(invert=True, mean=norm.mean[0], variance=norm.variance[0])
    return {"mean": norm.mean, "var": norm.variance, "out": norm(data_), "back": inv(norm(data_))}


def program_string_lookup_and_category_encoding(tf):
    vocab = ["a", "b", "c"]
    lookup = tf.keras.layers.StringLookup(vocabulary=vocab)
    inv = tf.keras.layers.StringLookup(vocabulary=vocab, invert=True)
    ids = lookup(tf.constant([["a", "c"], ["d", "b"]]))
    enc = tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
    return {"ids": ids, "back": inv(ids), "size": lookup.vocabulary_size(), "vocab": lookup.get_vocabulary(),
            "multi_hot": enc(ids)}


def program_integer_lookup_one_hot(tf):
    layer = tf.keras.layers.IntegerLookup(output_mode="one_hot")
    layer.adapt(np.array([12, 36, 12, 1138, 42], "int64"))
    return {"vocab": layer.get_vocabulary(), "out": layer(np.array([12, 42, 7], "int64"))}


def program_text_vectorization_int_and_tfidf(tf):
    texts = ["the cat sat", "the dog sat down", "a cat"]
    tv = tf.keras.layers.TextVectorization(max_tokens=10, output_mode="int", output_sequence_length=4)
    tv.adapt(texts)
    counts = tf.keras.layers.TextVectorization(output_mode="count")
    counts.adapt(texts)
    return {"vocab": tv.get_vocabulary(), "ids": tv(["the cat", "dog sat on the mat"]),
            "counts": counts(["the the cat"])}


def program_lambda_layer_and_ops(tf):
    inp = tf.keras.Input((3,))
    x = tf.keras.layers.Lambda(lambda t: t * 2.0 + 1.0)(inp)
    y = tf.keras.layers.Dense(2, kernel_initializer="ones")(x)
    z = tf.keras.layers.Concatenate(axis=-1)([x, y])
    m = tf.keras.Model(inp, z)
    return {"out": m(np.ones((1, 3), "float32")), "shape": tuple(z.shape), "n_layers": len(m.layers)}


def program_nested_model_as_layer(tf):
    enc_in = tf.keras.Input((4,))
    encoder = tf.keras.Model(enc_in, tf.keras.layers.Dense(2, name="code")(enc_in), name="encoder")
    dec_in = tf.keras.Input((2,))
    decoder = tf.keras.Model(dec_in, tf.keras.layers.Dense(4, name="recon")(dec_in), name="decoder")
    ae_in = tf.keras.Input((4,))
    ae = tf.keras.Model(ae_in, decoder(encoder(ae_in)), name="autoencoder")
    set_weights(ae)
    x = np.linspace(0, 1, 8, dtype="float32").reshape(2, 4)
    return {"out": ae(x), "names": [l.name for l in ae.layers], "n_w": len(ae.weights),
            "paths": [w.path for w in ae.weights]}


def program_sequential_add_pop_and_summary_lines(tf):
    m = tf.keras.Sequential(name="stack")
    m.add(tf.keras.Input((4,)))
    m.add(tf.keras.layers.Dense(3, name="one"))
    m.add(tf.keras.layers.Dense(2, name="two"))
    before = [l.name for l in m.layers]
    m.pop()
    _, lines = printed(m.summary)
    text = "\n".join(lines)
    return {"before": before, "after": [l.name for l in m.layers], "params": m.count_params(),
            "has_total": "Total params: 15" in text, "out_shape": tuple(m(np.ones((1, 4), "float32")).shape)}


def program_get_set_weights_roundtrip(tf):
    m = _dense_model(tf)
    ws = m.get_weights()
    m2 = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, activation="relu"),
                              tf.keras.layers.Dense(1)])
    m2.set_weights(ws)
    out = {"shapes": [w.shape for w in ws], "same": m2(np.ones((1, 3), "float32"))}
    try:
        m2.set_weights(ws[:2])
        out["short"] = "ok"
    except Exception as e:
        out["short"] = type(e).__name__
    return out


def program_binary_classifier_metrics(tf):
    x, y = labels(16, classes=2)
    m = set_weights(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, activation="sigmoid")]))
    m.compile(tf.keras.optimizers.Adam(0.05), "binary_crossentropy",
              metrics=[tf.keras.metrics.BinaryAccuracy(), tf.keras.metrics.Precision(), tf.keras.metrics.Recall(),
                       tf.keras.metrics.AUC(num_thresholds=50)])
    h = m.fit(x, y, epochs=2, batch_size=8, shuffle=False, verbose=0)
    return {"h": history(h)}

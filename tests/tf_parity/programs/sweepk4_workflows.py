"""Keras 3 guide workflows end to end: multi-input fit by input names, transfer learning with a
frozen BatchNormalization base, text and image classifiers, and small API conventions."""
import numpy as np

from _sweep import data, history, set_weights


def program_fit_multi_input_dict_by_name(tf):
    a = tf.keras.Input((3,), name="title")
    b = tf.keras.Input((2,), name="tags")
    h = tf.keras.layers.concatenate([tf.keras.layers.Dense(2)(a), b])
    p = tf.keras.layers.Dense(1, name="priority")(h)
    d = tf.keras.layers.Dense(2, activation="softmax", name="department")(h)
    m = set_weights(tf.keras.Model([a, b], [p, d]))
    m.compile(tf.keras.optimizers.RMSprop(0.01),
              loss={"priority": tf.keras.losses.BinaryCrossentropy(from_logits=True),
                    "department": tf.keras.losses.SparseCategoricalCrossentropy()},
              loss_weights={"priority": 1.0, "department": 0.2})
    x, y = data(8)
    xs = {"title": x, "tags": x[:, :2]}
    ys = {"priority": (y > 0.3).astype("float32"), "department": (y[:, 0] > 0).astype("int32")}
    h = m.fit(xs, ys, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h), "inputs": [t.name for t in m.inputs] if hasattr(m.inputs[0], "name") else None}


def program_transfer_frozen_bn_inference(tf):
    base = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4), tf.keras.layers.BatchNormalization()],
                               name="base")
    set_weights(base)
    base.trainable = False
    inp = tf.keras.Input((3,))
    out = tf.keras.layers.Dense(1)(base(inp, training=False))
    m = set_weights(tf.keras.Model(inp, out))
    set_weights(base)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x, y = data(8)
    mm0 = base.layers[1].moving_mean.numpy().copy()
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"h": history(h), "bn_unchanged": bool(np.allclose(mm0, base.layers[1].moving_mean.numpy())),
            "n_trainable": len(m.trainable_weights), "n_nt": len(m.non_trainable_weights)}


def program_bn_trainable_false_runs_inference_mode(tf):
    bn = tf.keras.layers.BatchNormalization()
    x = tf.constant(np.arange(6, dtype="float32").reshape(3, 2))
    bn(x)
    bn.trainable = False
    return {"y": bn(x, training=True), "mean": bn.moving_mean}


def program_text_classifier_conv1d_pooling(tf):
    inp = tf.keras.Input((6,), dtype="int32")
    e = tf.keras.layers.Embedding(10, 4)(inp)
    c = tf.keras.layers.Conv1D(3, 2, activation="relu")(e)
    g = tf.keras.layers.GlobalMaxPooling1D()(c)
    out = tf.keras.layers.Dense(1, activation="sigmoid")(g)
    m = set_weights(tf.keras.Model(inp, out))
    x = np.array([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [0, 0, 1, 1, 2, 2], [9, 8, 7, 0, 0, 0]], "int32")
    y = np.array([[1], [0], [1], [0]], "float32")
    m.compile(tf.keras.optimizers.Adam(0.01), "binary_crossentropy", metrics=["accuracy"])
    h = m.fit(x, y, epochs=3, batch_size=2, shuffle=False, verbose=0)
    return {"h": history(h), "shapes": [tuple(t.shape) for t in (e, c, g)]}


def program_image_classifier_conv2d_small(tf):
    inp = tf.keras.Input((6, 6, 1))
    h = tf.keras.layers.Conv2D(2, 3, padding="same", activation="relu")(inp)
    h = tf.keras.layers.MaxPooling2D()(h)
    h = tf.keras.layers.Flatten()(h)
    out = tf.keras.layers.Dense(3)(h)
    m = set_weights(tf.keras.Model(inp, out))
    x = np.sin(np.arange(4 * 36, dtype="float32")).reshape(4, 6, 6, 1)
    y = np.array([0, 1, 2, 1])
    m.compile(tf.keras.optimizers.SGD(0.05), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["sparse_categorical_accuracy"])
    h = m.fit(x, y, epochs=2, batch_size=2, shuffle=False, verbose=0)
    return {"h": history(h), "params": m.count_params(), "out_shape": tuple(m.output_shape)}


def program_to_categorical_and_normalize(tf):
    u = tf.keras.utils
    return {"cat": u.to_categorical([0, 2, 1], num_classes=4), "norm": u.normalize(np.array([[3.0, 4.0]]), axis=-1),
            "dtype": str(u.to_categorical([1, 0]).dtype)}


def program_dropout_training_flag_values(tf):
    tf.keras.utils.set_random_seed(3)
    d = tf.keras.layers.Dropout(0.5, seed=7)
    x = tf.ones((2, 4))
    inf = d(x)
    tr = d(x, training=True)
    return {"inf": inf, "zeros_or_twos": bool(np.all(np.isin(tr.numpy(), [0.0, 2.0])))}


def program_model_layers_weights_get_set_by_layer(tf):
    m = set_weights(tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3, name="a"),
                                         tf.keras.layers.Dense(1, name="b")]))
    w = m.get_layer("a").get_weights()
    m.get_layer("b").set_weights([np.ones((3, 1), "float32"), np.zeros(1, "float32")])
    return {"a_shapes": [x.shape for x in w], "out": m(tf.ones((1, 2))), "n": len(m.get_weights())}


def program_model_call_on_numpy_and_list(tf):
    m = set_weights(tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)]))
    a = m(np.ones((1, 2), "float32"))
    b = m.predict(np.ones((3, 2)), verbose=0)
    return {"a": a, "b": b, "a_dtype": a.dtype.name, "b_dtype": str(b.dtype)}


def program_sequential_summary_counts(tf):
    m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3), tf.keras.layers.BatchNormalization(),
                             tf.keras.layers.Dense(1)])
    lines = []
    m.summary(print_fn=lambda s, **kw: lines.append(s))
    text = "\n".join(lines)
    return {"total": "Total params: 31" in text, "trainable": "Trainable params: 25" in text,
            "non": "Non-trainable params: 6" in text, "bytes": "124.00 B" in text}

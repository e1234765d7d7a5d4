"""The Keras functional API: keras.Input, layer graphs, Model(inputs, outputs),
multi-input/output training, shared layers and nested models."""
import numpy as np
import pytest

import tapeflow as tf

L = tf.keras.layers
rng = np.random.default_rng(0)


def dense_np(layer, x):
    return x @ layer.kernel.numpy() + layer.bias.numpy()


def test_input_is_symbolic_with_unknown_batch():
    x = tf.keras.Input(shape=(5,), name="features")
    assert x.shape == (None, 5) and x.dtype == tf.float32 and x.name == "features"
    y = L.Dense(3)(x)
    assert y.shape == (None, 3)
    assert tf.keras.Input((2, 3), batch_size=8, dtype="int32").shape == (8, 2, 3)
    with pytest.raises(ValueError, match="KerasTensor .* wrap TensorFlow functions in keras.layers.Lambda"):
        tf.concat([x, x], axis=1)


def test_single_io_model_matches_numpy_eager_and_compiled():
    inp = tf.keras.Input((4,))
    h = L.Dense(6, activation="relu")(inp)
    out = L.Dense(2)(h)
    model = tf.keras.Model(inputs=inp, outputs=out)
    assert model.built and len(model.weights) == 4 and model.output_shape == (None, 2)
    x = rng.normal(size=(5, 4)).astype("float32")
    d1, d2 = model.layers[1], model.layers[2]
    ref = dense_np(d2, np.maximum(dense_np(d1, x), 0))
    np.testing.assert_allclose(model(x).numpy(), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.function(lambda a: model(a))(x).numpy(), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.predict(x, verbose=0), ref, rtol=1e-5, atol=1e-6)


def test_operators_and_lambda_on_keras_tensors():
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((3,), name="b")
    y = (a + b) * 2.0 - b / 4.0
    y = L.Lambda(lambda t: tf.concat([t, tf.square(t)], axis=-1))(y)
    z = -y[:, 1:4] ** 2 + 1.0
    model = tf.keras.Model([a, b], [y, z])
    xa, xb = rng.normal(size=(2, 2, 3)).astype("float32")
    yv, zv = model([xa, xb])
    t = (xa + xb) * 2 - xb / 4
    ref_y = np.concatenate([t, t * t], -1)
    np.testing.assert_allclose(yv.numpy(), ref_y, rtol=1e-5)
    np.testing.assert_allclose(zv.numpy(), -ref_y[:, 1:4] ** 2 + 1, rtol=1e-5)
    # inputs by name, as a dict
    yd, _ = model({"a": xa, "b": xb})
    np.testing.assert_allclose(yd.numpy(), ref_y, rtol=1e-5)


def test_shared_layer_and_nested_model():
    inp = tf.keras.Input((6,))
    encoder = tf.keras.Model(inp, L.Dense(4, activation="tanh")(inp), name="encoder")
    a, b = tf.keras.Input((6,)), tf.keras.Input((6,))
    distance = L.Lambda(tf.abs)(L.Subtract()([encoder(a), encoder(b)]))
    siamese = tf.keras.Model([a, b], L.Dense(1, activation="sigmoid")(distance))
    assert len(siamese.trainable_weights) == 4  # the encoder's weights count once
    xa, xb = rng.normal(size=(2, 3, 6)).astype("float32")
    enc = encoder.layers[1]
    head = siamese.layers[-1]
    ref = 1 / (1 + np.exp(-dense_np(head, np.abs(np.tanh(dense_np(enc, xa)) - np.tanh(dense_np(enc, xb))))))
    np.testing.assert_allclose(siamese([xa, xb]).numpy(), ref, rtol=1e-5)


def test_multi_output_fit_with_loss_lists_dicts_and_weights():
    tf.keras.utils.set_random_seed(0)
    x1 = rng.normal(size=(64, 4)).astype("float32")
    x2 = rng.normal(size=(64, 2)).astype("float32")
    y_reg = (x1[:, :1] - x2[:, 1:]).astype("float32")
    y_cls = (x1[:, 0] > 0).astype("int64") + (x2[:, 0] > 0)
    a, b = tf.keras.Input((4,), name="a"), tf.keras.Input((2,), name="b")
    h = L.Concatenate()([L.Dense(16, activation="relu")(a), b])
    reg = L.Dense(1, name="reg")(h)
    cls = L.Dense(3, name="cls")(h)
    model = tf.keras.Model({"a": a, "b": b}, {"reg": reg, "cls": cls})
    model.compile(tf.keras.optimizers.Adam(0.02),
                  loss={"reg": "mse", "cls": tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)},
                  loss_weights={"reg": 1.0, "cls": 0.5}, metrics={"cls": ["accuracy"]})
    hist = model.fit({"a": x1, "b": x2}, {"reg": y_reg, "cls": y_cls}, epochs=30, batch_size=16, verbose=0)
    h = hist.history
    assert set(h) == {"loss", "reg_loss", "cls_loss", "cls_accuracy"}
    np.testing.assert_allclose(h["loss"][-1], h["reg_loss"][-1] + 0.5 * h["cls_loss"][-1], rtol=1e-3)
    assert h["loss"][-1] < 0.5 * h["loss"][0] and h["cls_accuracy"][-1] > 0.8
    logs = model.evaluate({"a": x1, "b": x2}, {"reg": y_reg, "cls": y_cls}, verbose=0, return_dict=True)
    pred = model.predict({"a": x1, "b": x2}, verbose=0)
    mse = np.mean((pred["reg"] - y_reg) ** 2)
    np.testing.assert_allclose(logs["reg_loss"], mse, rtol=1e-4)


def test_multi_output_list_loss_in_order():
    tf.keras.utils.set_random_seed(1)
    inp = tf.keras.Input((3,))
    o1, o2 = L.Dense(1)(inp), L.Dense(1)(inp)
    model = tf.keras.Model(inp, [o1, o2])
    model.compile("sgd", loss=["mse", "mae"])
    x = rng.normal(size=(8, 3)).astype("float32")
    y1, y2 = rng.normal(size=(2, 8, 1)).astype("float32")
    p1, p2 = model.predict(x, verbose=0)
    logs = model.evaluate(x, [y1, y2], verbose=0, return_dict=True, batch_size=8)
    np.testing.assert_allclose(logs["loss"], np.mean((p1 - y1) ** 2) + np.mean(np.abs(p2 - y2)), rtol=1e-5)


def test_sequential_with_input_first_and_summary(capsys):
    model = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2, name="d")])
    assert model.built and model.output_shape == (None, 2)
    inp = tf.keras.Input((4,))
    f = tf.keras.Model(inp, L.Dense(3, name="head")(L.Dense(5, name="body")(inp)), name="f")
    f.summary()
    text = capsys.readouterr().out
    assert 'Model: "f"' in text and "body (Dense)" in text and "(None, 5)" in text and "Total params: 43" in text


def test_model_outputs_must_come_from_inputs():
    a, b = tf.keras.Input((2,)), tf.keras.Input((2,))
    with pytest.raises(ValueError, match="not one of the model's inputs"):
        tf.keras.Model(a, L.Add()([a, b]))


def test_functional_training_compiled_matches_eager_step():
    def build():
        tf.keras.utils.set_random_seed(3)
        inp = tf.keras.Input((4,))
        out = L.Dense(1)(L.Dense(8, activation="tanh")(inp))
        m = tf.keras.Model(inp, out)
        return m
    x = rng.normal(size=(16, 4)).astype("float32")
    y = rng.normal(size=(16, 1)).astype("float32")
    eager, compiled = build(), build()
    eager.compile(tf.keras.optimizers.SGD(0.1), "mse", run_eagerly=True)
    compiled.compile(tf.keras.optimizers.SGD(0.1), "mse")
    eager.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
    compiled.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
    for a, b in zip(eager.get_weights(), compiled.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)

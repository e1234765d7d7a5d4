"""Keras guides "serialization and saving", "masking and padding", "working with RNNs" and
"transfer learning", written anew; weights fixed so both libraries compute alike."""
import os

import numpy as np

from _sweep import data, set_weights, tmp_path


def program_save_keras_and_load(tf):
    inp = tf.keras.Input((3,))
    out = tf.keras.layers.Dense(2, activation="relu")(tf.keras.layers.Dense(4)(inp))
    model = set_weights(tf.keras.Model(inp, out))
    model.compile(optimizer="adam", loss="mse")
    path = tmp_path("model.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    x, _ = data(3)
    return {"same": np.allclose(model.predict(x, verbose=0), loaded.predict(x, verbose=0)),
            "out": loaded(x), "n_layers": len(loaded.layers), "loss": loaded.loss,
            "opt": type(loaded.optimizer).__name__, "exists": os.path.exists(path)}


def program_custom_layer_registered_roundtrip(tf):
    @tf.keras.utils.register_keras_serializable(package="sweep")
    class Scale(tf.keras.layers.Layer):
        def __init__(self, factor=1.0, **kw):
            super().__init__(**kw)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}
    model = tf.keras.Sequential([tf.keras.Input((2,)), Scale(3.0), tf.keras.layers.Dense(1)])
    set_weights(model)
    path = tmp_path("scale.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    x = np.array([[1.0, 2.0]], "float32")
    return {"out": loaded(x), "factor": loaded.layers[0].factor, "cls": type(loaded.layers[0]).__name__}


def program_custom_objects_argument(tf):
    class Doubler(tf.keras.layers.Layer):
        def call(self, x):
            return 2 * x
    inp = tf.keras.Input((2,))
    model = tf.keras.Model(inp, Doubler(name="dbl")(inp))
    path = tmp_path("dbl.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path, custom_objects={"Doubler": Doubler})
    return {"out": loaded(np.ones((1, 2), "float32")), "names": [l.name for l in loaded.layers]}


def program_get_config_from_config_sequential(tf):
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="tanh", name="a"),
                                 tf.keras.layers.Dense(1, name="b")], name="seq")
    cfg = model.get_config()
    clone = tf.keras.Sequential.from_config(cfg)
    clone.set_weights(set_weights(model).get_weights())
    x = np.ones((2, 4), "float32")
    return {"name": cfg["name"], "n": len(cfg["layers"]), "out": clone(x),
            "acts": [l.get_config().get("activation") for l in clone.layers]}


def program_functional_from_config_clone_model(tf):
    inp = tf.keras.Input((3,), name="x")
    h = tf.keras.layers.Dense(2, name="h")(inp)
    model = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1, name="o")(h), name="fn"))
    again = tf.keras.Model.from_config(model.get_config())
    cloned = tf.keras.models.clone_model(model)
    cloned.set_weights(model.get_weights())
    x = np.ones((1, 3), "float32")
    return {"again_names": [l.name for l in again.layers], "cloned": cloned(x), "orig": model(x),
            "model_name": again.name}


def program_layer_config_roundtrip(tf):
    layer = tf.keras.layers.Dense(5, activation="relu", use_bias=False, name="d5",
                                  kernel_initializer=tf.keras.initializers.Constant(0.5))
    cfg = layer.get_config()
    new = tf.keras.layers.Dense.from_config(cfg)
    y = new(tf.ones((1, 2)))
    return {"units": cfg["units"], "use_bias": cfg["use_bias"], "act": cfg["activation"], "y": y,
            "init": cfg["kernel_initializer"]["class_name"]}


def program_save_weights_load_weights(tf):
    def make():
        return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    a = set_weights(make())
    path = tmp_path("w.weights.h5")
    a.save_weights(path)
    b = make()
    b.load_weights(path)
    x = np.ones((1, 3), "float32")
    return {"a": a(x), "b": b(x)}


def program_masking_layer_mask(tf):
    raw = [[711, 632, 71], [73, 8, 3215, 55, 927], [83, 91, 1, 645, 1253, 927]]
    padded = tf.keras.utils.pad_sequences(raw, padding="post")
    emb = tf.keras.layers.Embedding(input_dim=5000, output_dim=4, mask_zero=True)
    mask = emb.compute_mask(padded)
    x = np.arange(3 * 4 * 2, dtype="float32").reshape(3, 4, 2)
    x[0, 2:] = 0.0
    masked = tf.keras.layers.Masking(mask_value=0.0)(x)
    return {"padded": padded, "pre": tf.keras.utils.pad_sequences(raw, maxlen=4), "mask": mask,
            "masking_mask": masked._keras_mask if hasattr(masked, "_keras_mask") else None}


def program_masked_lstm_ignores_padding(tf):
    inp = tf.keras.Input((None,), dtype="int32")
    x = tf.keras.layers.Embedding(10, 3, mask_zero=True)(inp)
    out = tf.keras.layers.LSTM(2)(x)
    model = set_weights(tf.keras.Model(inp, out))
    a = model(np.array([[1, 2, 3, 0, 0]], "int32"))
    b = model(np.array([[1, 2, 3]], "int32"))
    return {"a": a, "b": b}


def program_rnn_return_sequences_and_state(tf):
    x = np.sin(np.arange(2 * 5 * 3, dtype="float32") * 0.3).reshape(2, 5, 3)
    gru = tf.keras.layers.GRU(4, return_sequences=True, return_state=True)
    seq, state = gru(x)
    set_weights(gru)
    seq, state = gru(x)
    lstm = tf.keras.layers.LSTM(3, return_state=True)
    out, h, c = lstm(x)
    set_weights(lstm)
    out, h, c = lstm(x)
    return {"seq": seq, "state": state, "out": out, "h": h, "c": c}


def program_rnn_initial_state_and_bidirectional(tf):
    x = np.cos(np.arange(2 * 4 * 2, dtype="float32")).reshape(2, 4, 2)
    enc = tf.keras.layers.LSTM(3, return_state=True)
    _, h, c = enc(x)
    dec = tf.keras.layers.LSTM(3)
    dec(x, initial_state=[h, c])
    set_weights(enc)
    set_weights(dec, 0.2)
    _, h, c = enc(x)
    y = dec(x, initial_state=[h, c])
    bi = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2, return_sequences=True))
    bi(x)
    set_weights(bi)
    return {"y": y, "bi": bi(x), "bi_shape": tuple(bi(x).shape)}


def program_rnn_custom_cell(tf):
    class MinimalRNNCell(tf.keras.layers.Layer):
        def __init__(self, units, **kw):
            super().__init__(**kw)
            self.units = units
            self.state_size = units

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="identity",
                                                    name="recurrent_kernel")

        def call(self, inputs, states):
            prev = states[0]
            h = tf.matmul(inputs, self.kernel)
            out = h + tf.matmul(prev, self.recurrent_kernel) * 0.5
            return out, [out]
    layer = tf.keras.layers.RNN(MinimalRNNCell(2), return_sequences=True)
    x = np.ones((1, 3, 2), "float32")
    return {"out": layer(x)}


def program_rnn_stateful_reset(tf):
    layer = tf.keras.layers.SimpleRNN(2, stateful=True)
    x = np.ones((1, 2, 1), "float32")
    layer(x)
    set_weights(layer)
    layer.reset_states()
    a = layer(x)
    b = layer(x)
    layer.reset_states()
    c = layer(x)
    return {"a": a, "b": b, "c": c}


def program_transfer_freeze_base(tf):
    base = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                tf.keras.layers.BatchNormalization()])
    set_weights(base)
    base.trainable = False
    inp = tf.keras.Input((3,))
    x = base(inp, training=False)
    out = tf.keras.layers.Dense(1)(x)
    model = tf.keras.Model(inp, out)
    set_weights(model.layers[-1])
    before = [w.numpy() for w in base.weights]
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    xs, ys = data(8)
    model.fit(xs, ys, epochs=2, batch_size=4, shuffle=False, verbose=0)
    same = all(np.array_equal(a, w.numpy()) for a, w in zip(before, base.weights))
    return {"frozen_same": same, "n_trainable": len(model.trainable_weights),
            "n_nontrainable": len(model.non_trainable_weights), "head": model.layers[-1].kernel}


def program_transfer_unfreeze_fine_tune(tf):
    base = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                tf.keras.layers.Dense(2)])
    set_weights(base)
    model = tf.keras.Sequential([base, tf.keras.layers.Dense(1)])
    set_weights(model.layers[-1])
    base.trainable = False
    model.compile(tf.keras.optimizers.SGD(0.05), "mse")
    xs, ys = data(8)
    model.fit(xs, ys, epochs=1, batch_size=4, shuffle=False, verbose=0)
    k_frozen = base.layers[0].kernel.numpy().copy()
    base.trainable = True
    model.compile(tf.keras.optimizers.SGD(0.01), "mse")
    model.fit(xs, ys, epochs=1, batch_size=4, shuffle=False, verbose=0)
    return {"moved": not np.allclose(k_frozen, base.layers[0].kernel.numpy()),
            "n_tw": len(model.trainable_weights), "k": base.layers[0].kernel,
            "layer_trainable": [l.trainable for l in base.layers]}


def program_layer_trainable_flag_weights(tf):
    layer = tf.keras.layers.Dense(3)
    layer.build((None, 4))
    layer.trainable = False
    bn = tf.keras.layers.BatchNormalization()
    bn.build((None, 3))
    return {"w": len(layer.weights), "tw": len(layer.trainable_weights), "ntw": len(layer.non_trainable_weights),
            "bn_tw": len(bn.trainable_weights), "bn_ntw": len(bn.non_trainable_weights)}

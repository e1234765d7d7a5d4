"""Keras guides: subclassed layers and models with masks, training flags and configs, saved
and loaded as .keras files (registered classes with get_config/from_config)."""
import numpy as np

from _sweep import set_weights, tmp_path


def program_subclassed_model_save_keras_registered(tf):
    @tf.keras.utils.register_keras_serializable(package="sweep_sub")
    class TwoLayer(tf.keras.Model):
        def __init__(self, hidden=3, **kw):
            super().__init__(**kw)
            self.hidden = hidden
            self.a = tf.keras.layers.Dense(hidden, activation="relu")
            self.b = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.b(self.a(x))

        def get_config(self):
            return {**super().get_config(), "hidden": self.hidden}
    m = TwoLayer(4)
    x = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    m(x)
    set_weights(m)
    path = tmp_path("sub.keras")
    m.save(path)
    loaded = tf.keras.models.load_model(path)
    return {"out": loaded(x), "orig": m(x), "hidden": loaded.hidden, "cls": type(loaded).__name__}


def program_layer_with_mask_support(tf):
    class MaskedMean(tf.keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.supports_masking = True

        def call(self, inputs, mask=None):
            if mask is None:
                return tf.reduce_mean(inputs, axis=1)
            m = tf.cast(mask, inputs.dtype)[:, :, None]
            return tf.reduce_sum(inputs * m, axis=1) / tf.reduce_sum(m, axis=1)

        def compute_mask(self, inputs, mask=None):
            return None
    inp = tf.keras.Input((None,), dtype="int32")
    emb = tf.keras.layers.Embedding(5, 2, mask_zero=True,
                                    embeddings_initializer=tf.keras.initializers.Constant(1.0))(inp)
    out = MaskedMean()(emb)
    model = tf.keras.Model(inp, out)
    model.layers[1].embeddings.assign(np.arange(10, dtype="float32").reshape(5, 2))
    return {"out": model(np.array([[1, 2, 0, 0], [3, 0, 0, 0]], "int32"))}


def program_custom_layer_training_flag_dropout(tf):
    class NoisyIdentity(tf.keras.layers.Layer):
        def call(self, x, training=None):
            if training:
                return x + 100.0
            return x
    inp = tf.keras.Input((2,))
    model = tf.keras.Model(inp, NoisyIdentity()(inp))
    x = np.ones((1, 2), "float32")
    model.compile("sgd", "mse")
    return {"call": model(x), "train": model(x, training=True), "predict": model.predict(x, verbose=0),
            "eval": model.evaluate(x, x, verbose=0)}


def program_layer_from_config_nested(tf):
    class Block(tf.keras.layers.Layer):
        def __init__(self, units=2, act="relu", **kw):
            super().__init__(**kw)
            self.units, self.act = units, act
            self.inner = tf.keras.layers.Dense(units, activation=act)

        def call(self, x):
            return self.inner(x)

        def get_config(self):
            return {**super().get_config(), "units": self.units, "act": self.act}
    b = Block(3, "tanh", name="blk")
    cfg = b.get_config()
    c = Block.from_config(cfg)
    return {"cfg_units": cfg["units"], "cfg_act": cfg["act"], "name": c.name, "trainable": cfg["trainable"],
            "keys": sorted(cfg)}


def program_model_subclass_summary_params_and_weights(tf):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__(name="net")
            self.conv = tf.keras.layers.Conv1D(2, 3)
            self.pool = tf.keras.layers.GlobalMaxPooling1D()
            self.out = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.out(self.pool(self.conv(x)))
    n = Net()
    x = np.sin(np.arange(2 * 6 * 2, dtype="float32")).reshape(2, 6, 2)
    n(x)
    set_weights(n)
    return {"out": n(x), "params": n.count_params(), "paths": [w.path for w in n.weights],
            "layers": [l.name for l in n.layers]}


def program_load_model_compile_false_and_recompile(tf):
    inp = tf.keras.Input((2,))
    m = tf.keras.Model(inp, tf.keras.layers.Dense(1)(inp))
    set_weights(m)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    path = tmp_path("m.keras")
    m.save(path)
    plain = tf.keras.models.load_model(path, compile=False)
    out = {"compiled": getattr(plain, "compiled", None)}
    plain.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = np.ones((2, 2), "float32")
    out["loss"] = plain.train_on_batch(x, np.zeros((2, 1), "float32"))
    return out

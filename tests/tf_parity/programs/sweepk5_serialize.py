"""Customizing Keras 3 saving and serialization: build configs, compile configs, own
variables, registered serializable packages, loss and schedule configs."""
import os

import numpy as np

from _sweep import data, set_weights, tmp


def program_get_build_config_dense(tf):
    d = tf.keras.layers.Dense(2)
    before = d.get_build_config()
    d.build((None, 3))
    return {"before": before, "after": d.get_build_config()}


def program_build_from_config_builds(tf):
    d = tf.keras.layers.Dense(2)
    d.build_from_config({"input_shape": [None, 5]})
    return {"built": d.built, "k": tuple(d.kernel.shape)}


def program_custom_build_config_roundtrip(tf):
    @tf.keras.utils.register_keras_serializable(package="sk5a")
    class Lin(tf.keras.layers.Layer):
        def __init__(self, units=2, **kw):
            super().__init__(**kw)
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", name="w")

        def call(self, x):
            return tf.matmul(x, self.w)

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    m = tf.keras.Sequential([tf.keras.Input((3,)), Lin(3, name="lin")])
    set_weights(m)
    path = os.path.join(tmp(), "m.keras")
    m.save(path)
    back = tf.keras.models.load_model(path)
    x, _ = data(2)
    return {"pred": back(x), "cls": type(back.layers[0]).__name__,
            "name": tf.keras.utils.get_registered_name(Lin)}


def program_get_compile_config(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    m.compile(optimizer="adam", loss="mse", metrics=["mae"])
    cc = m.get_compile_config()
    return {"keys": sorted(cc), "loss": cc["loss"], "metrics": cc["metrics"], "opt": cc["optimizer"]["class_name"],
            "rest": [cc[k] for k in ("loss_weights", "weighted_metrics", "run_eagerly", "steps_per_execution")]}


def program_compile_config_restored_on_load(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    set_weights(m)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.25), loss="mae", metrics=["mse"])
    path = os.path.join(tmp(), "c.keras")
    m.save(path)
    back = tf.keras.models.load_model(path)
    x, y = data(4)
    return {"opt": type(back.optimizer).__name__, "lr": float(np.asarray(back.optimizer.learning_rate)),
            "eval": back.evaluate(x, y, verbose=0)}


def program_weights_h5_store_keys(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="dd")])
    set_weights(m)
    store = {}
    m.layers[0].save_own_variables(store)
    d2 = tf.keras.layers.Dense(2)
    d2.build((None, 3))
    d2.load_own_variables(store)
    return {"keys": sorted(store), "k": d2.kernel}


def program_register_serializable_names(tf):
    @tf.keras.utils.register_keras_serializable(package="pk", name="fancy")
    def fancy(x):
        return x * 2

    @tf.keras.utils.register_keras_serializable()
    class L(tf.keras.layers.Layer):
        pass
    return {"f": tf.keras.utils.get_registered_name(fancy), "l": tf.keras.utils.get_registered_name(L),
            "obj": tf.keras.utils.get_registered_object("pk>fancy") is fancy}


def program_serialize_custom_object_dict(tf):
    @tf.keras.utils.register_keras_serializable(package="sk5c")
    class Scale(tf.keras.layers.Layer):
        def __init__(self, k=1.0, **kw):
            super().__init__(**kw)
            self.k = k

        def get_config(self):
            return {**super().get_config(), "k": self.k}
    s = tf.keras.utils.serialize_keras_object(Scale(3.0, name="s"))
    back = tf.keras.utils.deserialize_keras_object(s)
    return {"cls": s["class_name"], "registered": s.get("registered_name"),
            "k": back.k, "name": back.name}


def program_bce_axis_and_config(tf):
    l = tf.keras.losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1, axis=0)
    y = np.array([[0., 1.], [1., 1.], [0., 0.]], "float32")
    p = np.array([[0.5, -1.], [2., 0.3], [-0.4, 0.8]], "float32")
    c = l.get_config()
    return {"v": l(y, p), "cfg": {k: c[k] for k in ("name", "from_logits", "label_smoothing", "axis", "reduction")}}


def program_huber_delta_config(tf):
    l = tf.keras.losses.Huber(delta=0.5)
    y = np.array([[0., 1.], [1., 3.]], "float32")
    p = np.array([[0.2, -1.], [2., 3.3]], "float32")
    c = l.get_config()
    return {"v": l(y, p), "cfg": {k: c[k] for k in ("name", "reduction")}}


def program_loss_serialize_roundtrip(tf):
    l = tf.keras.losses.CategoricalCrossentropy(label_smoothing=0.2)
    s = tf.keras.losses.serialize(l)
    back = tf.keras.losses.deserialize(s)
    return {"cls": s["class_name"], "ls": back.get_config()["label_smoothing"],
            "get": type(tf.keras.losses.get("huber")).__name__ if not callable(tf.keras.losses.get("huber"))
            or isinstance(tf.keras.losses.get("huber"), type) else tf.keras.losses.get("huber").__name__}


def program_schedule_configs(tf):
    s = tf.keras.optimizers.schedules
    out = {}
    for sch in [s.ExponentialDecay(0.1, 10, 0.5, staircase=True), s.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1]),
                s.PolynomialDecay(0.1, 20, 0.01, power=2.0), s.CosineDecay(0.1, 30, alpha=0.1),
                s.InverseTimeDecay(0.1, 5, 0.5), s.CosineDecayRestarts(0.1, 10)]:
        c = sch.get_config()
        back = type(sch).from_config(c)
        out[type(sch).__name__] = {"cfg": c, "v": [float(back(i)) for i in (0, 7, 15)]}
    return out


def program_schedule_serialize(tf):
    sch = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    ser = tf.keras.optimizers.schedules.serialize(sch)
    back = tf.keras.optimizers.schedules.deserialize(ser)
    return {"cls": ser["class_name"], "v": float(back(5))}


def program_optimizer_with_schedule_config(tf):
    sch = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    opt = tf.keras.optimizers.SGD(sch)
    c = opt.get_config()
    lr = c["learning_rate"]
    return {"lr_cls": lr["class_name"], "lr_cfg": lr["config"]}


def program_save_own_variables_custom(tf):
    @tf.keras.utils.register_keras_serializable(package="sk5b")
    class Counter(tf.keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.total = 0.0

        def call(self, x):
            return x + self.total

        def save_own_variables(self, store):
            store["total"] = np.array(self.total)

        def load_own_variables(self, store):
            self.total = float(store["total"][()])

    m = tf.keras.Sequential([tf.keras.Input((2,)), Counter(name="c"), tf.keras.layers.Dense(1, name="d")])
    set_weights(m)
    m.layers[0].total = 4.5
    path = os.path.join(tmp(), "own.keras")
    m.save(path)
    back = tf.keras.models.load_model(path)
    return {"total": back.layers[0].total, "out": back(np.ones((1, 2), "float32"))}


def program_load_own_variables_count_mismatch(tf):
    d = tf.keras.layers.Dense(2)
    d.build((None, 3))
    try:
        d.load_own_variables({"0": np.zeros((3, 2), "float32")})
    except Exception as e:
        return {"err": type(e).__name__}
    return {"err": None}

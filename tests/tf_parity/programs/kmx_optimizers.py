"""Keras 3's Lamb and Adafactor (update formulas on matrices and vectors, configs, in a
compiled fit), LossScaleOptimizer by name, and keras.optimizers.serialize / deserialize."""
import numpy as np
from parity import tolerance


def _run(tf, opt, steps=4, make=None):
    make = make or tf.Variable
    w = make(np.linspace(-1, 1, 6).reshape(2, 3).astype("float32"))
    b = make(np.array([0.5, -0.25, 0.0], "float32"))
    out = []
    for i in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((w * (i + 1.0) - 0.3) ** 2) + tf.reduce_sum(b ** 2 * w[0])
        opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
        out.append([w.numpy(), b.numpy()])
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_lamb_steps(tf):
    o = tf.keras.optimizers.Lamb(learning_rate=0.05)
    return {"steps": _run(tf, o), "cfg": o.get_config(), "it": o.iterations,
            "wd": _run(tf, tf.keras.optimizers.Lamb(0.01, beta_1=0.8, weight_decay=0.1), 2)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_adafactor_steps(tf):
    o = tf.keras.optimizers.Adafactor(learning_rate=0.1)
    return {"steps": _run(tf, o), "cfg": o.get_config(),
            "absolute": _run(tf, tf.keras.optimizers.Adafactor(0.01, relative_step=False, clip_threshold=0.5), 3),
            "tf_optimizers": tf.optimizers.Adafactor is tf.keras.optimizers.Adafactor}


@tolerance(rtol=1e-4, atol=1e-5)
def program_fit_with_lamb_and_adafactor(tf):
    out = {}
    for name in ("Lamb", "Adafactor"):
        tf.keras.utils.set_random_seed(5)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer=getattr(tf.keras.optimizers, name)(), loss="mse")
        x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
        h = model.fit(x, x[:, :1] - x[:, 2:], batch_size=4, epochs=3, verbose=0, shuffle=False)
        out[name] = [type(model.optimizer).__name__, h.history["loss"]]
    return out


def program_optimizer_serialize_deserialize(tf):
    k = tf.keras.optimizers
    o = k.SGD(0.1, momentum=0.9)
    s = k.serialize(o)
    back = k.deserialize(s)
    lso = tf.keras.mixed_precision.LossScaleOptimizer(k.Adam(0.01), initial_scale=16.0)
    lso_back = k.deserialize(k.serialize(lso))
    # s["class_name"] is "SGD" alone but "sgd" after other programs under Keras 3 (its registry):
    # only the config is compared; Keras 3 deserializes a Lamb config to a str (not compared)
    return {"s": [s["module"], s["config"]], "back": [type(back).__name__, back.get_config()["momentum"]],
            "by_name": type(k.deserialize({"class_name": "adam", "config": {"learning_rate": 0.5}})).__name__,
            "lso": [k.serialize(lso)["class_name"], type(lso_back).__name__, type(lso_back.inner_optimizer).__name__,
                    lso_back.initial_scale],
            "get": [_get_name(k, n) for n in ("lamb", "adafactor", "Lamb", "lion", "sgd")]}


def _get_name(k, name):
    try:
        return type(k.get(name)).__name__
    except Exception as e:
        return type(e).__name__


@tolerance(rtol=1e-5, atol=1e-5)  # y = (1 - b1) z + b1 x cancels: float32 rounding of terms ~1
def program_schedule_free_adamw_steps(tf):
    o = tf.keras.optimizers.ScheduleFreeAdamW(learning_rate=0.05)
    return {"steps": _run(tf, o), "cfg": o.get_config(),
            "warmup": _run(tf, tf.keras.optimizers.ScheduleFreeAdamW(0.1, warmup_steps=3, beta_1=0.8), 4)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_muon_steps(tf):
    o = tf.keras.optimizers.Muon(learning_rate=0.05)
    cfg = o.get_config()
    # Muon reads each variable's .path: keras.Variables (a tf.Variable is an AttributeError in Keras 3)
    return {"steps": _run(tf, o, make=tf.keras.Variable),
            "cfg": [cfg["weight_decay"], cfg["adam_weight_decay"], cfg["ns_steps"], cfg["name"]],
            "plain": _run(tf, tf.keras.optimizers.Muon(0.02, nesterov=False, weight_decay=None, rms_rate=None,
                                                       adam_lr_ratio=0.5), 3, make=tf.keras.Variable)}

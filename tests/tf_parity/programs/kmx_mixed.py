"""keras.mixed_precision as Keras 3: policies (names, dtypes, errors, the global one and its
reset), layers computing in float16/bfloat16 over float32 variables (inputs and variables
autocast inside call, float32 gradients), the final float32 Activation of the mixed precision
guide, LossScaleOptimizer's dynamic scale, and model.fit under mixed_float16 (compile wraps the
optimizer).  Every program restores the float32 policy."""
import numpy as np
from parity import tolerance


def _errors(fn, *args):
    try:
        fn(*args)
        return None
    except Exception as e:
        return type(e).__name__


def program_policy_facts(tf):
    mp = tf.keras.mixed_precision
    out = {}
    for name in ("mixed_float16", "mixed_bfloat16", "float16", "float64", "bfloat16", "float32"):
        p = mp.Policy(name)
        out[name] = [p.name, p.compute_dtype, p.variable_dtype, repr(p), p.get_config()]
    out["errors"] = [_errors(mp.Policy, "float31"), _errors(mp.Policy, 3), _errors(mp.Policy, "int8"), mp.Policy("int8").compute_dtype,
                     _errors(mp.set_global_policy, None)]
    out["eq"] = [mp.Policy("mixed_float16") == mp.Policy("mixed_float16"), mp.Policy("float16") == "float16"]
    out["default"] = mp.global_policy().name
    try:
        mp.set_global_policy("mixed_float16")
        out["set"] = [mp.global_policy().name, tf.keras.config.dtype_policy().name, tf.keras.backend.floatx()]
        tf.keras.backend.clear_session()
        out["after_clear_session"] = mp.global_policy().name
        mp.set_global_policy(mp.Policy("float64"))
        out["float64"] = [mp.global_policy().name, tf.keras.backend.floatx(),
                          tf.keras.layers.Dense(1)(np.ones((1, 2), "float32")).dtype]
    finally:
        mp.set_global_policy("float32")
    return out


def program_dense_mixed_float16(tf):
    mp = tf.keras.mixed_precision
    try:
        mp.set_global_policy("mixed_float16")
        d = tf.keras.layers.Dense(3, kernel_initializer=tf.keras.initializers.Constant(0.3),
                                  bias_initializer="ones", activation="relu")
        x = tf.constant([[1.0, 2.0], [-0.5, 0.25]])
        with tf.GradientTape() as tape:
            y = d(x)
            loss = tf.reduce_sum(tf.cast(y, tf.float32) ** 2)
        g = tape.gradient(loss, d.trainable_variables)
        a = tf.keras.layers.Activation("softmax", dtype="float32")
        return {"y": y, "kernel": d.kernel, "layer": [d.dtype, d.compute_dtype, d.variable_dtype, d.dtype_policy.name],
                "cfg": d.get_config()["dtype"], "grads": g, "softmax": a(y),
                "act": [a.dtype_policy.name, a.compute_dtype], "outside_call": tf.convert_to_tensor(d.kernel).dtype}
    finally:
        mp.set_global_policy("float32")


def program_layer_dtype_argument(tf):
    d = tf.keras.layers.Dense(2, dtype="mixed_bfloat16", kernel_initializer="ones")
    p = tf.keras.layers.Dense(2, dtype=tf.keras.mixed_precision.Policy("mixed_float16"), kernel_initializer="ones")
    x = tf.constant([[1.5, 2.25, 3.3]])
    return {"bf16": d(x), "f16": p(x), "dtypes": [d.dtype, d.compute_dtype, p.dtype, p.compute_dtype],
            "global": tf.keras.mixed_precision.global_policy().name}


def program_functional_guide_pattern(tf):
    mp = tf.keras.mixed_precision
    try:
        mp.set_global_policy("mixed_float16")
        tf.keras.utils.set_random_seed(1)
        inputs = tf.keras.Input(shape=(4,))
        h = tf.keras.layers.Dense(8, activation="relu")(inputs)
        logits = tf.keras.layers.Dense(3)(h)
        outputs = tf.keras.layers.Activation("softmax", dtype="float32")(logits)
        model = tf.keras.Model(inputs, outputs)
        x = np.linspace(-1, 1, 8).reshape(2, 4).astype("float32")
        # Keras 3 spells KerasTensor and variable dtypes as strings, tapeflow as DTypes (equal to them)
        return {"symbolic": [tf.as_dtype(t.dtype).name for t in (h, logits, outputs)], "eager": model(x),
                "predict": model.predict(x, verbose=0), "weights": [tf.as_dtype(w.dtype).name for w in model.weights],
                "equal_str": [h.dtype == "float16", model.weights[0].dtype == "float32"],
                "policy": model.dtype_policy.name}
    finally:
        mp.set_global_policy("float32")


def program_loss_scale_optimizer_dynamics(tf):
    mp = tf.keras.mixed_precision
    o = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1), initial_scale=8.0, dynamic_growth_steps=2)
    v = tf.Variable([1.0, 2.0])
    out = {"name": o.name, "scaled": o.scale_loss(tf.constant(2.0)), "same": tf.keras.optimizers.LossScaleOptimizer
           is mp.LossScaleOptimizer, "steps": []}
    for g in ([8.0, 16.0], [8.0, 8.0], [np.inf, 1.0], [4.0, np.nan], [4.0, 4.0]):
        o.apply([tf.constant(g)], [v])
        out["steps"].append([v.numpy(), float(o.dynamic_scale), int(o.step_counter), int(o.iterations)])
    out["paths"] = [x.path for x in o.variables]
    out["config"] = o.get_config()
    out["lr"] = float(o.learning_rate)
    out["errors"] = [_errors(mp.LossScaleOptimizer, tf.keras.optimizers.SGD(), clipnorm=1.0) if False else
                     _errors(lambda: mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), clipnorm=1.0)),
                     _errors(lambda: mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), dynamic=False)),
                     _errors(lambda: mp.LossScaleOptimizer(tf.keras.optimizers.SGD(), foo=1))]
    again = mp.LossScaleOptimizer.from_config(o.get_config())
    out["round_trip"] = [type(again.inner_optimizer).__name__, again.initial_scale, again.dynamic_growth_steps]
    return out


def program_loss_scale_optimizer_in_function(tf):
    o = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.Adam(0.01), initial_scale=4.0,
                                                    dynamic_growth_steps=3)
    v = tf.Variable([0.5, -1.0, 2.0])
    o.build([v])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = o.scale_loss(tf.reduce_sum(v * v * x))
        o.apply_gradients(zip(tape.gradient(loss, [v]), [v]))
        return loss

    losses = [step(tf.constant(c)) for c in (1.0, 2.0, np.inf, 1.0, 1.0, 1.0)]
    return {"losses": losses, "v": v, "scale": o.dynamic_scale, "counter": o.step_counter, "it": o.iterations}


@tolerance(rtol=2e-3, atol=1e-4)
def program_fit_mixed_float16(tf):
    mp = tf.keras.mixed_precision
    try:
        mp.set_global_policy("mixed_float16")
        tf.keras.utils.set_random_seed(3)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(6, activation="tanh"),
                                     tf.keras.layers.Dense(1), tf.keras.layers.Activation("linear", dtype="float32")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
        x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
        y = (x.sum(axis=1, keepdims=True) * 0.5).astype("float32")
        h = model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
        opt = model.optimizer
        return {"loss": h.history["loss"], "optimizer": [type(opt).__name__, opt.name,
                                                          type(opt.inner_optimizer).__name__],
                "scale": float(opt.dynamic_scale), "counter": int(opt.step_counter), "it": int(opt.iterations),
                "kernel": model.layers[0].kernel, "pred": model.predict(x[:2], verbose=0),
                "eval": model.evaluate(x, y, verbose=0)}
    finally:
        mp.set_global_policy("float32")


@tolerance(rtol=2e-2, atol=1e-2)
def program_fit_mixed_bfloat16(tf):
    mp = tf.keras.mixed_precision
    try:
        mp.set_global_policy("mixed_bfloat16")
        tf.keras.utils.set_random_seed(4)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                     tf.keras.layers.Dense(1, dtype="float32")])
        model.compile(optimizer="adam", loss="mse")
        x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
        y = x[:, :1] * 2.0
        h = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        return {"loss": h.history["loss"], "optimizer": type(model.optimizer).__name__,
                "out": model(x[:2]).dtype, "hidden": model.layers[0](x[:2]).dtype,
                "kernel_dtype": tf.as_dtype(model.layers[0].kernel.dtype).name}
    finally:
        mp.set_global_policy("float32")


@tolerance(rtol=1e-3, atol=1e-3)
def program_layers_under_mixed_float16(tf):
    keras = tf.keras
    mp = keras.mixed_precision
    try:
        mp.set_global_policy("mixed_float16")
        keras.utils.set_random_seed(2)
        x = np.linspace(-1, 1, 2 * 6 * 6 * 2).reshape(2, 6, 6, 2).astype("float32")
        out = {}
        # values compared where tapeflow sums as TF does; dtypes only for the layers whose
        # float16 reductions differ (the global pooling mean)
        for key, layer, values in (
                ("conv", keras.layers.Conv2D(3, 3), True), ("bn", keras.layers.BatchNormalization(), True),
                ("ln", keras.layers.LayerNormalization(), True), ("pool", keras.layers.MaxPooling2D(), True),
                ("softmax", keras.layers.Softmax(), True), ("gn", keras.layers.GroupNormalization(2), True),
                ("dropout", keras.layers.Dropout(0.5), True), ("gap", keras.layers.GlobalAveragePooling2D(), False),
                ("depthwise", keras.layers.DepthwiseConv2D(3), True),
                ("transpose", keras.layers.Conv2DTranspose(2, 3), True)):
            y = layer(x, training=True)
            out[key] = [y.dtype, [tf.as_dtype(w.dtype).name for w in layer.weights]] + ([y] if values else [])
            if key == "bn":
                out["bn_moving"] = [layer.moving_mean, layer.moving_variance]
        seq = np.arange(12).reshape(2, 6) % 5
        out["embedding"] = keras.layers.Embedding(5, 3)(seq)
        xs = x.reshape(2, 6, 12)
        out["gru"] = keras.layers.GRU(3)(xs)
        out["rnn"] = keras.layers.SimpleRNN(3)(xs)
        out["lstm_dtype"] = keras.layers.LSTM(3)(xs).dtype
        mha = keras.layers.MultiHeadAttention(2, 4)
        out["mha"] = [mha(xs, xs), mha.dtype_policy.name]
        return out
    finally:
        mp.set_global_policy("float32")


@tolerance(rtol=2e-3, atol=1e-4)
def program_fit_mixed_float16_overflow_skips_steps(tf):
    # BatchNormalization makes the first scaled float16 gradients overflow: Keras skips those
    # steps and halves the scale until they are finite
    keras = tf.keras
    mp = keras.mixed_precision
    try:
        mp.set_global_policy("mixed_float16")
        keras.utils.set_random_seed(3)
        m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(6, activation="tanh"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1),
                              keras.layers.Activation("linear", dtype="float32")])
        m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
        x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
        h = m.fit(x, x.sum(1, keepdims=True), batch_size=4, epochs=3, verbose=0, shuffle=False)
        return {"loss": h.history["loss"], "scale": float(m.optimizer.dynamic_scale),
                "it": int(m.optimizer.iterations), "counter": int(m.optimizer.step_counter),
                "moving_mean": m.layers[1].moving_mean}
    finally:
        mp.set_global_policy("float32")


def program_dtype_policies_module(tf):
    k = tf.keras
    p = k.DTypePolicy("mixed_bfloat16")
    s = k.dtype_policies.serialize(p)
    back = k.dtype_policies.deserialize(s)
    return {"types": [type(p).__name__, type(k.layers.Dense(1, dtype="mixed_float16").dtype_policy).__name__,
                      k.FloatDTypePolicy("float16").compute_dtype, k.mixed_precision.Policy is k.DTypePolicy],
            "serialized": s, "back": [type(back).__name__, back.name],
            "get": [k.dtype_policies.get("mixed_float16").compute_dtype, k.dtype_policies.get(p) is p]}

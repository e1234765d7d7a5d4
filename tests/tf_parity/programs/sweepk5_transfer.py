"""Keras 3 transfer learning and fine-tuning: trainable flags, frozen BatchNormalization,
weights lists, get_layer and new models over a base model's graph."""
import numpy as np

from _sweep import data, set_weights


def _base(tf):
    inp = tf.keras.Input((3,), name="x")
    h = tf.keras.layers.Dense(4, name="d1")(inp)
    h = tf.keras.layers.BatchNormalization(name="bn")(h)
    h = tf.keras.layers.Dense(2, name="d2")(h)
    return set_weights(tf.keras.Model(inp, h, name="base"))


def _names(ws):
    return [w.name for w in ws]


def program_freeze_whole_model_weight_lists(tf):
    m = _base(tf)
    m.trainable = False
    return {"t": _names(m.trainable_weights), "nt": _names(m.non_trainable_weights),
            "layers": [l.trainable for l in m.layers], "n": len(m.weights)}


def program_bn_weight_split(tf):
    m = _base(tf)
    bn = m.get_layer("bn")
    return {"t": _names(bn.trainable_weights), "nt": _names(bn.non_trainable_weights),
            "mt": len(m.trainable_weights), "mnt": len(m.non_trainable_weights)}


def program_frozen_bn_runs_in_inference_mode(tf):
    m = _base(tf)
    bn = m.get_layer("bn")
    bn.trainable = False
    x, _ = data(8)
    before = [np.array(w) for w in bn.weights]
    out = m(x, training=True)
    after = [np.array(w) for w in bn.weights]
    ref = m(x, training=False)
    return {"same_stats": all(np.allclose(a, b) for a, b in zip(before, after)),
            "out": out, "eq": np.allclose(np.array(out), np.array(ref))}


def program_unfrozen_bn_updates_stats_in_training(tf):
    m = _base(tf)
    x, _ = data(8)
    m(x, training=True)
    bn = m.get_layer("bn")
    return {"mean": bn.moving_mean, "var": bn.moving_variance}


def program_fine_tune_frozen_base_fit(tf):
    base = _base(tf)
    base.trainable = False
    inp = tf.keras.Input((3,))
    h = base(inp, training=False)
    out = tf.keras.layers.Dense(1, name="head")(h)
    m = tf.keras.Model(inp, out)
    set_weights(m.get_layer("head"))
    x, y = data(12)
    w0 = [np.array(w) for w in base.weights]
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"loss": h.history["loss"], "base_same": all(np.allclose(a, np.array(b)) for a, b in zip(w0, base.weights)),
            "t": _names(m.trainable_weights), "nt": len(m.non_trainable_weights)}


def program_unfreeze_and_recompile(tf):
    base = _base(tf)
    base.trainable = False
    inp = tf.keras.Input((3,))
    m = tf.keras.Model(inp, tf.keras.layers.Dense(1, name="head")(base(inp, training=False)))
    set_weights(m)
    x, y = data(12)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    m.fit(x, y, epochs=1, batch_size=4, shuffle=False, verbose=0)
    base.trainable = True
    m.compile(tf.keras.optimizers.SGD(0.01), "mse")
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"loss": h.history["loss"], "t": len(m.trainable_weights), "w": base.get_layer("d1").kernel}


def program_model_from_base_input_intermediate_output(tf):
    base = _base(tf)
    feat = tf.keras.Model(inputs=base.input, outputs=base.get_layer("bn").output)
    x, _ = data(4)
    return {"out": feat(x), "layers": [l.name for l in feat.layers], "shape": tuple(feat.output.shape)}


def program_model_from_base_outputs_list(tf):
    base = _base(tf)
    feat = tf.keras.Model(inputs=base.inputs, outputs=[l.output for l in base.layers[1:]])
    x, _ = data(2)
    outs = feat(x)
    return {"n": len(outs), "shapes": [tuple(o.shape) for o in outs], "last": outs[-1]}


def program_get_layer_by_index_and_missing(tf):
    base = _base(tf)
    r = {"idx": base.get_layer(index=1).name}
    try:
        base.get_layer("nope")
    except Exception as e:
        r["err"] = type(e).__name__
    return r


def program_sequential_pop_and_add_head(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="a"),
                             tf.keras.layers.Dense(2, name="b")])
    m.pop()
    m.add(tf.keras.layers.Dense(5, name="c"))
    set_weights(m)
    x, _ = data(2)
    return {"names": [l.name for l in m.layers], "out": m(x)}


def program_layer_trainable_false_then_weights_assign(tf):
    d = tf.keras.layers.Dense(2)
    d.build((None, 3))
    d.trainable = False
    return {"t": len(d.trainable_weights), "nt": len(d.non_trainable_weights),
            "tv": len(d.trainable_variables), "k_trainable": d.kernel.trainable}


def program_frozen_kernel_still_gets_tape_gradient(tf):
    d = tf.keras.layers.Dense(2, kernel_initializer="ones")
    d.build((None, 3))
    d.trainable = False
    with tf.GradientTape() as t:
        y = tf.reduce_sum(d(tf.ones((1, 3))) ** 2)
    g = t.gradient(y, d.kernel)
    d.trainable = True
    return {"g": g, "back": d.kernel.trainable, "names": [w.name for w in d.weights],
            }


def program_bn_moving_stats_stay_non_trainable_after_unfreeze(tf):
    bn = tf.keras.layers.BatchNormalization()
    bn.build((None, 2))
    bn.trainable = False
    bn.trainable = True
    return {"t": [w.name for w in bn.trainable_weights], "nt": [w.name for w in bn.non_trainable_weights],
            "flags": [w.trainable for w in bn.weights]}


def program_nested_trainable_inner_layer(tf):
    base = _base(tf)
    base.get_layer("d1").trainable = False
    return {"t": _names(base.trainable_weights), "nt": _names(base.non_trainable_weights)}

"""Keras functional API and Sequential, as the Keras 3 guides use them: multi-input/multi-output
models, shared layers, nested models, introspection of layers, inputs, outputs and weights."""
import numpy as np

from _sweep import set_weights


def _names(ws):
    return [w.path if hasattr(w, "path") else w.name for w in ws]


def program_multi_io_introspection(tf):
    a = tf.keras.Input((4,), name="a")
    b = tf.keras.Input((2,), name="b")
    h = tf.keras.layers.Concatenate(name="cat")([a, b])
    h = tf.keras.layers.Dense(3, name="hid")(h)
    o1 = tf.keras.layers.Dense(1, name="score")(h)
    o2 = tf.keras.layers.Dense(2, activation="softmax", name="cls")(h)
    m = tf.keras.Model(inputs=[a, b], outputs=[o1, o2], name="two_heads")
    return {"layers": [l.name for l in m.layers], "has_inputs": hasattr(m, "inputs"),
            "inputs": [tuple(t.shape) for t in m.inputs], "outputs": [tuple(t.shape) for t in m.outputs],
            "out_names": m.output_names, "weights": _names(m.weights), "n": m.count_params(),
            "name": m.name}


def program_dict_inputs_and_outputs(tf):
    a = tf.keras.Input((3,), name="x1")
    b = tf.keras.Input((3,), name="x2")
    s = tf.keras.layers.Add()([a, b])
    m = set_weights(tf.keras.Model({"x1": a, "x2": b}, {"sum": s, "proj": tf.keras.layers.Dense(2)(s)}))
    out = m({"x1": tf.ones((2, 3)), "x2": tf.fill((2, 3), 2.0)})
    return {"keys": sorted(out), "sum": out["sum"], "proj": out["proj"]}


def program_shared_layer_siamese(tf):
    shared = tf.keras.layers.Dense(2, name="shared")
    a = tf.keras.Input((3,))
    b = tf.keras.Input((3,))
    d = tf.keras.layers.Subtract()([shared(a), shared(b)])
    m = set_weights(tf.keras.Model([a, b], d))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    return {"n_weights": len(m.weights), "out": m([x, x[::-1]]), "n_layers": len(m.layers),
            "inbound": len(shared._inbound_nodes)}


def program_nested_model_get_layer(tf):
    inner_in = tf.keras.Input((4,))
    inner = tf.keras.Model(inner_in, tf.keras.layers.Dense(3, name="inner_dense")(inner_in), name="encoder")
    x = tf.keras.Input((4,))
    y = tf.keras.layers.Dense(1, name="head")(inner(x))
    m = set_weights(tf.keras.Model(x, y))
    enc = m.get_layer("encoder")
    return {"layers": [l.name for l in m.layers], "enc_type": type(enc).__name__,
            "inner": enc.get_layer("inner_dense").units, "by_index": m.get_layer(index=1).name,
            "out": m(tf.ones((1, 4))), "weights": _names(m.weights)}


def program_get_layer_missing(tf):
    x = tf.keras.Input((2,))
    m = tf.keras.Model(x, tf.keras.layers.Dense(1)(x))
    m.get_layer("nope")


def program_intermediate_feature_extractor(tf):
    x = tf.keras.Input((5,))
    h1 = tf.keras.layers.Dense(4, activation="relu", name="h1")(x)
    h2 = tf.keras.layers.Dense(3, activation="tanh", name="h2")(h1)
    out = tf.keras.layers.Dense(1, name="out")(h2)
    m = set_weights(tf.keras.Model(x, out))
    feat = tf.keras.Model(m.inputs, [m.get_layer("h1").output, m.get_layer("h2").output])
    r = feat(np.linspace(-1, 1, 10, dtype="float32").reshape(2, 5))
    return {"h1": r[0], "h2": r[1], "n": len(feat.layers)}


def program_summary_functional_text(tf):
    a = tf.keras.Input((8,), name="feat")
    h = tf.keras.layers.Dense(4, name="d1")(a)
    h = tf.keras.layers.Dropout(0.5, name="drop")(h)
    m = tf.keras.Model(a, tf.keras.layers.Dense(2, name="d2")(h), name="mini")
    lines = []
    m.summary(print_fn=lambda s, **kw: lines.append(s))
    text = "\n".join(lines)
    return {"has_name": "mini" in text, "has_params": "Total params: 46" in text,
            "trainable": "Trainable params: 46" in text, "d1": "d1 (Dense)" in text,
            "shape": "(None, 4)" in text}


def program_sequential_add_pop_build(tf):
    m = tf.keras.Sequential(name="seq")
    m.add(tf.keras.layers.Dense(4, input_shape=(3,)) if False else tf.keras.Input((3,)))
    m.add(tf.keras.layers.Dense(4, name="a"))
    m.add(tf.keras.layers.Dense(2, name="b"))
    before = [l.name for l in m.layers]
    m.pop()
    m.add(tf.keras.layers.Dense(5, name="c"))
    set_weights(m)
    return {"before": before, "after": [l.name for l in m.layers], "out": m(tf.ones((1, 3))),
            "shape": tuple(m.output_shape), "built": m.built}


def program_sequential_deferred_build(tf):
    m = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    built0 = m.built
    m.build((None, 4))
    return {"built0": built0, "built": m.built, "n": len(m.weights),
            "shapes": [tuple(w.shape) for w in m.weights]}


def program_sequential_weights_before_build(tf):
    m = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    return {"weights": len(m.weights), "built": m.built}


def program_sequential_input_shape_kwarg(tf):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,)), tf.keras.layers.Dense(1)])
    return {"built": m.built, "in": tuple(m.input_shape), "out": tuple(m.output_shape),
            "n_layers": len(m.layers), "params": m.count_params()}


def program_sequential_pop_empty(tf):
    m = tf.keras.Sequential()
    m.pop()


def program_layer_call_on_inputs_records_history(tf):
    x = tf.keras.Input((3,), name="inp")
    d = tf.keras.layers.Dense(2, name="d")
    y = d(x)
    return {"in_shape": tuple(d.input.shape), "out_shape": tuple(d.output.shape),
            "kt_shape": tuple(y.shape), "dtype": y.dtype if isinstance(y.dtype, str) else y.dtype.name,
            "x_name": x.name}


def program_trainable_weights_order_and_freeze(tf):
    x = tf.keras.Input((3,))
    bn = tf.keras.layers.BatchNormalization(name="bn")
    h = bn(tf.keras.layers.Dense(2, name="d")(x))
    m = tf.keras.Model(x, h)
    names0 = (_names(m.trainable_weights), _names(m.non_trainable_weights))
    m.get_layer("d").trainable = False
    return {"t0": names0[0], "nt0": names0[1], "t1": _names(m.trainable_weights),
            "nt1": _names(m.non_trainable_weights), "all": _names(m.weights)}


def program_model_as_layer_in_sequential(tf):
    inner = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3)], name="inner")
    outer = tf.keras.Sequential([tf.keras.Input((2,)), inner, tf.keras.layers.Dense(1)], name="outer")
    set_weights(outer)
    return {"layers": [l.name for l in outer.layers], "out": outer(tf.ones((2, 2))),
            "params": outer.count_params()}


def program_functional_call_with_wrong_shape(tf):
    x = tf.keras.Input((3,))
    m = tf.keras.Model(x, tf.keras.layers.Dense(1)(x))
    m(tf.ones((2, 5)))


def program_functional_list_vs_single_output(tf):
    x = tf.keras.Input((2,))
    m1 = tf.keras.Model(x, [tf.keras.layers.Dense(1)(x)])
    m2 = tf.keras.Model(x, tf.keras.layers.Dense(1)(x))
    r1 = m1(tf.ones((1, 2)))
    r2 = m2(tf.ones((1, 2)))
    return {"t1": isinstance(r1, list), "t2": isinstance(r2, list),
            "o1": len(m1.outputs), "o2": len(m2.outputs)}


def program_concatenate_axes_and_merge_layers(tf):
    a = tf.constant([[1.0, 2.0]])
    b = tf.constant([[3.0, 5.0]])
    L = tf.keras.layers
    return {"cat": L.Concatenate(axis=0)([a, b]), "avg": L.Average()([a, b]), "max": L.Maximum()([a, b]),
            "min": L.Minimum()([a, b]), "mul": L.Multiply()([a, b]),
            "dot": L.Dot(axes=1)([a, b]), "dotn": L.Dot(axes=1, normalize=True)([a, b])}


def program_input_dtype_and_sparse_flags(tf):
    x = tf.keras.Input((3,), dtype="int32", name="ids")
    y = tf.keras.Input(shape=(None,), batch_size=4)
    return {"x": x.dtype if isinstance(x.dtype, str) else x.dtype.name, "xs": tuple(x.shape),
            "ys": tuple(y.shape), "name": x.name}

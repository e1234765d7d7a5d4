"""Keras 3 API corners measured against TF 2.21 + Keras 3: KerasTensor shapes are tuples and
dtypes strings, a variable's `.value` is a property, keras.ops calls in a functional model are
operations (not layers), concatenate promotes mixed dtypes, compile(jit_compile=...)."""
import numpy as np

from _cells import error_name, printed


def _ops_model(tf):
    keras = tf.keras
    x = keras.Input((3,), name="features")
    h = keras.layers.Dense(4, name="hidden")(x)
    h = keras.ops.relu(h) * 2.0
    h = keras.ops.concatenate([h, x], axis=-1)
    h = h[:, 1:] - 1.0
    out = keras.layers.Dense(1, name="out")(h)
    return keras.Model(x, out)


def program_keras_tensor_shape_dtype(tf):
    x = tf.keras.Input((3,))
    y = tf.keras.layers.Dense(2, name="d")(x)
    z = tf.keras.Input((2, 5), batch_size=4, dtype="int32")
    return {"shape": x.shape, "shape_type": type(x.shape).__name__, "dtype": x.dtype,
            "dtype_type": type(x.dtype).__name__, "ndim": x.ndim, "y_shape": y.shape,
            "z": [z.shape, z.dtype, z.ndim], "is_tuple": isinstance(y.shape, tuple),
            "equals": x.shape == (None, 3)}


def program_model_and_layer_shapes(tf):
    x = tf.keras.Input((3,))
    dense = tf.keras.layers.Dense(2, name="d")
    y = dense(x)
    m = tf.keras.Model(x, y)
    a, b = tf.keras.Input((2,)), tf.keras.Input((4,))
    merged = tf.keras.Model([a, b], [tf.keras.layers.Concatenate()([a, b]), tf.keras.layers.Dense(1)(b)])
    return {"input_shape": m.input_shape, "output_shape": m.output_shape,
            "layer_output": dense.output.shape, "layer_input": dense.input.shape,
            "inputs": [t.shape for t in m.inputs], "outputs": [t.shape for t in m.outputs],
            "multi_in": merged.input_shape, "multi_out": merged.output_shape}


def program_variable_value_property(tf):
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones", name="dense")
    dense.build((None, 3))
    k = dense.kernel
    k.assign(tf.reshape(tf.range(6, dtype="float32"), (3, 2)))
    return {"value": k.value, "value_sum": tf.reduce_sum(k.value), "plus": k.value + 1.0,
            "callable": callable(k.value), "numpy": k.numpy(), "ndim": k.ndim,
            "dtype": k.dtype, "name": k.name, "path": k.path, "trainable": k.trainable,
            "call_error": error_name(lambda: k.value())}


def program_variable_trainable_setter(tf):
    dense = tf.keras.layers.Dense(2, name="dense")
    dense.build((None, 3))
    dense.kernel.trainable = False
    x = tf.keras.Input((3,))
    m = tf.keras.Model(x, dense(x))
    return {"trainable": [w.path for w in dense.trainable_weights],
            "non_trainable": [w.path for w in dense.non_trainable_weights],
            "model_trainable": [w.path for w in m.trainable_weights], "count": m.count_params()}


def program_sequential_duplicate_names(tf):
    # the auto-named Dense is "dense" too (a user's name takes no number): Keras 3 refuses the pair
    tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="dense"), tf.keras.layers.Dense(1)])
    return {}


def program_weights_order_and_names(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="first"),
                             tf.keras.layers.BatchNormalization(name="bn"), tf.keras.layers.Dense(1)])
    return {"weights": [[w.name, w.path, list(w.shape)] for w in m.weights],
            "trainable": [w.path for w in m.trainable_weights],
            "non_trainable": [w.path for w in m.non_trainable_weights],
            "layer_params": [layer.count_params() for layer in m.layers], "total": m.count_params(),
            "get_layer": m.get_layer("bn").name, "by_index": m.get_layer(index=0).name}


def program_ops_are_operations_not_layers(tf):
    m = _ops_model(tf)
    return {"layers": [layer.name for layer in m.layers],
            "operations": [[op.name, type(op).__name__] for op in m.operations],
            "weights": [w.path for w in m.weights],
            "get_op_layer": error_name(lambda: m.get_layer("relu")),
            "values": m(np.arange(6, dtype="float32").reshape(2, 3) / 6.0).shape}


def program_ops_model_summary(tf):
    m = _ops_model(tf)
    lines = []
    m.summary(print_fn=lambda line, **kw: lines.append(line))
    return {"summary": "\n".join(lines).splitlines()}


def program_operator_names(tf):
    x = tf.keras.Input((3,))
    outs = [x + 1, 1 + x, x - 1, 2 - x, x * 2, x / 2, x // 2, x % 2, x ** 2, x < 1, x >= 1,
            -x, abs(x), x[:, 0], tf.keras.ops.sum(x, axis=1), tf.keras.ops.expand_dims(x, 1)]
    m = tf.keras.Model(x, outs)
    return {"names": sorted(op.name for op in m.operations), "layers": [layer.name for layer in m.layers]}


def program_ops_concatenate_promotes(tf):
    cat = tf.keras.ops.concatenate
    f32, i64 = tf.ones((2, 2)), tf.constant([[3], [4]], dtype="int64")
    pairs = {"f32_i64": (f32, i64), "i64_f32": (i64, f32), "f32_i32": (f32, tf.ones((2, 1), dtype="int32")),
             "i32_i64": (tf.ones((2, 2), dtype="int32"), i64), "f16_f32": (tf.ones((2, 2), dtype="float16"), f32),
             "bool_f32": (tf.ones((2, 1), dtype="bool"), f32), "np": (np.ones((2, 2), "float32"), np.ones((2, 1), "int64"))}
    out = {k: cat(list(v), axis=-1) for k, v in pairs.items()}
    out["stack"] = tf.keras.ops.stack([tf.ones((2,)), tf.constant([1, 2], dtype="int64")])
    out["three"] = cat([tf.ones((1, 1), "int8"), tf.ones((1, 1), "uint8"), tf.ones((1, 1), "int16")], axis=-1)
    return out


def program_concatenate_layer_promotes(tf):
    layer = tf.keras.layers.Concatenate()
    lookup = tf.keras.layers.StringLookup(vocabulary=["a", "b"], output_mode="one_hot")
    eager = layer([tf.ones((2, 2)), tf.constant([[3], [4]], dtype="int64")])
    a, b = tf.keras.Input((2,)), tf.keras.Input((1,), dtype="int64")
    sym = tf.keras.layers.Concatenate()([a, b])
    m = tf.keras.Model([a, b], sym)
    run = m([np.ones((2, 2), "float32"), np.array([[5], [6]], "int64")])
    hot = lookup(tf.constant(["a", "b"]))
    mixed = tf.keras.layers.Concatenate()([tf.ones((2, 1)), hot])
    return {"eager": eager, "sym": [sym.dtype, sym.shape], "run": run, "hot": hot.dtype, "mixed": mixed}


def program_compile_jit_compile(tf):
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    before = m.jit_compile
    m.compile(optimizer="sgd", loss="mse")
    auto = m.jit_compile
    m.compile(optimizer="sgd", loss="mse", jit_compile=True)
    forced = m.jit_compile
    m.compile(optimizer="sgd", loss="mse", jit_compile=False)
    off = m.jit_compile
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m.compile(optimizer="sgd", loss="mse", jit_compile=True, run_eagerly=True)
    eager = m.jit_compile
    return {"before": before, "auto": auto, "forced": forced, "off": off, "eager": eager,
            "warned": any("jit_compile" in str(w.message) for w in caught),
            "config": m.get_compile_config()["jit_compile"]}


def program_summary_prints(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="dense")], name="seq")
    _, lines = printed(m.summary)
    return {"lines": lines}


def program_count_params_and_input_spec(tf):
    keras = tf.keras
    unbuilt = error_name(lambda: keras.layers.Dense(2).count_params())
    seq_unbuilt = error_name(lambda: keras.Sequential([keras.layers.Dense(1)]).count_params())
    dense = keras.layers.Dense(2)
    dense(np.ones((1, 3), "float32"))
    return {"unbuilt": unbuilt, "sequential_unbuilt": seq_unbuilt, "dropout": keras.layers.Dropout(0.5).count_params(),
            "built": dense.count_params(), "spec": str(dense.input_spec),
            "wrong_last_dim": error_name(lambda: dense(np.ones((1, 4), "float32"))),
            "rank1": error_name(lambda: dense(np.ones((3,), "float32"))),
            "rank3": dense(np.ones((2, 5, 3), "float32")).shape}

"""Keras 3 gives the dtype of a variable and of a KerasTensor as its name, a str; a layer's
dtype / compute_dtype / variable_dtype likewise; tf.Variable keeps tf.DType; every dtype
argument takes the names.  keras.ops on KerasTensors give KerasTensors (issue #11)."""


def _facts(tf, d):
    return {"str": str(d), "repr": repr(d), "is_str": isinstance(d, str), "eq_name": d == "float32",
            "eq_dtype": d == tf.float32, "dtype_eq": tf.float32 == d, "hash": hash(d) == hash("float32"),
            "as_dtype": tf.as_dtype(d), "key": {"float32": 1}.get(d)}


def program_layer_weight_dtypes(tf):
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    return {"kernel": _facts(tf, layer.weights[0].dtype), "bias": _facts(tf, layer.bias.dtype),
            "layer": _facts(tf, layer.dtype), "compute": _facts(tf, layer.compute_dtype),
            "variable": _facts(tf, layer.variable_dtype), "keras_variable": _facts(tf, tf.keras.Variable(1.0).dtype)}


def program_keras_tensor_dtypes(tf):
    inp = tf.keras.Input((3,))
    model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(inp))
    ints = tf.keras.Input((2,), dtype="int32")
    longs = tf.keras.Input((2,), dtype=tf.int64)
    return {"input": _facts(tf, inp.dtype), "model_in": _facts(tf, model.inputs[0].dtype),
            "model_out": _facts(tf, model.outputs[0].dtype), "ints": [str(ints.dtype), repr(ints.dtype)],
            "longs": [str(longs.dtype), isinstance(longs.dtype, str), longs.dtype == tf.int64]}


def program_tf_variable_keeps_dtype_objects(tf):
    v = tf.Variable(1.0)
    return {"str": str(v.dtype), "repr": repr(v.dtype), "is_str": isinstance(v.dtype, str), "dtype": v.dtype}


def program_names_work_as_dtype_arguments(tf):
    layer = tf.keras.layers.Dense(2, dtype="float64")
    layer.build((None, 3))
    inp = tf.keras.Input((3,), dtype="float16")
    x = tf.constant([1, 2])
    return {"cast": tf.cast(x, layer.kernel.dtype), "zeros": tf.zeros([2], dtype=layer.kernel.dtype),
            "constant": tf.constant(1, dtype=inp.dtype), "ones": tf.ones([1], inp.dtype),
            "convert": tf.convert_to_tensor(layer.kernel).dtype, "numpy": str(layer.kernel.numpy().dtype),
            "variable": tf.Variable(2, dtype=layer.kernel.dtype), "keras_cast": tf.keras.ops.cast(x, inp.dtype)}


def program_mixed_precision_dtypes(tf):
    layer = tf.keras.layers.Dense(2, dtype="mixed_float16")
    layer.build((None, 3))
    out = layer(tf.ones([1, 3]))
    return {"kernel": str(layer.kernel.dtype), "compute": layer.compute_dtype, "variable": layer.variable_dtype,
            "out": out.dtype, "policy": repr(layer.dtype_policy)}


def program_keras_ops_on_keras_tensors(tf):
    ops = tf.keras.ops
    inp = tf.keras.Input((3,))
    a = ops.add(inp, 1.0)
    b = ops.cast(a, "int32")
    c = ops.concatenate([inp, inp * 2.0], axis=-1)
    d = ops.sum(c, axis=1)
    e = ops.mean(inp, axis=-1, keepdims=True)
    f = ops.where(ops.greater(inp, 1.5), inp, ops.zeros_like(inp))
    kinds = [[type(t).__name__, tuple(t.shape), str(t.dtype)] for t in (a, b, c, d, e, f)]
    model = tf.keras.Model(inp, [a, b, d, e, f])
    return {"kinds": kinds, "out": model(tf.constant([[1.0, 2.0, 3.0]])),
            "eager": ops.add(tf.constant(1.0), 2.0).dtype}

"""Keras 3 model and variable details: KerasTensor names (keras_tensor, keras_tensor_1, ...;
keras.Input(name=) keeps its name), no model.input_names, output_names from the output layers,
count_params of layers before and after they are built (Keras builds the stateless ones at
init), keras.Variable.assign* returning the new value, fit / predict refusing NumPy object and
string arrays."""
import numpy as np


def _outcome(call):
    try:
        return {"value": call()}
    except (AttributeError, ValueError, TypeError) as e:
        return {"error": type(e).__name__}


def program_keras_tensor_names(tf):
    keras = tf.keras
    a, b = keras.Input((3,), name="a"), keras.Input((3,))
    d = keras.layers.Dense(2)(a)
    e = keras.layers.Dense(2, name="named")(b)
    s = keras.layers.Add()([d, e])
    op = keras.ops.multiply(s, 2.0)
    m = keras.Model([a, b], [keras.layers.Flatten()(s), op])
    return {"names": [t.name for t in (a, b, d, e, s, op)], "inputs": [t.name for t in m.inputs],
            "outputs": [t.name for t in m.outputs], "output_names": m.output_names,
            "input_names": _outcome(lambda: m.input_names)}


def program_dict_inputs_by_keras_tensor_name(tf):
    keras = tf.keras
    a, b = keras.Input((2,), name="left"), keras.Input((2,), name="right")
    m = keras.Model([a, b], keras.layers.Subtract()([a, b]))
    return {"y": m({"right": np.ones((1, 2), "float32"), "left": np.full((1, 2), 3.0, "float32")})}


def program_count_params_built_or_not(tf):
    L = tf.keras.layers
    makers = {"Flatten": L.Flatten, "Add": L.Add, "Concatenate": L.Concatenate, "Dropout": lambda: L.Dropout(0.5),
              "Activation": lambda: L.Activation("relu"), "ReLU": L.ReLU, "MaxPooling2D": L.MaxPooling2D,
              "GlobalAveragePooling1D": L.GlobalAveragePooling1D, "Reshape": lambda: L.Reshape((2,)),
              "Masking": L.Masking, "Identity": L.Identity, "Dense": lambda: L.Dense(2), "Rescaling":
              lambda: L.Rescaling(2.0), "SpatialDropout1D": lambda: L.SpatialDropout1D(0.1),
              "UnitNormalization": L.UnitNormalization, "GaussianNoise": lambda: L.GaussianNoise(0.1)}
    out = {}
    for name, make in makers.items():
        layer = make()
        out[name] = {"built": layer.built, "count": _outcome(layer.count_params)}
    flat = L.Flatten()
    flat(np.ones((1, 2, 2), "float32"))
    add = L.Add()
    add.build([(None, 2), (None, 2)])
    out["after"] = [flat.built, flat.count_params(), add.built, add.count_params()]

    class Custom(L.Layer):
        def call(self, x):
            return x

    out["custom"] = {"built": Custom().built, "count": _outcome(Custom().count_params)}
    return out


def program_variable_assign_returns_value(tf):
    v = tf.keras.Variable(np.ones(2, "float32"))
    r1 = v.assign([2.0, 3.0])
    r2 = v.assign_add([1.0, 1.0])
    r3 = v.assign_sub(np.array([0.5, 0.5], "float32"))
    return {"types": [type(r).__name__ == type(tf.constant(0.0)).__name__ for r in (r1, r2, r3)],
            "values": [r1, r2, r3], "final": v.numpy()}


def program_fit_refuses_object_arrays(tf):
    keras = tf.keras
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    x = np.ones((2, 2), "float32")
    return {"fit_x": _outcome(lambda: m.fit(np.array(x, dtype=object), np.zeros((2, 1)), verbose=0)),
            "fit_y": _outcome(lambda: m.fit(x, np.zeros((2, 1), dtype=object), verbose=0)),
            "ragged": _outcome(lambda: m.fit(np.array([np.ones(2), np.ones(1)], dtype=object), np.zeros((2, 1)),
                                             verbose=0)),
            "predict": _outcome(lambda: m.predict(np.array(x, dtype=object), verbose=0)),
            "evaluate": _outcome(lambda: m.evaluate(np.array(x, dtype=object), np.zeros((2, 1)), verbose=0))}


def program_fit_refuses_string_arrays(tf):
    keras = tf.keras
    tv = keras.layers.TextVectorization(vocabulary=["a", "b"], output_mode="multi_hot")
    inp = keras.Input((1,), dtype="string")
    m = keras.Model(inp, keras.layers.Dense(1)(tv(inp)))
    m.compile("sgd", "mse")
    return {"fit": _outcome(lambda: m.fit(np.array([["a"], ["b"]]), np.zeros((2, 1)), verbose=0)),
            "predict": _outcome(lambda: m.predict(np.array([["a"], ["b"]], dtype=object), verbose=0))}
